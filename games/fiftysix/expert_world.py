"""Worlds consistent with a seat's view: engine states whose hidden cards are dealt at random.

Only what the view shows is used: the own hand, the calls, the tricks and the current trick, the hand
sizes and the match options. The unseen cards (the pack minus the own hand minus every card played)
are dealt to the other seats, respecting what play has revealed: a seat that did not follow a led suit
holds none of it. Calls carry information too: `claims` reads each other seat's last bid (its hand was
worth that much in that denomination, by the basic bidder's measure) and its passes over an opponent's
bid (no denomination was worth a raise); `Sampler.misfit` says how far a world's hands fall short of
them, and `Sampler.hands` swaps cards between the other seats until they fit, so a declarer is dealt
the trumps its bid promises. The hands fitted this way are just strong enough for the bids, so the
expert's own chances come out somewhat too high; expert.py allows for that.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import fields
from typing import TypedDict

from games import cards
from games.engine import OptionDict, View
from games.fiftysix.expert_hand import worth
from games.fiftysix.options import RANK_ORDER, Options, pack_for
from games.fiftysix.state import DOUBLING, Call, Round, State, load_contract, new_state
from games.records import replace
from games.tricks import load_plays, load_trick

SWAPS = 60  # card swaps tried per world to fit the calls
BID_SLACK = 0  # a basic bidder bids only what its hand is worth
PASS_SLACK = 2  # a pass may hide a little more (an expert passes some hands a basic player bids)
ORDER = {r + s: (i, j) for i, s in enumerate(cards.SUITS) for j, r in enumerate(RANK_ORDER)}
SORT = ORDER.__getitem__  # the order legal_actions lists cards in: suit S H D C, then rank


def options_of(view: View) -> OptionDict:
    """The match options the engine knows (the table adds first_dealer beside them)."""
    names = {f.name for f in fields(Options)}
    return {k: v for k, v in view["options"].items() if k in names}


def played_by(rnd: View) -> dict[int, list[str]]:
    """Cards each seat has played this deal, in order."""
    out: dict[int, list[str]] = {}
    for trick in [t["cards"] for t in rnd["tricks"]] + [rnd["trick"]]:
        for p in trick:
            out.setdefault(p["seat"], []).append(p["card"])
    return out


def voids(rnd: View) -> dict[int, str]:
    """Suits each seat is known to lack: it played another suit to a trick led in that suit."""
    out: dict[int, set[str]] = {}
    for trick in [t["cards"] for t in rnd["tricks"]] + [rnd["trick"]]:
        if not trick:
            continue
        led = cards.suit_of(trick[0]["card"])
        for p in trick[1:]:
            if cards.suit_of(p["card"]) != led:
                out.setdefault(p["seat"], set()).add(led)
    return {seat: "".join(sorted(suits)) for seat, suits in out.items()}


def unseen(view: View) -> list[str]:
    """The cards the seat cannot place, in a fixed order (a multiset: both copies may be unseen)."""
    rnd = view["round"]
    left = Counter(pack_for(len(rnd["active_seats"])))
    left.subtract(rnd["hand"])
    for played in played_by(rnd).values():
        left.subtract(played)
    return sorted(left.elements(), key=SORT)


class Sampler:
    """Deals of the hidden cards for one view; what the view reveals is worked out once."""

    def __init__(self, view: View):
        rnd = self.rnd = view["round"]
        self.view, self.me = view, view["seat"]
        self.pool = unseen(view)
        self.voids = voids(rnd)
        self.played = played_by(rnd)
        self.bids = claims(view)
        others = [s for s, size in enumerate(rnd["hand_sizes"]) if s != self.me and size > 0]
        self.order = sorted(others, key=lambda s: -len(self.voids.get(s, "")))
        self.partners = {s: _partners(view, s) for s in {c[0] for c in self.bids}}

    def deal(self, rng: random.Random) -> list[tuple[str, ...]]:
        """Hands per seat: the own hand, and the unseen cards dealt to the others by their hand sizes.

        Seats with known voids are filled first from the cards they may hold; if that fails (rare),
        the deal is retried, and in the end the voids are dropped rather than fail."""
        for attempt in range(20):
            pool = list(self.pool)
            rng.shuffle(pool)
            hands = _fill(pool, self.order, self.rnd["hand_sizes"], self.voids if attempt < 19 else {})
            if hands is not None:
                hands[self.me] = list(self.rnd["hand"])
                return [tuple(sorted(h, key=SORT)) for h in hands]
        raise AssertionError("unreachable: a deal without voids always fits")

    def misfit(self, hands: Sequence[Sequence[str]]) -> float:
        """How far the world's hands fall short of the bids their seats made (0 = every bid fits)."""
        short, active = 0.0, len(self.rnd["active_seats"])
        tables: dict[int, dict[str, float]] = {}  # seat -> its hand's worth per denomination
        for seat, kind, suit, value in self.bids:
            if seat not in tables:
                held = list(hands[seat]) + self.played.get(seat, [])
                tables[seat] = worth(held, active, self.partners[seat])
            if kind == "bid":
                assert suit is not None  # a bid's claim names its suit
                short += max(0.0, value - BID_SLACK - tables[seat][suit])
            else:  # passed: no denomination was worth the cheapest bid
                short += max(0.0, max(tables[seat].values()) - value - PASS_SLACK)
        return short

    def hands(self, rng: random.Random) -> list[tuple[str, ...]]:
        """One deal of the hidden cards that fits the calls: a random deal, then cards swapped between
        two other seats (voids kept) whenever that fits the calls no worse, a few dozen times."""
        hands = [list(h) for h in self.deal(rng)]
        if not self.bids or len(self.order) < 2:
            return [tuple(h) for h in hands]
        short = self.misfit(hands)
        for _ in range(SWAPS):
            if short == 0:
                break
            a, b = rng.sample(self.order, 2)
            if not hands[a] or not hands[b]:
                continue
            i, j = rng.randrange(len(hands[a])), rng.randrange(len(hands[b]))
            ca, cb = hands[a][i], hands[b][j]
            if cb[1] in self.voids.get(a, "") or ca[1] in self.voids.get(b, ""):
                continue
            hands[a][i], hands[b][j] = cb, ca
            after = self.misfit(hands)
            if after <= short:
                short = after
            else:
                hands[a][i], hands[b][j] = ca, cb
        return [tuple(sorted(h, key=SORT)) for h in hands]

    def sample(self, rng: random.Random) -> State:
        """One engine state consistent with the view."""
        return to_state(self.view, self.hands(rng))


def _fill(pool: list[str], order: list[int], sizes: list[int], known: dict[int, str]) -> list[list[str]] | None:
    hands: list[list[str]] = [[] for _ in sizes]
    for seat in order:
        lacking = known.get(seat, "")
        if not lacking:
            hands[seat], pool[:] = pool[: sizes[seat]], pool[sizes[seat] :]
            continue
        fits = [c for c in pool if c[1] not in lacking][: sizes[seat]]
        if len(fits) < sizes[seat]:
            return None
        for card in fits:
            pool.remove(card)
        hands[seat] = fits
    return hands


Claim = tuple[int, str, str | None, int]  # (seat, "bid" or "pass", suit, value)


def claims(view: View) -> list[Claim]:
    """What the other seats' calls say about their hands, as a basic bidder would mean them:
    (seat, "bid", suit, value) for each seat's last bid (its hand is worth that much in the suit),
    (seat, "pass", None, value) for a pass when the seat could have bid `value` over an opponent's
    bid or none (no denomination reached it)."""
    rnd, me = view["round"], view["seat"]
    team = {s: i for i, t in enumerate(view["standing"]) for s in t["seats"]}
    last: dict[int, Claim] = {}
    passes: list[Claim] = []
    high = None
    for call in rnd["calls"]:
        seat = call["seat"]
        if call["call"] == "bid":
            high = call
            if seat != me:
                last[seat] = (seat, "bid", call["suit"], call["value"])
        elif call["call"] == "pass" and seat != me and (high is None or team[high["seat"]] != team[seat]):
            passes.append((seat, "pass", None, 28 if high is None else high["value"] + 1))
    return list(last.values()) + passes


def _partners(view: View, seat: int) -> int:
    active = view["round"]["active_seats"]
    team = next(t["seats"] for t in view["standing"] if seat in t["seats"])
    return sum(1 for s in team if s != seat and s in active)


def _calls(rnd: View) -> tuple[Call, ...]:
    return tuple(Call(c["seat"], c["call"], c["value"], c["suit"], c["convention"]) for c in rnd["calls"])


class AuctionCounters(TypedDict):
    high_bid: Call | None
    pass_count: int
    last_caller: int | None
    passed: frozenset[int]


def _auction_counters(calls: tuple[Call, ...], pass_is_final: bool) -> AuctionCounters:
    """high_bid, pass_count, last_caller and passed, replayed from the calls (as evolve.called)."""
    high: Call | None = None
    last: int | None = None
    passes = 0
    passed: set[int] = set()
    for c in calls:
        if c.call == "bid":
            high, passes, last = c, 0, c.seat
        elif c.call == "double":
            passes, last = 0, c.seat
        elif c.call == "pass":
            passes += 1
            if pass_is_final:
                passed.add(c.seat)
    return {"high_bid": high, "pass_count": passes, "last_caller": last, "passed": frozenset(passed)}


def to_state(view: View, hands: list[tuple[str, ...]]) -> State:
    """The engine state of the view's deal with these hands (the view's seat to act moves next)."""
    rnd = view["round"]
    options = options_of(view)
    n = len(rnd["hand_sizes"])
    calls = _calls(rnd)
    base = new_state(options, n, view["options"].get("first_dealer", 0))
    tricks = tuple(load_trick(t) for t in rnd["tricks"])
    rounds = Round(
        number=rnd["number"],
        dealer=rnd["dealer"],
        active=tuple(rnd["active_seats"]),
        hands=tuple(tuple(h) for h in hands),
        to_play=rnd["to_act"][0],
        calls=calls,
        level=DOUBLING.index(rnd["doubling"]),
        contract=load_contract(rnd["contract"]),
        leader=rnd["leader"],
        trick=load_plays(rnd["trick"]),
        tricks=tricks,
        **_auction_counters(calls, base.options.pass_is_final),
    )
    tables = tuple(s["score"] for s in view["standing"])
    return replace(
        base, tables=tables, phase=rnd["phase"], dealer=rnd["dealer"], rounds_dealt=rnd["number"], round=rounds
    )


def sample(view: View, rng: random.Random) -> State:
    """One engine state consistent with the view (a Sampler serves many)."""
    return Sampler(view).sample(rng)
