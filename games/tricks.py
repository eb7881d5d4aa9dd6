"""The trick records every game keeps, and their JSON form (snapshots and views).

A play is one card a seat put on the table; Fifty-Six and Sixty-Six keep a finished trick with the card
points it took (Smear counts its points per card at scoring and keeps a trick of its own, without them).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TypedDict

from games.events import CardPlay


@dataclass(frozen=True)
class Play:
    seat: int
    card: str


@dataclass(frozen=True)
class Trick:
    leader: int
    plays: tuple[Play, ...]
    winner: int
    points: int


class TrickData(TypedDict):
    """A finished trick as JSON (`dump_trick`)."""

    leader: int
    cards: list[CardPlay]
    winner: int
    points: int


def dump_plays(plays: Iterable[Play]) -> list[CardPlay]:
    return [{"seat": p.seat, "card": p.card} for p in plays]


def load_plays(items: Iterable[CardPlay]) -> tuple[Play, ...]:
    return tuple(Play(item["seat"], item["card"]) for item in items)


def dump_trick(trick: Trick) -> TrickData:
    """A finished trick as the views show it, its plays under `cards` (Fifty-Six's snapshots keep it so too)."""
    return {"leader": trick.leader, "cards": dump_plays(trick.plays), "winner": trick.winner, "points": trick.points}


def load_trick(item: TrickData) -> Trick:
    """A finished trick back from `dump_trick`'s form (a snapshot, or a view a bot's worlds start from)."""
    return Trick(item["leader"], load_plays(item["cards"]), item["winner"], item["points"])
