"""`python -m bench.versus --base REV [--rounds R] [--seconds S]`: this checkout's service against the
service of an earlier commit, on the same host at the same time.

The host's speed swings by a third from one slice to the next here, so two `make bench` runs cannot tell
a 5% change from noise. This runs both stacks side by side (the earlier commit from a temporary git
worktree, each with its own Redis, gunicorn and worker) and alternates load slices between them, the
order reversed every other round (bench/load.py `interleave`), as bench/__main__.py alternates the
service and the bare endpoints.
Prints the throughput of each, the ratio per round and in all, and the CPU one action cost in each.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import tests.support.processes as processes
from bench import figures, load
from bench.checkouts import checkout_of
from bench.stack import Stack


def run(base: str, clients: int, rounds: int, seconds: float) -> None:
    with checkout_of(base) as worktree:
        _compare({"base": _stack_in(worktree), "this": _stack_in(processes.REPO)}, clients, rounds, seconds)


def _stack_in(repo: Path) -> Stack:
    """A started stack whose processes run the code in `repo` (they are spawned there)."""
    own, processes.REPO = processes.REPO, repo
    try:
        stack = Stack()
        stack.__enter__()
    finally:
        processes.REPO = own
    return stack


def _compare(stacks: dict[str, Stack], clients: int, rounds: int, seconds: float) -> None:
    try:
        targets = [load.Target.of(stack, label=name) for name, stack in stacks.items()]
        load.interleave(targets, clients, 2, 1, measure=False)  # warm: first requests import and fill caches
        runs = dict(zip(stacks, load.interleave(targets, clients, seconds, rounds)))
        totals = {name: run.total for name, run in runs.items()}
        per_round = [
            this.per_second / max(base.per_second, 1e-9) for this, base in zip(runs["this"].slices, runs["base"].slices)
        ]
        for name, total in totals.items():
            cost = total.cpu.per_action_ms(total.actions)
            p50, p99 = (1000 * figures.percentile(total.post_s, p) for p in (50, 99))
            print(
                f"{name}: {total.per_second:.0f} actions/s; CPU per action {sum(cost.values()):.2f} ms "
                f"({', '.join(f'{k} {v:.2f}' for k, v in cost.items())}); POST p50/p99 {p50:.1f}/{p99:.1f} ms"
            )
        print(
            f"throughput, this / base: {totals['this'].per_second / totals['base'].per_second:.3f}; "
            f"per round {figures.spread(per_round, '{:.2f}')}"
        )
    finally:
        for stack in stacks.values():
            stack.__exit__(None, None, None)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", required=True, help="the commit to compare this checkout with")
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=1.0, help="per slice (default 1)")
    args = parser.parse_args(argv)
    run(args.base, args.clients, args.rounds, args.seconds)


if __name__ == "__main__":
    main()
