"""Fast playouts for the expert: a two-player deal on plain lists, played out by the basic rules.

The engine (decide/evolve on frozen states, views, legal-action checks) is exact but too slow to play
thousands of deals per decision, and more sampled worlds is what makes the expert good. `Deal` keeps
only what a two-player deal needs and plays it with the same rules as games/sixtysix/bots.py's basic
player (declare when out, exchange, meld trumps first, close when sure, the same leads and follows),
each seat seeing only its own hand, the public cards and the face-up trump card. A deal that reaches
a closed or exhausted stock with few cards left is finished by the exact solver.
"""

from __future__ import annotations

from games import cards
from games.sixtysix.expert_solver import Solver, Utility, deal_points, summary, value_for
from games.sixtysix.options import CARD_POINTS, RANK_ORDER, deck
from games.sixtysix.state import AFTER_TRICK, FOLLOW, LEAD, Meld, State

SOLVE_CARDS = 6  # finish exactly when at most this many cards are left in hands
STRENGTH = {r: len(RANK_ORDER) - i for i, r in enumerate(RANK_ORDER)}


def points(card: str) -> int:
    return CARD_POINTS[card[0]]


class Deal:
    """A two-player deal in progress. `melds`, `closer`, `tricks_at_close` and `totals_at_close` are
    named as in the engine's Round, so `deal_points` and the solver read them directly."""

    def __init__(self, state: State):
        rnd, opts = state.round, state.options
        assert rnd is not None
        self.state, self.opts = state, opts
        self.trump, self.target = rnd.trump_suit, opts.spec.target
        self.exchange_card = opts.spec.exchange_rank + rnd.trump_suit
        self.pack = deck(opts.as_dict())
        self.hands = [list(h) for h in rnd.hands]
        self.stock, self.face = list(rnd.stock), rnd.trump_card
        self.melds, self.closer = list(rnd.melds), rnd.closer
        self.tricks_at_close, self.totals_at_close = rnd.tricks_at_close, rnd.totals_at_close
        (p, w, self.last) = summary(rnd.tricks)
        self.points, self.won = list(p), list(w)
        self.trick: list[tuple[int, str]] = [(p.seat, p.card) for p in rnd.trick]
        self.played = {p.card for t in rnd.tricks for p in t.plays} | {c for _, c in self.trick}
        self.melded = {m.suit for m in rnd.melds}
        self.turn_meld, self.to_play = rnd.turn_meld, rnd.to_play
        self.phase = {LEAD: "lead", FOLLOW: "follow", AFTER_TRICK: "after"}[state.phase]
        self.declarer: int | None = None

    # --- facts ------------------------------------------------------------------------------------

    def stock_size(self) -> int:
        return len(self.stock) + (self.face is not None)

    def stock_open(self) -> bool:
        return self.closer is None and self.stock_size() > 0

    def total(self, seat: int) -> int:
        active = sum(m.points for m in self.melds if m.seat == seat) if self.won[seat] else 0
        return self.points[seat] + active

    def unseen_trumps(self, seat: int) -> list[str]:
        face = self.face if self.closer is None else None
        return [
            c
            for c in self.pack
            if c[1] == self.trump and c not in self.played and c not in self.hands[seat] and c != face
        ]

    # --- the basic player's rules -----------------------------------------------------------------

    def sure_winners(self, seat: int) -> list[str]:
        top = max((STRENGTH[c[0]] for c in self.unseen_trumps(seat)), default=0)
        own = sorted((c for c in self.hands[seat] if c[1] == self.trump), key=lambda c: -STRENGTH[c[0]])
        return [c for c in own if STRENGTH[c[0]] > top]

    def sure_of_winning(self, seat: int) -> bool:
        winners = self.sure_winners(seat)
        expected = self.total(seat) + sum(points(c) + 4 for c in winners)
        return self.won[seat] > 0 and len(winners) >= 2 and expected >= self.target

    def may_close(self) -> bool:
        return self.stock_open() and self.stock_size() >= self.opts.min_stock_to_close

    def may_exchange(self, seat: int) -> bool:
        return (
            self.stock_open()
            and self.face != self.exchange_card
            and self.exchange_card in self.hands[seat]
            and self.won[seat] > 0
            and self.stock_size() >= self.opts.min_stock_for_exchange
        )

    def meld_suits(self, seat: int) -> list[str]:
        if self.turn_meld or not (self.stock_open() or self.opts.meld_after_close):
            return []
        hand = self.hands[seat]
        return [s for s in "SHDC" if s not in self.melded and "K" + s in hand and "Q" + s in hand]

    def cheapest(self, choices: list[str]) -> str:
        return min(choices, key=lambda c: (c[1] == self.trump, points(c), STRENGTH[c[0]], c))

    def lead(self, seat: int) -> str:
        hand = self.hands[seat]
        if self.turn_meld:
            return self.cheapest([c for c in hand if c in ("K" + self.turn_meld, "Q" + self.turn_meld)])
        if not self.stock_open():
            winners = self.sure_winners(seat)
            if winners:
                return winners[0]
            aces = sorted((c for c in hand if c[0] == "A" and c[1] != self.trump), key=lambda c: "SHDC".index(c[1]))
            if aces:
                return aces[0]
        return self.cheapest(hand)

    def follow_options(self, seat: int) -> list[str]:
        hand = self.hands[seat]
        if self.stock_open():
            return hand
        led = self.trick[0][1]
        for must in (led[1], self.trump):
            suited = [c for c in hand if c[1] == must]
            if suited:
                return [c for c in suited if cards.beats(c, led, self.trump, RANK_ORDER)] or suited
        return hand

    def follow(self, seat: int) -> str:
        led, plays = self.trick[0][1], self.follow_options(seat)
        winners = [c for c in plays if cards.beats(c, led, self.trump, RANK_ORDER)]
        if not self.stock_open():
            if winners:
                return max(winners, key=lambda c: (c[1] != self.trump, points(c), -STRENGTH[c[0]]))
            return self.cheapest(plays)
        led_trump = led[1] == self.trump
        same_suit = [c for c in winners if c[1] != self.trump or led_trump]
        if same_suit and (points(led) >= 10 or not led_trump):
            return max(same_suit, key=lambda c: (points(c), STRENGTH[c[0]]))
        trumps = [c for c in winners if c[1] == self.trump and not led_trump]
        if trumps and points(led) >= 10:
            return min(trumps, key=lambda c: (points(c), STRENGTH[c[0]]))
        return self.cheapest(plays)

    # --- moves ------------------------------------------------------------------------------------

    def step(self) -> None:
        """The seat to act makes the basic player's move."""
        seat = self.to_play
        if self.phase == "follow":
            return self.play(seat, self.follow(seat))
        if self.total(seat) >= self.target:
            self.declarer = seat
            return None
        if self.phase == "after":
            return self.close(seat) if self.may_close() and self.sure_of_winning(seat) else self.draw()
        if self.may_exchange(seat):
            return self.exchange(seat)
        suits = self.meld_suits(seat)
        if suits:
            return self.meld(seat, max(suits, key=lambda s: s == self.trump))
        if self.may_close() and self.sure_of_winning(seat):
            return self.close(seat)
        return self.play(seat, self.lead(seat))

    def exchange(self, seat: int) -> None:
        hand = self.hands[seat]
        hand.remove(self.exchange_card)
        assert self.face is not None  # the stock is open: its face-up card is there
        hand.append(self.face)
        self.face = self.exchange_card

    def meld(self, seat: int, suit: str) -> None:
        self.melds.append(Meld(seat, suit, 40 if suit == self.trump else 20))
        self.melded.add(suit)
        self.turn_meld = suit

    def close(self, seat: int) -> None:
        self.closer = seat
        self.tricks_at_close = tuple(self.won)
        self.totals_at_close = (self.total(0), self.total(1))
        other = 1 - seat
        if (
            self.opts.non_closer_may_exchange_at_close
            and self.face != self.exchange_card
            and self.stock_size() >= self.opts.min_stock_for_exchange
            and self.exchange_card in self.hands[other]
        ):
            self.exchange(other)
        self.phase = "lead"

    def draw(self) -> None:
        for seat in (self.to_play, 1 - self.to_play):
            if self.stock:
                self.hands[seat].append(self.stock.pop(0))
            else:
                assert self.face is not None  # the last card drawn from an open stock is the face-up one
                self.hands[seat].append(self.face)
                self.face = None
        self.phase = "lead"

    def play(self, seat: int, card: str) -> None:
        self.hands[seat].remove(card)
        self.trick.append((seat, card))
        self.turn_meld = None
        if len(self.trick) == 1:
            self.to_play, self.phase = 1 - seat, "follow"
            return
        (s0, c0), (s1, c1) = self.trick
        winner = s1 if cards.beats(c1, c0, self.trump, RANK_ORDER) else s0
        self.points[winner] += points(c0) + points(c1)
        self.won[winner] += 1
        self.last, self.to_play, self.trick = winner, winner, []
        self.played |= {c0, c1}
        self.phase = "lead"
        if self.hands[0] and self.stock_open():
            if self.opts.close_before_draw:
                self.phase = "after"
            else:
                self.draw()

    # --- the end ----------------------------------------------------------------------------------

    def over(self) -> bool:
        return self.declarer is not None or not (self.hands[0] or self.hands[1])

    def solvable(self) -> bool:
        return (
            not self.stock_open()
            and self.phase != "after"
            and self.turn_meld is None
            and not self.opts.meld_after_close
            and len(self.hands[0]) + len(self.hands[1]) <= SOLVE_CARDS
        )

    def value(self, me: int, utility: Utility) -> float:
        game = deal_points(self, self.opts, tuple(self.points), tuple(self.won), self.last, self.declarer)
        return value_for(utility, game, me)

    def solved(self, me: int, utility: Utility) -> float:
        start = (
            (tuple(self.hands[0]), tuple(self.hands[1])),
            self.to_play,
            tuple(self.trick),
            (tuple(self.points), tuple(self.won), self.last),
        )
        best = Solver(self.state, utility, rules=self, start=start).best()
        return best if self.to_play == me else -best


def playout(state: State, me: int, utility: Utility) -> float:
    """The deal's value for `me` (by `utility` of the game points) when basic players finish it."""
    deal = Deal(state)
    for _ in range(200):  # a deal has far fewer moves; a guard against a bug looping forever
        if deal.over():
            return deal.value(me, utility)
        if deal.solvable():
            return deal.solved(me, utility)
        deal.step()
    raise RuntimeError("a playout did not end")
