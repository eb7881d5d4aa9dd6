"""What one seat may know: `view(state, seat)` and `event_view(event, seat)` (seat None = spectator).

Never rendered for other seats: a hand, the undealt pile, the widow the bidder took, the cards it
discarded and the trump it named before the first card is led (RULES §3.4, §0.5). Others see only how
many cards were taken and discarded. Calls, played cards and tricks are public.

`view(...)["round"]` keys (None before the first deal): number, dealer, phase (auction / discard /
play / round_over / await_deal / match_over), to_act, hand (own, sorted by suit S H D C and rank;
None for spectators), hand_sizes [per seat], calls [{seat, value}] (value None = pass, in order),
high_bid, bidder, bid, trump (public once the first card is led; the bidder sees the suit it named
from its discard on), trump_public, widow_size, widow_taken (how many cards the bidder took),
widow (the cards taken: the bidder only, else None), discarded (how many), discard (the cards: the
bidder only, else None), undealt_size (cards out of play), leader, trick [{seat, card}], tricks
[{leader, cards, winner, game_count}] (every trick of this deal), trick_game_counts [per team, in
`standing` order; the discards are not in it].
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypedDict

from games.engine import View
from games.events import Event, EventData
from games.smear.events import DEALT, DISCARDED, WIDOW_TAKEN, DealtData, DiscardedData, WidowTakenData
from games.smear.legal import high_bid, sorted_cards, to_act
from games.smear.options import SIDES, game_value
from games.smear.scoring import standing
from games.smear.state import State, dump_result, team_of, trick_cards
from games.tricks import dump_plays


def view(state: State, seat: int | None) -> View:
    result = state.last_result
    return {
        "standing": standing(state.scores),
        "winner": None if state.winner is None else list(SIDES[state.winner]),
        "round": None if state.round is None else round_view(state, seat),
        "last_result": None if result is None else {**dump_result(result), "standing": standing(result.scores)},
    }


def round_view(state: State, seat: int | None) -> View:
    rnd = state.round
    assert rnd is not None  # the view has a round from the first deal on
    own = seat is not None and 0 <= seat < len(rnd.hands)
    is_bidder = own and seat == rnd.bidder
    trump = rnd.trump or (rnd.named_trump if is_bidder else None)
    counts = [0, 0]
    for trick in rnd.tricks:
        counts[team_of(trick.winner)] += sum(game_value(c) for c in trick_cards(trick))
    return {
        "number": rnd.number,
        "dealer": rnd.dealer,
        "phase": state.phase,
        "to_act": to_act(state),
        "hand": sorted_cards(rnd.hands[seat]) if seat is not None and own else None,
        "hand_sizes": [len(hand) for hand in rnd.hands],
        "calls": [{"seat": c.seat, "value": c.value} for c in rnd.calls],
        "high_bid": high_bid(state),
        "bidder": rnd.bidder,
        "bid": rnd.bid,
        "trump": trump,
        "trump_public": rnd.trump is not None,
        "widow_size": state.options.widow_size,
        "widow_taken": len(rnd.widow),
        "widow": list(rnd.widow) if is_bidder else None,
        "discarded": len(rnd.discards),
        "discard": list(rnd.discards) if is_bidder else None,
        "undealt_size": len(rnd.undealt),
        "leader": rnd.leader,
        "trick": dump_plays(rnd.trick),
        "tricks": [
            {
                "leader": t.leader,
                "cards": dump_plays(t.plays),
                "winner": t.winner,
                "game_count": sum(game_value(c) for c in trick_cards(t)),
            }
            for t in rnd.tricks
        ],
        "trick_game_counts": counts,
    }


def event_view(event: Event, seat: int | None) -> Event:
    """The event as `seat` may see it: hidden cards of others become counts."""
    hide = HIDERS.get(event["type"])
    return event if hide is None else {**event, "data": hide(event["data"], seat)}


class DealtSeen(TypedDict):
    round: int
    dealer: int
    hands: list[list[str] | None]
    hand_sizes: list[int]
    undealt_size: int


class CardsCounted(TypedDict):
    """widow_taken and discarded as everyone but the bidder sees them."""

    seat: int
    count: int


def _dealt(data: DealtData, seat: int | None) -> DealtSeen:
    hands = data["hands"]
    return {
        "round": data["round"],
        "dealer": data["dealer"],
        "hands": [hand if i == seat else None for i, hand in enumerate(hands)],
        "hand_sizes": [len(hand) for hand in hands],
        "undealt_size": len(data["undealt"]),
    }


Hidden = WidowTakenData | DiscardedData


def _bidder_only(data: Hidden, seat: int | None) -> Hidden | CardsCounted:
    """widow_taken and discarded: the bidder sees the cards (and named trump), others the count."""
    if seat == data["seat"]:
        return data
    return {"seat": data["seat"], "count": len(data["cards"])}


# event type -> what a seat may see of its data; `handled_by` has mypy check the hider takes that type's data.
HIDERS: dict[str, Callable[[EventData, int | None], EventData]] = dict(
    [
        DEALT.handled_by(_dealt),
        WIDOW_TAKEN.handled_by(_bidder_only),
        DISCARDED.handled_by(_bidder_only),
    ]
)


def is_round_boundary(event: Event) -> bool:
    return event["type"] in ("dealt", "round_scored")
