"""The rq worker class Talon runs: rq's SimpleWorker with a cheaper heartbeat.

rq 3 sends a worker heartbeat as three separate commands (HSET `last_heartbeat`, EXPIRE on the worker
key and on its executions set), each its own round trip, and sends it three times around every job
outside a pipeline: when it starts listening, after the dequeue, and when the job is done. A round's
scoring is a job every few moves, so those nine round trips were a large part of what the worker spends
on rq rather than on the game (`python -m bench.rqcost`).

Here a heartbeat outside a pipeline is sent as one pipeline (the same commands, one round trip), and is
skipped when one with at least the same time-to-live went out less than HEARTBEAT_REPEAT_S ago: the
worker key then still lives for nearly as long as the new heartbeat would have made it (rq's idle wait is
a minute shorter than the key's life). Heartbeats rq sends inside its own pipelines are left as they are.
The worker's state is written once when rq sets the same state twice in a row outside a pipeline (it
sets `idle` after every job and again when it starts listening).
"""
from __future__ import annotations

import time

from rq import SimpleWorker

HEARTBEAT_REPEAT_S = 1.0


class TalonWorker(SimpleWorker):
    _last_beat: tuple[float, int] | None = None   # (monotonic time, time-to-live) of the last heartbeat

    def heartbeat(self, timeout: int | None = None, pipeline=None) -> None:
        timeout = timeout or self.worker_ttl + 60
        if pipeline is not None:
            super().heartbeat(timeout, pipeline)
        elif not self._beat_is_fresh(timeout):
            with self.connection.pipeline(transaction=False) as own:
                super().heartbeat(timeout, own)
                own.execute()
        else:
            return
        self._last_beat = (time.monotonic(), timeout)

    def set_state(self, state: str, pipeline=None) -> None:
        if pipeline is None and state == self._state:
            return
        super().set_state(state, pipeline)

    def _beat_is_fresh(self, timeout: int) -> bool:
        if self._last_beat is None:
            return False
        sent_at, ttl = self._last_beat
        return time.monotonic() - sent_at < HEARTBEAT_REPEAT_S and ttl >= timeout
