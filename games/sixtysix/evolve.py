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
    SeatData,
    TrickTakenData,
)
from games.records import replace
from games.sixtysix.events import (
    CLOSED,
    DEALT,
    DECLARED_OUT,
    DREW,
    EXCHANGED,
    MELDED,
    ROUND_SCORED,
    ClosedData,
    DealtData,
    DrewData,
    ExchangedData,
    MeldedData,
    RoundScoredData,
)
from games.sixtysix.legal import marriage_cards
from games.sixtysix.options import CARD_POINTS
from games.sixtysix.state import (
    AFTER_TRICK,
    AWAIT_DEAL,
    FOLLOW,
    LEAD,
    MATCH_OVER,
    ROUND_OVER,
    Meld,
    Round,
    State,
    load_result,
    stock_open,
    with_round,
)
from games.tricks import Play, Trick


def without_one(cards_held: tuple[str, ...], card: str) -> tuple[str, ...]:
    """The cards minus one copy of `card` (hands may hold two equal strings)."""
    if card not in cards_held:
        return cards_held
    i = cards_held.index(card)
    return cards_held[:i] + cards_held[i + 1 :]


X = TypeVar("X")


def set_at(items: tuple[X, ...], index: int, value: X) -> tuple[X, ...]:
    return items[:index] + (value,) + items[index + 1 :]


def dealt(state: State, data: DealtData) -> State:
    n, dealer, talon = state.n_seats, data["dealer"], state.options.spec.talon
    leader = (dealer + 1) % n
    rnd = Round(
        number=data["round"],
        dealer=dealer,
        trump_suit=cards.suit_of(data["trump_card"]),
        # With a talon the trump card lies under the stock; without one (pagat 3p) it is in a hand.
        trump_card=data["trump_card"] if talon else None,
        stock=tuple(data["stock"]),
        hands=tuple(tuple(hand) for hand in data["hands"]),
        leader=leader,
        to_play=leader,
        meld_used=((),) * n,
        dead=tuple(data.get("dead", ())),
        turned_card=None if talon else data["trump_card"],
    )
    # last_result stays: the next deal follows the scoring at once, and players must still see why
    # the score changed. Its "round" field says which deal it belongs to; the next scoring replaces it.
    return replace(state, phase=LEAD, round=rnd, dealer=dealer, rounds_dealt=data["round"])


def played(state: State, data: PlayedData) -> State:
    rnd, seat, card = state.round, data["seat"], data["card"]
    assert rnd is not None
    # A played K or Q uses up a meld-used copy first: the other copy stays free for a second marriage.
    return replace(
        state,
        phase=FOLLOW,
        round=replace(
            rnd,
            hands=set_at(rnd.hands, seat, without_one(rnd.hands[seat], card)),
            meld_used=set_at(rnd.meld_used, seat, without_one(rnd.meld_used[seat], card)),
            trick=rnd.trick + (Play(seat, card),),
            to_play=(seat + 1) % state.n_seats,
            turn_meld=None,
        ),
    )


def trick_taken(state: State, data: TrickTakenData) -> State:
    rnd, winner = state.round, data["winner"]
    assert rnd is not None
    trick = Trick(rnd.leader, rnd.trick, winner, sum(CARD_POINTS[cards.rank_of(p.card)] for p in rnd.trick))
    rnd = replace(rnd, trick=(), tricks=rnd.tricks + (trick,), leader=winner, to_play=winner)
    after_trick = stock_open(rnd) and state.options.close_before_draw
    return replace(state, phase=AFTER_TRICK if after_trick else LEAD, round=rnd)


def drew(state: State, data: DrewData) -> State:
    rnd = state.round
    assert rnd is not None
    hands, stock, trump_card = rnd.hands, rnd.stock, rnd.trump_card
    for draw in data["draws"]:
        if stock:
            stock = stock[1:]
        else:
            trump_card = None
        hands = set_at(hands, draw["seat"], hands[draw["seat"]] + (draw["card"],))
    return replace(state, phase=LEAD, round=replace(rnd, hands=hands, stock=stock, trump_card=trump_card))


def melded(state: State, data: MeldedData) -> State:
    rnd, seat = state.round, data["seat"]
    assert rnd is not None
    used = rnd.meld_used[seat] + marriage_cards(data["suit"])
    return with_round(
        state,
        melds=rnd.melds + (Meld(seat, data["suit"], data["points"]),),
        meld_used=set_at(rnd.meld_used, seat, used),
        turn_meld=data["suit"],
    )


def exchanged(state: State, data: ExchangedData) -> State:
    rnd, seat = state.round, data["seat"]
    assert rnd is not None
    hand = without_one(rnd.hands[seat], data["gave"]) + (data["took"],)
    return with_round(state, hands=set_at(rnd.hands, seat, hand), trump_card=data["gave"])


def closed(state: State, data: ClosedData) -> State:
    assert state.round is not None
    return replace(
        state,
        phase=LEAD,
        round=replace(
            state.round,
            closer=data["seat"],
            tricks_at_close=tuple(data["tricks_at_close"]),
            totals_at_close=tuple(data["totals_at_close"]),
        ),
    )


def declared_out(state: State, data: SeatData) -> State:
    assert state.round is not None
    return replace(state, phase=ROUND_OVER, round=replace(state.round, declarer=data["seat"]))


def round_ended(state: State, data: NoData) -> State:
    return replace(state, phase=ROUND_OVER)


def round_scored(state: State, data: RoundScoredData) -> State:
    result = load_result(data)
    drawn = not any(result.game_points)
    # A drawn deal adds one to the bonus the next winner takes (draw_bonus); a decided deal pays it out.
    bonus = state.draw_bonus + 1 if drawn and state.options.draw_bonus else 0
    return replace(
        state, phase=AWAIT_DEAL, scores=result.scores, last_result=result, dealer=result.next_dealer, draw_bonus=bonus
    )


def match_ended(state: State, data: MatchEndedData) -> State:
    winner = next(i for i, side in enumerate(state.sides) if list(side) == data["winner"])
    return replace(state, phase=MATCH_OVER, winner=winner)


# event type -> its mutator; `folded_by` has mypy check that the mutator takes that type's data.
MUTATORS: dict[str, Callable[[State, EventData], State]] = dict(
    [
        DEALT.folded_by(dealt),
        PLAYED.folded_by(played),
        TRICK_TAKEN.folded_by(trick_taken),
        DREW.folded_by(drew),
        MELDED.folded_by(melded),
        EXCHANGED.folded_by(exchanged),
        CLOSED.folded_by(closed),
        DECLARED_OUT.folded_by(declared_out),
        ROUND_ENDED.folded_by(round_ended),
        ROUND_SCORED.folded_by(round_scored),
        MATCH_ENDED.folded_by(match_ended),
    ]
)


def evolve(state: State, event: Event) -> State:
    return MUTATORS[event["type"]](state, event["data"])
