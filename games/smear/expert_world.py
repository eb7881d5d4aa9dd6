"""Worlds consistent with a seat's view: engine states whose hidden cards are sampled.

What the view shows and the sampler keeps: the own hand, every card played, the hand sizes, the
undealt pile's size, the bidder's own widow and discards (only the bidder sees them). What it infers:
* voids: a player who neither followed the led suit nor trumped holds none of the led suit;
* calls: each other seat's pass or bid is compared with what a basic player would have called from
  the hand the world gives it (its cards now plus those it has played). Of a few candidate deals the
  one whose calls fit best is kept, so a partner's bid of 3 means a strong partner in the search.
The other seats' hidden cards, the others' discards and the undealt pile share the rest at random.
"""

from __future__ import annotations

import random
from collections.abc import Collection
from dataclasses import fields

from games import cards
from games.engine import OptionDict, View
from games.records import replace
from games.smear import bots as basic
from games.smear.options import Options, deck
from games.smear.state import Call, Round, State, Trick, new_state
from games.tricks import load_plays

TRIES = 6  # candidate deals per world, when the calls do not fit at once


def options_of(view: View) -> OptionDict:
    """The match options the engine knows (the table adds first_dealer beside them)."""
    names = {f.name for f in fields(Options)}
    return {k: v for k, v in (view.get("options") or {}).items() if k in names}


def played_by(rnd: View) -> list[tuple[int, str]]:
    """(seat, card) of every card played this deal, in order."""
    return [(p["seat"], p["card"]) for t in rnd["tricks"] for p in t["cards"]] + [
        (p["seat"], p["card"]) for p in rnd["trick"]
    ]


def unseen(view: View) -> list[str]:
    """Cards whose place the seat does not know, in pack order (sets are never iterated: the order
    must not depend on string hashing)."""
    rnd = view["round"]
    known = set(rnd["hand"]) | {c for _, c in played_by(rnd)}
    known |= set(rnd.get("discard") or [])
    return [c for c in deck({}) if c not in known]


def voids(view: View) -> dict[int, set[str]]:
    """Suits each seat has shown it lacks: it played neither the led suit nor a trump."""
    rnd = view["round"]
    out: dict[int, set[str]] = {s: set() for s in range(4)}
    trump = rnd["trump"] if rnd["trump_public"] else None
    tricks = [t["cards"] for t in rnd["tricks"]] + ([rnd["trick"]] if rnd["trick"] else [])
    for plays in tricks:
        led = cards.suit_of(plays[0]["card"])
        for p in plays[1:]:
            suit = cards.suit_of(p["card"])
            if suit != led and suit != trump:
                out[p["seat"]].add(led)
    return out


class Sampler:
    """Samples worlds for one view; what every world shares is worked out once."""

    def __init__(self, view: View):
        rnd, self.view = view["round"], view
        self.me: int = view["seat"]
        self.room = {s: rnd["hand_sizes"][s] for s in range(4) if s != self.me}
        self.pool = unseen(view)
        void = voids(view)
        self.constrained = any(void[s] for s in self.room)
        # Where each unseen card may lie: the other seats not void in its suit (None = out of play).
        self.places = {c: [s for s in self.room if cards.suit_of(c) not in void[s]] for c in self.pool}
        self.played: dict[int, list[str]] = {s: [] for s in range(4)}
        for seat, card in played_by(rnd):
            self.played[seat].append(card)
        self.calls = judged_calls(view)

    def deal(self, rng: random.Random, keep_voids: bool = True) -> tuple[list[list[str]], list[str]] | None:
        """The unseen cards shared among the other hands and the rest; None if stuck. With voids:
        most constrained cards first, each to a place drawn by the room it has left."""
        pool, room = list(self.pool), dict(self.room)
        rng.shuffle(pool)
        hands: dict[int, list[str]] = {}
        if not (self.constrained and keep_voids):  # a plain shuffle is already uniform
            at = 0
            for s in room:
                hands[s], at = pool[at : at + room[s]], at + room[s]
            return self._with_mine(hands), pool[at:]
        rest_room = len(pool) - sum(room.values())
        pool.sort(key=lambda c: len(self.places[c]))
        hands = {s: [] for s in room}
        rest: list[str] = []
        for card in pool:
            options = [(s, room[s]) for s in self.places[card] if room[s]] + [(None, rest_room)]
            pick = rng.randrange(sum(w for _, w in options) or 1)
            place = None
            for place, weight in options:  # noqa: B007 - the place the loop stops at is the one picked
                if pick < weight:
                    break
                pick -= weight
            if place is None:
                if not rest_room:
                    return None
                rest.append(card)
                rest_room -= 1
            else:
                hands[place].append(card)
                room[place] -= 1
        return self._with_mine(hands), rest

    def _with_mine(self, hands: dict[int, list[str]]) -> list[list[str]]:
        return [list(self.view["round"]["hand"]) if s == self.me else hands[s] for s in range(4)]

    def misfit(self, hands: list[list[str]]) -> int:
        """How far the others' calls are from what their world hands suggest (0 = all fit)."""
        widow, total = self.view["round"]["widow_size"], 0
        for seat, value, high in self.calls:
            level = implied_level(hands[seat] + self.played[seat], widow)
            if value is None:
                total += max(0, level - high)
            else:
                total += max(0, value - level) + (max(0, level - value) if value < 4 else 0)
        return total

    def sample(self, rng: random.Random) -> State:
        """One engine state consistent with the view (the best fitting of a few candidate deals)."""
        best: tuple[list[list[str]], list[str]] | None = None
        best_misfit = 0
        for attempt in range(TRIES * 2):
            # Voids first; if they cannot be met by chance (very rare), drop them rather than fail.
            dealt = self.deal(rng, keep_voids=attempt < TRIES)
            if dealt is None:
                continue
            misfit = self.misfit(dealt[0])
            if best is None or misfit < best_misfit:
                best, best_misfit = dealt, misfit
            if misfit == 0 or attempt + 1 >= TRIES:
                break
        assert best is not None  # a deal without the voids never gets stuck
        return build_state(self.view, *best)


def implied_level(hand: Collection[str], widow_size: int) -> int:
    """The most a basic player would bid from this hand (1 = it would pass)."""
    hope = 0.15 * widow_size
    best = max(basic.suit_worth(hand, s, hope) for s in cards.SUITS)
    return max(1, min(4, int(best + 0.35)))


def judged_calls(view: View) -> list[tuple[int, int | None, int]]:
    """(seat, value, high bid before it, 1 for none) of the others' calls the sampler weighs. The
    bidder's hand after a widow mixes in cards it did not hold when it called: not judged."""
    rnd, me, high = view["round"], view["seat"], 1
    out: list[tuple[int, int | None, int]] = []
    for call in rnd["calls"]:
        seat, value = call["seat"], call["value"]
        if seat != me and not (seat == rnd["bidder"] and rnd["widow_size"]):
            out.append((seat, value, high))
        high = max(high, value or 1)
    return out


def sample(view: View, rng: random.Random) -> State:
    """One engine state consistent with the view."""
    return Sampler(view).sample(rng)


def build_state(view: View, hands: list[list[str]], rest: list[str]) -> State:
    """The engine state of one world: `rest` fills the others' discards, then the undealt pile."""
    rnd, me = view["round"], view["seat"]
    is_bidder = rnd["bidder"] == me
    discards = tuple(rnd["discard"] or ()) if is_bidder else _others_discards(rnd, rest)
    undealt = tuple(c for c in rest if c not in discards)
    trump = rnd["trump"] if rnd["trump_public"] else None
    named = rnd["trump"] if (is_bidder or trump) and rnd["phase"] == "play" else None
    rnd_state = Round(
        number=rnd["number"],
        dealer=rnd["dealer"],
        hands=tuple(tuple(h) for h in hands),
        undealt=undealt,
        to_play=rnd["to_act"][0],
        calls=tuple(Call(c["seat"], c["value"]) for c in rnd["calls"]),
        bidder=rnd["bidder"],
        bid=rnd["bid"],
        widow=tuple(rnd["widow"] or ()),
        discards=discards,
        named_trump=named,
        trump=trump,
        leader=rnd["leader"],
        trick=load_plays(rnd["trick"]),
        tricks=tuple(Trick(t["leader"], load_plays(t["cards"]), t["winner"]) for t in rnd["tricks"]),
    )
    base = new_state(options_of(view), 4, rnd["dealer"])
    scores = tuple(s["score"] for s in view["standing"])
    return replace(
        base, scores=scores, phase=rnd["phase"], dealer=rnd["dealer"], rounds_dealt=rnd["number"], round=rnd_state
    )


def _others_discards(rnd: View, rest: list[str]) -> tuple[str, ...]:
    """Another bidder's discards: non-trumps where possible (trumps go only beyond six, §3.4)."""
    count = rnd["discarded"]
    if not count:
        return ()
    trump = rnd["trump"] if rnd["trump_public"] else None
    plain = [c for c in rest if cards.suit_of(c) != trump]
    chosen = (plain + [c for c in rest if c not in plain])[:count]
    return tuple(chosen)
