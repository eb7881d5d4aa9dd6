"""`decide(state, seat, action) -> events`: check an action, then say what happened.

Order of refusal: a malformed action → ActionShapeError; a seat the game is not waiting for →
NotYourTurn; a move the rules forbid → RuleError (legal.py). Nothing here mutates: where one action
leads to several events (the last card of a trick), the later ones are worked out on states that
`evolve` returns.
`decide` itself is games/engine.py's dispatch over this file's check_shape, SYSTEM and PLAYER.
"""

from __future__ import annotations

from games import cards
from games.engine import Action, decider
from games.errors import ActionShapeError, NotYourTurn
from games.events import MATCH_ENDED, PLAYED, ROUND_ENDED, TRICK_TAKEN, Event, Side
from games.sixtysix.events import CLOSED, DEALT, DECLARED_OUT, DREW, EXCHANGED, MELDED, ROUND_SCORED, DealtData, Draw
from games.sixtysix.evolve import evolve
from games.sixtysix.legal import check
from games.sixtysix.options import CARD_POINTS, RANK_ORDER, deck
from games.sixtysix.scoring import round_result
from games.sixtysix.state import (
    AWAIT_DEAL,
    LEAD,
    ROUND_OVER,
    State,
    dump_result,
    face_up_card,
    running_totals,
    side_of,
    stock_open,
    stock_size,
    tricks_won,
)

SHAPES = {  # action type -> its fields besides "type"
    "play": {"card"},
    "meld": {"suit"},
    "exchange": set(),
    "close": set(),
    "declare_out": set(),
    "draw": set(),
    "deal": {"deck"},
    "score_round": set(),
}


def check_shape(action: object) -> str:
    if not isinstance(action, dict) or action.get("type") not in SHAPES:
        raise ActionShapeError(f"unknown action; one of {', '.join(SHAPES)}")
    kind: str = action["type"]
    if set(action) != SHAPES[kind] | {"type"}:
        raise ActionShapeError(f"{kind} takes exactly the fields {sorted(SHAPES[kind] | {'type'})}")
    if kind == "play" and not cards.is_card(action["card"]):
        raise ActionShapeError(f"not a card: {action['card']!r} (rank then suit, e.g. 'TS')")
    if kind == "meld" and action["suit"] not in cards.SUITS:
        raise ActionShapeError(f"not a suit: {action['suit']!r} (one of S H D C)")
    return kind


# --- system actions ---------------------------------------------------------------------------------


def deal(state: State, action: Action) -> list[Event]:
    if state.phase != AWAIT_DEAL:
        raise NotYourTurn("no deal is due now")
    pack = action["deck"]
    if not isinstance(pack, list) or sorted(map(str, pack)) != sorted(deck(state.options.as_dict())):
        raise ActionShapeError(f"deck must be an ordering of the {state.options.variant} pack")
    spec = state.options.spec
    hands, pos = deal_hands(pack, state.n_seats, state.dealer, spec.batches)
    dead = pack[pos : pos + spec.dead]  # 3p: the next cards go face down out of play (RULES §2.2)
    pos += spec.dead
    if spec.talon:  # the next card turned face up under the stock, the rest is the stock
        trump_card, stock = pack[pos], pack[pos + 1 :]
    else:  # pagat 3p: no stock; the trump card was dealt face up into dealer+1's hand
        assert spec.turned_at is not None  # a variant without a talon says which card is turned
        trump_card, stock = pack[spec.turned_at], []
    data: DealtData = {
        "round": state.rounds_dealt + 1,
        "dealer": state.dealer,
        "hands": hands,
        "dead": dead,
        "trump_card": trump_card,
        "stock": stock,
    }
    if not spec.dead:  # only 3p with a talon sets cards aside
        del data["dead"]
    return [DEALT(None, data)]


def deal_hands(pack: list[str], n: int, dealer: int, batches: tuple[int, ...]) -> tuple[list[list[str]], int]:
    """The hands, dealt in batches in play order from dealer+1 (RULES §2.2), and the next deck index."""
    hands: list[list[str]] = [[] for _ in range(n)]
    pos = 0
    for batch in batches:
        for k in range(1, n + 1):
            hands[(dealer + k) % n] += pack[pos : pos + batch]
            pos += batch
    return hands, pos


def score_round(state: State, action: Action) -> list[Event]:
    if state.phase != ROUND_OVER:
        raise NotYourTurn("no round is waiting to be scored")
    result = round_result(state)
    standing: list[Side] = [{"seats": list(side), "score": score} for side, score in zip(state.sides, result.scores)]
    events = [ROUND_SCORED(None, {**dump_result(result), "standing": standing})]
    if match_over(result.scores, state.options.match_target):
        best = result.scores.index(max(result.scores))
        events.append(MATCH_ENDED(None, {"winner": list(state.sides[best]), "standing": standing}))
    return events


def match_over(scores: tuple[int, ...], target: int) -> bool:
    """RULES §2.11: someone reached the target. With three players two may pass it in one deal (a
    failed declaration pays both opponents): the higher wins, and a tie on top plays another deal."""
    best = max(scores)
    return best >= target and scores.count(best) == 1


SYSTEM = {"deal": deal, "score_round": score_round}


# --- player actions ---------------------------------------------------------------------------------


def draw_event(state: State) -> Event:
    """Everyone draws one card, the trick winner first; the face-up trump card is the last one."""
    rnd, n = state.round, state.n_seats
    assert rnd is not None
    stock = list(rnd.stock)
    draws: list[Draw] = []
    for k in range(n):
        seat = (rnd.leader + k) % n
        face_up = not stock
        card = rnd.trump_card if face_up else stock.pop(0)
        assert card is not None  # the stock is open: the trump card lies under it until drawn last
        draws.append({"seat": seat, "card": card, "face_up": face_up})
    return DREW(None, {"draws": draws})


def play(state: State, seat: int, action: Action) -> list[Event]:
    events = [PLAYED(seat, {"seat": seat, "card": action["card"]})]
    after = evolve(state, events[-1])
    rnd = after.round
    assert rnd is not None
    plays = rnd.trick
    if len(plays) < state.n_seats:
        return events
    winner = plays[cards.winning_index([p.card for p in plays], rnd.trump_suit, RANK_ORDER)].seat
    points = sum(CARD_POINTS[cards.rank_of(p.card)] for p in plays)
    events.append(
        TRICK_TAKEN(
            None, {"winner": winner, "cards": [{"seat": p.seat, "card": p.card} for p in plays], "points": points}
        )
    )
    after = evolve(after, events[-1])
    rnd = after.round
    assert rnd is not None
    if not any(rnd.hands):
        events.append(ROUND_ENDED(None, {}))
    elif after.phase == LEAD and stock_open(rnd):  # close_before_draw=false: no AFTER_TRICK
        events.append(draw_event(after))
    return events


def meld(state: State, seat: int, action: Action) -> list[Event]:
    rnd, suit = state.round, action["suit"]
    assert rnd is not None
    pending = not tricks_won(state, rnd)[side_of(state, seat)]
    points = 40 if suit == rnd.trump_suit else 20
    return [MELDED(seat, {"seat": seat, "suit": suit, "points": points, "pending": pending})]


def exchange_event(state: State, seat: int, at_close: bool = False) -> Event:
    rnd = state.round
    assert rnd is not None and rnd.trump_card is not None  # checked: the stock is open, its card face up
    gave = state.options.spec.exchange_rank + rnd.trump_suit
    return EXCHANGED(seat, {"seat": seat, "gave": gave, "took": rnd.trump_card, "at_close": at_close})


def exchange(state: State, seat: int, action: Action) -> list[Event]:
    return [exchange_event(state, seat)]


def close(state: State, seat: int, action: Action) -> list[Event]:
    rnd = state.round
    assert rnd is not None
    events = [
        CLOSED(
            seat,
            {
                "seat": seat,
                "tricks_at_close": list(tricks_won(state, rnd)),
                "totals_at_close": list(running_totals(state, rnd)),
                "stock_size": stock_size(rnd),
            },
        )
    ]
    if state.options.non_closer_may_exchange_at_close:
        events += [exchange_event(state, other, at_close=True) for other in _may_exchange_at_close(state, seat)]
    return events


def _may_exchange_at_close(state: State, closer: int) -> list[int]:
    """Opponents holding the exchange card when the stock is closed (pagat's 66 rule). The swap is made
    for them: a higher trump for the lowest one can never hurt, so asking would only add a step."""
    rnd, opts = state.round, state.options
    assert rnd is not None
    exchange_card = opts.spec.exchange_rank + rnd.trump_suit
    if face_up_card(rnd) == exchange_card or stock_size(rnd) < opts.min_stock_for_exchange:
        return []
    closer_side = side_of(state, closer)
    return [s for s in range(state.n_seats) if side_of(state, s) != closer_side and exchange_card in rnd.hands[s]][:1]


def declare_out(state: State, seat: int, action: Action) -> list[Event]:
    return [DECLARED_OUT(seat, {"seat": seat})]


def draw(state: State, seat: int, action: Action) -> list[Event]:
    return [draw_event(state)]


PLAYER = {
    "play": play,
    "meld": meld,
    "exchange": exchange,
    "close": close,
    "declare_out": declare_out,
    "draw": draw,
}


decide = decider(check_shape, SYSTEM, PLAYER, check)
