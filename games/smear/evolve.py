"""`evolve(state, event) -> state`: one pure function per event type, folded by replay.

Each applies a fact `decide` has already checked, so none of them validates or raises; they only
move cards and counters with `replace` (games/records.py). Every event but `dealt` comes within a deal:
`assert state.round is not None` says so to the type checker.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import TypeVar

from games import cards
from games.events import PLAYED, ROUND_ENDED, Event, EventData, NoData, PlayedData, SeatData
from games.records import replace
from games.smear.events import (
    AUCTION_WON,
    BID,
    DEALT,
    DISCARDED,
    MATCH_ENDED,
    PASSED,
    ROUND_SCORED,
    THROWN_IN,
    TRICK_TAKEN,
    WIDOW_TAKEN,
    AuctionWonData,
    BidData,
    DealtData,
    DiscardedData,
    MatchEndedData,
    RoundScoredData,
    ThrownInData,
    TrickTakenData,
    WidowTakenData,
)
from games.smear.options import N_SEATS, SIDES
from games.smear.state import (
    AUCTION,
    AWAIT_DEAL,
    DISCARD,
    MATCH_OVER,
    PLAY,
    ROUND_OVER,
    Call,
    Round,
    State,
    Trick,
    load_result,
    with_round,
)
from games.tricks import Play

X = TypeVar("X")


def set_at(items: tuple[X, ...], index: int, value: X) -> tuple[X, ...]:
    return items[:index] + (value,) + items[index + 1 :]


def without(held: tuple[str, ...], gone: Collection[str]) -> tuple[str, ...]:
    return tuple(c for c in held if c not in gone)


def next_seat(seat: int) -> int:
    return (seat + 1) % N_SEATS


def dealt(state: State, data: DealtData) -> State:
    dealer = data["dealer"]
    rnd = Round(
        number=data["round"],
        dealer=dealer,
        hands=tuple(tuple(h) for h in data["hands"]),
        undealt=tuple(data["undealt"]),
        to_play=next_seat(dealer),
    )
    # last_result stays: the next deal follows the scoring at once, and players must still see why
    # the score changed. The next scoring replaces it.
    return replace(state, phase=AUCTION, round=rnd, dealer=dealer, rounds_dealt=data["round"])


def called(state: State, data: SeatData, value: int | None) -> State:
    rnd = state.round
    assert rnd is not None
    return with_round(state, calls=rnd.calls + (Call(data["seat"], value),), to_play=next_seat(data["seat"]))


def bid(state: State, data: BidData) -> State:
    return called(state, data, data["value"])


def passed(state: State, data: SeatData) -> State:
    return called(state, data, None)


def auction_won(state: State, data: AuctionWonData) -> State:
    assert state.round is not None
    bidder = data["bidder"]
    phase = DISCARD if state.options.widow_size else PLAY
    return replace(
        state, phase=phase, round=replace(state.round, bidder=bidder, bid=data["bid"], to_play=bidder, leader=bidder)
    )


def thrown_in(state: State, data: ThrownInData) -> State:
    # The thrown-in round stays visible (its calls) until the redeal replaces it.
    return replace(state, phase=AWAIT_DEAL, dealer=data["next_dealer"])


def widow_taken(state: State, data: WidowTakenData) -> State:
    rnd, seat, taken = state.round, data["seat"], tuple(data["cards"])
    assert rnd is not None
    return with_round(
        state, hands=set_at(rnd.hands, seat, rnd.hands[seat] + taken), undealt=rnd.undealt[len(taken) :], widow=taken
    )


def discarded(state: State, data: DiscardedData) -> State:
    rnd, seat = state.round, data["seat"]
    assert rnd is not None
    return replace(
        state,
        phase=PLAY,
        round=replace(
            rnd,
            hands=set_at(rnd.hands, seat, without(rnd.hands[seat], data["cards"])),
            discards=tuple(data["cards"]),
            named_trump=data["trump"],
        ),
    )


def played(state: State, data: PlayedData) -> State:
    rnd, seat, card = state.round, data["seat"], data["card"]
    assert rnd is not None
    return with_round(
        state,
        hands=set_at(rnd.hands, seat, without(rnd.hands[seat], (card,))),
        trick=rnd.trick + (Play(seat, card),),
        to_play=next_seat(seat),
        trump=rnd.trump or cards.suit_of(card),  # §3.5: the first card led fixes trump
    )


def trick_taken(state: State, data: TrickTakenData) -> State:
    rnd, winner = state.round, data["winner"]
    assert rnd is not None and rnd.leader is not None  # the auction's end named the first leader
    return with_round(
        state, tricks=rnd.tricks + (Trick(rnd.leader, rnd.trick, winner),), trick=(), leader=winner, to_play=winner
    )


def round_ended(state: State, data: NoData) -> State:
    return replace(state, phase=ROUND_OVER)


def round_scored(state: State, data: RoundScoredData) -> State:
    result = load_result(data)
    return replace(state, phase=AWAIT_DEAL, scores=result.scores, last_result=result, dealer=result.next_dealer)


def match_ended(state: State, data: MatchEndedData) -> State:
    return replace(state, phase=MATCH_OVER, winner=SIDES.index(tuple(data["winner"])))


# event type -> its mutator; `folded_by` has mypy check that the mutator takes that type's data.
MUTATORS: dict[str, Callable[[State, EventData], State]] = dict(
    [
        DEALT.folded_by(dealt),
        BID.folded_by(bid),
        PASSED.folded_by(passed),
        AUCTION_WON.folded_by(auction_won),
        THROWN_IN.folded_by(thrown_in),
        WIDOW_TAKEN.folded_by(widow_taken),
        DISCARDED.folded_by(discarded),
        PLAYED.folded_by(played),
        TRICK_TAKEN.folded_by(trick_taken),
        ROUND_ENDED.folded_by(round_ended),
        ROUND_SCORED.folded_by(round_scored),
        MATCH_ENDED.folded_by(match_ended),
    ]
)


def evolve(state: State, event: Event) -> State:
    return MUTATORS[event["type"]](state, event["data"])
