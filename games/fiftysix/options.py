"""Match options (RULES §1.10), the packs (§1.2) and the team formats (§1.1).

`normalize_options` is the only entry point that sees raw client input; everything after it works on
the frozen `Options` built from its output. Option names and word values are the API's snake_case
forms of RULES' names (`teamFormat: twoSides` -> `team_format: two_sides`).
"""

from __future__ import annotations

from dataclasses import dataclass

from games import cards
from games.engine import OptionDict
from games.errors import OptionError
from games.options import OptionRecord, boolean, choice, whole_number

RANK_ORDER = "J9ATKQ87"  # RULES §1.2: J > 9 > A > T > K > Q (> 8 > 7 with 8 players), trumps alike
CARD_POINTS = {"J": 3, "9": 2, "A": 1, "T": 1, "K": 0, "Q": 0, "8": 0, "7": 0}
PLAYER_COUNTS = (4, 6, 8)
BATCH = 4  # RULES §1.4: the whole pack in batches of four, in play order from dealer+1

CHOICES = {
    "team_format": ("pairs", "two_sides"),
    "double_scoring": ("multiply", "additive"),
    "all_pass_contract": ("28nt_non_dealer", "redeal"),
}
BOOLEANS = ("pass_is_final", "first_bidder_must_bid")
MAX_TABLES = 50  # a bound on a match's length: bot-only matches must not hold the workers for hours


@dataclass(frozen=True)
class Options(OptionRecord):
    players: int = 4
    team_format: str = "pairs"
    starting_tables: int = 12
    double_scoring: str = "multiply"
    pass_is_final: bool = False
    first_bidder_must_bid: bool = False
    all_pass_contract: str = "28nt_non_dealer"


OPTION_NAMES = Options.names() | {"first_dealer"}


def normalize_options(options: OptionDict | None, n_seats: int) -> OptionDict:
    """The options with defaults filled in, or OptionError(field, message) for the first bad one.

    `players` is RULES' required option; over the API the number of seats already says it, so it is
    filled in from the seats and, when given, must agree with them.
    """
    raw = dict(options or {})
    for name in raw:
        if name not in OPTION_NAMES:
            raise OptionError(name, f"unknown option {name!r} for fifty-six")
    players = raw.pop("players", n_seats)
    if players not in PLAYER_COUNTS or isinstance(players, bool):
        raise OptionError("players", "fifty-six is played by 4, 6 or 8 players")
    if players != n_seats:
        raise OptionError("players", f"players is {players} but {n_seats} seats were given")
    out = Options(players=players).as_dict()
    for name, value in raw.items():
        out[name] = _checked(name, value, n_seats)
    return out


def _checked(name: str, value: object, n_seats: int) -> object:
    if name in CHOICES:
        return choice(name, value, CHOICES[name])
    if name in BOOLEANS:
        return boolean(name, value)
    low, high = {"starting_tables": (1, MAX_TABLES), "first_dealer": (0, n_seats - 1)}[name]
    return whole_number(name, value, low, high)


def ranks_for(active_players: int) -> str:
    """RULES §1.2: 8 and 7 join the pack only when eight players are at the table."""
    return RANK_ORDER if active_players == 8 else RANK_ORDER[:6]


def pack_for(active_players: int) -> list[str]:
    """Two identical decks of the ranks in use, unshuffled (RULES §1.2)."""
    return cards.pack(ranks_for(active_players)) * 2


def deck(options: OptionDict) -> list[str]:
    """The pack of the match's first deal (64 cards with 8 players, 48 otherwise)."""
    return pack_for(options.get("players", 4))


def packs(options: OptionDict) -> list[list[str]]:
    """Every pack a deal of the match can use, the first deal's first. Eliminations (RULES §1.9) take
    eight players in pairs down to six and four, and the pack from 64 cards to 48; with two sides the
    first elimination ends the match."""
    players = options.get("players", 4)
    counts = range(players, 3, -2) if options.get("team_format", "pairs") == "pairs" else (players,)
    found: list[list[str]] = []
    for pack in map(pack_for, counts):
        if pack not in found:
            found.append(pack)
    return found


def seat_counts(options: OptionDict) -> set[int]:
    players = options.get("players")
    return {players} if players in PLAYER_COUNTS else set(PLAYER_COUNTS)


def teams_for(players: int, team_format: str) -> tuple[tuple[int, ...], ...]:
    """RULES §1.1: pairs -> team of s is s mod N/2; two_sides -> s mod 2. Team order = first member."""
    count = players // 2 if team_format == "pairs" else 2
    return tuple(tuple(s for s in range(players) if s % count == t) for t in range(count))
