"""Ratings, histories and leaderboards as projections of the event logs (app/projections.py), on a real
Redis: a hand-computed Glicko-2 sequence, a rebuild equal to the incremental projection over 200 mixed
matches (abandoned and taken-over ones among them), and a worker killed in the middle of an update."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import textwrap

import orjson
import pytest

from adapters.redis_players import RedisPlayerStore
from adapters.redis_projections import RedisProjectionStore
from app.matches import Matches
from app.players import Players
from app.projections import Projections
from events.store import EventStore
from tests.support.play import KINDS, Recorder, play, start

BOT_LEVELS = ("random", "basic")


def _projections(r, hook=None) -> tuple[EventStore, Matches, Projections, Players]:
    store = EventStore(r)
    matches = Matches(store, Recorder())
    projections = Projections(store, RedisProjectionStore(r), hook=hook)
    return store, matches, projections, Players(RedisPlayerStore(r), matches, projections)


def _two_player_match(store: EventStore, game_id: str, first: str, second: str, winner: int) -> None:
    """A finished Sixty-Six match between two registered players, written as its events (the projection
    reads only the log): `winner` is the winning seat."""
    created = {
        "game_id": game_id,
        "game": "sixty-six",
        "options": {"match_target": 7},
        "first_dealer": 0,
        "turn_timeout_s": None,
        "takeover_after": 2,
        "seats": [{"kind": "human"}, {"kind": "human"}],
        "seed": 1,
        "decks": [],
    }
    events = [{"type": "match_created", "actor": None, "data": created}]
    for seat, player in enumerate((first, second)):
        events.append(
            {
                "type": "seat_claimed",
                "actor": seat,
                "data": {"seat": seat, "name": player, "token_hash": "0" * 64, "player_id": player},
            }
        )
    standing = [{"seats": [0], "score": 7 if winner == 0 else 2}, {"seats": [1], "score": 7 if winner == 1 else 2}]
    events.append({"type": "match_ended", "actor": None, "data": {"winner": [winner], "standing": standing}})
    store.append(game_id, events, 0)


A, B = "aaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbb"


def test_ratings_after_a_fixed_sequence_equal_a_hand_computed_glicko2_example(r):
    """A beats B, A beats B, B beats A; each match one rating period (docs/ratings.md §2). Worked by hand
    with the steps of Glickman's paper (τ = 0.5), every step's numbers below:

    1. both 1500/350/0.06: μ = 0, φ = 350/173.7178 = 2.014762 (the cap), g(φ) = 0.669069, E = 0.5,
       v = 1/(g²E(1-E)) = 8.935475, Δ = v g (1 - E) = 2.989226, σ' = 0.0599997, φ* = 2.014762 (capped),
       φ' = 1/√(1/φ*² + 1/v) = 1.670701, μ' = φ'² g (1 - E) = 0.933767:
       A 1662.21/290.23, B 1337.79/290.23.
    2. μA = 0.933767, μB = -0.933767, φ = 1.670701: g = 0.735526, E(A) = 0.797964, v = 11.465496,
       Δ = 1.703800, σ' = 0.0599989, φ* = 1.671778, φ' = 1.499029, μ' = 1.267690:
       A 1720.22/260.41, B 1279.78/260.41.
    3. g = 0.770821, E(A) = 0.875917, v = 15.485272, Δ(A) = -10.455281, σ' = 0.0600029, φ* = 1.500230,
       φ' = 1.401812, μ'(A) = -0.059082: A 1489.74/243.52, B 1510.26/243.52.
    """
    store, _, projections, _ = _projections(r)
    for n, winner in enumerate((0, 0, 1)):
        _two_player_match(store, f"hand{n}", A, B, winner)
    assert projections.catch_up() == 3
    ratings = RedisProjectionStore(r).all_ratings(0, "sixty-six")
    assert ratings[A][:2] == pytest.approx([1489.7363, 243.5197], abs=1e-3)
    assert ratings[B][:2] == pytest.approx([1510.2637, 243.5197], abs=1e-3)
    assert ratings[A][2] == pytest.approx(0.06, abs=1e-5) and ratings[A][3] == ratings[B][3] == 3
    history, _, more = projections.history(A, None, 10)
    assert [h["game_id"] for h in history] == ["hand2", "hand1", "hand0"] and not more
    assert [(h["own"]["outcome"], h["own"]["rating_before"], h["own"]["rating_after"]) for h in history] == [
        ("lost", 1720, 1490),
        ("won", 1662, 1720),
        ("won", 1500, 1662),
    ]
    assert projections.catch_up() == 0  # nothing new: nothing counted again


def _mixed_matches(matches: Matches, players: list[str], count: int, rng: random.Random, every=None) -> dict:
    """`count` matches of every game and size: registered players, guests and bots of two levels; some
    abandoned (idle, during play or before every seat was taken), some taken over by the stand-in bot
    (the human's turn timer runs out each time), some whose seat the operator resets and another player
    takes. `every(i)` is called after each match (the incremental projection catching up)."""
    kinds = {"finished": 0, "abandoned": 0, "taken_over": 0, "reset": 0}  # abandoned: counted from the table
    for i in range(count):
        game, options, n = KINDS[i % len(KINDS)]
        humans = rng.randint(1, min(2, n))
        seats = [{"kind": "human"}] * humans + [
            {"kind": "bot", "level": rng.choice(BOT_LEVELS)} for _ in range(n - humans)
        ]
        chosen = rng.sample(players, humans)
        holders = [p if rng.random() < 0.85 else None for p in chosen]  # some guests
        fate = rng.random()
        if fate < 0.08:  # never starts: a seat is left open, and the sweeper closes the match
            game_id, _ = start(matches, game, options, seats, holders[:-1] if humans > 1 else [], rng)
            _abandon(matches)
        elif fate < 0.16:  # abandoned in the middle of play
            game_id, _ = start(matches, game, options, seats, holders, rng)
            play(matches, game_id, rng, stop_after=rng.randint(1, 12))
            _abandon(matches)
        elif fate < 0.26:  # the first human lets every turn run out: the stand-in bot plays the seat
            game_id, _ = start(matches, game, options, seats, holders, rng, timeout=True)
            play(matches, game_id, rng, time_out=frozenset({0}))
            kinds["taken_over"] += 1
        elif fate < 0.32:  # the operator resets seat 0 early; another player takes it and plays on
            game_id, _ = start(matches, game, options, seats, holders, rng)
            if not play(matches, game_id, rng, stop_after=2).finished:
                matches.reset_seat(game_id, 0)
                matches.claim_seat(game_id, 0, "late", rng.choice([p for p in players if p not in chosen]))
                play(matches, game_id, rng)
                kinds["reset"] += 1
        else:
            game_id, _ = start(matches, game, options, seats, holders, rng)
            play(matches, game_id, rng)
            kinds["finished"] += 1
        table = matches.table(game_id)
        assert table.finished
        kinds["abandoned"] += table.abandoned
        if every is not None:
            every(i)
    return kinds


def _abandon(matches: Matches) -> None:
    """The sweeper, a week later: every match not over is closed (here: the one just left)."""
    import time

    matches.sweep(now_ms=int(time.time() * 1000) + 7 * 86_400_000, idle_expiry_s=3600)


def _readers(projections: Projections, players: list[str]) -> dict:
    """What the routes read: every player's whole history and ratings, and every leaderboard."""
    seen = {}
    for player in players:
        items, position = [], None
        while True:
            page, position, more = projections.history(player, position, 7)
            items += page
            if not more:
                break
        seen[player] = (items, projections.ratings_of(player))
    for game in ("sixty-six", "fifty-six", "smear"):
        seen[game] = projections.leaderboard(game, 100, players[0])
    return seen


def test_rebuild_equals_the_incremental_projection_after_200_mixed_matches(r):
    store, matches, projections, registry = _projections(r)
    rng = random.Random(24)
    players = [registry.register(f"P{i}")[0].player_id for i in range(6)]
    kinds = _mixed_matches(matches, players, 200, rng, every=lambda i: projections.catch_up() if i % 7 == 3 else None)
    projections.catch_up()
    assert kinds["abandoned"] >= 10 and kinds["taken_over"] >= 10 and kinds["reset"] >= 5, kinds
    incremental, read_before = projections.dump(), _readers(projections, players)

    records = [v for k, v in incremental.items() if k.startswith("match:")]
    assert len(records) == 200
    # Abandoned matches are recorded (those without a registered player only as applied: "{}").
    assert 5 <= sum('"status":"abandoned"' in m["record"] for m in records) <= kinds["abandoned"]
    assert any(m["record"] == "{}" for m in records)
    assert any(h["own"]["outcome"] == "won" and h["own"]["rated"] for h in read_before[players[0]][0])
    assert any(
        not h["own"]["rated"] and h["result"]["status"] == "finished" for p in players for h in read_before[p][0]
    )  # taken over: not rated
    assert any(entries for entries, _ in (read_before[g] for g in ("sixty-six", "fifty-six", "smear")))
    for game in ("sixty-six", "fifty-six", "smear"):  # the boards: eligible players only, best first
        entries, _ = projections.leaderboard(game, 100)
        assert all(e["player_id"] in players and e["matches"] >= 10 and e["deviation"] <= 110 for e in entries)
        assert [e["rating"] for e in entries] == sorted((e["rating"] for e in entries), reverse=True)
        for entry in entries:  # each one's own rank is their place
            assert projections.leaderboard(game, 1, entry["player_id"])[1]["rank"] == entry["rank"]

    assert projections.rebuild() == 200
    assert projections.dump() == incremental
    assert _readers(projections, players) == read_before
    # A second rebuild (from a generation that was itself rebuilt) still agrees.
    assert projections.rebuild() == 200 and projections.dump() == incremental


KILLER = textwrap.dedent("""
    import os, signal, sys, redis
    from adapters.redis_projections import RedisProjectionStore
    from app.projections import Projections
    from events.store import EventStore
    url, point, nth = sys.argv[1], sys.argv[2], int(sys.argv[3])
    calls = []
    def hook(at, game_id):
        if at == point:
            calls.append(game_id)
            if len(calls) == nth:
                os.kill(os.getpid(), signal.SIGKILL)   # the worker dies here, as under the OOM killer
    client = redis.Redis.from_url(url)
    Projections(EventStore(client), RedisProjectionStore(client), hook=hook).catch_up()
""")


@pytest.mark.parametrize("point", ["before_commit", "after_commit"])
def test_a_worker_killed_mid_update_counts_no_match_twice(r, redis_url, point):
    """A worker process is killed (SIGKILL) at the 5th match's update, before or after its atomic write;
    the next worker goes on from the cursor. The result equals a rebuild, and every participant's count of
    rated matches is the number of records that rated them."""
    store, matches, projections, registry = _projections(r)
    rng = random.Random(7)
    players = [registry.register(f"K{i}")[0].player_id for i in range(3)]
    _mixed_matches(matches, players, 12, rng)
    child = subprocess.run(
        [sys.executable, "-c", KILLER, redis_url, point, "5"], capture_output=True, cwd=os.getcwd(), timeout=120
    )
    assert child.returncode == -signal.SIGKILL, child.stderr.decode()
    written = sum(k.startswith("match:") for k in projections.dump())
    assert written == (4 if point == "before_commit" else 5)  # all of a match or none of it
    projections.catch_up()  # the next worker
    recovered = projections.dump()
    records = [k for k in recovered if k.startswith("match:")]
    assert len(records) == 12
    counted: dict[str, dict[str, int]] = {}  # game -> participant -> records that rated them
    for key in records:
        record = orjson.loads(recovered[key]["record"])
        for participant in record.get("ratings", {}):  # {}: a match without a registered player
            per_game = counted.setdefault(record["game"], {})
            per_game[participant] = per_game.get(participant, 0) + 1
    stored = {
        key.removeprefix("ratings:"): {p: int(orjson.loads(v)[3]) for p, v in ratings.items()}
        for key, ratings in recovered.items()
        if key.startswith("ratings:")
    }
    assert stored == counted and counted
    assert projections.rebuild() == 12 and projections.dump() == recovered


def test_a_worker_that_fails_between_reading_and_writing_leaves_the_projection_as_it_was(r):
    """The same in-process: an exception at the update's last step, then a clean catch-up."""
    store, matches, projections, registry = _projections(r)
    rng = random.Random(3)
    players = [registry.register(f"E{i}")[0].player_id for i in range(2)]
    _mixed_matches(matches, players, 6, rng)

    def fail(at, game_id):
        if at == "before_commit":
            raise RuntimeError("worker lost")

    failing = Projections(store, RedisProjectionStore(r), hook=fail)
    with pytest.raises(RuntimeError):
        failing.catch_up()
    assert projections.dump() == {}
    assert projections.catch_up() == 6
    done = projections.dump()
    assert projections.catch_up() == 0 and projections.dump() == done


def test_the_talon_rebuild_command_recomputes_the_projections(r, redis_url, monkeypatch, capsys):
    from service.cli import main

    store, matches, projections, registry = _projections(r)
    rng = random.Random(11)
    players = [registry.register(f"C{i}")[0].player_id for i in range(2)]
    _mixed_matches(matches, players, 8, rng)
    projections.catch_up()
    incremental = projections.dump()
    monkeypatch.setenv("REDIS_URL", redis_url)
    assert main(["rebuild"]) == 0
    out = capsys.readouterr()
    assert "8 matches recorded" in out.out and "warning" not in out.err
    assert projections.dump() == incremental
    r.xtrim("talon:feed", maxlen=0)  # a feed trimmed past the match ends
    assert main(["rebuild"]) == 0
    assert "8 finished matches in the lobby but 0" in capsys.readouterr().err


def test_a_match_end_repeated_in_the_feed_counts_once(r):
    """On a Redis Cluster a repaired append may show twice in the feed (events/crossslot.py): the second
    sighting of a match's end changes nothing."""
    store, matches, projections, registry = _projections(r)
    players = [registry.register(f"D{i}")[0].player_id for i in range(2)]
    _mixed_matches(matches, players, 3, random.Random(5))
    assert projections.catch_up() == 3
    done = projections.dump()
    for entry in [e for e in store.feed(count=10_000) if e.type in ("match_ended", "match_abandoned")]:
        r.xadd("talon:feed", {"g": entry.game_id, "v": entry.version, "t": entry.type})
    assert projections.catch_up() == 0
    assert projections.dump() == done  # (the cursor, which moved on, is not in the dump)


def test_a_rebuild_that_died_half_way_leaves_nothing_behind_the_next_one(r):
    store, matches, projections, registry = _projections(r)
    players = [registry.register(f"H{i}")[0].player_id for i in range(2)]
    _mixed_matches(matches, players, 4, random.Random(9))
    projections.catch_up()
    done = projections.dump()
    half_way = RedisProjectionStore(r).new_generation()  # a rebuild killed before it switched
    assert Projections(store, RedisProjectionStore(r)).catch_up(half_way) == 4
    assert projections.dump() == done  # readers never saw it
    assert projections.rebuild() == 4 and projections.dump() == done
    assert {k.decode().split(":")[2] for k in r.scan_iter("talon:{players}:g*:*")} == {f"g{half_way + 1}"}
