"""Regression tests of issue 27 (hardening): one per finding, named after it."""

from __future__ import annotations

import signal
import subprocess
import time

import pytest
import redis
from rq import Worker

from events.store import EventStore
from tests.support.processes import start_worker, wait_until
from tests.support.redis_proc import RedisProcess
from tests.support.talon import OPERATOR, auth, make_app, matches_on, run_jobs
from workers.__main__ import STOP_S

BOT_VS_HUMAN = {
    "game": "sixty-six",
    "options": {"first_dealer": 0},
    "seats": [{"kind": "human"}, {"kind": "bot", "level": "basic"}],
}
BOTS_ONLY = {"game": "sixty-six", "seats": [{"kind": "bot", "level": "basic"}, {"kind": "bot", "level": "basic"}]}


@pytest.fixture
def queue_redis():
    """A queue Redis (REDIS_URL) of this test's own, to stop while the events Redis stays up."""
    server = RedisProcess().start()
    yield server
    server.stop()


def test_finding_2_claim_with_queue_down_changes_nothing(r, redis_url, queue_redis, monkeypatch):
    """With the queue Redis down, create, claim and reset either store and answer success (the sweeper
    enqueues the jobs they owe later) or answer an error and store nothing: never an error after a write."""
    client = make_app(queue_redis.url, events_redis_url=redis_url).test_client()
    waiting = client.post("/v1/games", json=BOT_VS_HUMAN).json["game_id"]
    playing = client.post("/v1/games", json=BOT_VS_HUMAN).json["game_id"]
    seat_token = client.post(f"/v1/games/{playing}/players", json={"name": "Bo"}).json["token"]
    queue_redis.stop()

    created = client.post("/v1/games", json=BOTS_ONLY)
    claimed = client.post(f"/v1/games/{waiting}/players", json={"name": "Ana"})
    reset = client.post(f"/v1/ops/games/{playing}/seats/0/reset", headers=auth(OPERATOR))
    assert (created.status_code, claimed.status_code, reset.status_code) == (201, 201, 200), (
        created.get_data(as_text=True),
        claimed.get_data(as_text=True),
        reset.get_data(as_text=True),
    )
    # What was answered is what is stored: the claimed token is the seat's, the reset seat is open again.
    assert client.get(f"/v1/games/{waiting}", headers=auth(claimed.json["token"])).json["seat"] == 0
    assert client.get(f"/v1/games/{playing}", headers=auth(seat_token)).status_code == 401
    assert client.get(f"/v1/games/{playing}").json["players"][0]["claimed"] is False

    # Once the queue is back, the sweeper enqueues what the three writes owe, and the games go on.
    queue_redis.start()
    talon = matches_on(redis.Redis.from_url(queue_redis.url), events_redis_url=redis_url)
    before = {g: talon.table(g).version for g in (created.json["game_id"], waiting, playing)}
    assert talon.sweep(now_ms=0, idle_expiry_s=10**9) == 3
    monkeypatch.setenv("EVENTS_REDIS_URL", redis_url)  # the worker's events Redis
    run_jobs(queue_redis.url)
    assert all(talon.table(g).version > v for g, v in before.items())


def test_finding_5_operator_actions_on_a_finished_match_are_refused(r, redis_url):
    """A seat reset or an abandon after the end is 409 and writes nothing; the log still audits."""
    client = make_app(redis_url).test_client()
    game_id = client.post("/v1/games", json=BOT_VS_HUMAN).json["game_id"]
    client.post(f"/v1/games/{game_id}/players", json={"name": "Ana"})
    # The operator reopens the human seat: its stand-in bot plays it to the end of the match.
    assert client.post(f"/v1/ops/games/{game_id}/seats/0/reset", headers=auth(OPERATOR)).status_code == 200
    for _ in range(50):
        run_jobs(redis_url)
        if client.get(f"/v1/games/{game_id}").json["status"] == "finished":
            break
    ended = client.get(f"/v1/games/{game_id}").json
    assert ended["status"] == "finished"
    for path in (f"/v1/ops/games/{game_id}/seats/0/reset", f"/v1/ops/games/{game_id}/abandon"):
        refused = client.post(path, headers=auth(OPERATOR))
        assert refused.status_code == 409, refused.get_data(as_text=True)
        assert refused.json["type"].endswith("/match-not-active")
    assert client.get(f"/v1/games/{game_id}").json["version"] == ended["version"]
    report = client.get(f"/v1/ops/games/{game_id}/audit", headers=auth(OPERATOR)).json
    assert report["ok"] and report["checks"]["replay"]["match_result"] == "reproduced", report["first_broken"]
    # The audit still refuses anything written after the end (a reset forged past the use cases).
    EventStore(r).append(game_id, [{"type": "seat_reset", "actor": None, "data": {"seat": 0}}], ended["version"])
    forged = client.get(f"/v1/ops/games/{game_id}/audit", headers=auth(OPERATOR)).json
    assert not forged["ok"] and forged["first_broken"]["version"] == ended["version"] + 1


@pytest.mark.parametrize("after_outage_s", [0.0, 3.0])
def test_finding_14_worker_stops_on_sigterm_with_redis_down(tmp_path, after_outage_s):
    """A worker whose Redis is gone stops on SIGTERM within its documented grace period (workers/__main__.py
    STOP_S, deploy/README.md): at once after the outage (rq's loop still trying), and later (the worker
    waiting for Redis to come back)."""
    server = RedisProcess().start()
    log = tmp_path / "worker.log"
    worker = start_worker(server.url, log)
    try:
        client = redis.Redis.from_url(server.url)
        wait_until(lambda: Worker.count(connection=client) > 0, [], "the worker")
        server.stop()
        time.sleep(after_outage_s)  # the state the signal finds the worker in, not a measurement
        assert worker.poll() is None, "the worker died with its Redis:\n" + log.read_text()
        worker.send_signal(signal.SIGTERM)
        try:
            worker.wait(STOP_S)
        except subprocess.TimeoutExpired:
            pytest.fail(f"the worker ignored SIGTERM for {STOP_S} s with Redis down:\n" + log.read_text())
    finally:
        if worker.poll() is None:
            worker.kill()
            worker.wait()
        server.stop()


class FakeClock:
    """The use cases' clock: time moves only when told to, or when they sleep."""

    def __init__(self):
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds


def test_finding_7_bot_reply_time_does_not_depend_on_its_hand(r, monkeypatch):
    """The expert's move is released `bot_think_s` after its turn's job started, whether it had one legal
    move (decided at once) or many (a long decision): the reply time tells nothing about the hand."""
    from app import matches as matches_module
    from games import table as tables

    clock, think_s = FakeClock(), 0.3
    talon = matches_on(r, bot_think_s=think_s)
    talon.clock, talon.sleep = clock, clock.sleep
    decide = matches_module._timed_bot_move

    def decision_taking_time(table, seat):  # a lone legal move is decided at once, others take 0.2 s
        if len(tables.seat_view(table, seat)["legal_actions"]) > 1:
            clock.now += 0.2
        return decide(table, seat)

    monkeypatch.setattr(matches_module, "_timed_bot_move", decision_taking_time)
    saved = talon.tables.save
    released: list[float] = []
    monkeypatch.setattr(talon.tables, "save", lambda *a, **k: (released.append(clock.now), saved(*a, **k))[1])

    created = talon.create_match(
        "sixty-six", {"first_dealer": 0}, [{"kind": "human"}, {"kind": "bot", "level": "expert"}], seed=27
    )
    talon.claim_seat(created.game_id, 0, "Ana")
    reply_s: dict[bool, set[float]] = {True: set(), False: set()}  # one legal move? -> reply times seen
    for _ in range(2000):
        table = talon.table(created.game_id)
        work = tables.owed_work(table)
        if table.status == "finished" or (reply_s[True] and reply_s[False]):
            break
        if work == [("advance", None)]:
            talon.advance(table.game_id, table.version)
        elif work == [("bot", 1)]:
            lone = len(tables.seat_view(table, 1)["legal_actions"]) == 1
            released.clear()
            started = clock.now
            assert talon.bot_turn(table.game_id, table.version, 1)
            reply_s[lone].add(round(released[0] - started, 9))
        else:
            talon.act(table.game_id, tables.seat_view(table, 0)["legal_actions"][0], lambda t: 0)
    assert reply_s == {True: {think_s}, False: {think_s}}


def test_finding_1_human_match_bot_job_goes_before_bot_only_matches(r, redis_url):
    """Bot-only matches' jobs wait in a queue of their own that the worker takes last: with many of them
    queued, the next job the worker takes is the bot's reply in the human's match (order, not time)."""
    talon = matches_on(r)
    crowd = [talon.create_match("fifty-six", {}, [{"kind": "bot", "level": "expert"}] * 8) for _ in range(10)]
    game_id = talon.create_match("sixty-six", {"first_dealer": 0}, BOT_VS_HUMAN["seats"]).game_id
    talon.claim_seat(game_id, 0, "Ana")  # the first deal: the bot (seat 1) leads
    waiting = talon.table(game_id)
    assert tables_owed(waiting) == [("bot", 1)]
    run_jobs(redis_url, max_jobs=1)
    assert talon.table(game_id).version > waiting.version, "a bot-only match's job went first"
    assert [talon.table(c.game_id).version for c in crowd] == [c.version for c in crowd]


def tables_owed(table):
    from games import table as tables

    return tables.owed_work(table)


def test_finding_1_bot_only_matches_are_capped_bounded_and_can_be_ended(r, redis_url, monkeypatch, capsys):
    """An address runs at most TALON_MAX_BOT_MATCHES_PER_ADDRESS unfinished bot-only matches (the operator
    any); match lengths have documented bounds; an operator ends any match (route and `talon abandon`)."""
    from service import cli

    client = make_app(redis_url, rate_limits_enabled=True, max_bot_matches_per_address=2).test_client()
    first, second = (client.post("/v1/games", json=BOTS_ONLY).json["game_id"] for _ in range(2))
    refused = client.post("/v1/games", json=BOTS_ONLY)
    assert refused.status_code == 429 and refused.json["type"].endswith("/too-many-matches")
    assert int(refused.headers["Retry-After"]) > 0
    assert client.post("/v1/games", json=BOT_VS_HUMAN).status_code == 201  # a human's match: not capped
    assert client.post("/v1/games", json=BOTS_ONLY, headers=auth(OPERATOR)).status_code == 201

    ended = client.post(f"/v1/ops/games/{first}/abandon", headers=auth(OPERATOR))
    assert ended.status_code == 200 and ended.json["status"] == "finished"
    assert client.post("/v1/games", json=BOTS_ONLY).status_code == 201  # one ended: room for one
    monkeypatch.setenv("REDIS_URL", redis_url)
    assert cli.main(["abandon", second]) == 0 and "abandoned" in capsys.readouterr().out
    assert cli.main(["abandon", second]) == 1  # finished already
    for game_id in (first, second):
        report = client.get(f"/v1/ops/games/{game_id}/audit", headers=auth(OPERATOR)).json
        assert report["ok"] and report["checks"]["replay"]["match_result"] == "abandoned", report["first_broken"]
        events = client.get(f"/v1/games/{game_id}/events").json["events"]
        assert [e["data"].get("by") for e in events if e["type"] == "match_abandoned"] == ["operator"]

    for options in (
        {"game": "sixty-six", "options": {"match_target": 51}},
        {"game": "smear", "options": {"match_target": 101}},
        {"game": "fifty-six", "options": {"starting_tables": 51}},
    ):
        seats = [{"kind": "human"}] * (2 if options["game"] == "sixty-six" else 4)
        too_long = client.post("/v1/games", json={**options, "seats": seats}, headers=auth(OPERATOR))
        assert too_long.status_code in (400, 422), too_long.get_data(as_text=True)


def test_finding_11_private_matches_and_128_bit_seeds(r, redis_url):
    """A private match is not listed, and its seats are claimed with the join code its creator got
    (once); a generated seed has 128 bits and survives the store, snapshots, views and the audit."""
    client = make_app(redis_url).test_client()
    public = client.post("/v1/games", json=BOT_VS_HUMAN).json
    created = client.post("/v1/games", json={**BOT_VS_HUMAN, "private": True})
    assert created.status_code == 201 and created.json["private"] is True
    game_id, code = created.json["game_id"], created.json["join_code"]
    assert len(code) >= 20 and public["private"] is False and "join_code" not in public
    listed = [g["game_id"] for g in client.get("/v1/games").json["games"]]
    assert listed == [public["game_id"]]
    assert "join_code" not in client.get(f"/v1/games/{game_id}").json  # shown once

    for body in ({"name": "Eve"}, {"name": "Eve", "join_code": code[::-1]}):
        refused = client.post(f"/v1/games/{game_id}/players", json=body)
        assert refused.status_code == 403 and refused.json["type"].endswith("/join-code-refused")
    assert client.get(f"/v1/games/{game_id}").json["players"][0]["claimed"] is False
    claimed = client.post(f"/v1/games/{game_id}/players", json={"name": "Ana", "join_code": code})
    assert claimed.status_code == 201

    ops = client.get(f"/v1/ops/games/{game_id}/events", headers=auth(OPERATOR)).json["events"]
    seed = ops[0]["data"]["seed"]
    assert isinstance(seed, str) and 2**63 <= int(seed) < 2**128  # 128 bits, as digits
    assert "join_code_hash" in ops[0]["data"]
    assert not {"seed", "join_code_hash"} & set(client.get(f"/v1/games/{game_id}/events").json["events"][0]["data"])
    for _ in range(40):  # a deal or more: snapshots of the table with its seed and its join code hash
        run_jobs(redis_url)
        view = client.get(f"/v1/games/{game_id}", headers=auth(claimed.json["token"])).json
        if not view["legal_actions"]:
            break
        client.post(f"/v1/games/{game_id}/actions", json=view["legal_actions"][0], headers=auth(claimed.json["token"]))
    talon = matches_on(r)
    assert talon.table(game_id).seed == int(seed) and talon.table(game_id).private
    report = client.get(f"/v1/ops/games/{game_id}/audit", headers=auth(OPERATOR)).json
    assert report["ok"], report["first_broken"]


def test_finding_11_lobby_pages_skip_private_matches(r):
    """Pages of the lobby fill up past any number of private matches, and page on to the end."""
    talon = matches_on(r)
    human = BOT_VS_HUMAN["seats"]
    older = talon.create_match("sixty-six", {}, human).game_id
    for _ in range(5):
        talon.create_match("sixty-six", {}, human, join_code=talon.new_join_code())
    newer = talon.create_match("sixty-six", {}, human).game_id
    for _ in range(5):
        talon.create_match("sixty-six", {}, human, join_code=talon.new_join_code())
    first, after, more = talon.lobby_page("waiting", None, None, 1)
    assert len(first) == 1 and more
    second, after, more = talon.lobby_page("waiting", None, after, 1)
    assert len(second) == 1 and not more
    # (both may be created in one millisecond: the order among them is then by id)
    assert {e["game_id"] for e in first + second} == {older, newer}


def test_finding_1_a_match_whose_humans_left_waits_behind_human_ones(r):
    """A human match nobody plays any more (its human seat reopened, or taken over after timeouts) is
    played by bots alone: its jobs go to the bot-only matches' queue, not before the human matches'."""
    from rq import Queue

    from adapters.rq_queue import job_id

    talon = matches_on(r)
    game_id = talon.create_match("sixty-six", {"first_dealer": 0}, BOT_VS_HUMAN["seats"]).game_id
    played = talon.claim_seat(game_id, 0, "Ana")[0]
    (owed,) = talon._owed_jobs(played)
    assert job_id(owed) in Queue("talon", connection=r).job_ids
    left = talon.reset_seat(game_id, 0)
    jobs = [job_id(job) for job in talon._owed_jobs(left)]
    assert jobs and set(jobs) <= set(Queue("talon-bots", connection=r).job_ids)
    assert not set(jobs) & set(Queue("talon", connection=r).job_ids)
