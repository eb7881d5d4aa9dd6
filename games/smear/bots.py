"""Bot players. `choose(view, level, rng)` sees only the seat's API view and returns one of its
`legal_actions`.

Levels: "random" picks uniformly with `rng`. Every other level plays "basic", a handful of plain
rules: bid from the trumps and point cards held; discard non-trumps that neither win tricks nor
count, banking tens for Game; lead the top trump to pull the opponents' trumps; smear points onto a
trick the partner has safely won; win tricks cheaply, keeping the trump Jack and Ten out of harm.
"basic" is deterministic (ties go to the first card in a fixed order), so `rng` only matters for "random".
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Collection

from games import cards
from games.engine import Action, View
from games.smear.options import GAME_VALUE, RANK_ORDER

PACK = cards.pack(RANK_ORDER)


def choose(view: View, level: str, rng: random.Random) -> Action:
    legal: list[Action] = view["legal_actions"]
    if level == "random" or len(legal) == 1:
        return rng.choice(legal)
    return _Basic(view).choose()


def strength(card: str) -> int:
    """Higher is stronger within a suit."""
    return len(RANK_ORDER) - RANK_ORDER.index(cards.rank_of(card))


def value(card: str) -> int:
    return GAME_VALUE[cards.rank_of(card)]


def suit_worth(hand: Collection[str], suit: str, extra: float = 0.0) -> float:
    """Points (0..4) a hand can expect with `suit` as trump: High from the Ace, Low from the 7 (both
    go to whoever plays them), the Jack when the trumps can protect it, Game from length and tens."""
    trumps = [c for c in hand if cards.suit_of(c) == suit]
    ranks = {cards.rank_of(c) for c in trumps}
    worth = ("A" in ranks) + 0.9 * ("7" in ranks) + 0.25 * ("K" in ranks and "A" not in ranks)
    if "J" in ranks:
        worth += min(0.9, 0.35 + 0.15 * (len(trumps) - 1) + 0.2 * ("A" in ranks))
    tens = sum(cards.rank_of(c) == "T" for c in hand)
    worth += min(0.9, 0.1 * len(trumps) + 0.15 * tens + 0.1 * sum(cards.rank_of(c) == "A" for c in hand))
    return worth + extra if len(trumps) >= 2 else worth * 0.5


class _Basic:
    def __init__(self, view: View):
        self.legal: list[Action] = view["legal_actions"]
        self.rnd: View = view["round"]
        self.seat: int = view["seat"]
        self.hand: list[str] = self.rnd["hand"]
        self.trump: str | None = self.rnd["trump"]

    def choose(self) -> Action:
        kind = self.legal[0]["type"]
        if kind in ("bid", "pass"):
            return self.call()
        if kind == "discard":
            return self.discard()
        return {"type": "play", "card": self.play()}

    # --- auction and discard ------------------------------------------------------------------------

    def call(self) -> Action:
        widow_hope = 0.15 * self.rnd["widow_size"]
        best = max(suit_worth(self.hand, s, widow_hope) for s in cards.SUITS)
        bids = [a for a in self.legal if a["type"] == "bid"]
        fitting = [a for a in bids if a["value"] <= int(best + 0.35)]
        if fitting:
            return max(fitting, key=lambda a: a["value"])
        return {"type": "pass"} if {"type": "pass"} in self.legal else bids[0]  # stick_dealer: the least bid

    def discard(self) -> Action:
        suits = {a["trump"] for a in self.legal}
        trump = max(sorted(suits, key=cards.SUITS.index), key=lambda s: suit_worth(self.hand, s))
        counts = Counter(cards.suit_of(c) for c in self.hand)

        def keep(card: str) -> tuple[int, int]:
            """(what the card is worth keeping, its suit's length): the discard minimises both."""
            if cards.suit_of(card) == trump:
                return 100 + strength(card), 0
            # Aces win tricks; tens are banked for Game by discarding them; short suits go first, so
            # that the hand can trump them later.
            worth = {"A": 12, "K": 4, "Q": 2, "J": 1, "T": -2}.get(cards.rank_of(card), 0)
            return worth, counts[cards.suit_of(card)]

        def cost(action: Action) -> tuple[int, int]:
            kept = [keep(c) for c in action["cards"]]
            return sum(k[0] for k in kept), sum(k[1] for k in kept)

        return min((a for a in self.legal if a["trump"] == trump), key=cost)

    # --- card play ----------------------------------------------------------------------------------

    @property
    def plays(self) -> list[str]:
        return [a["card"] for a in self.legal]

    def is_trump(self, card: str) -> bool:
        return self.trump is not None and cards.suit_of(card) == self.trump

    def unseen_trumps(self) -> list[str]:
        """Trumps that another seat may still hold."""
        seen = set(self.hand) | set(self.rnd.get("discard") or [])
        seen |= {p["card"] for t in self.rnd["tricks"] for p in t["cards"]}
        seen |= {p["card"] for p in self.rnd["trick"]}
        return [c for c in PACK if self.is_trump(c) and c not in seen]

    def top_trump(self, card: str) -> bool:
        return self.is_trump(card) and all(strength(u) < strength(card) for u in self.unseen_trumps())

    def partner(self) -> int:
        return (self.seat + 2) % 4

    def play(self) -> str:
        if self.trump is None:  # the bidder's first lead without a widow: the lead names trump
            suit = max(cards.SUITS, key=lambda s: suit_worth(self.hand, s))
            return max((c for c in self.plays if cards.suit_of(c) == suit), key=strength)
        return self.follow() if self.rnd["trick"] else self.lead()

    def lead(self) -> str:
        trumps = sorted((c for c in self.plays if self.is_trump(c)), key=strength, reverse=True)
        if trumps and self.unseen_trumps():
            if self.top_trump(trumps[0]):
                return trumps[0]  # pull the opponents' trumps
            bidders = self.rnd["bidder"] % 2 == self.seat % 2
            plain = [c for c in trumps if cards.rank_of(c) not in "JT7"]
            if bidders and plain:
                return plain[-1]
        others = [c for c in self.plays if not self.is_trump(c)]
        aces = [c for c in others if cards.rank_of(c) == "A"]
        if aces:
            return aces[0]
        if others:
            return min(others, key=lambda c: (value(c) >= 10, value(c), strength(c)))
        return min(self.plays, key=lambda c: (cards.rank_of(c) == "J", strength(c)))

    def follow(self) -> str:
        trick = [p["card"] for p in self.rnd["trick"]]
        best_at = cards.winning_index(trick, self.trump, RANK_ORDER)
        best, last = trick[best_at], len(trick) == 3
        partner_has_it = self.rnd["trick"][best_at]["seat"] == self.partner()
        if partner_has_it and (last or self.top_trump(best)):
            return self.smear()
        winners = [c for c in self.plays if cards.beats(c, best, self.trump, RANK_ORDER)]
        safe = [c for c in winners if last or cards.rank_of(c) not in "JT" or not self.is_trump(c) or self.top_trump(c)]
        if safe:
            return min(safe, key=lambda c: (self.is_trump(c), strength(c)))
        return self.dump()

    def smear(self) -> str:
        """Give the partner's safe trick the most Game, and the trump Jack, without wasting high trumps."""

        def gift(card: str) -> tuple[bool, bool, int, int]:
            high_trump = self.is_trump(card) and cards.rank_of(card) in "AKQ"
            jack = self.is_trump(card) and cards.rank_of(card) == "J"
            return (not high_trump, jack, value(card), -strength(card))

        return max(self.plays, key=gift)

    def dump(self) -> str:
        """The card that costs least: no trump, no Game value, low rank; the trump Jack last of all."""
        return min(
            self.plays,
            key=lambda c: (self.is_trump(c) and cards.rank_of(c) == "J", self.is_trump(c), value(c), strength(c)),
        )
