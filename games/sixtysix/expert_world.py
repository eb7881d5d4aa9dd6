"""Worlds consistent with a seat's view: engine states whose hidden cards are sampled.

Only what the view shows is used: the own hand, the tricks, the current trick, the marriages shown
(their K and Q are known to sit in the melder's hand until played), the face-up trump card, the stock
size and the hand sizes. Once the stock is closed, strict play also tells what a follower lacks (a
suit it did not follow, trumps it did not play, cards that would have headed the trick); those are
never dealt to it. Every other card is dealt at random among the other hands and the stock.
Written for the two-player games with a talon (2p24, 2p20, 2p32); `supported` says when it applies.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import fields

from games import cards
from games.engine import Action, OptionDict, View
from games.records import replace
from games.sixtysix.evolve import evolve
from games.sixtysix.options import CARD_POINTS, RANK_ORDER, Options, deck
from games.sixtysix.rules import decide
from games.sixtysix.state import Meld, Round, State, new_state
from games.tricks import Trick, load_plays, load_trick

Hands = tuple[tuple[str, ...], ...]


def supported(view: View) -> bool:
    rnd = view["round"]
    return (
        view["options"].get("variant", "2p24").startswith("2p")
        and rnd is not None
        and rnd["hand"] is not None
        and bool(view["legal_actions"])
    )


def options_of(view: View) -> OptionDict:
    """The match options the engine knows (the table adds first_dealer and timers beside them)."""
    names = {f.name for f in fields(Options)}
    return {k: v for k, v in view["options"].items() if k in names}


def apply(state: State, seat: int, action: Action) -> State:
    """The world after a seat's action, through the engine's own decide and evolve."""
    for event in decide(state, seat, action):
        state = evolve(state, event)
    return state


def played_cards(rnd: View) -> list[str]:
    return [p["card"] for t in rnd["tricks"] for p in t["cards"]] + [p["card"] for p in rnd["trick"]]


def known_in_hand(rnd: View, seat: int) -> list[str]:
    """Cards a seat has shown in a marriage and not played yet."""
    gone = set(played_cards(rnd))
    shown = [r + m["suit"] for m in rnd["melds"] if m["seat"] == seat for r in "KQ"]
    return [c for c in shown if c not in gone]


def unseen(view: View) -> list[str]:
    """Cards whose place the seat does not know (another hand, the stock, or a closed stock's cards)."""
    rnd, seat = view["round"], view["seat"]
    known = set(rnd["hand"]) | set(played_cards(rnd))
    if rnd["trump_card"]:
        known.add(rnd["trump_card"])
    for other in range(len(rnd["hand_sizes"])):
        if other != seat:
            known |= set(known_in_hand(rnd, other))
    return [c for c in deck(options_of(view)) if c not in known]


def sample(view: View, rng: random.Random) -> State:
    """One engine state consistent with the view."""
    rnd, seat = view["round"], view["seat"]
    pool = unseen(view)
    rng.shuffle(pool)
    hands: list[tuple[str, ...]] = []
    for other, size in enumerate(rnd["hand_sizes"]):
        if other == seat:
            hands.append(tuple(rnd["hand"]))
            continue
        known = known_in_hand(rnd, other)
        take = size - len(known)
        lacks = lacking(rnd, other)
        dealt = [c for c in pool if c not in lacks][:take]
        dealt += [c for c in pool if c not in dealt][: take - len(dealt)]  # only if the view contradicts
        hands.append(tuple(known + dealt))
        pool = [c for c in pool if c not in dealt]
    trump_card, stock = _stock(rnd, pool)
    return _state(view, tuple(hands), trump_card, stock)


def lacking(rnd: View, seat: int) -> set[str]:
    """Cards `seat` cannot hold: what strict play (after closing) showed it lacked when following."""
    if rnd["closer"] is None:
        return set()
    trump: str = rnd["trump"]
    lacks: set[str] = set()
    for trick in rnd["tricks"][sum(rnd["tricks_at_close"]) :]:
        lead, follow = trick["cards"][0], trick["cards"][-1]
        if follow["seat"] != seat:
            continue
        led, played = lead["card"], follow["card"]
        if cards.suit_of(played) != cards.suit_of(led):
            lacks.add(cards.suit_of(led))
            if cards.suit_of(played) != trump:
                lacks.add(trump)
        elif not cards.beats(played, led, trump, RANK_ORDER):
            lacks |= {c for c in cards.pack(RANK_ORDER, cards.suit_of(led)) if cards.beats(c, led, trump, RANK_ORDER)}
    return {c for c in cards.pack(RANK_ORDER) if c in lacks or cards.suit_of(c) in lacks}


def _stock(rnd: View, pool: list[str]) -> tuple[str | None, tuple[str, ...]]:
    """The trump card under the stock and the stock above it. Once closed, neither is shown: the
    sampled cards stand for both (they are out of play)."""
    size: int = rnd["stock_size"]
    trump_card: str | None = rnd["trump_card"]
    if size == 0:
        return None, ()
    if trump_card is not None:
        return trump_card, tuple(pool[: size - 1])
    return pool[size - 1], tuple(pool[: size - 1])


def _state(view: View, hands: Hands, trump_card: str | None, stock: tuple[str, ...]) -> State:
    rnd, n = view["round"], len(view["round"]["hand_sizes"])
    tricks = tuple(load_trick(t) for t in rnd["tricks"])
    melds = tuple(Meld(m["seat"], m["suit"], m["points"]) for m in rnd["melds"])
    meld_used = tuple(tuple(known_in_hand(rnd, s)) for s in range(n))
    totals_at_close = None
    if rnd["tricks_at_close"] is not None:
        totals_at_close = _totals_at(tricks[: sum(rnd["tricks_at_close"])], melds, n)
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
        meld_used=meld_used,
        turn_meld=rnd["turn_meld"],
        closer=rnd["closer"],
        tricks_at_close=None if rnd["tricks_at_close"] is None else tuple(rnd["tricks_at_close"]),
        totals_at_close=totals_at_close,
        declarer=rnd["declarer"],
        turned_card=rnd["turned_card"],
    )
    base = new_state(options_of(view), n, view["options"].get("first_dealer", 0))
    scores = tuple(s["score"] for s in view["standing"])
    return replace(
        base, scores=scores, phase=rnd["phase"], dealer=rnd["dealer"], rounds_dealt=rnd["number"], round=rounds
    )


def _totals_at(tricks: tuple[Trick, ...], melds: tuple[Meld, ...], n: int) -> tuple[int, ...]:
    """Card points and active marriages per seat after these tricks (2p: a side is a seat)."""
    points = [0] * n
    for t in tricks:
        points[t.winner] += t.points
    won = {t.winner for t in tricks}
    for m in melds:
        if m.seat in won:
            points[m.seat] += m.points
    return tuple(points)


def trick_points(plays: Iterable[str]) -> int:
    return sum(CARD_POINTS[cards.rank_of(c)] for c in plays)
