"""`decide(state, seat, action) -> events`: check an action, then say what happened.

Order of refusal: a malformed action → ActionShapeError; a seat the game is not waiting for →
NotYourTurn; a move the rules forbid → RuleError (legal.py). Nothing here mutates: where one action
leads to several events (the call that ends the auction, the last card of a trick), the later ones
are worked out on states that `evolve` returns.
`decide` itself is games/engine.py's dispatch over this file's check_shape, SYSTEM and PLAYER.
"""

from __future__ import annotations

from games import cards
from games.engine import Action, decider
from games.errors import ActionShapeError, NotYourTurn
from games.events import PLAYED, ROUND_ENDED, Event
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
)
from games.smear.evolve import evolve, next_seat
from games.smear.legal import check, high_bid, sorted_cards
from games.smear.options import HAND_SIZE, N_SEATS, RANK_ORDER, deck, game_value
from games.smear.scoring import match_winner, round_result, standing
from games.smear.state import AWAIT_DEAL, ROUND_OVER, State, dump_result

SHAPES = {  # action type -> its fields besides "type"
    "bid": {"value"},
    "pass": set(),
    "discard": {"cards", "trump"},
    "play": {"card"},
    "deal": {"deck"},
    "score_round": set(),
}
BATCHES = (3, 3)  # §3.2: two rounds of three cards, in play order from dealer+1


def check_shape(action: object) -> str:
    if not isinstance(action, dict) or action.get("type") not in SHAPES:
        raise ActionShapeError(f"unknown action; one of {', '.join(SHAPES)}")
    kind: str = action["type"]
    if set(action) != SHAPES[kind] | {"type"}:
        raise ActionShapeError(f"{kind} takes exactly the fields {sorted(SHAPES[kind] | {'type'})}")
    if kind == "bid" and (not isinstance(action["value"], int) or isinstance(action["value"], bool)):
        raise ActionShapeError("a bid's value is a whole number (2, 3 or 4)")
    if kind == "play" and not cards.is_card(action["card"]):
        raise ActionShapeError(f"not a card: {action['card']!r} (rank then suit, e.g. 'TS')")
    if kind == "discard":
        if not isinstance(action["cards"], list) or not all(cards.is_card(c) for c in action["cards"]):
            raise ActionShapeError("a discard's cards are a list of cards (rank then suit, e.g. 'TS')")
        if action["trump"] not in cards.SUITS:
            raise ActionShapeError(f"not a suit: {action['trump']!r} (one of S H D C)")
    return kind


# --- system actions ---------------------------------------------------------------------------------


def deal(state: State, action: Action) -> list[Event]:
    if state.phase != AWAIT_DEAL:
        raise NotYourTurn("no deal is due now")
    pack = action["deck"]
    if not isinstance(pack, list) or sorted(map(str, pack)) != sorted(deck({})):
        raise ActionShapeError("deck must be an ordering of the 32-card pack")
    dealer = state.dealer
    hands: list[list[str]] = [[] for _ in range(N_SEATS)]
    pos = 0
    for batch in BATCHES:
        for k in range(1, N_SEATS + 1):
            hands[(dealer + k) % N_SEATS] += pack[pos : pos + batch]
            pos += batch
    assert pos == N_SEATS * HAND_SIZE
    return [DEALT(None, {"round": state.rounds_dealt + 1, "dealer": dealer, "hands": hands, "undealt": pack[pos:]})]


def score_round(state: State, action: Action) -> list[Event]:
    if state.phase != ROUND_OVER:
        raise NotYourTurn("no deal is waiting to be scored")
    result = round_result(state)
    events = [ROUND_SCORED(None, {**dump_result(result), "standing": standing(result.scores)})]
    winner, why = match_winner(state, result)
    if winner is not None:
        events.append(
            MATCH_ENDED(None, {"winner": list(state.sides[winner]), "standing": standing(result.scores), "reason": why})
        )
    return events


SYSTEM = {"deal": deal, "score_round": score_round}


# --- player actions ---------------------------------------------------------------------------------


def auction_end(state: State) -> list[Event]:
    """After a call: the auction's end, if this call ended it (§3.3), with the widow taken (§3.4)."""
    rnd = state.round
    assert rnd is not None
    high = high_bid(state)
    if high != 4 and len(rnd.calls) < N_SEATS:
        return []
    if high is None:  # all passed (stick_dealer never gets here: the dealer cannot pass)
        moves = state.options.all_pass == "pass_deal"
        return [
            THROWN_IN(
                None,
                {
                    "dealer": rnd.dealer,
                    "rule": state.options.all_pass,
                    "next_dealer": next_seat(rnd.dealer) if moves else rnd.dealer,
                },
            )
        ]
    bidder = next(c.seat for c in rnd.calls if c.value == high)
    events = [AUCTION_WON(None, {"bidder": bidder, "bid": high})]
    size = state.options.widow_size
    if size:
        events.append(WIDOW_TAKEN(bidder, {"seat": bidder, "cards": list(rnd.undealt[:size])}))
    return events


def bid(state: State, seat: int, action: Action) -> list[Event]:
    first = BID(seat, {"seat": seat, "value": action["value"]})
    return [first] + auction_end(evolve(state, first))


def pass_(state: State, seat: int, action: Action) -> list[Event]:
    first = PASSED(seat, {"seat": seat})
    return [first] + auction_end(evolve(state, first))


def discard(state: State, seat: int, action: Action) -> list[Event]:
    return [DISCARDED(seat, {"seat": seat, "cards": sorted_cards(action["cards"]), "trump": action["trump"]})]


def play(state: State, seat: int, action: Action) -> list[Event]:
    events = [PLAYED(seat, {"seat": seat, "card": action["card"]})]
    after = evolve(state, events[-1])
    rnd = after.round
    assert rnd is not None
    plays = rnd.trick
    if len(plays) < N_SEATS:
        return events
    trick = [p.card for p in plays]
    winner = plays[cards.winning_index(trick, rnd.trump, RANK_ORDER)].seat
    events.append(
        TRICK_TAKEN(
            None,
            {
                "winner": winner,
                "cards": [{"seat": p.seat, "card": p.card} for p in plays],
                "game_count": sum(game_value(c) for c in trick),
            },
        )
    )
    after = evolve(after, events[-1])
    assert after.round is not None
    if not any(after.round.hands):
        events.append(ROUND_ENDED(None, {}))
    return events


PLAYER = {"bid": bid, "pass": pass_, "discard": discard, "play": play}


decide = decider(check_shape, SYSTEM, PLAYER, check)
