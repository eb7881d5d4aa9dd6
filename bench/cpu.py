"""Where a load run's CPU went, per process, in milliseconds per action.

Read from /proc (the gunicorn workers of the target, the rq worker, the load generator's processes) and
Redis's own INFO cpu. This is what explains
a throughput ratio: on two shared cores, actions per second follow the CPU one action costs in all.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

import redis


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    if int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                        found.append(int(entry))
            except (OSError, ValueError, IndexError):
                pass
    return found


def _cpu_s(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime + stime, in clock ticks
        except (OSError, ValueError, IndexError):
            pass
    return total / os.sysconf("SC_CLK_TCK")


def _redis_cpu_s(client: redis.Redis) -> float:
    info = client.info("cpu")
    return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])


def machine_busy_s() -> float:
    """CPU seconds the whole machine spent busy so far (all processes, all cores), from /proc/stat."""
    with open("/proc/stat") as f:
        values = [int(v) for v in f.readline().split()[1:]]
    idle = values[3] + (values[4] if len(values) > 4 else 0)  # idle + iowait
    return (sum(values[:8]) - idle) / os.sysconf("SC_CLK_TCK")


@dataclass
class CpuUse:
    """Seconds of CPU per process group over one or more runs."""

    seconds: dict[str, float] = field(default_factory=dict)

    def per_action_ms(self, actions: int) -> dict[str, float]:
        return {name: 1000 * s / max(1, actions) for name, s in self.seconds.items()}

    def add(self, other: CpuUse) -> None:
        for name, s in other.seconds.items():
            self.seconds[name] = self.seconds.get(name, 0.0) + s


class SliceMeter:
    """The CPU counters of every measured target's processes and of the load generator, read at each
    slice boundary of an interleaved run (bench/load.py `interleave`). A slice's CPU is what its target's
    processes (its API workers, its rq worker, its Redis) and the load generator spent between the two
    readings around it; the rest of the machine's busy time then is the slice's `elsewhere`."""

    def __init__(self, targets: list, load_generator: list[int]):
        self._readers: dict[tuple, Callable[[], float]] = {("load generator",): lambda: _cpu_s(load_generator)}
        self._groups: list[dict[str, tuple]] = []
        self._clients: list[redis.Redis] = []
        for target in targets:
            stack = target.stack
            api = stack.procs["gunicorn" if target.kind == "service" else "bare"].pid
            groups = {
                "API (gunicorn workers)": ("api", api),
                "Redis": ("redis", stack.redis_url),
                "rq worker": ("worker", stack.procs["worker"].pid),
                "load generator": ("load generator",),
            }
            self._readers.setdefault(groups["API (gunicorn workers)"], partial(_cpu_s, _children(api)))
            self._readers.setdefault(groups["rq worker"], partial(_cpu_s, [stack.procs["worker"].pid]))
            if groups["Redis"] not in self._readers:
                client = redis.Redis.from_url(stack.redis_url)
                self._clients.append(client)
                self._readers[groups["Redis"]] = partial(_redis_cpu_s, client)
            self._groups.append(groups)
        self.readings: list[tuple[dict[tuple, float], float]] = []

    def mark(self) -> None:
        self.readings.append(({key: read() for key, read in self._readers.items()}, machine_busy_s()))

    def close(self) -> None:
        for client in self._clients:
            client.close()

    def use(self, slice_index: int, target_index: int) -> tuple[CpuUse, float]:
        """The CPU of the target's processes during that slice, and the CPU spent elsewhere meanwhile."""
        (before, busy_before), (after, busy_after) = self.readings[slice_index : slice_index + 2]
        seconds = {name: after[key] - before[key] for name, key in self._groups[target_index].items()}
        return CpuUse(seconds), max(0.0, busy_after - busy_before - sum(seconds.values()))
