"""A worker is SIGKILLed while it plays an all-bot match; a new worker and the sweeper finish it, and the
log is exactly what the same match gives without a crash: no move lost, none made twice.

The kills do not depend on the machine's speed. The test waits (XREAD BLOCK) for the worker's first
append, then freezes every writer with `CLIENT PAUSE ... WRITE`: the worker's next append (or job
bookkeeping) blocks inside Redis, so it is held in the middle of a job at a known point, with the match
provably still running (the test reads its log while nothing can be written), and only then killed.
"""

from __future__ import annotations

import signal
import subprocess
from pathlib import Path

from app.matches import Matches
from events.store import EventStore
from tests.support import processes
from tests.support.talon import await_finished, matches_on, run_jobs

SEATS = [{"kind": "bot", "level": "basic"}, {"kind": "bot", "level": "random"}]
OPTIONS = {"first_dealer": 0, "match_target": 30}
KILLS = 3
PAUSE_MS = 30_000  # longer than any step below; lifted explicitly once the worker is dead


def start_worker(redis_url: str, log_path: Path) -> subprocess.Popen:
    return processes.start_worker(
        redis_url, log_path, TALON_SWEEP_INTERVAL_S="1", TALON_STALE_JOB_S="2", LOG_LEVEL="WARNING"
    )


def moves(store: EventStore, game_id: str) -> list[tuple]:
    return [(e.type, e.actor, e.data) for e in store.read(game_id) if e.type != "match_created"]


def kill_mid_job(r, talon: Matches, game_id: str, worker: subprocess.Popen) -> None:
    """Waits for the worker's next append, freezes all writes, checks the match is still running, and
    kills the worker while it is held."""
    stream = f"talon:{{g:{game_id}}}:events"  # the store's documented layout (docs/ARCHITECTURE.md)
    head = talon.store.version(game_id)
    assert r.xread({stream: f"{head}-0"}, block=20_000, count=1), "the worker made no move in 20 s"
    r.execute_command("CLIENT", "PAUSE", PAUSE_MS, "WRITE")
    try:
        # Read with XRANGE: a script (the table's load) would wait for the pause like the worker.
        ended = [e.type for e in talon.store.read(game_id) if e.type in ("match_ended", "match_abandoned")]
        assert not ended, "the match ended before the worker was held"
        worker.send_signal(signal.SIGKILL)
        worker.wait(10)
    finally:
        r.execute_command("CLIENT", "UNPAUSE")


def test_sigkilled_worker_loses_no_move_and_repeats_none(r, redis_url, tmp_path):
    talon = matches_on(r)
    store = talon.store
    crashed = talon.create_match("sixty-six", OPTIONS, SEATS, seed=77)
    log = tmp_path / "worker.log"
    for _ in range(KILLS):
        kill_mid_job(r, talon, crashed.game_id, start_worker(redis_url, log))

    worker = start_worker(redis_url, log)
    try:
        await_finished(
            talon, crashed.game_id, 60, lambda: "the match did not finish after the crash:\n" + log.read_text()
        )
    finally:
        worker.terminate()
        worker.wait(10)

    calm = talon.create_match("sixty-six", OPTIONS, SEATS, seed=77)  # the same match, without crashes
    run_jobs(redis_url)
    assert talon.table(calm.game_id).status == "finished"
    assert moves(store, crashed.game_id) == moves(store, calm.game_id)
