"""Smear's events: the data record of each event type, and `EVENTS`, their registry (games/events.py says
how they are checked; the package docstring says who sees what of them)."""

# No `from __future__ import annotations`: keeps event data modules alike (see games/events.py).
from typing import TypedDict

from games.events import PLAYED, ROUND_ENDED, CardPlay, EventType, SeatData, Side, registry


class DealtData(TypedDict):
    round: int
    dealer: int
    hands: list[list[str]]  # per seat
    undealt: list[str]  # top first: the widow is taken from the top


class BidData(TypedDict):
    seat: int
    value: int  # 2, 3 or 4


class AuctionWonData(TypedDict):
    bidder: int
    bid: int


class ThrownInData(TypedDict):
    dealer: int  # of the thrown-in deal
    rule: str  # the all_pass option that applied
    next_dealer: int


class WidowTakenData(TypedDict):
    seat: int
    cards: list[str]  # the top of the undealt pile


class DiscardedData(TypedDict):
    seat: int
    cards: list[str]
    trump: str  # named, hidden until the first lead


class TrickTakenData(TypedDict):
    winner: int
    cards: list[CardPlay]
    game_count: int  # the trick's cards' Game values


class PointData(TypedDict):
    point: str  # high, low, jack or game
    team: int | None  # None: nobody got it
    seat: int | None  # the player credited, where the rule credits one
    card: str | None
    why: str


class ResultData(TypedDict):
    """A deal's result (`dump_result`): `round_scored` without the standing, and the view's `last_result`."""

    round: int
    dealer: int
    bidder: int
    bid: int
    bidding_team: int
    trump: str
    points: list[PointData]
    points_won: list[int]  # this and the other lists: per team
    game_counts: list[int]
    made: bool
    deltas: list[int]
    capped: list[bool]
    scores: list[int]
    next_dealer: int


class RoundScoredData(ResultData):
    standing: list[Side]


class MatchEndedData(TypedDict):
    winner: list[int]
    standing: list[Side]
    reason: str


DEALT = EventType("dealt", DealtData)
BID = EventType("bid", BidData)
PASSED = EventType("passed", SeatData)
AUCTION_WON = EventType("auction_won", AuctionWonData)
THROWN_IN = EventType("thrown_in", ThrownInData)
WIDOW_TAKEN = EventType("widow_taken", WidowTakenData)
DISCARDED = EventType("discarded", DiscardedData)
TRICK_TAKEN = EventType("trick_taken", TrickTakenData)
ROUND_SCORED = EventType("round_scored", RoundScoredData)
MATCH_ENDED = EventType("match_ended", MatchEndedData)

EVENTS = registry(
    DEALT,
    BID,
    PASSED,
    AUCTION_WON,
    THROWN_IN,
    WIDOW_TAKEN,
    DISCARDED,
    PLAYED,
    TRICK_TAKEN,
    ROUND_ENDED,
    ROUND_SCORED,
    MATCH_ENDED,
)
