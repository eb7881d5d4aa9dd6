"""`python -m bench.soak [--clients N] [--seconds S]`: many clients, many matches, minutes; then proof.

The service runs as `make run` runs it (bench/stack.py: Redis with its append-only file, gunicorn, one
worker). Each client thread plays one match after another against bots, in every game, as a careless
client would: random legal actions, sometimes with If-Match, sometimes retrying a POST with the same
Idempotency-Key, sometimes with a stale version, waiting for its turn by long-polling. Bounded in time.

Afterwards, for every game: versions have no gap, every acknowledged action is in the log exactly once
at the version it was acknowledged with, and the audit (chain, commitments, replay, conservation) passes.
"""

from __future__ import annotations

import argparse
import random
import threading
import time
import uuid
from collections import Counter

import redis
import requests

from app.audit import audit_game
from bench.stack import Stack
from events.store import EventStore

MATCHES = [
    ("sixty-six", {"variant": "2p24"}, [{"kind": "human"}, {"kind": "bot", "level": "basic"}]),
    (
        "sixty-six",
        {"variant": "4p", "match_target": 2},
        [{"kind": "human"}, {"kind": "bot"}, {"kind": "human"}, {"kind": "bot"}],
    ),
    ("fifty-six", {"starting_tables": 1}, [{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}]),
    ("smear", {"match_target": 5}, [{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}]),
]


class Client(threading.Thread):
    def __init__(self, base_url: str, deadline: float, seed: int):
        super().__init__(daemon=True)
        self.base, self.deadline, self.rng = base_url, deadline, random.Random(seed)
        self.http = requests.Session()
        self.statuses: Counter = Counter()
        self.acknowledged: list[tuple[str, int, int]] = []  # (game, version, seat) of each 201
        self.games: list[str] = []
        self.finished = 0

    def run(self) -> None:
        while time.monotonic() < self.deadline:
            self.play(*self.rng.choice(MATCHES))

    def play(self, game: str, options: dict, seats: list[dict]) -> None:
        created = self.http.post(f"{self.base}/v1/games", json={"game": game, "options": options, "seats": seats})
        self.statuses[f"create {created.status_code}"] += 1
        if created.status_code != 201:
            return
        game_id = created.json()["game_id"]
        self.games.append(game_id)
        tokens = [
            self.http.post(f"{self.base}/v1/games/{game_id}/players", json={"name": f"c{i}"}).json()["token"]
            for i, s in enumerate(seats)
            if s["kind"] == "human"
        ]
        version = 0
        while time.monotonic() < self.deadline:
            views = [self.view(game_id, token) for token in tokens]
            if any(v is None for v in views):
                continue
            if views[0]["status"] == "finished":
                self.finished += 1
                return
            movers = [(t, v) for t, v in zip(tokens, views) if v["legal_actions"]]
            if movers:
                self.act(game_id, *self.rng.choice(movers))
                continue
            version = views[0]["version"]  # bots or scoring: wait for the version to move (long-poll)
            self.view(game_id, tokens[0], wait_past=version)

    def view(self, game_id: str, token: str, wait_past: int | None = None) -> dict | None:
        headers = {"Authorization": f"Bearer {token}"}
        url = f"{self.base}/v1/games/{game_id}"
        if wait_past is not None:
            headers["If-None-Match"] = f'"{wait_past}"'
            url += "?wait=5"
        response = self.http.get(url, headers=headers)
        self.statuses[f"view {response.status_code}"] += 1
        return response.json() if response.status_code == 200 else None

    def act(self, game_id: str, token: str, view: dict) -> None:
        action = self.rng.choice(view["legal_actions"])
        headers = {"Authorization": f"Bearer {token}", "Idempotency-Key": uuid.uuid4().hex}
        roll = self.rng.random()
        if roll < 0.4:
            headers["If-Match"] = f'"{view["version"]}"'
        elif roll < 0.5:
            headers["If-Match"] = f'"{view["version"] - 1}"'  # stale on purpose: must be 412
        for _attempt in range(2 if self.rng.random() < 0.2 else 1):  # a client retrying the same request
            response = self.http.post(f"{self.base}/v1/games/{game_id}/actions", json=action, headers=headers)
            self.statuses[f"action {response.status_code}"] += 1
            if response.status_code == 201:
                self.acknowledged.append((game_id, response.json()["version"], view["seat"]))


def verify(redis_url: str, clients: list[Client]) -> dict:
    store = EventStore(redis.Redis.from_url(redis_url))
    acknowledged = [a for c in clients for a in c.acknowledged]
    duplicates = len(acknowledged) - len(set(acknowledged))
    lost = gaps = 0
    by_game: dict[str, set[int]] = {}
    for game_id, version, _seat in acknowledged:
        by_game.setdefault(game_id, set()).add(version)
    audits = Counter()
    for game_id in {g for c in clients for g in c.games}:
        events = store.read(game_id)
        versions = [e.version for e in events]
        gaps += versions != list(range(1, len(versions) + 1))
        present = {e.version for e in events}
        lost += len(by_game.get(game_id, set()) - present)
        audits["passed" if audit_game(store, game_id)["ok"] else "FAILED"] += 1
    return {
        "acknowledged": len(acknowledged),
        "duplicated": duplicates,
        "lost": lost,
        "gaps": gaps,
        "audits": dict(audits),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=120.0)
    args = parser.parse_args()
    with Stack() as stack:
        deadline = time.monotonic() + args.seconds
        clients = [Client(stack.base_url, deadline, seed) for seed in range(args.clients)]
        started = time.monotonic()
        for c in clients:
            c.start()
        for c in clients:
            c.join(args.seconds + 60)
        elapsed = time.monotonic() - started
        statuses = sum((c.statuses for c in clients), Counter())
        result = verify(stack.redis_url, clients)
    print(f"soak: {args.clients} clients for {elapsed:.0f} s against gunicorn + one worker + Redis (AOF)")
    print(f"  matches started {sum(len(c.games) for c in clients)}, finished {sum(c.finished for c in clients)}")
    print(f"  actions acknowledged (201) {result['acknowledged']}")
    print(f"  responses by status {dict(sorted(statuses.items()))}")
    print(
        f"  lost moves {result['lost']}, duplicated moves {result['duplicated']}, games with a version gap {result['gaps']}"
    )
    print(f"  audit over every game {result['audits']}")


if __name__ == "__main__":
    main()
