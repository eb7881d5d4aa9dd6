"""`evolve(state, event) -> state`: one pure function per event type, folded by replay.

Each applies a fact `decide` has already checked, so none of them validates or raises; they only
move cards and counters with `replace` (games/records.py).
"""
from __future__ import annotations

from games import cards
from games.records import replace
from games.smear.options import N_SEATS, SIDES
from games.smear.state import (
    AUCTION, AWAIT_DEAL, DISCARD, MATCH_OVER, PLAY, ROUND_OVER, Call, Play, Round, State, Trick,
    load_result, with_round,
)


def set_at(items: tuple, index: int, value) -> tuple:
    return items[:index] + (value,) + items[index + 1:]


def without(held: tuple[str, ...], gone) -> tuple[str, ...]:
    return tuple(c for c in held if c not in gone)


def next_seat(seat: int) -> int:
    return (seat + 1) % N_SEATS


def dealt(state: State, data: dict) -> State:
    dealer = data["dealer"]
    rnd = Round(number=data["round"], dealer=dealer, hands=tuple(tuple(h) for h in data["hands"]),
                undealt=tuple(data["undealt"]), to_play=next_seat(dealer))
    # last_result stays: the next deal follows the scoring at once, and players must still see why
    # the score changed. The next scoring replaces it.
    return replace(state, phase=AUCTION, round=rnd, dealer=dealer, rounds_dealt=data["round"])


def called(state: State, data: dict, value: int | None) -> State:
    rnd = state.round
    return with_round(state, calls=rnd.calls + (Call(data["seat"], value),), to_play=next_seat(data["seat"]))


def bid(state: State, data: dict) -> State:
    return called(state, data, data["value"])


def passed(state: State, data: dict) -> State:
    return called(state, data, None)


def auction_won(state: State, data: dict) -> State:
    bidder = data["bidder"]
    phase = DISCARD if state.options.widow_size else PLAY
    return replace(state, phase=phase, round=replace(
        state.round, bidder=bidder, bid=data["bid"], to_play=bidder, leader=bidder))


def thrown_in(state: State, data: dict) -> State:
    # The thrown-in round stays visible (its calls) until the redeal replaces it.
    return replace(state, phase=AWAIT_DEAL, dealer=data["next_dealer"])


def widow_taken(state: State, data: dict) -> State:
    rnd, seat, taken = state.round, data["seat"], tuple(data["cards"])
    return with_round(state, hands=set_at(rnd.hands, seat, rnd.hands[seat] + taken),
                      undealt=rnd.undealt[len(taken):], widow=taken)


def discarded(state: State, data: dict) -> State:
    rnd, seat = state.round, data["seat"]
    return replace(state, phase=PLAY, round=replace(
        rnd, hands=set_at(rnd.hands, seat, without(rnd.hands[seat], data["cards"])),
        discards=tuple(data["cards"]), named_trump=data["trump"]))


def played(state: State, data: dict) -> State:
    rnd, seat, card = state.round, data["seat"], data["card"]
    return with_round(
        state,
        hands=set_at(rnd.hands, seat, without(rnd.hands[seat], (card,))),
        trick=rnd.trick + (Play(seat, card),),
        to_play=next_seat(seat),
        trump=rnd.trump or cards.suit_of(card),  # §3.5: the first card led fixes trump
    )


def trick_taken(state: State, data: dict) -> State:
    rnd, winner = state.round, data["winner"]
    return with_round(state, tricks=rnd.tricks + (Trick(rnd.leader, rnd.trick, winner),), trick=(),
                      leader=winner, to_play=winner)


def round_ended(state: State, data: dict) -> State:
    return replace(state, phase=ROUND_OVER)


def round_scored(state: State, data: dict) -> State:
    result = load_result(data)
    return replace(state, phase=AWAIT_DEAL, scores=result.scores, last_result=result,
                   dealer=result.next_dealer)


def match_ended(state: State, data: dict) -> State:
    return replace(state, phase=MATCH_OVER, winner=SIDES.index(tuple(data["winner"])))


MUTATORS = {
    "dealt": dealt, "bid": bid, "passed": passed, "auction_won": auction_won, "thrown_in": thrown_in,
    "widow_taken": widow_taken, "discarded": discarded, "played": played, "trick_taken": trick_taken,
    "round_ended": round_ended, "round_scored": round_scored, "match_ended": match_ended,
}


def evolve(state: State, event: dict) -> State:
    return MUTATORS[event["type"]](state, event["data"])
