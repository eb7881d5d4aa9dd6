"""What one seat may know: `view(state, seat)` and `event_view(event, seat)` (seat None = spectator).

Never rendered: another seat's hand, the deck order. The auction, the contract, the trump and every
card played are public (RULES §0.6).

`view(...)["round"]` keys (None before the first deal): number, dealer, phase (auction / play /
round_over / await_deal / match_over), to_act, active_seats (seats dealt in), hand (own, sorted by suit
S H D C and rank J 9 A T K Q 8 7; None for spectators and eliminated seats get []), hand_sizes [per
seat], calls [{seat, call, value, suit, convention}] (the bidding history), high_bid ({seat, value,
suit} or None), doubling (none / doubled / redoubled, of the standing bid), contract ({declarer, value,
suit, doubled, redoubled, level, all_pass} once the auction is over, else None), trump (the contract
suit; None before the contract and in no-trump), leader, trick [{seat, card}], tricks [{leader, cards,
winner, points}], card_points [per team so far, in `standing` order], tricks_won [per team].
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypedDict

from games import cards
from games.engine import View
from games.events import Event, EventData, Side
from games.fiftysix.events import DEALT, DealtData
from games.fiftysix.legal import to_act
from games.fiftysix.options import RANK_ORDER
from games.fiftysix.state import (
    DOUBLING,
    State,
    card_points,
    dump_contract,
    dump_result,
    team_of,
)
from games.tricks import dump_plays, dump_trick


def standing(state: State, tables: Sequence[int] | None = None) -> list[Side]:
    tables = state.tables if tables is None else tables
    return [{"seats": list(team), "score": score} for team, score in zip(state.teams, tables)]


def view(state: State, seat: int | None) -> View:
    result = state.last_result
    last = None if result is None else {**dump_result(result), "standing": standing(state, result.tables)}
    return {
        "standing": standing(state),
        "winner": None if state.winner is None else list(state.teams[state.winner]),
        "round": None if state.round is None else round_view(state, seat),
        "last_result": last,
    }


def round_view(state: State, seat: int | None) -> View:
    rnd = state.round
    assert rnd is not None  # the view has a round from the first deal on
    high = rnd.high_bid
    tricks_won = [0] * len(state.teams)
    for trick in rnd.tricks:
        tricks_won[team_of(state, trick.winner)] += 1
    return {
        "number": rnd.number,
        "dealer": rnd.dealer,
        "phase": state.phase,
        "to_act": to_act(state),
        "active_seats": list(rnd.active),
        "hand": sorted(rnd.hands[seat], key=cards.sort_key(RANK_ORDER))
        if seat is not None and 0 <= seat < state.n_seats
        else None,
        "hand_sizes": [len(hand) for hand in rnd.hands],
        "calls": [
            {"seat": c.seat, "call": c.call, "value": c.value, "suit": c.suit, "convention": c.convention}
            for c in rnd.calls
        ],
        "high_bid": None if high is None else {"seat": high.seat, "value": high.value, "suit": high.suit},
        "doubling": DOUBLING[rnd.level],
        "contract": dump_contract(rnd.contract),
        "trump": None if rnd.contract is None else rnd.contract.trump,
        "leader": rnd.leader,
        "trick": dump_plays(rnd.trick),
        "tricks": [dump_trick(t) for t in rnd.tricks],
        "card_points": list(card_points(state, rnd)),
        "tricks_won": tricks_won,
    }


class DealtSeen(TypedDict):
    round: int
    dealer: int
    active: list[int]
    hands: list[list[str] | None]
    hand_sizes: list[int]


def event_view(event: Event, seat: int | None) -> Event:
    """The event as `seat` may see it: other seats' dealt cards become None, their counts stay."""
    hide = HIDERS.get(event["type"])
    return event if hide is None else {**event, "data": hide(event["data"], seat)}


def _dealt(data: DealtData, seat: int | None) -> DealtSeen:
    hands = data["hands"]
    return {
        "round": data["round"],
        "dealer": data["dealer"],
        "active": data["active"],
        "hands": [hand if i == seat else None for i, hand in enumerate(hands)],
        "hand_sizes": [len(hand) for hand in hands],
    }


# event type -> what a seat may see of its data; `handled_by` has mypy check the hider takes that type's data.
HIDERS: dict[str, Callable[[EventData, int | None], EventData]] = dict([DEALT.handled_by(_dealt)])


def is_round_boundary(event: Event) -> bool:
    return event["type"] in ("dealt", "round_scored", "thrown_in")
