"""Playing a world's deal out with basic players, through the engine's own rules, and scoring it.

Calls and discards go through the engine: legal_actions, then the event makers of rules.py (which
skip the checks `decide` repeats) and `evolve`. The play phase, the rollout's inner loop, runs on a
mutable Table with the engine's follow rule and trick winner, and is scored by the engine. The
basic player is shown only the parts of the seat's view it reads.
"""

from __future__ import annotations

import random
from itertools import combinations

from games import cards
from games.engine import Action, View
from games.events import CardPlay
from games.records import replace
from games.smear import bots as basic
from games.smear import rules
from games.smear.evolve import evolve
from games.smear.legal import follow_options, legal_actions, sorted_cards, trumps_discard_limit
from games.smear.options import N_SEATS, RANK_ORDER
from games.smear.scoring import round_result
from games.smear.state import AUCTION, DISCARD, PLAY, ROUND_OVER, State, Trick, team_of
from games.tricks import Play

MAX_STEPS = 60  # a deal has at most 4 calls, a discard and 24 plays: a guard against a loop
_ANY = random.Random(0)  # basic is deterministic; its rng is only drawn when one action is legal


def apply(state: State, seat: int, action: Action) -> State:
    """The state after a (legal) player action."""
    maker = rules.PLAYER[action["type"]]
    for event in maker(state, seat, action):
        state = evolve(state, event)
    return state


def discards(hand: list[str], size: int) -> list[Action]:
    """The legal discards (§3.4, §3.10a.2) naming the trump the basic player would name (its best
    suit by suit_worth, the first in S H D C on a tie), in the engine's order, without checking
    each: all 336 widow-3 candidates, checked, would cost most of a rollout. Basic picks among
    these exactly what it would pick from the full list."""
    suit = max(cards.SUITS, key=lambda s: (s in {cards.suit_of(c) for c in hand}, basic.suit_worth(hand, s)))
    trump = [cards.suit_of(c) == suit for c in hand]
    limit, held = trumps_discard_limit(hand, suit), sum(trump)
    out: list[Action] = []
    for combo in combinations(range(len(hand)), size):
        thrown = sum(trump[i] for i in combo)
        if thrown <= limit and held - thrown > 0:
            out.append({"type": "discard", "cards": [hand[i] for i in combo], "trump": suit})
    return out


def bot_view(state: State, seat: int) -> View:
    """The parts of the seat's view the basic player reads at a call or a discard."""
    rnd = state.round
    assert rnd is not None
    hand = sorted_cards(rnd.hands[seat])
    legal = discards(hand, state.options.widow_size) if state.phase == DISCARD else legal_actions(state, seat)
    return {
        "seat": seat,
        "legal_actions": legal,
        "round": {"hand": hand, "widow_size": state.options.widow_size, "trump": None},
    }


def basic_action(state: State, seat: int) -> Action:
    return basic.choose(bot_view(state, seat), "basic", _ANY)


def playout(state: State, me: int) -> float:
    """The deal's result for `me`'s team when basic players finish it: its score change minus the
    other team's (a set counts minus the bid). A thrown-in deal is worth 0."""
    for _ in range(MAX_STEPS):
        if state.phase == PLAY:
            return deal_value(Table(state).finish(), me)
        if state.phase == ROUND_OVER:
            return deal_value(state, me)
        if state.phase not in (AUCTION, DISCARD):
            return 0.0  # thrown in: the same or the next dealer deals again
        assert state.round is not None
        seat = state.round.to_play
        state = apply(state, seat, basic_action(state, seat))
    return 0.0


def deal_value(state: State, me: int) -> float:
    deltas = round_result(state).deltas
    mine = team_of(me)
    return float(deltas[mine] - deltas[1 - mine])


class Table:
    """The play phase on mutable lists: a frozen State per card would cost most of the rollout.
    It moves cards exactly as evolve does (§3.5, trick winner §0.4) and hands the six tricks back
    to the engine as a State, so that scoring stays the engine's."""

    def __init__(self, state: State):
        rnd = state.round
        assert rnd is not None and rnd.leader is not None  # the play phase: the auction named the leader
        self.state, self.rnd = state, rnd
        self.trump, self.to_play, self.leader = rnd.trump, rnd.to_play, rnd.leader
        self.hands = [sorted_cards(h) for h in rnd.hands]
        self.trick = list(rnd.trick)
        self.tricks = list(rnd.tricks)
        self.shown_tricks: list[dict[str, list[CardPlay]]] = [
            {"cards": [{"seat": p.seat, "card": p.card} for p in t.plays]} for t in rnd.tricks
        ]
        self.shown_trick: list[CardPlay] = [{"seat": p.seat, "card": p.card} for p in rnd.trick]

    def options(self, seat: int) -> list[str]:
        hand, rnd = self.hands[seat], self.rnd
        if not self.tricks and not self.trick and rnd.named_trump is not None:
            return [c for c in hand if cards.suit_of(c) == rnd.named_trump]
        return follow_options(hand, cards.suit_of(self.trick[0].card) if self.trick else None, self.trump)

    def view(self, seat: int) -> View:
        rnd = self.rnd
        bidder = seat == rnd.bidder
        return {
            "seat": seat,
            "legal_actions": [{"type": "play", "card": c} for c in self.options(seat)],
            "round": {
                "hand": self.hands[seat],
                "trump": self.trump or (rnd.named_trump if bidder else None),
                "widow_size": self.state.options.widow_size,
                "bidder": rnd.bidder,
                "discard": list(rnd.discards) if bidder else None,
                "trick": self.shown_trick,
                "tricks": self.shown_tricks,
            },
        }

    def play(self, seat: int, card: str) -> None:
        self.hands[seat] = [c for c in self.hands[seat] if c != card]
        self.trump = self.trump or cards.suit_of(card)  # the first card led fixes trump
        self.trick.append(Play(seat, card))
        self.shown_trick = self.shown_trick + [{"seat": seat, "card": card}]
        self.to_play = (seat + 1) % N_SEATS
        if len(self.trick) == N_SEATS:
            played = [p.card for p in self.trick]
            winner = self.trick[cards.winning_index(played, self.trump, RANK_ORDER)].seat
            self.tricks.append(Trick(self.leader, tuple(self.trick), winner))
            self.shown_tricks = self.shown_tricks + [{"cards": self.shown_trick}]
            self.trick, self.shown_trick, self.leader, self.to_play = [], [], winner, winner

    def finish(self) -> State:
        """Basic players play the rest; the state after the last trick (phase round_over)."""
        while any(self.hands):
            seat = self.to_play
            self.play(seat, basic.choose(self.view(seat), "basic", _ANY)["card"])
        return replace(
            self.state,
            phase=ROUND_OVER,
            round=replace(
                self.rnd,
                hands=((),) * N_SEATS,
                trick=(),
                tricks=tuple(self.tricks),
                trump=self.trump,
                leader=self.leader,
                to_play=self.to_play,
            ),
        )
