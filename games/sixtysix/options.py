"""Match options (RULES §2.1, §2.12): normalisation of the API's snake_case options, and the variants.

`normalize_options` is the only entry point that sees raw client input; everything after it works on
the frozen `Options` built from its output.
"""
from __future__ import annotations

from dataclasses import dataclass, fields

from games import cards
from games.errors import OptionError

RANK_ORDER = "ATKQJ987"  # RULES §2.1: A > T > K > Q > J > 9 > 8 > 7
CARD_POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}


@dataclass(frozen=True)
class Variant:
    name: str
    players: int
    ranks: str  # ranks in the pack, highest first
    batches: tuple[int, ...]  # cards per seat in each dealing round (RULES §2.2)
    exchange_rank: str  # lowest trump of the pack (RULES §2.1)
    target: int
    half: int


VARIANTS = {
    "2p24": Variant("2p24", 2, "ATKQJ9", (3, 3), "9", 66, 33),
    "2p20": Variant("2p20", 2, "ATKQJ", (3, 2), "J", 66, 33),
    "2p32": Variant("2p32", 2, "ATKQJ987", (3, 3), "7", 66, 33),
}
# Known to RULES but not playable yet: they only bound the seat count for `seat_counts`.
LATER_VARIANTS = {"3p": 3, "4p": 4}

CHOICES = {
    "dealer_rule": ("alternate", "winner_deals", "loser_deals"),
    "false_declaration": ("two_or_three", "mirror"),
    "last_trick_rule": ("plus10", "last_trick_wins_one_point"),
    "closed_scoring": ("final_totals", "at_closing"),
}
BOOLEANS = ("close_before_draw", "meld_after_close", "non_closer_may_exchange_at_close", "draw_bonus")
COUNTS = ("min_stock_to_close", "min_stock_for_exchange")


@dataclass(frozen=True)
class Options:
    variant: str = "2p24"
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
        return VARIANTS[self.variant]

    def as_dict(self) -> dict:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, data: dict) -> "Options":
        names = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in names})


OPTION_NAMES = {f.name for f in fields(Options)} | {"first_dealer"}


def normalize_options(options: dict | None, n_seats: int) -> dict:
    """The options with defaults filled in, or OptionError(field, message) for the first bad one."""
    raw = dict(options or {})
    for name in raw:
        if name not in OPTION_NAMES:
            raise OptionError(name, f"unknown option {name!r} for sixty-six")
    variant = _variant(raw.get("variant", "2p24"), n_seats)
    out = Options(variant=variant.name, schneider_threshold=variant.half).as_dict()
    for name, value in raw.items():
        out[name] = _checked(name, value, variant, n_seats)
    return out


def _variant(value: object, n_seats: int) -> Variant:
    if value in LATER_VARIANTS:
        raise OptionError("variant", f"variant {value} is not available yet")
    if value not in VARIANTS:
        raise OptionError("variant", f"unknown variant {value!r}; one of {', '.join(VARIANTS)}")
    variant = VARIANTS[value]
    if n_seats != variant.players:
        raise OptionError("variant", f"variant {value} is for {variant.players} players, not {n_seats}")
    return variant


def _checked(name: str, value: object, variant: Variant, n_seats: int) -> object:
    if name == "variant":
        return variant.name
    if name in CHOICES:
        if value not in CHOICES[name]:
            raise OptionError(name, f"{name} must be one of {', '.join(CHOICES[name])}")
        return value
    if name in BOOLEANS:
        if not isinstance(value, bool):
            raise OptionError(name, f"{name} must be true or false")
        return value
    limits = {
        "match_target": (1, 1000),
        "schneider_threshold": (0, variant.target),
        "first_dealer": (0, n_seats - 1),
        **{count: (0, stock_size(variant)) for count in COUNTS},
    }
    low, high = limits[name]
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise OptionError(name, f"{name} must be a whole number from {low} to {high}")
    return value


def stock_size(variant: Variant) -> int:
    """Cards in the stock after the deal, the face-up trump card included."""
    return len(variant.ranks) * 4 - variant.players * sum(variant.batches)


def deck(options: dict) -> list[str]:
    """The unshuffled pack of the variant."""
    return cards.pack(VARIANTS[options.get("variant", "2p24")].ranks)


def seat_counts(options: dict) -> set[int]:
    name = options.get("variant", "2p24")
    if name in LATER_VARIANTS:
        return {LATER_VARIANTS[name]}
    return {VARIANTS[name].players} if name in VARIANTS else set()
