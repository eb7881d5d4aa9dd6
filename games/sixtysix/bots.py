"""Bot players. `choose(view, level, rng)` sees only the seat's API view and returns one of its
`legal_actions`.

Levels: "random" picks uniformly with `rng`. Every other level plays "basic": a handful of plain
rules (declare when out, exchange, meld the biggest marriage, close when sure, win valuable tricks
cheaply, keep trumps for tricks worth them, do not overtake a partner while the stock is open, and
throw points onto a trick the partner is sure to win). "basic" is deterministic: ties go to the first card in
the order below, so `rng` only matters for "random".
"""

from __future__ import annotations

import random
from collections import Counter

from games import cards
from games.engine import Action, View
from games.sixtysix.options import CARD_POINTS, RANK_ORDER


def choose(view: View, level: str, rng: random.Random) -> Action:
    legal: list[Action] = view["legal_actions"]
    if level == "random" or len(legal) == 1:
        return rng.choice(legal)
    return _Basic(view).choose()


def points(card: str) -> int:
    return CARD_POINTS[cards.rank_of(card)]


def strength(card: str) -> int:
    """Higher is stronger within a suit."""
    return len(RANK_ORDER) - RANK_ORDER.index(cards.rank_of(card))


class _Basic:
    def __init__(self, view: View):
        self.legal: list[Action] = view["legal_actions"]
        self.rnd: View = view["round"]
        self.seat: int = view["seat"]
        self.trump: str = self.rnd["trump"]
        self.side = next(i for i, s in enumerate(view["standing"]) if self.seat in s["seats"])
        self.partners: set[int] = set(view["standing"][self.side]["seats"]) - {self.seat}
        self.target: int = self.rnd["target"]
        self.n_seats = len(self.rnd["hand_sizes"])
        self.types: set[str] = {a["type"] for a in self.legal}
        self.plays: list[str] = [a["card"] for a in self.legal if a["type"] == "play"]

    def choose(self) -> Action:
        if "declare_out" in self.types and self.total() >= self.target:
            return {"type": "declare_out"}
        if "exchange" in self.types:
            return {"type": "exchange"}
        melds = [a for a in self.legal if a["type"] == "meld"]
        if melds:
            return max(melds, key=lambda a: a["suit"] == self.trump)
        if "close" in self.types and self.sure_of_winning():
            return {"type": "close"}
        if "draw" in self.types:
            return {"type": "draw"}
        card = self.follow() if self.rnd["trick"] else self.lead()
        return {"type": "play", "card": card}

    # --- what the bot knows -------------------------------------------------------------------------

    def total(self) -> int:
        total: int = self.rnd["card_points"][self.side] + self.rnd["meld_points"][self.side]
        return total

    def is_trump(self, card: str) -> bool:
        return cards.suit_of(card) == self.trump

    def unseen(self) -> set[str]:
        """Cards another seat may hold or may still draw (counting both copies in the two-deck game)."""
        seen: Counter[str] = Counter(self.rnd["hand"])
        seen.update(p["card"] for t in self.rnd["tricks"] for p in t["cards"])
        seen.update(p["card"] for p in self.rnd["trick"])
        if self.rnd["trump_card"]:
            seen[self.rnd["trump_card"]] += 1
        copies = 2 if self.n_seats == 4 else 1
        return {c for c in cards.pack(RANK_ORDER) if seen[c] < copies}

    def sure_winners(self) -> list[str]:
        """Own trumps that no unseen trump can beat, from the top down."""
        unseen = {c for c in self.unseen() if self.is_trump(c)}
        winners: list[str] = []
        for card in sorted((c for c in self.rnd["hand"] if self.is_trump(c)), key=strength, reverse=True):
            if any(strength(u) > strength(card) for u in unseen):
                break
            winners.append(card)
        return winners

    def sure_of_winning(self) -> bool:
        """Close only with a trick already won and enough sure trump winners to reach the target."""
        winners = self.sure_winners()
        expected = self.total() + sum(points(c) + 4 for c in winners)
        return self.rnd["tricks_won"][self.side] > 0 and len(winners) >= 2 and expected >= self.target

    # --- card play ----------------------------------------------------------------------------------

    def cheapest(self, choices: list[str]) -> str:
        """The card that costs least to give away: no trump, few points, low rank."""
        return min(choices, key=lambda c: (self.is_trump(c), points(c), strength(c), c))

    def lead(self) -> str:
        if self.rnd["turn_meld"]:
            return self.cheapest(self.plays)  # the Q or K just shown; keep the K when possible
        if not self.rnd["stock_open"]:
            winners = [c for c in self.sure_winners() if c in self.plays]
            if winners:
                return winners[0]
            aces = [c for c in self.plays if cards.rank_of(c) == "A" and not self.is_trump(c)]
            if aces:
                return aces[0]
        return self.cheapest(self.plays)

    def best_so_far(self) -> tuple[str, int]:
        """The card winning the trick so far, and its seat (RULES §0.4)."""
        trick = self.rnd["trick"]
        best = trick[cards.winning_index([p["card"] for p in trick], self.trump, RANK_ORDER)]
        card: str = best["card"]
        seat: int = best["seat"]
        return card, seat

    def follow(self) -> str:
        led, leader = self.best_so_far()  # the card to beat, not just the last one played
        winners = [c for c in self.plays if cards.beats(c, led, self.trump, RANK_ORDER)]
        last_to_play = len(self.rnd["trick"]) == self.n_seats - 1
        if leader in self.partners and self.rnd["stock_open"]:
            return self._help_partner(last_to_play)
        if not self.rnd["stock_open"]:
            return self._take(winners) if winners else self.cheapest(self.plays)
        same_suit = [c for c in winners if not self.is_trump(c) or self.is_trump(led)]
        if same_suit and (points(led) >= 10 or not self.is_trump(led)):
            return max(same_suit, key=lambda c: (points(c), strength(c)))
        trumps = [c for c in winners if self.is_trump(c) and not self.is_trump(led)]
        if trumps and points(led) >= 10:
            return min(trumps, key=lambda c: (points(c), strength(c)))
        return self.cheapest(self.plays)

    def _help_partner(self, last_to_play: bool) -> str:
        """The partner is winning (phase 1, nothing forces us): add points when the trick is safe."""
        plain = [c for c in self.plays if not self.is_trump(c) and cards.rank_of(c) != "A"]
        if last_to_play and plain:
            return max(plain, key=lambda c: (points(c), -strength(c)))
        return self.cheapest(self.plays)

    def _take(self, winners: list[str]) -> str:
        """Strict play, last to a trick: win with the most points, sparing trumps."""
        return max(winners, key=lambda c: (not self.is_trump(c), points(c), -strength(c)))
