"""Event store figures: memory of one finished game, and the append rate of one client.

Usage: python bench/store_figures.py redis://127.0.0.1:PORT/0

Plays a synthetic 150-event, four-seat match in the batches the service writes (one action's events
per append, with an idempotency key, meta and lobby updates, a snapshot at each round end), prints
MEMORY USAGE of the game's keys, then appends such games back to back for 5 s from one connection.
Everything goes under a key prefix of its own, which is deleted afterwards.
"""

from __future__ import annotations

import os
import random
import sys
import time

import redis

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from events.store import EventStore  # noqa: E402

RANKS, SUITS = "AKQJT987", "SHDC"
RUN_SECONDS = 5.0


def synthetic_match(rng: random.Random) -> list[tuple[list[dict], dict | None]]:
    """(events, meta) per append: 5 setup events, 3 rounds of 48, the match end: 150 events."""
    appends: list[tuple[list[dict], dict | None]] = [
        (
            [
                {
                    "type": "match_created",
                    "actor": None,
                    "data": {
                        "game": "fifty-six",
                        "options": {"first_dealer": 0, "target": 12},
                        "seats": [{"kind": "human"}] * 3 + [{"kind": "bot", "level": "basic"}],
                    },
                }
            ],
            {"game": "fifty-six", "status": "waiting", "seats": "4", "open_seats": "4"},
        )
    ]
    for seat in range(4):
        meta = {"open_seats": str(3 - seat)} | ({"status": "active"} if seat == 3 else {})
        appends.append(
            (
                [
                    {
                        "type": "seat_claimed",
                        "actor": seat,
                        "data": {"seat": seat, "name": f"player {seat}", "token_hash": "ab" * 32},
                    }
                ],
                meta,
            )
        )
    for round_no in range(3):
        deck = [rank + suit for rank in RANKS for suit in SUITS]
        rng.shuffle(deck)
        hands = [deck[i::4] for i in range(4)]
        appends.append(
            ([{"type": "deal", "actor": None, "data": {"dealer": round_no % 4, "deck": deck, "hands": hands}}], None)
        )
        for bid in range(6):
            appends.append(
                ([{"type": "bid", "actor": bid % 4, "data": {"value": 28 + bid, "suit": rng.choice("SHDC")}}], None)
            )
        for trick in range(8):
            for seat in range(4):
                play = {"type": "play", "actor": seat, "data": {"card": hands[seat][trick]}}
                if seat < 3:
                    appends.append(([play], None))
                else:  # the fourth card closes the trick in the same append
                    appends.append(
                        (
                            [
                                play,
                                {"type": "trick_won", "actor": None, "data": {"winner": rng.randrange(4), "points": 7}},
                            ],
                            None,
                        )
                    )
        appends.append(
            (
                [
                    {
                        "type": "round_scored",
                        "actor": None,
                        "data": {"points": [30, 26], "tables": [1, -1], "round": round_no},
                    }
                ],
                None,
            )
        )
    appends.append(([{"type": "match_ended", "actor": None, "data": {"winner": [0, 2]}}], {"status": "finished"}))
    return appends


def play(store: EventStore, game_id: str, appends, snapshots: bool) -> tuple[int, int]:
    """Appends one match; returns (appends, events)."""
    version = 0
    for n, (events, meta) in enumerate(appends):
        result = store.append(game_id, events, version, idempotency_key=f"req-{n}", fingerprint=f"fp-{n}", meta=meta)
        version = result.last_version
        if snapshots and events[-1]["type"] == "round_scored":
            store.save_snapshot(
                game_id, version, "bench-1", {"standing": [1, -1], "round": None, "history": list(range(60))}
            )
    return len(appends), version


def memory_figures(client: redis.Redis, store: EventStore, game_id: str) -> None:
    # store._key is the one place key names are spelled; a bench may borrow it.
    print("memory of one finished 150-event game (MEMORY USAGE, bytes):")
    total = 0
    for part in ("events", "meta", "snap"):
        key = store._key(game_id, part)
        used = client.memory_usage(key, samples=0) or 0
        total += used
        print(f"  {part:<8} {used:>8}")
    idem = list(client.scan_iter(match=store._key(game_id, "idem:*"), count=1000))
    idem_bytes = sum(client.memory_usage(key, samples=0) or 0 for key in idem)
    print(f"  idem     {idem_bytes:>8}  ({len(idem)} records, gone after 24 h)")
    feed_bytes = client.memory_usage(f"{store.prefix}:feed", samples=0) or 0
    print(f"  feed     {feed_bytes:>8}  (its 150 entries in the global feed)")
    print(
        f"  total    {total + idem_bytes + feed_bytes:>8}; {total + feed_bytes:>8} after the idempotency records expire"
    )


def rate_figures(store: EventStore, appends) -> None:
    done_appends = done_events = games = 0
    started = time.perf_counter()
    while time.perf_counter() - started < RUN_SECONDS:
        n_appends, n_events = play(store, f"rate-{games}", appends, snapshots=False)
        done_appends, done_events, games = done_appends + n_appends, done_events + n_events, games + 1
    elapsed = time.perf_counter() - started
    print(f"append rate, one connection, {elapsed:.1f} s, {games} games:")
    print(
        f"  {done_appends / elapsed:,.0f} appends/s, {done_events / elapsed:,.0f} events/s, "
        f"{elapsed / done_appends * 1e6:,.0f} µs per append"
    )


def main(url: str) -> None:
    client = redis.Redis.from_url(url)
    prefix = f"bench-store-{os.getpid()}"
    store = EventStore(client, prefix=prefix)
    appends = synthetic_match(random.Random(56))
    try:
        play(store, "memory", appends, snapshots=True)
        memory_figures(client, store, "memory")
        rate_figures(store, appends)
    finally:
        keys = list(client.scan_iter(match=f"{prefix}:*", count=1000))
        for start in range(0, len(keys), 1000):
            client.unlink(*keys[start : start + 1000])
        client.close()


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
