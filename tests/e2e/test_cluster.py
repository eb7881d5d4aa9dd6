"""Scale-out end to end: the event store on a 3-primary Redis Cluster, the queues on a standalone Redis,
two gunicorn instances and two rq workers, each its own process on loopback.

Matches of every game are played by seeded random humans whose every request goes to a randomly chosen
API instance while the workers play the bots. Then: every match finished, every log is gapless, every
audit passes, the games are spread over all three primaries, and the feed holds every event exactly
once. Finally one worker is killed in the middle of a bot job and the other finishes the match.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import pytest
import redis
import requests
from rq import Worker

from tests.e2e.conftest import OPERATOR_TOKEN, Proc, spawn, spawn_api, wait_ready
from tests.support.cluster import Cluster
from tests.support.processes import BIN, WORKER_COMMAND, stop_process
from tests.support.redis_proc import RedisProcess

pytestmark = pytest.mark.slow

MATCHES_TIMEOUT_S = 60.0
OPS = {"Authorization": f"Bearer {OPERATOR_TOKEN}"}
# (game, seats, options): one human seat (seat 0) played over HTTP, the rest bots; short matches.
MATCHES = [
    ("sixty-six", 2, {"match_target": 3}),
    ("fifty-six", 4, {"starting_tables": 1}),
    ("smear", 4, {"widow_size": 2, "match_target": 5}),
]
PER_GAME = 2
IDLE_MATCHES = 24  # created and left waiting: enough games to show the spread over the primaries


@pytest.fixture
def scaled(tmp_path_factory):
    workdir = Path(tempfile.mkdtemp(prefix="talon-cluster-"))
    cluster = Cluster(workdir)
    queues = RedisProcess(workdir=str(workdir))
    procs: list[Proc] = []
    try:
        cluster.start()
        queues.start()
        env = {
            **os.environ,
            "REDIS_URL": queues.url,
            "EVENTS_REDIS_URL": cluster.url,
            "OPERATOR_TOKEN": OPERATOR_TOKEN,
            "WEB_CONCURRENCY": "1",
            "PYTHONUNBUFFERED": "1",
            "LOG_LEVEL": "WARNING",
            "TALON_RATE_LIMIT_ACTIONS": "500/second",
            "TALON_RATE_LIMIT_CREATE": "1000/minute",
            "TALON_SWEEP_INTERVAL_S": "1",
            "TALON_STALE_JOB_S": "2",
        }
        apis = []
        for i in range(2):
            base_url, api = spawn_api(workdir, env, name=f"api{i}")
            procs.append(api)
            apis.append(base_url)
        for i in range(2):
            procs.append(spawn(f"worker{i}", WORKER_COMMAND, env, workdir))
        for base in apis:
            wait_ready(base, procs)
        yield {"apis": apis, "cluster": cluster, "queues": queues, "procs": procs}
    except Exception:
        print("\n".join(f"----- {p.name} -----\n{p.log()}" for p in procs))
        raise
    finally:
        for proc in reversed(procs):
            stop_process(proc.popen)
        queues.stop()
        cluster.stop()
        shutil.rmtree(workdir, ignore_errors=True)


class Player:
    """One human seat played with random legal actions; each request to a random API instance."""

    def __init__(self, apis: list[str], rng: random.Random):
        self.apis, self.rng, self.http = apis, rng, requests.Session()

    def url(self, path: str) -> str:
        return self.rng.choice(self.apis) + path

    def create(self, game: str, n_seats: int, options: dict, human: bool = True, level: str = "basic") -> str:
        seats = [{"kind": "human"}] * human + [{"kind": "bot", "level": level}] * (n_seats - human)
        created = self.http.post(
            self.url("/v1/games"), json={"game": game, "options": options, "seats": seats}, timeout=10
        )
        assert created.status_code == 201, created.text
        return created.json()["game_id"]

    def play(self, game_id: str, deadline: float) -> dict:
        claimed = self.http.post(self.url(f"/v1/games/{game_id}/players"), json={"name": "Rand"}, timeout=10)
        assert claimed.status_code == 201, claimed.text
        auth = {"Authorization": f"Bearer {claimed.json()['token']}"}
        while True:
            assert time.monotonic() < deadline, f"match {game_id} did not finish in time"
            view = self.http.get(self.url(f"/v1/games/{game_id}"), headers=auth, timeout=10).json()
            if view["status"] == "finished":
                return view
            if view["legal_actions"]:
                self.http.post(
                    self.url(f"/v1/games/{game_id}/actions"),
                    headers=auth,
                    timeout=10,
                    json=self.rng.choice(view["legal_actions"]),
                )  # 409/422 after a race: read again
            else:
                self.http.get(
                    self.url(f"/v1/games/{game_id}?wait=5"),
                    timeout=10,
                    headers={**auth, "If-None-Match": f'"{view["version"]}"'},
                )


def play_all(apis: list[str]) -> list[str]:
    deadline = time.monotonic() + MATCHES_TIMEOUT_S
    games, errors, threads = [], [], []

    def one(game: str, n_seats: int, options: dict, seed: int) -> None:
        try:
            player = Player(apis, random.Random(seed))
            game_id = player.create(game, n_seats, options)
            games.append(game_id)
            assert player.play(game_id, deadline)["winner"] is not None
        except BaseException as exc:  # noqa: BLE001 - reported by the main thread
            errors.append(exc)

    for n, (game, n_seats, options) in enumerate(MATCHES * PER_GAME):
        threads.append(threading.Thread(target=one, args=(game, n_seats, options, 1100 + n)))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(MATCHES_TIMEOUT_S + 15)
    assert not errors, errors
    return games


def full_log(apis: list[str], game_id: str) -> list[dict]:
    events, cursor = [], None
    while True:
        params = {"limit": 500, **({"cursor": cursor} if cursor else {})}
        page = requests.get(
            f"{random.choice(apis)}/v1/ops/games/{game_id}/events", params=params, headers=OPS, timeout=10
        ).json()
        events += page["events"]
        if not page["has_more"]:
            return events
        cursor = page["next_cursor"]


def test_matches_on_a_cluster_across_two_instances_and_two_workers(scaled):
    apis, cluster = scaled["apis"], scaled["cluster"]
    played = play_all(apis)
    idle = [Player(apis, random.Random(n)).create("sixty-six", 2, {}) for n in range(IDLE_MATCHES)]
    assert len(played) == len(MATCHES) * PER_GAME

    versions = {}
    for game_id in played + idle:
        log = full_log(apis, game_id)
        assert [e["version"] for e in log] == list(range(1, len(log) + 1)), f"gap in {game_id}"
        versions[game_id] = len(log)
    for game_id in played:
        report = requests.get(f"{random.choice(apis)}/v1/ops/games/{game_id}/audit", headers=OPS, timeout=30).json()
        assert report["ok"], report

    # The operators' command reads the same Cluster (EVENTS_REDIS_URL).
    env = {**os.environ, "REDIS_URL": scaled["queues"].url, "EVENTS_REDIS_URL": cluster.url}
    audited = subprocess.run(
        [str(BIN / "python"), "-m", "service.cli", "audit", played[0]],
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert audited.returncode == 0, audited.stdout + audited.stderr

    client = cluster.client()
    primaries = {client.get_node_from_key(f"talon:{{g:{g}}}:events").name for g in versions}
    assert len(primaries) == 3, f"games on {primaries} only"

    # The raw feed (no deduplication): every (game, version) exactly once; no intent left behind.
    feed = [(f[b"g"].decode(), int(f[b"v"])) for _, f in client.xrange("talon:feed")]
    assert sorted(feed) == sorted((g, v) for g, n in versions.items() for v in range(1, n + 1))
    assert client.zcard("talon:{talon:feed}:pending") == 0


def worker_pid_busy(queues_url: str, pid: int) -> bool:
    """The worker with this pid is running a bot's move (not a catch-up of the projections, say), as
    rq's worker record says."""
    for worker in Worker.all(connection=redis.Redis.from_url(queues_url)):
        if worker.pid == pid and worker.get_state() == "busy":
            return (worker.get_current_job_id() or "").startswith("bot-")
    return False


def test_a_worker_killed_mid_bot_job_and_the_other_finishes_the_match(scaled):
    apis, procs = scaled["apis"], scaled["procs"]
    player = Player(apis, random.Random(7))
    # All bots, expert at seat 0 (its rollouts keep a worker busy for a while), a long match.
    game_id = player.create("sixty-six", 2, {"match_target": 11}, human=False, level="expert")
    victim = next(p for p in procs if p.name == "worker0").popen
    deadline = time.monotonic() + 20
    while not worker_pid_busy(scaled["queues"].url, victim.pid):
        assert time.monotonic() < deadline, "worker0 never took a job"
        time.sleep(0.005)
    victim.send_signal(signal.SIGKILL)
    victim.wait(10)
    assert requests.get(f"{apis[0]}/v1/games/{game_id}", timeout=10).json()["status"] == "active"

    deadline = time.monotonic() + 45
    while True:
        view = requests.get(f"{random.choice(apis)}/v1/games/{game_id}", timeout=10).json()
        if view["status"] == "finished":
            break
        assert time.monotonic() < deadline, "the surviving worker did not finish the match"
        time.sleep(0.2)
    log = full_log(apis, game_id)
    assert [e["version"] for e in log] == list(range(1, len(log) + 1))
    report = requests.get(f"{apis[1]}/v1/ops/games/{game_id}/audit", headers=OPS, timeout=30).json()
    assert report["ok"], report
