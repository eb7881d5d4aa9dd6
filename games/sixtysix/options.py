"""Match options (RULES §2.1, §2.12): normalisation of the API's snake_case options, and the variants.

`normalize_options` is the only entry point that sees raw client input; everything after it works on
the frozen `Options` built from its output.

| option                            | values                                                  | default |
|-----------------------------------|---------------------------------------------------------|---------|
| profile                           | sixty_six, schnapsen (sets the defaults marked S below)  | sixty_six |
| variant                           | 2p24, 2p20 (S), 2p32, 3p, 4p                             | by seats |
| three_player_mode                 | talon_with_dead_cards, pagat_no_talon (3p only)          | talon_with_dead_cards |
| match_target                      | 1..MAX_MATCH_TARGET (50)                                 | 7 |
| dealer_rule                       | alternate, winner_deals, loser_deals                     | alternate |
| close_before_draw                 | bool (S: false)                                          | true |
| meld_after_close                  | bool (S: true)                                           | false |
| false_declaration                 | two_or_three, mirror                                     | two_or_three |
| last_trick_rule                   | plus10, last_trick_wins_one_point (S)                    | plus10 |
| closed_scoring                    | final_totals, at_closing (S)                             | final_totals |
| non_closer_may_exchange_at_close  | bool                                                     | false |
| min_stock_to_close                | 0..stock size (S: 4)                                     | 0 |
| min_stock_for_exchange            | 0..stock size                                            | 0 |
| schneider_threshold               | 0..target                                                | 33 (51 for 4p) |
| draw_bonus                        | bool                                                     | false |
| first_dealer                      | a seat                                                   | random |

`profile: schnapsen` is the full Schnapsen rule set of RULES §2.12 (2p20 + meld_after_close +
last_trick_wins_one_point + at_closing + min_stock_to_close=4 + close_before_draw=false). It only sets
defaults: any option given explicitly beside it still wins.

Without `variant`, the number of seats chooses it: 2p24 for two (2p20 with the schnapsen profile), 3p for
three, 4p for four. A variant for another number of players is refused naming the ones that fit.
"""

from __future__ import annotations

from dataclasses import dataclass

from games import cards
from games.engine import OptionDict
from games.errors import OptionError
from games.options import OptionRecord, boolean, choice, whole_number

RANK_ORDER = "ATKQJ987"  # RULES §2.1: A > T > K > Q > J > 9 > 8 > 7
CARD_POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
MAX_MATCH_TARGET = 50  # a bound on a match's length: bot-only matches must not hold the workers for hours


@dataclass(frozen=True)
class Variant:
    name: str
    players: int
    ranks: str  # ranks in the pack, highest first
    batches: tuple[int, ...]  # cards per seat in each dealing round (RULES §2.2)
    exchange_rank: str  # lowest trump of the pack (RULES §2.1)
    target: int
    half: int
    copies: int = 1  # 2 for the two-deck 4p game
    dead: int = 0  # cards set aside face down after the hands (3p)
    talon: bool = True  # False: no stock at all (pagat's 3p); strict play from the first trick
    turned_at: int | None = None  # without a talon: deck index of the card dealt face up that sets trump
    partnerships: bool = False  # 4p: sides {0,2} and {1,3}

    @property
    def pack_size(self) -> int:
        return len(self.ranks) * 4 * self.copies


VARIANTS = {
    "2p24": Variant("2p24", 2, "ATKQJ9", (3, 3), "9", 66, 33),
    "2p20": Variant("2p20", 2, "ATKQJ", (3, 2), "J", 66, 33),
    "2p32": Variant("2p32", 2, "ATKQJ987", (3, 3), "7", 66, 33),
    "3p": Variant("3p", 3, "ATKQJ987", (3, 4), "7", 66, 33, dead=2),
    "4p": Variant("4p", 4, "ATKQJ9", (3, 4), "9", 101, 51, copies=2, partnerships=True),
}
# three_player_mode=pagat_no_talon: 24 cards dealt 3-2-3; the first card of dealer+1's second batch
# (deck[9]: after three batches of 3) is dealt face up into that hand and sets trump.
PAGAT_3P = Variant("3p", 3, "ATKQJ9", (3, 2, 3), "9", 66, 33, talon=False, turned_at=9)

CHOICES = {
    "profile": ("sixty_six", "schnapsen"),
    "three_player_mode": ("talon_with_dead_cards", "pagat_no_talon"),
    "dealer_rule": ("alternate", "winner_deals", "loser_deals"),
    "false_declaration": ("two_or_three", "mirror"),
    "last_trick_rule": ("plus10", "last_trick_wins_one_point"),
    "closed_scoring": ("final_totals", "at_closing"),
}
BOOLEANS = ("close_before_draw", "meld_after_close", "non_closer_may_exchange_at_close", "draw_bonus")
COUNTS = ("min_stock_to_close", "min_stock_for_exchange")

# What each profile changes in the defaults (RULES §2.12, last paragraph).
PROFILES: dict[str, OptionDict] = {
    "sixty_six": {},
    "schnapsen": {
        "variant": "2p20",
        "meld_after_close": True,
        "last_trick_rule": "last_trick_wins_one_point",
        "closed_scoring": "at_closing",
        "min_stock_to_close": 4,
        "close_before_draw": False,
    },
}


@dataclass(frozen=True)
class Options(OptionRecord):
    variant: str = "2p24"
    profile: str = "sixty_six"
    three_player_mode: str = "talon_with_dead_cards"
    match_target: int = 7
    dealer_rule: str = "alternate"
    close_before_draw: bool = True
    meld_after_close: bool = False
    false_declaration: str = "two_or_three"
    last_trick_rule: str = "plus10"
    closed_scoring: str = "final_totals"
    non_closer_may_exchange_at_close: bool = False
    min_stock_to_close: int = 0
    min_stock_for_exchange: int = 0
    schneider_threshold: int = 33
    draw_bonus: bool = False

    @property
    def spec(self) -> Variant:
        return spec_of(self.variant, self.three_player_mode)


OPTION_NAMES = Options.names() | {"first_dealer"}


def spec_of(variant: str, three_player_mode: str = "talon_with_dead_cards") -> Variant:
    return PAGAT_3P if variant == "3p" and three_player_mode == "pagat_no_talon" else VARIANTS[variant]


def normalize_options(options: OptionDict | None, n_seats: int) -> OptionDict:
    """The options with defaults filled in, or OptionError(field, message) for the first bad one."""
    raw = dict(options or {})
    for name in raw:
        if name not in OPTION_NAMES:
            raise OptionError(name, f"unknown option {name!r}; one of {', '.join(sorted(OPTION_NAMES))}")
    profile = _choice("profile", raw.get("profile", "sixty_six"))
    defaults = dict(PROFILES[profile])
    variant = _variant(raw.get("variant", default_variant(defaults.pop("variant", None), n_seats)), n_seats)
    mode = _choice("three_player_mode", raw.get("three_player_mode", "talon_with_dead_cards"))
    if mode != "talon_with_dead_cards" and variant.name != "3p":
        raise OptionError("three_player_mode", "three_player_mode applies to the 3p variant only")
    spec = spec_of(variant.name, mode)
    out = Options(
        variant=variant.name, profile=profile, three_player_mode=mode, schneider_threshold=spec.half
    ).as_dict()
    # A profile's stock minimum never exceeds the variant's stock (pagat 3p has none).
    defaults = {k: min(v, stock_size(spec)) if k in COUNTS else v for k, v in defaults.items()}
    for name, value in {**defaults, **raw}.items():
        out[name] = _checked(name, value, spec, n_seats)
    return out


def _choice(name: str, value: object) -> str:
    return choice(name, value, CHOICES[name])


# The variant a number of seats plays when none is given.
SEAT_DEFAULTS = {2: "2p24", 3: "3p", 4: "4p"}


def default_variant(profile_variant: str | None, n_seats: int) -> str:
    """The variant when none is given: the profile's (schnapsen: 2p20) if it is for this many players,
    else the one for the number of seats."""
    if profile_variant is not None and VARIANTS[profile_variant].players == n_seats:
        return profile_variant
    if n_seats not in SEAT_DEFAULTS:
        raise OptionError(
            "seats", f"sixty-six is played by {', '.join(map(str, SEAT_DEFAULTS))} players, not {n_seats}"
        )
    return SEAT_DEFAULTS[n_seats]


def _variant(value: object, n_seats: int) -> Variant:
    if value not in VARIANTS:
        raise OptionError("variant", f"unknown variant {value!r}; one of {', '.join(VARIANTS)}")
    variant = VARIANTS[value]
    if n_seats != variant.players:
        fitting = [name for name, v in VARIANTS.items() if v.players == n_seats]
        valid = (
            f"for {n_seats} players: {', '.join(fitting)}"
            if fitting
            else f"sixty-six is played by {', '.join(map(str, SEAT_DEFAULTS))} players"
        )
        raise OptionError("variant", f"variant {value} is for {variant.players} players, not {n_seats}; {valid}")
    return variant


def _checked(name: str, value: object, spec: Variant, n_seats: int) -> object:
    if name == "variant":
        return spec.name
    if name in CHOICES:
        return _choice(name, value)
    if name in BOOLEANS:
        return boolean(name, value)
    limits = {
        "match_target": (1, MAX_MATCH_TARGET),
        "schneider_threshold": (0, spec.target),
        "first_dealer": (0, n_seats - 1),
        **{count: (0, stock_size(spec)) for count in COUNTS},
    }
    return whole_number(name, value, *limits[name])


def stock_size(variant: Variant) -> int:
    """Cards in the stock after the deal, the face-up trump card included (0 without a talon)."""
    if not variant.talon:
        return 0
    return variant.pack_size - variant.players * sum(variant.batches) - variant.dead


def deck(options: OptionDict) -> list[str]:
    """The unshuffled pack of the variant (two copies of each card in 4p)."""
    spec = spec_of(options.get("variant", "2p24"), options.get("three_player_mode", "talon_with_dead_cards"))
    return cards.pack(spec.ranks) * spec.copies


def seat_counts(options: OptionDict) -> set[int]:
    name = options.get("variant", "2p24")
    return {VARIANTS[name].players} if name in VARIANTS else set()
