"""Card helpers shared by every game: notation, suits, ranks, the trick winner and shuffling.

A card is a two-character string, rank then suit (RULES §0.1): `AS`, `TD`, `9H`. Two-deck games hold
two equal strings for the two copies of a card; nothing here needs to tell them apart, because the
trick winner (RULES §0.4) only ever lets a later card take over when it is strictly better.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from functools import cache

SUITS: tuple[str, ...] = ("S", "H", "D", "C")
RANKS: tuple[str, ...] = ("A", "K", "Q", "J", "T", "9", "8", "7")


def is_card(value: object) -> bool:
    return isinstance(value, str) and len(value) == 2 and value[0] in RANKS and value[1] in SUITS


def parse(card: str) -> tuple[str, str]:
    """(rank, suit) of a card; ValueError for anything that is not a card."""
    if not is_card(card):
        raise ValueError(f"not a card: {card!r}")
    return card[0], card[1]


def make(rank: str, suit: str) -> str:
    card = rank + suit
    parse(card)
    return card


def rank_of(card: str) -> str:
    return card[0]


def suit_of(card: str) -> str:
    return card[1]


def pack(ranks: Iterable[str], suits: Iterable[str] = SUITS) -> list[str]:
    """One unshuffled deck: suit by suit, each suit from the first rank given to the last."""
    rank_list = list(ranks)
    return [rank + suit for suit in suits for rank in rank_list]


def beats(card: str, best: str, trump: str | None, rank_order: str) -> bool:
    """Whether `card` takes over from `best` as the winning card of a trick (RULES §0.4).

    `rank_order` lists the game's ranks from highest to lowest, e.g. "ATKQJ987" for Sixty-Six.
    """
    if suit_of(card) == suit_of(best):
        return rank_order.index(rank_of(card)) < rank_order.index(rank_of(best))
    return trump is not None and suit_of(card) == trump


def winning_index(cards: Sequence[str], trump: str | None, rank_order: str) -> int:
    """Index (in play order) of the card that wins the trick `cards`, lead first (RULES §0.4)."""
    best = 0
    for i in range(1, len(cards)):
        if beats(cards[i], cards[best], trump, rank_order):
            best = i
    return best


def sort_key(rank_order: str, suits: Sequence[str] = SUITS) -> Callable[[str], tuple[int, int]]:
    """A key that sorts cards by suit, then from the highest rank to the lowest."""
    return _positions(rank_order, tuple(suits)).__getitem__


@cache
def _positions(rank_order: str, suits: tuple[str, ...]) -> dict[str, tuple[int, int]]:
    """Every card's (suit, rank) position, worked out once: a view sorts a hand, and a lookup in C is a
    fraction of a Python key function's call."""
    return {rank + suit: (s, r) for s, suit in enumerate(suits) for r, rank in enumerate(rank_order)}


def shuffled(deck: Sequence[str], rng: random.Random) -> list[str]:
    """A shuffled copy of `deck`, using only the random source passed in."""
    cards = list(deck)
    rng.shuffle(cards)
    return cards
