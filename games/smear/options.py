"""Match options (RULES §3.9): normalisation of the API's snake_case options, and the pack.

`normalize_options` is the only entry point that sees raw client input; everything after it works on
the frozen `Options` built from its output.
"""

from __future__ import annotations

from dataclasses import dataclass

from games import cards
from games.engine import OptionDict
from games.errors import OptionError
from games.options import OptionRecord, boolean, choice, whole_number

RANK_ORDER = "AKQJT987"  # RULES §3.1: A > K > Q > J > T > 9 > 8 > 7 in every suit, trumps included
GAME_VALUE = {"A": 4, "K": 3, "Q": 2, "J": 1, "T": 10, "9": 0, "8": 0, "7": 0}  # 80 in the pack
N_SEATS = 4
HAND_SIZE = 6
SIDES = ((0, 2), (1, 3))  # RULES §3.1: partners sit opposite

CHOICES = {
    "all_pass": ("redeal_same_dealer", "stick_dealer", "pass_deal"),
    "high_low_rule": ("ace_seven", "highest_lowest_in_play"),
    "game_tie": ("none", "non_bidders", "bidders"),
    "both_reach": ("higher_score_then_bidder", "bidder_wins"),
}
BOOLEANS = ("discards_count_for_high_low_jack", "win_only_on_successful_bid", "cap_non_bidder_at_15")
# match_target's bound bounds a match's length: bot-only matches must not hold the workers for hours.
LIMITS = {"widow_size": (0, 3), "match_target": (1, 100)}


@dataclass(frozen=True)
class Options(OptionRecord):
    widow_size: int = 0
    all_pass: str = "redeal_same_dealer"
    high_low_rule: str = "ace_seven"
    game_tie: str = "none"
    discards_count_for_high_low_jack: bool = False
    match_target: int = 15
    both_reach: str = "higher_score_then_bidder"
    win_only_on_successful_bid: bool = False
    cap_non_bidder_at_15: bool = False


OPTION_NAMES = Options.names() | {"first_dealer"}


def normalize_options(options: OptionDict | None, n_seats: int) -> OptionDict:
    """The options with defaults filled in, or OptionError(field, message) for the first bad one."""
    raw = dict(options or {})
    out = Options().as_dict()
    for name, value in raw.items():
        if name not in OPTION_NAMES:
            raise OptionError(name, f"unknown option {name!r} for smear")
        out[name] = _checked(name, value, n_seats)
    return out


def _checked(name: str, value: object, n_seats: int) -> object:
    if name in CHOICES:
        return choice(name, value, CHOICES[name])
    if name in BOOLEANS:
        return boolean(name, value)
    return whole_number(name, value, *LIMITS.get(name, (0, n_seats - 1)))  # first_dealer: a seat


def deck(options: OptionDict) -> list[str]:
    """The 32-card pack (RULES §3.1)."""
    return cards.pack(RANK_ORDER)


def seat_counts(options: OptionDict) -> set[int]:
    return {N_SEATS}


def game_value(card: str) -> int:
    return GAME_VALUE[cards.rank_of(card)]
