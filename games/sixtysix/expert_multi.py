"""The expert for the 3- and 4-player Sixty-Six variants: determinized Monte Carlo through the engine.

A world is an engine `State` consistent with the seat's view: the own hand, the tricks, the current
trick, the marriages shown (their K and Q stay in the melder's hand until played), the face-up trump
card, pagat 3p's card dealt face up, the stock size and the hand sizes. Strict play (stock closed or
exhausted, or always without a talon) shows what a follower lacks (the led suit, trumps, or the cards
that would have beaten the winning card); those are never dealt to it. The other unseen cards go at
random to the other hands, the stock (the known face-up trump card stays last), and 3p's dead cards.

Every legal action is applied in the same worlds, then the deal is played out by basic players, each
seeing only its own minimal view of the world. The value is the game points of the seat's side minus
those of all other sides together (see `value`). `samples` bounds worlds times actions; `stop()` may
end it early.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

from games import cards
from games.bots import action_key as key
from games.engine import Action, OptionDict, View
from games.records import replace
from games.sixtysix import bots as basic
from games.sixtysix.evolve import evolve
from games.sixtysix.expert_world import apply, options_of
from games.sixtysix.legal import follow_options, legal_actions
from games.sixtysix.options import RANK_ORDER, Variant, deck, spec_of
from games.sixtysix.options import stock_size as initial_stock
from games.sixtysix.rules import PLAYER
from games.sixtysix.scoring import round_result
from games.sixtysix.state import (
    FOLLOW,
    ROUND_OVER,
    Meld,
    Round,
    State,
    card_points,
    meld_points,
    new_state,
    running_totals,
    side_of,
    stock_open,
    tricks_won,
)
from games.tricks import dump_plays, dump_trick, load_plays, load_trick

Hands = tuple[tuple[str, ...], ...]

MAX_WORLDS = 12  # more worlds than this cost more time than they are worth on two cores
# Playouts through the engine cost about their number of cards left: worlds x actions x cards left in
# the hands and stock stays within this, so a decision's p95 stays under 300 ms on two cores (lab,
# two processes: 3p p95 192 ms at 1200; 4p, whose stock is mostly drawn, 132 ms at 1200).
WORK = {3: 1200, 4: 1700}
MAX_STEPS = 400  # a playout never needs this many engine actions; a guard against a stuck loop
SORT = cards.sort_key(RANK_ORDER)


def supported(view: View) -> bool:
    rnd = view["round"]
    return (len(rnd["hand_sizes"]) > 2 if rnd else False) and rnd["hand"] is not None and bool(view["legal_actions"])


# --- what the view shows ----------------------------------------------------------------------------


def _played_by(rnd: View, seat: int) -> Counter[str]:
    plays = [p for t in rnd["tricks"] for p in t["cards"]] + list(rnd["trick"])
    return Counter(p["card"] for p in plays if p["seat"] == seat)


def meld_used(rnd: View, seat: int) -> Counter[str]:
    """The marriage cards a seat showed and has not played since (the engine's `meld_used`)."""
    shown = Counter(r + m["suit"] for m in rnd["melds"] if m["seat"] == seat for r in "KQ")
    return shown - _played_by(rnd, seat)


def known_in_hand(view: View, seat: int) -> Counter[str]:
    """Cards another seat is known to hold: marriage cards shown, pagat's card dealt face up."""
    rnd = view["round"]
    known = meld_used(rnd, seat)
    turned = rnd.get("turned_card")
    if turned and seat == (rnd["dealer"] + 1) % len(rnd["hand_sizes"]):
        known |= Counter([turned]) - _played_by(rnd, seat)
    return known


def _strict_from(view: View) -> int:
    """Index of the first trick played under strict follow rules (RULES §2.3)."""
    rnd, opts = view["round"], options_of(view)
    spec_stock = initial_stock(_spec(opts))
    if spec_stock == 0:
        return 0  # pagat 3p: strict from the first trick
    at_close: list[int] | None = rnd["tricks_at_close"]
    if at_close is not None:
        return sum(at_close)
    return spec_stock // len(rnd["hand_sizes"])  # draws after each trick exhaust the stock then


def _spec(opts: OptionDict) -> Variant:
    return spec_of(opts.get("variant", "2p24"), opts.get("three_player_mode", "talon_with_dead_cards"))


def lacking(view: View) -> dict[int, set[str]]:
    """Per seat, the cards it cannot hold: what it failed to follow, trump or beat under strict play."""
    rnd: View = view["round"]
    trump: str = rnd["trump"]
    pack = set(cards.pack(RANK_ORDER))
    lacks: dict[int, set[str]] = {s: set() for s in range(len(rnd["hand_sizes"]))}
    start = _strict_from(view)
    tricks = [t["cards"] for t in rnd["tricks"][start:]]
    if not rnd["stock_open"] and rnd["trick"]:
        tricks.append(rnd["trick"])
    for plays in tricks:
        led = plays[0]["card"]
        best = led
        for p in plays[1:]:
            card, seat = p["card"], p["seat"]
            if cards.suit_of(card) == cards.suit_of(led):
                if not cards.beats(card, best, trump, RANK_ORDER):
                    lacks[seat] |= {
                        c
                        for c in pack
                        if cards.suit_of(c) == cards.suit_of(led) and cards.beats(c, best, trump, RANK_ORDER)
                    }
            else:
                lacks[seat] |= {c for c in pack if cards.suit_of(c) == cards.suit_of(led)}
                if cards.suit_of(card) != trump:
                    lacks[seat] |= {c for c in pack if cards.suit_of(c) == trump}
                elif not cards.beats(card, best, trump, RANK_ORDER):
                    lacks[seat] |= {
                        c for c in pack if cards.suit_of(c) == trump and cards.beats(c, best, trump, RANK_ORDER)
                    }
            if cards.beats(card, best, trump, RANK_ORDER):
                best = card
    return lacks


def unseen(view: View) -> list[str]:
    """The cards whose place the seat does not know (other hands, stock, dead cards), as a list."""
    rnd, seat = view["round"], view["seat"]
    pool = Counter(deck(options_of(view)))
    pool -= Counter(rnd["hand"])
    pool -= Counter(p["card"] for t in rnd["tricks"] for p in t["cards"])
    pool -= Counter(p["card"] for p in rnd["trick"])
    if rnd["trump_card"]:
        pool -= Counter([rnd["trump_card"]])
    for other in range(len(rnd["hand_sizes"])):
        if other != seat:
            pool -= known_in_hand(view, other)
    return sorted(pool.elements())


# --- sampling -----------------------------------------------------------------------------------------


def sample(view: View, rng: random.Random, tries: int = 30) -> State:
    """One engine state consistent with the view."""
    rnd, seat = view["round"], view["seat"]
    n = len(rnd["hand_sizes"])
    lacks = lacking(view)
    known = {s: known_in_hand(view, s) for s in range(n) if s != seat}
    need = {s: rnd["hand_sizes"][s] - sum(known[s].values()) for s in known}
    order = sorted(known, key=lambda s: -len(lacks[s]))  # the most constrained seat first
    base = unseen(view)
    dealt: dict[int, list[str]] = {}
    for attempt in range(tries + 1):
        pool = list(base)
        rng.shuffle(pool)
        dealt, ok = {}, True
        for s in order:
            allowed = (
                [i for i, c in enumerate(pool) if c not in lacks[s]] if attempt < tries else list(range(len(pool)))
            )
            if len(allowed) < need[s]:
                ok = False
                break
            take = set(allowed[: need[s]])
            dealt[s] = [pool[i] for i in sorted(take)]
            pool = [c for i, c in enumerate(pool) if i not in take]
        if ok:
            break
    hands = tuple(tuple(rnd["hand"]) if s == seat else tuple(known[s].elements()) + tuple(dealt[s]) for s in range(n))
    return _state(view, hands, pool)


def _state(view: View, hands: Hands, rest: list[str]) -> State:
    rnd, n = view["round"], len(view["round"]["hand_sizes"])
    size = rnd["stock_size"]
    trump_card: str | None
    stock: tuple[str, ...]
    if size == 0:
        trump_card, stock, dead = None, (), tuple(rest)
    elif rnd["trump_card"] is not None:
        trump_card, stock, dead = rnd["trump_card"], tuple(rest[: size - 1]), tuple(rest[size - 1 :])
    else:  # closed: the card under the stock is not shown
        trump_card, stock, dead = rest[size - 1], tuple(rest[: size - 1]), tuple(rest[size:])
    tricks = tuple(load_trick(t) for t in rnd["tricks"])
    melds = tuple(Meld(m["seat"], m["suit"], m["points"]) for m in rnd["melds"])
    used: list[tuple[str, ...]] = []
    for s in range(n):
        held = Counter(hands[s])
        used.append(tuple((meld_used(rnd, s) & held).elements()))
    rounds = Round(
        number=rnd["number"],
        dealer=rnd["dealer"],
        trump_suit=rnd["trump"],
        trump_card=trump_card,
        stock=stock,
        hands=hands,
        leader=rnd["leader"],
        to_play=rnd["to_act"][0] if rnd["to_act"] else rnd["leader"],
        trick=load_plays(rnd["trick"]),
        tricks=tricks,
        melds=melds,
        meld_used=tuple(used),
        turn_meld=rnd["turn_meld"],
        closer=rnd["closer"],
        tricks_at_close=None if rnd["tricks_at_close"] is None else tuple(rnd["tricks_at_close"]),
        declarer=rnd["declarer"],
        dead=dead,
        turned_card=rnd.get("turned_card"),
    )
    base = new_state(options_of(view), n, view["options"].get("first_dealer", 0))
    scores = tuple(s["score"] for s in view["standing"])
    state = replace(
        base, scores=scores, phase=rnd["phase"], dealer=rnd["dealer"], rounds_dealt=rnd["number"], round=rounds
    )
    if rnd["tricks_at_close"] is not None:
        at_close = replace(rounds, tricks=tricks[: sum(rnd["tricks_at_close"])])
        state = replace(state, round=replace(rounds, totals_at_close=running_totals(state, at_close)))
    return state


# --- playouts ------------------------------------------------------------------------------------------


def bot_view(state: State, seat: int, legal: list[Action]) -> View:
    """The parts of the seat's view the basic player reads."""
    rnd = state.round
    assert rnd is not None
    return {
        "seat": seat,
        "legal_actions": legal,
        "standing": [{"seats": list(side), "score": score} for side, score in zip(state.sides, state.scores)],
        "round": {
            "hand": sorted(rnd.hands[seat], key=SORT),
            "hand_sizes": [len(h) for h in rnd.hands],
            "trump": rnd.trump_suit,
            "trump_card": rnd.trump_card if rnd.closer is None else None,
            "stock_open": stock_open(rnd),
            "target": state.options.spec.target,
            "trick": dump_plays(rnd.trick),
            "tricks": [dump_trick(t) for t in rnd.tricks],
            "card_points": list(card_points(state, rnd)),
            "meld_points": list(meld_points(state, rnd)),
            "tricks_won": list(tricks_won(state, rnd)),
            "turn_meld": rnd.turn_meld,
        },
    }


def _legal(state: State, seat: int) -> list[Action]:
    """The engine's legal_actions; a follower's plays computed directly (the same list, faster)."""
    if state.phase != FOLLOW:
        return legal_actions(state, seat)
    rnd = state.round
    assert rnd is not None
    allowed = follow_options(rnd.hands[seat], [p.card for p in rnd.trick], rnd.trump_suit, not stock_open(rnd))
    return [{"type": "play", "card": c} for c in sorted(set(allowed), key=SORT)]


def play_out(state: State, rng: random.Random) -> State:
    for _ in range(MAX_STEPS):
        if state.phase == ROUND_OVER:
            return state
        assert state.round is not None
        seat = state.round.to_play
        legal = _legal(state, seat)
        action = legal[0] if len(legal) == 1 else basic.choose(bot_view(state, seat, legal), "basic", rng)
        for event in PLAYER[action["type"]](state, seat, action):  # legal by construction: no re-check
            state = evolve(state, event)
    raise RuntimeError("a playout did not end")


def value(state: State, seat: int) -> float:
    """The seat's side's game points minus the other sides' together. With two sides (4p) that is the
    best other side's; in 3p, where a false declaration or a failed close pays BOTH opponents, minus
    only the best one made those look cheaper than losing to one winner (the lab showed it: the
    expert then closed and declared out falsely and won far fewer deals than basic)."""
    game = round_result(state).game_points
    mine = side_of(state, seat)
    return float(game[mine] - sum(g for i, g in enumerate(game) if i != mine))


def evaluate(view: View, rng: random.Random, samples: int, stop: Callable[[], bool]) -> dict[str, float] | None:
    """Average value of each legal action over sampled worlds (None if no world fits: then basic)."""
    seat: int = view["seat"]
    legal: list[Action] = view["legal_actions"]
    if len(legal) == 1:
        return {key(legal[0]): 0.0}
    rnd = view["round"]
    cards_left = sum(rnd["hand_sizes"]) + rnd["stock_size"]
    worlds = max(1, min(MAX_WORLDS, samples // len(legal), WORK[len(rnd["hand_sizes"])] // (len(legal) * cards_left)))
    totals = {key(a): 0.0 for a in legal}
    done = 0
    for _ in range(worlds):
        world = sample(view, rng)
        if legal_actions(world, seat) != legal:
            continue  # the engine would not accept this world as the view's position: never seen
        for action in legal:
            totals[key(action)] += value(play_out(apply(world, seat, action), rng), seat)
        done += 1
        if stop():
            break
    if not done:
        return None
    return {k: v / done for k, v in totals.items()}
