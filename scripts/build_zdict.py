"""Builds a compression dictionary for stored events: `python scripts/build_zdict.py > events/zdict/N.bin`.

A stored event is a short JSON object; compressed alone it shrinks little, because deflate has nothing
to refer back to. A preset dictionary of typical events gives it that: field names, event types, card
lists and the envelope are found in the dictionary, and an event shrinks to a fifth (events/codec.py).

The dictionary holds, for every event type of every game and variant, one typical payload (the median
length of its kind in a seeded all-bot match), the most frequent kinds last, where deflate reaches
them with the shortest distances. It is built once and frozen: stored events name the dictionary they
were packed with, so a new dictionary gets a new number and the old file stays.
"""

from __future__ import annotations

import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from events.codec import Codec  # noqa: E402
from games import table as tables  # noqa: E402

AT = "2026-11-30T12:34:56.789Z"
LIMIT = 8192 - 262  # a 2**13 window, less deflate's look-ahead
MATCHES = [
    ("sixty-six", {"variant": "2p24"}, 2),
    ("sixty-six", {"variant": "3p"}, 3),
    ("sixty-six", {"variant": "4p"}, 4),
    ("fifty-six", {"starting_tables": 2}, 4),
    ("fifty-six", {"starting_tables": 1}, 6),
    ("smear", {"widow_size": 2}, 4),
]


def events_of(game: str, options: dict, n_seats: int, seed: int = 1) -> list[dict]:
    """One match, every seat played by the basic bot, as the events the service would store."""
    seats = [{"kind": "bot", "level": "basic"}] * n_seats
    out = tables.create(f"zdict{seed:011d}", game, options, seats, seed)
    table = None
    for event in out:
        table = tables.evolve(table, event)
    for _ in range(20_000):
        if table.finished:
            break
        step = tables.system_step(table)
        if not step:
            seat = next(s for s, _ in enumerate(table.seats) if ("bot", s) in tables.owed_work(table))
            step = tables.act(table, seat, tables.bot_choice(table, seat))
        for event in step:
            table = tables.evolve(table, event)
        out += step
    return out


def build() -> bytes:
    codec = Codec(dictionary=None)
    kinds: dict[tuple[str, str], list[bytes]] = collections.defaultdict(list)
    for game, options, n_seats in MATCHES:
        for event in events_of(game, options, n_seats):
            kinds[(game, event["type"])].append(codec.encode(event, AT))
    typical = {kind: sorted(found, key=len)[len(found) // 2] for kind, found in kinds.items()}
    by_frequency = sorted(typical, key=lambda kind: len(kinds[kind]), reverse=True)
    chosen, size = [], 0
    for kind in by_frequency:  # the most frequent first, so a cut drops the rare ones
        if size + len(typical[kind]) > LIMIT:
            continue
        chosen.append(typical[kind])
        size += len(typical[kind])
    return b"".join(reversed(chosen))


if __name__ == "__main__":
    sys.stdout.buffer.write(build())
