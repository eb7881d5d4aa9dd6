"""A worker is SIGKILLed while it plays an all-bot match; a new worker and the sweeper finish it, and the
log is exactly what the same match gives without a crash: no move lost, none made twice."""
from __future__ import annotations

import signal
import subprocess
import time
from pathlib import Path

from events.store import EventStore
from service.usecases import Talon
from tests.support import processes
from tests.support.talon import await_finished, run_jobs

SEATS = [{"kind": "bot", "level": "basic"}, {"kind": "bot", "level": "random"}]
OPTIONS = {"first_dealer": 0, "match_target": 30}  # long enough to be killed in the middle


def start_worker(redis_url: str, log_path: Path) -> subprocess.Popen:
    return processes.start_worker(redis_url, log_path, TALON_SWEEP_INTERVAL_S="1", TALON_STALE_JOB_S="2",
                                  LOG_LEVEL="WARNING")


def moves(store: EventStore, game_id: str) -> list[tuple]:
    return [(e.type, e.actor, e.data) for e in store.read(game_id) if e.type != "match_created"]


def test_sigkilled_worker_loses_no_move_and_repeats_none(r, redis_url, tmp_path):
    talon = Talon(r)
    store = talon.store
    crashed = talon.create_match("sixty-six", OPTIONS, SEATS, seed=77)
    log = tmp_path / "worker.log"
    killed_mid_match = 0
    for pause in (0.05, 0.13, 0.21):  # the worker is busy nearly all the time: each job enqueues the next
        worker = start_worker(redis_url, log)
        moving_from = store.version(crashed.game_id)
        deadline = time.monotonic() + 20
        while store.version(crashed.game_id) == moving_from and time.monotonic() < deadline:
            time.sleep(0.01)  # until the new worker is playing
        time.sleep(pause)
        worker.send_signal(signal.SIGKILL)
        worker.wait(10)
        killed_mid_match += talon.table(crashed.game_id).status == "active"
    assert killed_mid_match, "every kill came after the match had ended: nothing was tested"

    worker = start_worker(redis_url, log)
    try:
        await_finished(talon, crashed.game_id, 60,
                       lambda: "the match did not finish after the crash:\n" + log.read_text())
    finally:
        worker.terminate()
        worker.wait(10)

    calm = talon.create_match("sixty-six", OPTIONS, SEATS, seed=77)  # the same match, without crashes
    run_jobs(redis_url)
    assert talon.table(calm.game_id).status == "finished"
    assert moves(store, crashed.game_id) == moves(store, calm.game_id)
