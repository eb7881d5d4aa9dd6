"""What the use cases need from the outside that is not the event store: a job queue.

The use cases (app/matches.py) say which jobs a table is owed; a `JobQueue` runs them later, at most
once each per (kind, game, version, seat): a duplicate enqueue is harmless, and every job re-checks the
game's version before it appends, so a stale or repeated job does nothing. The rq adapter is
adapters/rq_queue.py; tests use an in-memory queue with the same contract (tests/fakes.py).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

JOB_KINDS = ("advance", "bot", "timeout")   # a system step; a bot's move; a human's turn timer


@dataclass(frozen=True)
class Job:
    kind: str                 # one of JOB_KINDS
    game_id: str
    version: int              # the table's version when the job was owed
    seat: int | None = None   # the seat of a bot's move or a turn timer
    delay_s: float = 0.0      # run it no sooner than this
    # The job of a match the bots play alone (no human seat, or every one open or taken over): queued
    # apart and taken only when no human match's job waits, so that any number of them cannot slow the
    # bots' replies in a match a human plays.
    background: bool = False


class JobQueue(Protocol):
    def enqueue(self, jobs: Sequence[Job]) -> int:
        """Queues each job unless one with its (kind, game, version, seat) is queued or ran already;
        returns how many were new. Raises the builtin ConnectionError when the queue cannot be reached."""
        ...

    def repair(self, jobs: Sequence[Job]) -> int:
        """The sweeper's enqueue: a job that is missing, failed, or whose worker died with it is queued
        (again); one that is waiting or running is left alone. Returns how many were queued."""
        ...

    def depths(self) -> dict[str, int]:
        """Jobs by state ("queued", "started", "scheduled", "deferred", "failed"), for the metrics."""
        ...
