"""Bot players. `choose(view, level, rng)` sees only the seat's API view and returns one of its
`legal_actions`.

Levels: "random" picks uniformly with `rng`. Every other level plays "basic":
* Bidding: the hand's worth as the tricks its jacks, nines, aces and trump length should take, plus the
  average share of the partners; bid the lowest legal value when that worth reaches it, in the best
  denomination; never outbid the own team (a partner's bid stands); double an opponent's bid the hand
  can beat by a margin; redouble when the team's bid is comfortably covered.
* Play: lead a card that is the best left in its suit (trumps first when the own team declared), else
  low from a long plain suit; keep jacks and nines; on a partner's winning card, play low (or give
  points when last to play); take an opponent's trick as cheaply as possible; trump only when the
  trick is worth it.
"basic" is deterministic: `rng` only matters for "random".
"""

from __future__ import annotations

import random
from collections import Counter

from games import cards
from games.engine import Action, View
from games.fiftysix.options import CARD_POINTS, RANK_ORDER, ranks_for

MIN_BID = 28
DOUBLE_MARGIN = 4  # double when the opponents look this many points short
REDOUBLE_MARGIN = 4


def choose(view: View, level: str, rng: random.Random) -> Action:
    legal: list[Action] = view["legal_actions"]
    if level == "random" or len(legal) == 1:
        return rng.choice(legal)
    rnd = view["round"]
    return _Bidder(view).choose() if rnd["phase"] == "auction" else _Player(view).choose()


def points(card: str) -> int:
    return CARD_POINTS[cards.rank_of(card)]


def strength(card: str) -> int:
    """Higher is stronger within a suit."""
    return len(RANK_ORDER) - RANK_ORDER.index(cards.rank_of(card))


class _Seat:
    def __init__(self, view: View):
        self.legal: list[Action] = view["legal_actions"]
        self.rnd: View = view["round"]
        self.seat: int = view["seat"]
        self.hand: list[str] = self.rnd["hand"]
        self.team: list[int] = next(s["seats"] for s in view["standing"] if self.seat in s["seats"])
        self.active: list[int] = self.rnd["active_seats"]
        self.partners = [s for s in self.team if s != self.seat and s in self.active]


class _Bidder(_Seat):
    def trick_value(self) -> float:
        return 56 / len(self.hand)

    def tricks(self, trump: str | None) -> float:
        """Tricks this hand should take with `trump` (None = no trump)."""
        total = 0.0
        for suit in cards.SUITS:
            held = Counter(cards.rank_of(c) for c in self.hand if cards.suit_of(c) == suit)
            if suit == trump:
                total += held["J"] + held["9"] * (0.9 if held["J"] else 0.5) + held["A"] * 0.3
                total += max(0, sum(held.values()) - 3) * 0.5
            else:
                sure = 0.9 if trump is None else 0.7  # a plain jack can be trumped
                total += held["J"] * sure + held["9"] * (0.5 if held["J"] else 0.1)
        return total

    def worth(self, trump: str | None) -> float:
        share = 56 / len(self.active)
        return self.tricks(trump) * self.trick_value() + 0.9 * share * len(self.partners)

    def best_denomination(self) -> tuple[str, float]:
        options = {suit: self.worth(suit) for suit in cards.SUITS}
        options["NT"] = self.worth(None)
        best = max(options, key=lambda d: (options[d], d != "NT"))
        return best, options[best]

    def lowest_bid(self, suit: str) -> Action | None:
        bids = [a for a in self.legal if a["type"] == "bid" and a["suit"] == suit]
        return min(bids, key=lambda a: a["value"]) if bids else None

    def choose(self) -> Action:
        high = self.rnd["high_bid"]
        suit, worth = self.best_denomination()
        bid = self.lowest_bid(suit)
        if {"type": "pass"} not in self.legal:  # first_bidder_must_bid: the cheapest opening
            assert bid is not None  # the opening call: every denomination has its bids
            return bid
        if high is not None and high["seat"] in self.team:
            # A partner's (or own) bid stands: no needless raise; redouble a double it can carry.
            if {"type": "redouble"} in self.legal and worth >= high["value"] + REDOUBLE_MARGIN:
                return {"type": "redouble"}
            return {"type": "pass"}
        if bid is not None and worth >= bid["value"]:
            return bid
        if {"type": "double"} in self.legal:
            trump = None if high["suit"] == "NT" else high["suit"]
            ours = self.worth(trump) - self.tricks(trump) * 0.3 * self.trick_value() * (trump is not None)
            if 56 - ours + DOUBLE_MARGIN < high["value"]:
                return {"type": "double"}
        return {"type": "pass"}


class _Player(_Seat):
    def __init__(self, view: View):
        super().__init__(view)
        self.trump: str | None = self.rnd["trump"]
        self.trick: list[str] = [p["card"] for p in self.rnd["trick"]]
        self.trick_seats: list[int] = [p["seat"] for p in self.rnd["trick"]]
        self.plays: list[str] = [a["card"] for a in self.legal]
        contract = self.rnd["contract"]
        self.declaring = contract is not None and contract["declarer"] in self.team
        played = [p["card"] for t in self.rnd["tricks"] for p in t["cards"]] + self.trick
        self.seen = Counter(played) + Counter(self.hand)

    def is_trump(self, card: str) -> bool:
        return cards.suit_of(card) == self.trump

    def is_master(self, card: str) -> bool:
        """No card that could beat it in its suit is still out (both copies of every higher rank seen)."""
        ranks = ranks_for(len(self.active))
        higher = ranks[: ranks.index(cards.rank_of(card))]
        return all(self.seen[r + cards.suit_of(card)] >= 2 for r in higher)

    def cheap(self, options: list[str]) -> str:
        """The card that costs least: plain before trump, then fewest points, then weakest."""
        return min(options, key=lambda c: (self.is_trump(c), points(c), strength(c)))

    def choose(self) -> Action:
        card = self.follow() if self.trick else self.lead()
        return {"type": "play", "card": card}

    def lead(self) -> str:
        masters = [c for c in self.plays if self.is_master(c)]
        trumps = [c for c in masters if self.is_trump(c)]
        if self.declaring and trumps:
            return max(trumps, key=strength)
        plain = [c for c in masters if not self.is_trump(c)]
        if plain:
            return max(plain, key=lambda c: (points(c), strength(c)))
        return self.cheap(self.low_cards() or self.plays)

    def low_cards(self) -> list[str]:
        """Cards worth keeping least: no J or 9, no trumps."""
        return [c for c in self.plays if cards.rank_of(c) not in "J9" and not self.is_trump(c)]

    def follow(self) -> str:
        best = cards.winning_index(self.trick, self.trump, RANK_ORDER)
        best_card, winner = self.trick[best], self.trick_seats[best]
        last = len(self.trick) == len(self.active) - 1
        beaters = [c for c in self.plays if cards.beats(c, best_card, self.trump, RANK_ORDER)]
        others = [c for c in self.plays if c not in beaters]
        if winner in self.team:  # do not overtake a partner's winning card
            if not others:
                return min(beaters, key=strength)
            if last:
                fed = [c for c in others if not self.is_trump(c)] or others
                return max(fed, key=lambda c: (points(c), -strength(c)))
            return self.cheap(others)
        worth = sum(points(c) for c in self.trick)
        led = cards.suit_of(self.trick[0])
        suited = [c for c in beaters if cards.suit_of(c) == led]
        if suited:
            # Last to play: the cheapest winner is enough; otherwise only a card nobody can top.
            safe = [c for c in suited if last or self.is_master(c)]
            if safe:
                return min(safe, key=strength)
        trumps = [c for c in beaters if self.is_trump(c)]
        if trumps and (worth >= 2 or (last and worth >= 1)):
            return min(trumps, key=strength)
        return self.cheap(self.spare(others) or others or self.plays)

    def spare(self, options: list[str]) -> list[str]:
        """Discards that keep jacks and nines and trumps."""
        return [c for c in options if cards.rank_of(c) not in "J9" and not self.is_trump(c)]
