"""Sixty-Six's events: the data record of each event type, and `EVENTS`, their registry (games/events.py
says how they are checked; the package docstring says who sees what of them)."""

# No `from __future__ import annotations`: NotRequired must be read at run time (see games/events.py).
from typing import NotRequired, TypedDict

from games.events import (
    MATCH_ENDED,
    PLAYED,
    ROUND_ENDED,
    TRICK_TAKEN,
    EventType,
    SeatData,
    Side,
    registry,
)


class DealtData(TypedDict):
    round: int
    dealer: int
    hands: list[list[str]]  # per seat
    dead: NotRequired[list[str]]  # 3p with a talon: the two cards set aside
    trump_card: str  # turned under the stock (pagat 3p: dealt face up into dealer+1's hand)
    stock: list[str]  # top first, without the trump card; [] without a talon


class Draw(TypedDict):
    seat: int
    card: str
    face_up: bool  # the face-up trump card, drawn last


class DrewData(TypedDict):
    draws: list[Draw]  # the trick winner first


class MeldedData(TypedDict):
    seat: int
    suit: str
    points: int  # 20, or 40 in trumps
    pending: bool  # the side has no trick yet


class ExchangedData(TypedDict):
    seat: int
    gave: str  # the exchange card, now face up
    took: str  # the former face-up card
    at_close: bool  # made for an opponent when the stock was closed


class ClosedData(TypedDict):
    seat: int
    tricks_at_close: list[int]  # per side
    totals_at_close: list[int]  # per side
    stock_size: int


class ResultData(TypedDict):
    """A deal's result (`dump_result`): `round_scored` without the standing, and the view's `last_result`."""

    round: int
    case: str
    reason: str
    declarer: int | None
    closer: int | None
    card_points: list[int]  # this and the other lists: per side
    meld_points: list[int]
    last_trick_points: list[int]
    totals: list[int]
    tricks: list[int]
    game_points: list[int]
    bonus_points: list[int]
    scores: list[int]
    next_dealer: int


class RoundScoredData(ResultData):
    standing: list[Side]


DEALT = EventType("dealt", DealtData)
DREW = EventType("drew", DrewData)
MELDED = EventType("melded", MeldedData)
EXCHANGED = EventType("exchanged", ExchangedData)
CLOSED = EventType("closed", ClosedData)
DECLARED_OUT = EventType("declared_out", SeatData)
ROUND_SCORED = EventType("round_scored", RoundScoredData)

EVENTS = registry(
    DEALT, PLAYED, TRICK_TAKEN, DREW, MELDED, EXCHANGED, CLOSED, DECLARED_OUT, ROUND_ENDED, ROUND_SCORED, MATCH_ENDED
)
