"""Where a load run's CPU went, per process, in milliseconds per action.

Read from /proc (the gunicorn workers of the target, the rq worker), Redis's own INFO cpu, and
getrusage of this process's finished children (the load generator's processes). This is what explains
a throughput ratio: on two shared cores, actions per second follow the CPU one action costs in all.
"""
from __future__ import annotations

import os
import resource
from dataclasses import dataclass, field

import redis

from bench import load
from bench.stack import Stack


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
    idle = values[3] + (values[4] if len(values) > 4 else 0)   # idle + iowait
    return (sum(values[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def _load_generator_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


@dataclass
class CpuUse:
    """Seconds of CPU per process group over one or more runs."""
    seconds: dict[str, float] = field(default_factory=dict)

    def per_action_ms(self, actions: int) -> dict[str, float]:
        return {name: 1000 * s / max(1, actions) for name, s in self.seconds.items()}

    def add(self, other: "CpuUse") -> None:
        for name, s in other.seconds.items():
            self.seconds[name] = self.seconds.get(name, 0.0) + s


class CpuMeter:
    """`with CpuMeter(stack, "service") as meter: ...`, then `meter.use`."""

    def __init__(self, stack: Stack, target: str):
        self.api = _children(stack.procs["gunicorn" if target == "service" else "bare"].pid)
        self.worker = [stack.procs["worker"].pid]
        self.client = redis.Redis.from_url(stack.redis_url)
        self.use = CpuUse()

    def _read(self) -> dict[str, float]:
        return {"API (gunicorn workers)": _cpu_s(self.api), "Redis": _redis_cpu_s(self.client),
                "rq worker": _cpu_s(self.worker), "load generator": _load_generator_s()}

    def __enter__(self) -> "CpuMeter":
        self._start = self._read()
        self._machine = machine_busy_s()
        return self

    def __exit__(self, *exc) -> None:
        end = self._read()
        self.use.seconds = {name: end[name] - self._start[name] for name in end}
        # Whatever else kept the cores busy meanwhile (other stacks, a Redis fork, the host's own work).
        self.elsewhere_s = max(0.0, machine_busy_s() - self._machine - sum(self.use.seconds.values()))
        self.client.close()


def run_measured(stack: Stack, target: str, clients: int, seconds: float,
                 total: load.LoadStats) -> tuple[load.LoadStats, float]:
    """One load slice with the CPU its processes spent, added to `total`, which sums slices run one after
    another (their seconds add up, unlike the clients `load.run` merges). Returns the slice and the CPU
    spent elsewhere on the machine meanwhile."""
    with CpuMeter(stack, target) as meter:
        part = load.run(stack, target, clients, seconds)
    total.merge(part)
    total.seconds += part.seconds
    if total.cpu is None:
        total.cpu = CpuUse()
    total.cpu.add(meter.use)
    return part, meter.elsewhere_s
