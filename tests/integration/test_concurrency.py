"""32 clients race to act on one game: one action per version, no gap, no duplicate, a correct answer each."""

from __future__ import annotations

import random
import threading
from collections import Counter

from events.store import EventStore
from tests.support.talon import auth, make_app, start_match

THREADS = 32
RACES = 6


def race(
    app, game_id: str, token: str, view: dict, rng: random.Random
) -> list[tuple[int, dict, str | None, int | None]]:
    """Every thread posts one of the leader's plays at once; some with If-Match, some sharing keys."""
    plays = [a for a in view["legal_actions"] if a["type"] == "play"]
    barrier = threading.Barrier(THREADS)
    answers: list = [None] * THREADS
    plan = []
    for i in range(THREADS):
        action = rng.choice(plays)
        key = f"k{view['version']}-{i % 4}" if i % 3 == 0 else None  # a few keys, each used by several threads
        if key is not None:
            action = plays[i % 4 % len(plays)]  # one body per key: a reused key is a true retry
        if_match = view["version"] if i % 2 == 0 else None
        plan.append((action, key, if_match))

    def post(i: int) -> None:
        action, key, if_match = plan[i]
        headers = auth(token)
        if key:
            headers["Idempotency-Key"] = key
        if if_match is not None:
            headers["If-Match"] = f'"{if_match}"'
        client = app.test_client()
        barrier.wait()
        response = client.post(f"/v1/games/{game_id}/actions", json=action, headers=headers)
        answers[i] = (response.status_code, response.json, key, if_match)

    threads = [threading.Thread(target=post, args=(i,)) for i in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert all(a is not None for a in answers), "a client got no answer"
    return answers


def test_thirty_two_clients_race_on_every_lead(r, redis_url):
    app = make_app(redis_url)
    client = app.test_client()
    game_id, tokens = start_match(client)
    rng = random.Random(2026)
    store = EventStore(r)
    races = 0
    while races < RACES:
        views = [client.get(f"/v1/games/{game_id}", headers=auth(t)).json for t in tokens]
        seat = next(s for s, v in enumerate(views) if v["legal_actions"])
        view = views[seat]
        if view["round"]["phase"] != "lead":
            # Someone else's kind of turn: one calm client moves the game on to the next lead.
            calm = [a for a in view["legal_actions"] if a["type"] in ("play", "draw")]
            assert (
                client.post(f"/v1/games/{game_id}/actions", json=calm[0], headers=auth(tokens[seat])).status_code == 201
            )
            continue
        before = store.version(game_id)
        answers = race(app, game_id, tokens[seat], view, rng)
        statuses = Counter(status for status, *_ in answers)
        assert set(statuses) <= {200, 201, 409, 412}, statuses
        assert statuses[201] == 1, statuses  # one accepted action for this version
        winner_body, winner_key = next((body, key) for status, body, key, _ in answers if status == 201)
        for status, body, key, if_match in answers:
            if status == 200:  # an idempotent replay: the same key as the accepted request
                assert key == winner_key and body["version"] == winner_body["version"]
            elif status == 412:
                assert if_match is not None and body["current_version"] > if_match
            elif status == 409:
                assert if_match is None  # lost the race, then found it was no longer its turn
        after = store.read(game_id, after=before)
        assert [e.version for e in after] == list(range(before + 1, before + 1 + len(after)))
        assert [e.type for e in after if e.actor == seat and e.type == "played"] == ["played"]
        assert winner_body["version"] == store.version(game_id)
        races += 1
    log = store.read(game_id)
    assert [e.version for e in log] == list(range(1, len(log) + 1))
