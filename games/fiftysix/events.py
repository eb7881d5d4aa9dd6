"""Fifty-Six's events: the data record of each event type, and `EVENTS`, their registry (games/events.py
says how they are checked; the package docstring says who sees what of them)."""

# No `from __future__ import annotations`: NotRequired must be read at run time (see games/events.py).
from typing import NotRequired, TypedDict

from games.events import MATCH_ENDED, PLAYED, ROUND_ENDED, TRICK_TAKEN, EventType, Side, registry


class DealtData(TypedDict):
    round: int
    dealer: int
    active: list[int]  # the seats dealt in
    hands: list[list[str]]  # per seat; [] for a seat whose team is out


class CalledData(TypedDict):
    seat: int
    call: str  # bid, pass, double or redouble
    value: NotRequired[int]  # this and the next two: bids only
    suit: NotRequired[str]  # S H D C or NT
    convention: NotRequired[str | None]  # how the bid was said to the partner, if it was


class ContractData(TypedDict):
    declarer: int
    value: int
    suit: str
    doubled: bool
    redoubled: bool
    level: str  # none, doubled or redoubled
    all_pass: bool  # nobody bid: 28 NT for the team of dealer+1


class AuctionEndedData(TypedDict):
    contract: ContractData


class ThrownInData(TypedDict):
    dealer: int  # who deals again


class PaymentData(TypedDict):
    payer: int  # team indexes
    payee: int
    owed: int
    paid: int


class ResultData(TypedDict):
    """A deal's result (`dump_result`): `round_scored` without the standing, and the view's `last_result`."""

    round: int
    contract: ContractData
    contract_team: int
    made: bool
    card_points: list[int]  # per team
    base: int
    multiplier: str
    per_team: int
    payments: list[PaymentData]
    tables: list[int]  # per team
    eliminated: list[int]  # teams
    reason: str
    next_dealer: int


class RoundScoredData(ResultData):
    standing: list[Side]


DEALT = EventType("dealt", DealtData)
CALLED = EventType("called", CalledData)
AUCTION_ENDED = EventType("auction_ended", AuctionEndedData)
THROWN_IN = EventType("thrown_in", ThrownInData)
ROUND_SCORED = EventType("round_scored", RoundScoredData)

EVENTS = registry(DEALT, CALLED, AUCTION_ENDED, THROWN_IN, PLAYED, TRICK_TAKEN, ROUND_ENDED, ROUND_SCORED, MATCH_ENDED)
