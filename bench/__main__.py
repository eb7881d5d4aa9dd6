"""`python -m bench [--matches N] [--seconds S] [--repetitions R]`: Talon's figures, as one table.

Starts Redis (append-only, noeviction, as `make run` does), gunicorn (deploy/gunicorn.conf.py,
WEB_CONCURRENCY=2) and one rq worker as separate processes on free loopback ports, then measures:
events per `2p24` match and per deal, Redis memory per finished match, the time to replay a finished
match, and the actions per second of one closed-loop client. Everything it started is stopped at the end.
"""
from __future__ import annotations

import argparse
import os
import platform
import shlex
import statistics
import subprocess
import sys
import time

import redis

from bench import figures
from bench.stack import REPO, Stack


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=20, help="seeded human-vs-basic-bot matches (default 20)")
    parser.add_argument("--seconds", type=float, default=20.0, help="closed-loop client run time (default 20)")
    parser.add_argument("--repetitions", type=int, default=20, help="replays of each match (default 20)")
    args = parser.parse_args(argv)
    started = time.perf_counter()

    with Stack() as stack:
        print_facts(stack)
        played = []
        for kind in figures.MATCH_KINDS:
            print(f"\nplaying {args.matches} matches, {kind} ...", flush=True)
            matches = figures.play_matches(stack, args.matches, kind)
            memory = figures.memory(stack, matches.game_ids)
            print(f"replaying each match {args.repetitions} times ...", flush=True)
            played.append((matches, memory, figures.replay(stack, matches.game_ids, args.repetitions)))
        print(f"one closed-loop client for {args.seconds:g} s ...", flush=True)
        tput = figures.throughput(stack, args.seconds)

    print()
    print_table(args, played, tput)
    print(f"\nbench finished in {time.perf_counter() - started:.0f} s")


def print_facts(stack: Stack) -> None:
    client = redis.Redis.from_url(stack.redis_url)
    info = client.info("server")
    client.close()
    cpu = next((line.split(":", 1)[1].strip() for line in _read("/proc/cpuinfo").splitlines()
                if line.startswith("model name")), platform.processor() or "?")
    mem_kb = next((int(line.split()[1]) for line in _read("/proc/meminfo").splitlines()
                   if line.startswith("MemTotal:")), 0)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True,
                            text=True).stdout.strip() or "?"
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=REPO,
                           capture_output=True, text=True).stdout.strip()
    print("command:  " + " ".join(shlex.quote(a) for a in [os.path.relpath(sys.executable, REPO), "-m", "bench",
                                                           *sys.argv[1:]]))
    print(f"machine:  nproc {len(os.sched_getaffinity(0))} (of {os.cpu_count()}), {cpu}, "
          f"{mem_kb / 1024 / 1024:.1f} GiB, {platform.system()} {platform.release()}")
    print(f"software: Python {platform.python_version()}, Redis {info['redis_version']} (appendonly yes, "
          f"appendfsync everysec), gunicorn gthread x{stack.web_concurrency} workers, one rq SimpleWorker; "
          f"commit {commit}{' (dirty)' if dirty else ''}")
    print("network:  loopback only; client, API, worker and Redis share the machine")


def print_table(args, played: list[tuple[figures.MatchStats, figures.MemoryStats, figures.ReplayStats]],
                t: figures.ThroughputStats) -> None:
    rows: list[tuple[str, str, str]] = []

    def row(what: str, value: str, note: str = "") -> None:
        rows.append((what, value, note))

    def mmm(values, fmt="{:.0f}") -> str:
        return f"{fmt.format(statistics.mean(values))} (min {fmt.format(min(values))}, max {fmt.format(max(values))})"

    kib = lambda b: f"{b / 1024:.1f} KiB"  # noqa: E731
    ms = lambda s: f"{s * 1000:.2f} ms"  # noqa: E731
    for m, mem, rep in played:
        n = len(m.events_per_match)
        row(f"[{m.kind}]", "", f"{n} seeded 2p24 matches to 7 game points, played one after another in {m.seconds:.1f} s")
        row("events per match", mmm(m.events_per_match))
        row("deals per match", mmm(m.deals_per_match, "{:.1f}"))
        row("events per deal", mmm(m.events_per_deal, "{:.1f}"), "from `dealt` to `round_scored`, inclusive")
        if any(m.human_actions):
            row("human actions per match", mmm(m.human_actions, "{:.1f}"), "POSTs by seat 0")
        row("event types per match", "", ", ".join(f"{k} {v / n:.1f}" for k, v in m.types.most_common()))
        row("Redis memory per finished match", f"{kib(statistics.mean(mem.per_match))} "
            f"(min {kib(min(mem.per_match))}, max {kib(max(mem.per_match))})",
            "sum of MEMORY USAGE (SAMPLES 0) over the game's keys")
        for part, values in mem.by_part.items():
            note = ""
            if part == "idem":
                note = f"{statistics.mean(mem.idem_records):.1f} records (one per POST with Idempotency-Key), 24 h TTL"
            row(f"  {part}", kib(statistics.mean(values)), note)
        per_event = statistics.mean(a / b for a, b in zip(mem.per_match, m.events_per_match))
        row("  per event", f"{per_event:.0f} B")
        row("rq job hashes per match", kib(statistics.mean(mem.rq_jobs)), "temporary: result_ttl 300 s")
        row("replay: EventStore.read + fold", f"{ms(statistics.median(rep.full_s))} (max {ms(max(rep.full_s))})",
            f"no snapshot; median over matches of each one's median of {args.repetitions} runs")
        row("  read (XRANGE + decode)", ms(statistics.median(rep.read_s)))
        row("  fold (games.table.evolve)", ms(statistics.median(rep.fold_s)))
        row("replay: Repository.get", f"{ms(statistics.median(rep.repo_s))} (max {ms(max(rep.repo_s))})",
            f"snapshot at the last deal + {statistics.mean(rep.tail):.1f} events on average")
        row("", "", "")
    mem = played[-1][1]
    row("global feed per event", f"{mem.feed_bytes / max(mem.feed_entries, 1):.0f} B",
        f"talon:feed, {mem.feed_entries} entries after all runs")

    row("one client: actions per second", f"{t.actions / t.seconds:.0f}",
        f"{t.actions} actions in {t.seconds:.1f} s, two-human matches, GET view + POST action, closed loop; "
        f"{t.matches_finished} matches finished, {t.waits} long-polls for the worker's deals")
    row("  POST latency p50 / p99", f"{ms(figures.percentile(t.post_s, 50))} / {ms(figures.percentile(t.post_s, 99))}",
        f"max {ms(max(t.post_s))}")
    row("  GET latency p50 / p99", f"{ms(figures.percentile(t.get_s, 50))} / {ms(figures.percentile(t.get_s, 99))}")

    w1 = max(len(r[0]) for r in rows)
    w2 = max(len(r[1]) for r in rows)
    print(f"{'figure':<{w1}}  {'value':<{w2}}  note")
    print(f"{'-' * w1}  {'-' * w2}  {'-' * 4}")
    for what, value, note in rows:
        print(f"{what:<{w1}}  {value:<{w2}}  {note}".rstrip())


def _read(path: str) -> str:
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return ""


if __name__ == "__main__":
    main()
