"""`python -m bench [--matches N] [--seconds S] [--rounds R] [--repetitions R]`: Talon's figures, as one table.

Starts Redis (append-only, noeviction, as `make run` does), gunicorn (deploy/gunicorn.conf.py,
WEB_CONCURRENCY=2), one rq worker, and a second gunicorn with the bare endpoints of bench/bare.py, as
separate processes on free loopback ports, then measures: events per `2p24` match and per deal, Redis
memory per finished match, replay times; closed-loop clients against the service and the bare floor
(bench/load.py); the engine (bench/engine.py); the growth with stored games and the view of the longest
game (bench/growth.py); all-bot matches by one worker (bench/bots.py). It prints the issue's targets
first. Everything it started is stopped at the end.
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

from bench import bots, engine, figures, growth, load, seeding
from bench.stack import Stack
from events.store import EventStore
from tests.support.processes import REPO


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=20, help="seeded human-vs-basic-bot matches (default 20)")
    parser.add_argument("--repetitions", type=int, default=20, help="replays of each match (default 20)")
    parser.add_argument("--clients", type=int, default=16, help="closed-loop clients (default 16)")
    parser.add_argument(
        "--seconds", type=float, default=40.0, help="load time per target, all rounds together (default 40)"
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=40,
        help="rounds of alternating service and bare slices (default 40: slices of 1 s)",
    )
    parser.add_argument(
        "--growth",
        type=int,
        nargs="+",
        default=[1000, 10_000, 100_000],
        help="stored finished games for the growth runs (default 1000 10000 100000)",
    )
    parser.add_argument(
        "--growth-seconds",
        type=float,
        default=24.0,
        help="load time per number of stored games, all rounds together (default 24)",
    )
    parser.add_argument(
        "--growth-rounds",
        type=int,
        default=24,
        help="rounds of alternating slices over the stored-games stacks (default 24: slices of 1 s)",
    )
    parser.add_argument("--views", type=int, default=200, help="view GETs of the longest and the new game")
    parser.add_argument("--fifty-six-players", type=int, default=8, choices=(4, 6, 8))
    parser.add_argument("--bot-matches", type=int, default=4, help="all-bot matches at a time (default 4)")
    parser.add_argument("--bot-seconds", type=float, default=15.0, help="time per game for the bots (default 15)")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    players56 = args.fifty_six_players

    with Stack(bare=True) as stack:
        print_facts(stack)
        played = []
        for kind in figures.MATCH_KINDS:
            print(f"\nplaying {args.matches} matches, {kind} ...", flush=True)
            matches = figures.play_matches(stack, args.matches, kind)
            memory = figures.memory(stack, matches.game_ids)
            print(f"replaying each match {args.repetitions} times ...", flush=True)
            played.append((matches, memory, figures.replay(stack, matches.game_ids, args.repetitions)))
        print(
            f"{args.clients} closed-loop clients, service and bare endpoints alternating in {args.rounds} "
            f"rounds of {args.seconds / args.rounds:g}-s slices, {args.seconds:g} s each in all ...",
            flush=True,
        )
        service, bare, round_ratios = compare(stack, args.clients, args.seconds, args.rounds)
        print("engine: playing each game's match in process and replaying it ...", flush=True)
        engine_stats = engine_figures(stack, players56, args.repetitions)
        print(f"view GETs of the longest and a new game, {args.views} each ...", flush=True)
        views = growth.long_and_new(stack, args.views, players=players56)
        print(
            f"growth: a stack each with {', '.join(map(str, args.growth))} stored finished games, "
            f"{args.growth_rounds} rounds of alternating slices ...",
            flush=True,
        )
        rows, source_memory = growth.growth(args.growth, args.clients, args.growth_seconds, args.growth_rounds)
        print(f"bots: {args.bot_matches} all-bot matches at a time, {args.bot_seconds:g} s per game ...", flush=True)
        bot_stats = [
            bots.run(
                stack,
                label,
                game,
                options,
                players56 if game == "fifty-six" else seats,
                args.bot_matches,
                args.bot_seconds,
            )
            for label, game, options, seats in _with_players(bots.GAMES, players56)
        ]

    print()
    print_table(args, played)
    print()
    print_targets(args, service, bare, round_ratios, rows, views, engine_stats, bot_stats, source_memory)
    print(f"\nbench finished in {time.perf_counter() - started:.0f} s")


def _with_players(games_list, players56: int):
    return [
        (
            label.replace("8p", f"{players56}p") if game == "fifty-six" else label,
            game,
            options,
            players56 if game == "fifty-six" else seats,
        )
        for label, game, options, seats in games_list
    ]


def compare(
    stack: Stack, clients: int, seconds: float, rounds: int = 40
) -> tuple[load.LoadStats, load.LoadStats, list[float]]:
    """The service and the bare endpoints in alternating slices of `seconds / rounds` (bench/load.py
    `interleave`), so both share whatever else runs; each with the CPU its processes spent (`.cpu`). Also
    the throughput ratio of each round, which shows how much the host moved the figure."""
    service, bare = load.interleave(
        [load.Target.of(stack, "service"), load.Target.of(stack, "bare")], clients, seconds / rounds, rounds
    )
    round_ratios = [s.per_second / b.per_second for s, b in zip(service.slices, bare.slices) if b.per_second]
    return service.total, bare.total, round_ratios


def engine_figures(stack: Stack, players56: int, repetitions: int) -> list[engine.EngineStats]:
    client = redis.Redis.from_url(stack.redis_url)
    store = EventStore(client)
    try:
        out = []
        for label, game, options, seats in _with_players(engine.GAMES, players56):
            # The longest of a few seeded matches (one for Fifty-Six, whose matches are long already).
            tables_played = [
                seeding.play(store, game, options, seats, seed=s) for s in range(1 if game == "fifty-six" else 5)
            ]
            longest = max(tables_played, key=lambda t: t.version)
            out.append(engine.measure(store, label, longest.game_id, repetitions))
        return out
    finally:
        client.close()


def print_facts(stack: Stack) -> None:
    client = redis.Redis.from_url(stack.redis_url)
    info = client.info("server")
    client.close()
    cpu_name = next(
        (
            line.split(":", 1)[1].strip()
            for line in _read("/proc/cpuinfo").splitlines()
            if line.startswith("model name")
        ),
        platform.processor() or "?",
    )
    mem_kb = next(
        (int(line.split()[1]) for line in _read("/proc/meminfo").splitlines() if line.startswith("MemTotal:")), 0
    )
    commit = (
        subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True).stdout.strip()
        or "?"
    )
    dirty = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=no"], cwd=REPO, capture_output=True, text=True
    ).stdout.strip()
    print(
        "command:  "
        + " ".join(shlex.quote(a) for a in [os.path.relpath(sys.executable, REPO), "-m", "bench", *sys.argv[1:]])
    )
    print(
        f"machine:  nproc {len(os.sched_getaffinity(0))} (of {os.cpu_count()}), {cpu_name}, "
        f"{mem_kb / 1024 / 1024:.1f} GiB, {platform.system()} {platform.release()}"
    )
    print(
        f"software: Python {platform.python_version()}, Redis {info['redis_version']} (appendonly yes, "
        f"appendfsync everysec), gunicorn gevent x{stack.web_concurrency} workers, one rq worker "
        f"(rq's SimpleWorker, non-forking); commit {commit}{' (dirty)' if dirty else ''}"
    )
    print("network:  loopback only; client, API, worker and Redis share the machine")


def print_table(args, played: list[tuple[figures.MatchStats, figures.MemoryStats, figures.ReplayStats]]) -> None:
    rows: list[tuple[str, str, str]] = []

    def row(what: str, value: str, note: str = "") -> None:
        rows.append((what, value, note))

    def mmm(values, fmt="{:.0f}") -> str:
        return f"{fmt.format(statistics.mean(values))} (min {fmt.format(min(values))}, max {fmt.format(max(values))})"

    kib = lambda b: f"{b / 1024:.1f} KiB"  # noqa: E731
    ms = lambda s: f"{s * 1000:.2f} ms"  # noqa: E731
    for m, mem, rep in played:
        n = len(m.events_per_match)
        row(
            f"[{m.kind}]",
            "",
            f"{n} seeded 2p24 matches to 7 game points, played one after another in {m.seconds:.1f} s",
        )
        row("events per match", mmm(m.events_per_match))
        row("deals per match", mmm(m.deals_per_match, "{:.1f}"))
        row("events per deal", mmm(m.events_per_deal, "{:.1f}"), "from `dealt` to `round_scored`, inclusive")
        if any(m.human_actions):
            row("human actions per match", mmm(m.human_actions, "{:.1f}"), "POSTs by seat 0")
        row("event types per match", "", ", ".join(f"{k} {v / n:.1f}" for k, v in m.types.most_common()))
        row(
            "Redis memory per finished match",
            f"{kib(statistics.mean(mem.per_match))} (min {kib(min(mem.per_match))}, max {kib(max(mem.per_match))})",
            "sum of MEMORY USAGE (SAMPLES 0) over the game's keys",
        )
        for part, values in mem.by_part.items():
            note = ""
            if part == "idem":
                note = f"{statistics.mean(mem.idem_records):.1f} records (one per POST with Idempotency-Key), 24 h TTL"
            row(f"  {part}", kib(statistics.mean(values)), note)
        per_event = statistics.mean(a / b for a, b in zip(mem.per_match, m.events_per_match))
        row("  per event", f"{per_event:.0f} B")
        row("rq job hashes per match", kib(statistics.mean(mem.rq_jobs)), "temporary: result_ttl 300 s")
        row(
            "replay: EventStore.read + fold",
            f"{ms(statistics.median(rep.full_s))} (max {ms(max(rep.full_s))})",
            f"no snapshot; median over matches of each one's median of {args.repetitions} runs",
        )
        row("  read (XRANGE + decode)", ms(statistics.median(rep.read_s)))
        row("  fold (games.table.evolve)", ms(statistics.median(rep.fold_s)))
        row(
            "replay: Repository.get",
            f"{ms(statistics.median(rep.repo_s))} (max {ms(max(rep.repo_s))})",
            f"snapshot at the last deal + {statistics.mean(rep.tail):.1f} events on average",
        )
        row("", "", "")
    mem = played[-1][1]
    row(
        "global feed per event",
        f"{mem.feed_bytes / max(mem.feed_entries, 1):.0f} B",
        f"talon:feed, {mem.feed_entries} entries after all runs",
    )

    _print_rows(rows)


def _print_rows(rows: list[tuple[str, ...]], header: tuple[str, ...] = ("figure", "value", "note")) -> None:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header) - 1)]
    line = lambda r: "  ".join(f"{c:<{w}}" for c, w in zip(r, widths)) + "  " + r[-1]  # noqa: E731
    print(line(header).rstrip())
    print(line(tuple("-" * w for w in widths) + ("----",)).rstrip())
    for r in rows:
        print(line(r).rstrip())


def print_targets(
    args,
    service: load.LoadStats,
    bare: load.LoadStats,
    round_ratios: list[float],
    rows: list[growth.GrowthRow],
    views: list[growth.ViewStats],
    engine_stats: list[engine.EngineStats],
    bot_stats: list[bots.BotStats],
    source_memory: figures.MemoryStats,
) -> None:
    """The issue's figures with their targets, then the details behind them."""
    ms = lambda s: f"{s * 1000:.2f} ms"  # noqa: E731
    pct = lambda v: f"{figures.percentile(v, 99) * 1000:.1f} ms" if v else "-"  # noqa: E731
    ratio = service.per_second / bare.per_second if bare.per_second else 0.0
    first, last = rows[0], rows[-1]
    p50 = growth.GrowthRow.post_p50
    latency_growth = p50(last) / p50(first) - 1
    per_round = growth.round_growth(rows)
    new, longest = (views[1], views[0])
    view_ratio = growth.median_ms(longest.http_s) / growth.median_ms(new.http_s)
    per_match = statistics.mean(source_memory.per_match)
    used_growth = (last.used_memory - first.used_memory) / max(1, last.stored - first.stored)
    longest_replay = max(engine_stats, key=lambda e: e.events)
    targets = [
        (
            "throughput ratio, service / bare",
            f"{ratio:.2f}",
            ">= 0.5",
            f"{service.per_second:.0f} / {bare.per_second:.0f} actions per second, {args.clients} clients; per round "
            + figures.spread(round_ratios, "{:.2f}"),
        ),
        (
            f"POST p99 at {args.clients} clients",
            pct(service.post_s),
            "<= 50 ms",
            f"p50 {figures.percentile(service.post_s, 50) * 1000:.1f} ms; bare POST p99 {pct(bare.post_s)}",
        ),
        (
            "POST p99, service / bare",
            f"{figures.percentile(service.post_s, 99) / figures.percentile(bare.post_s, 99):.2f}x"
            if service.post_s and bare.post_s
            else "-",
            "<= 2x",
            f"{pct(service.post_s)} / {pct(bare.post_s)}, the same clients in alternating slices",
        ),
        (
            f"latency growth {first.stored:,} -> {last.stored:,} stored",
            f"{latency_growth * 100:+.0f}%",
            "<= 10%",
            f"POST p50 {p50(first) * 1000:.1f} -> {p50(last) * 1000:.1f} ms, slices alternating; per round "
            + figures.spread(per_round, "{:+.0%}"),
        ),
        (
            "view GET, longest / new game",
            f"{view_ratio:.2f}x",
            "<= 1.5x",
            f"median {growth.median_ms(longest.http_s):.2f} vs {growth.median_ms(new.http_s):.2f} ms over HTTP",
        ),
        (
            "Redis memory per finished 2p24 match",
            f"{per_match / 1024:.1f} KiB",
            "<= 32 KB",
            f"MEMORY USAGE of its keys; INFO used_memory grew {used_growth / 1024:.1f} KiB per stored copy",
        ),
        (
            "replay of the longest match from its snapshot",
            ms(longest_replay.snapshot_s),
            "<= 10 ms",
            f"{longest_replay.label}, {longest_replay.events} events, snapshot + {longest_replay.tail}",
        ),
    ]
    print("targets (issues 10 and 26)")
    _print_rows([(a, b, c, d) for a, b, c, d in targets], ("figure", "value", "target", "note"))

    detail: list[tuple[str, str, str]] = []
    for stats in (service, bare):
        detail.append(
            (
                f"{stats.target}: actions per second",
                f"{stats.per_second:.0f}",
                f"{stats.actions} POSTs in {stats.seconds:.1f} s; GET p50/p99 "
                f"{figures.percentile(stats.get_s, 50) * 1000:.1f}/{pct(stats.get_s)}; "
                f"POST p50/p99 {figures.percentile(stats.post_s, 50) * 1000:.1f}/{pct(stats.post_s)}"
                + (
                    f"; {stats.matches_finished} matches finished, {stats.waits} long-polls for the worker"
                    if stats.target == "service"
                    else ""
                )
                + (f"; {stats.refused} refused" if stats.refused else ""),
            )
        )
    for stats in (service, bare):
        use = stats.cpu.per_action_ms(stats.actions)
        detail.append(
            (
                f"{stats.target}: CPU per action",
                f"{sum(use.values()):.2f} ms",
                "; ".join(f"{name} {ms:.2f}" for name, ms in use.items()),
            )
        )
    for r in rows:
        use = r.load.cpu.per_action_ms(r.load.actions)
        detail.append(
            (
                f"growth: {r.stored:,} stored games",
                f"{r.load.per_second:.0f} actions/s",
                f"POST p50/p99 {p50(r) * 1000:.1f}/{pct(r.load.post_s)} (per slice p50 in ms: "
                + figures.spread([figures.percentile(s.post_s, 50) * 1000 for s in r.slices if s.post_s], "{:.1f}")
                + f"); CPU per action {sum(use.values()):.2f} ms (Redis "
                f"{use.get('Redis', 0):.2f}); CPU elsewhere during its slices "
                f"{r.elsewhere_s:.1f} s; GET p50 "
                f"{figures.percentile(r.load.get_s, 50) * 1000:.1f} ms; used_memory "
                f"{r.used_memory / 2**20:,.0f} MiB; copies written in {r.seed_s:.1f} s",
            )
        )
    for v in views:
        detail.append(
            (
                f"view: {v.label}",
                f"{growth.median_ms(v.http_s):.2f} ms",
                f"p99 {growth.p99_ms(v.http_s):.2f} ms; {v.events} events, snapshot + {v.tail}; "
                f"without a held table (snapshot + tail, in process) {v.cold_s * 1000:.2f} ms",
            )
        )
    for e in engine_stats:
        detail.append(
            (
                f"engine: {e.label}",
                f"{e.events} events",
                f"{e.deals} deals; replay from events: read {ms(e.read_s)} + fold {ms(e.fold_s)}; "
                f"from the snapshot (+{e.tail} events, Repository.get) {ms(e.snapshot_s)}; "
                f"legal actions {e.legal_per_s:,.0f}/s over {e.legal_states} states",
            )
        )
    events_per_match = {e.label: e.events for e in engine_stats}
    for b in bot_stats:
        how = "finished" if b.finished else "estimated from the worker's event rate"
        detail.append(
            (
                f"bots: {b.label}",
                f"{b.per_minute(events_per_match.get(b.label, 1)):.1f} matches/min",
                f"{b.finished} all-bot basic matches finished in {b.seconds:.0f} s, {b.matches} at a time ({how}); "
                f"{b.events_per_s:.0f} events/s by one worker",
            )
        )
    print()
    _print_rows(detail)


def _read(path: str) -> str:
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return ""


if __name__ == "__main__":
    main()
