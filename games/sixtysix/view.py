"""What one seat may know: `view(state, seat)` and `event_view(event, seat)` (seat None = spectator).

Never rendered: another seat's hand, the stock's order, the dead cards of a closed stock, the two dead
cards of 3p, a card another seat drew from the face-down stock. Tricks, melds, exchanges, the face-up
card (and pagat 3p's card dealt face up into a hand) are public.

`view(...)["round"]` keys (None before the first deal): number, dealer, phase (lead / follow /
after_trick / round_over / await_deal / match_over), leader, to_act, hand (own, sorted by suit S H D C
and rank; None for spectators), hand_sizes [per seat], trump (suit), trump_card (face-up card, None
once drawn or closed), exchange_card, stock_size (face-up card included; dead cards once closed),
stock_open, closed, closer, tricks_at_close [per side], trick [{seat, card}], tricks [{leader, cards,
winner, points}], melds [{seat, suit, points, active}], turn_meld (suit melded at this lead),
card_points, meld_points (active only), tricks_won [all per side, in `standing` order],
last_trick_bonus (whether +10 can still be earned), declarer, target (66, or 101 in 4p),
turned_card (pagat 3p: the card dealt face up into dealer+1's hand that set trump; None otherwise).
exchange_card is None without a talon (pagat 3p), where no exchange exists.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypedDict

from games import cards
from games.engine import View
from games.events import Event, EventData, Side
from games.sixtysix.events import DEALT, DREW, DealtData, DrewData
from games.sixtysix.legal import to_act
from games.sixtysix.options import RANK_ORDER
from games.sixtysix.state import (
    State,
    card_points,
    dump_result,
    face_up_card,
    meld_points,
    side_of,
    stock_open,
    stock_size,
    tricks_won,
)
from games.tricks import dump_plays, dump_trick


def standing(state: State, scores: Sequence[int] | None = None) -> list[Side]:
    scores = state.scores if scores is None else scores
    return [{"seats": list(side), "score": score} for side, score in zip(state.sides, scores)]


def view(state: State, seat: int | None) -> View:
    result = state.last_result
    last = None if result is None else {**dump_result(result), "standing": standing(state, result.scores)}
    return {
        "standing": standing(state),
        "winner": None if state.winner is None else list(state.sides[state.winner]),
        "round": None if state.round is None else round_view(state, seat),
        "last_result": last,
    }


def round_view(state: State, seat: int | None) -> View:
    rnd, opts = state.round, state.options
    assert rnd is not None  # the view has a round from the first deal on
    tricks = tricks_won(state, rnd)
    return {
        "number": rnd.number,
        "dealer": rnd.dealer,
        "phase": state.phase,
        "leader": rnd.leader,
        "to_act": to_act(state),
        "hand": sorted(rnd.hands[seat], key=cards.sort_key(RANK_ORDER))
        if seat is not None and 0 <= seat < state.n_seats
        else None,
        "hand_sizes": [len(hand) for hand in rnd.hands],
        "trump": rnd.trump_suit,
        "trump_card": face_up_card(rnd),
        "exchange_card": opts.spec.exchange_rank + rnd.trump_suit if opts.spec.talon else None,
        "stock_size": stock_size(rnd),
        "stock_open": stock_open(rnd),
        "closed": rnd.closer is not None,
        "closer": rnd.closer,
        "tricks_at_close": None if rnd.tricks_at_close is None else list(rnd.tricks_at_close),
        "trick": dump_plays(rnd.trick),
        "tricks": [dump_trick(t) for t in rnd.tricks],
        "melds": [
            {"seat": m.seat, "suit": m.suit, "points": m.points, "active": bool(tricks[side_of(state, m.seat)])}
            for m in rnd.melds
        ],
        "turn_meld": rnd.turn_meld,
        "card_points": list(card_points(state, rnd)),
        "meld_points": list(meld_points(state, rnd)),
        "tricks_won": list(tricks),
        "last_trick_bonus": rnd.closer is None and opts.last_trick_rule == "plus10",
        "declarer": rnd.declarer,
        "target": opts.spec.target,
        "turned_card": rnd.turned_card,
    }


def event_view(event: Event, seat: int | None) -> Event:
    """The event as `seat` may see it: hidden cards of others become None, counts stay."""
    hide = HIDERS.get(event["type"])
    return event if hide is None else {**event, "data": hide(event["data"], seat)}


class DealtSeen(TypedDict):
    round: int
    dealer: int
    trump_card: str
    hands: list[list[str] | None]
    hand_sizes: list[int]
    stock_size: int


class DrawSeen(TypedDict):
    seat: int
    card: str | None
    face_up: bool


class DrewSeen(TypedDict):
    draws: list[DrawSeen]


def _dealt(data: DealtData, seat: int | None) -> DealtSeen:
    hands = data["hands"]
    return {
        "round": data["round"],
        "dealer": data["dealer"],
        "trump_card": data["trump_card"],
        "hands": [hand if i == seat else None for i, hand in enumerate(hands)],
        "hand_sizes": [len(hand) for hand in hands],
        "stock_size": len(data["stock"]) + 1 if data["stock"] else 0,  # the face-up card under it
    }  # "dead" (3p) and "stock" are left out: nobody but operators sees them


def _drew(data: DrewData, seat: int | None) -> DrewSeen:
    return {"draws": [{**d, "card": d["card"] if d["face_up"] or d["seat"] == seat else None} for d in data["draws"]]}


# event type -> what a seat may see of its data; `handled_by` has mypy check the hider takes that type's data.
HIDERS: dict[str, Callable[[EventData, int | None], EventData]] = dict(
    [
        DEALT.handled_by(_dealt),
        DREW.handled_by(_drew),
    ]
)


def is_round_boundary(event: Event) -> bool:
    return event["type"] in ("dealt", "round_scored")
