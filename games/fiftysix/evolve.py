"""`evolve(state, event) -> state`: one pure function per event type, folded by replay.

Each applies a fact `decide` has already checked, so none of them validates or raises; they only
move cards and counters with `replace` (games/records.py). Every event but `dealt` comes within a deal:
`assert state.round is not None` says so to the type checker.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from games import cards
from games.events import (
    MATCH_ENDED,
    PLAYED,
    ROUND_ENDED,
    TRICK_TAKEN,
    Event,
    EventData,
    MatchEndedData,
    NoData,
    PlayedData,
    TrickTakenData,
)
from games.fiftysix.events import (
    AUCTION_ENDED,
    CALLED,
    DEALT,
    ROUND_SCORED,
    THROWN_IN,
    AuctionEndedData,
    CalledData,
    DealtData,
    RoundScoredData,
    ThrownInData,
)
from games.fiftysix.options import CARD_POINTS
from games.fiftysix.state import (
    AUCTION,
    AWAIT_DEAL,
    MATCH_OVER,
    PLAY,
    ROUND_OVER,
    Call,
    Round,
    State,
    load_contract,
    load_result,
    next_active,
    with_round,
)
from games.records import replace
from games.tricks import Play, Trick


def without_one(held: tuple[str, ...], card: str) -> tuple[str, ...]:
    """The cards minus one copy of `card` (a hand may hold both copies)."""
    i = held.index(card)
    return held[:i] + held[i + 1 :]


X = TypeVar("X")


def set_at(items: tuple[X, ...], index: int, value: X) -> tuple[X, ...]:
    return items[:index] + (value,) + items[index + 1 :]


def dealt(state: State, data: DealtData) -> State:
    active = tuple(data["active"])
    first = next_active(state, data["dealer"], active)  # RULES §1.5: dealer+1 speaks first
    rnd = Round(
        number=data["round"],
        dealer=data["dealer"],
        active=active,
        hands=tuple(tuple(h) for h in data["hands"]),
        to_play=first,
    )
    # last_result stays: the next deal follows the scoring at once, and players must still see why
    # the tables moved. The next scoring replaces it.
    return replace(state, phase=AUCTION, round=rnd, dealer=data["dealer"], rounds_dealt=data["round"])


def next_caller(state: State, rnd: Round, seat: int) -> int:
    """The next seat to call: in play order, skipping seats out of the auction (pass_is_final)."""
    bidding = tuple(s for s in rnd.active if s not in rnd.passed) or rnd.active
    return next_active(state, seat, bidding)


def called(state: State, data: CalledData) -> State:
    rnd, seat, call = state.round, data["seat"], data["call"]
    assert rnd is not None
    entry = Call(seat, call, data.get("value"), data.get("suit"), data.get("convention"))
    rnd = replace(rnd, calls=rnd.calls + (entry,))
    if call == "bid":  # a new bid cancels any double (RULES §1.5.2)
        rnd = replace(rnd, high_bid=entry, level=0, pass_count=0, last_caller=seat)
    elif call == "double":
        rnd = replace(rnd, level=1, pass_count=0, last_caller=seat)
    elif call == "redouble":
        rnd = replace(rnd, level=2)
    else:
        passed = rnd.passed | {seat} if state.options.pass_is_final else rnd.passed
        rnd = replace(rnd, pass_count=rnd.pass_count + 1, passed=passed)
    return replace(state, round=replace(rnd, to_play=next_caller(state, rnd, seat)))


def auction_ended(state: State, data: AuctionEndedData) -> State:
    rnd = state.round
    assert rnd is not None
    leader = next_active(state, rnd.dealer, rnd.active)  # RULES §1.6: dealer+1 leads, whoever declares
    return replace(
        state, phase=PLAY, round=replace(rnd, contract=load_contract(data["contract"]), leader=leader, to_play=leader)
    )


def thrown_in(state: State, data: ThrownInData) -> State:
    # allPassContract = redeal (RULES §1.11a.3): the same dealer deals again; the round stays visible
    # until then so players can see the passes.
    return replace(state, phase=AWAIT_DEAL, dealer=data["dealer"])


def played(state: State, data: PlayedData) -> State:
    rnd, seat, card = state.round, data["seat"], data["card"]
    assert rnd is not None
    return with_round(
        state,
        hands=set_at(rnd.hands, seat, without_one(rnd.hands[seat], card)),
        trick=rnd.trick + (Play(seat, card),),
        to_play=next_active(state, seat, rnd.active),
    )


def trick_taken(state: State, data: TrickTakenData) -> State:
    rnd, winner = state.round, data["winner"]
    assert rnd is not None and rnd.leader is not None  # the contract's auction named the leader
    trick = Trick(rnd.leader, rnd.trick, winner, sum(CARD_POINTS[cards.rank_of(p.card)] for p in rnd.trick))
    return with_round(state, trick=(), tricks=rnd.tricks + (trick,), leader=winner, to_play=winner)


def round_ended(state: State, data: NoData) -> State:
    return replace(state, phase=ROUND_OVER)


def round_scored(state: State, data: RoundScoredData) -> State:
    result = load_result(data)
    return replace(state, phase=AWAIT_DEAL, tables=result.tables, last_result=result, dealer=result.next_dealer)


def match_ended(state: State, data: MatchEndedData) -> State:
    winner = next(i for i, team in enumerate(state.teams) if list(team) == data["winner"])
    return replace(state, phase=MATCH_OVER, winner=winner)


# event type -> its mutator; `folded_by` has mypy check that the mutator takes that type's data.
MUTATORS: dict[str, Callable[[State, EventData], State]] = dict(
    [
        DEALT.folded_by(dealt),
        CALLED.folded_by(called),
        AUCTION_ENDED.folded_by(auction_ended),
        THROWN_IN.folded_by(thrown_in),
        PLAYED.folded_by(played),
        TRICK_TAKEN.folded_by(trick_taken),
        ROUND_ENDED.folded_by(round_ended),
        ROUND_SCORED.folded_by(round_scored),
        MATCH_ENDED.folded_by(match_ended),
    ]
)


def evolve(state: State, event: Event) -> State:
    return MUTATORS[event["type"]](state, event["data"])
