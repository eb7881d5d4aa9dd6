"""`python -m bench.variants66 [--matches N] [--budget S]`: Sixty-Six figures for 3p and 4p.

Starts the stack of bench/stack.py (Redis append-only, gunicorn, one rq worker), then plays N seeded
matches of each kind to the end, every seat a `basic` bot, watched by a long-polling spectator:
`3p` (dead cards, stock of 9) and `4p` (partnerships, two decks), both to the default match target of 7.
It prints events per match and per deal (from `dealt` to `round_scored`, from the operator log) and
Redis memory per finished match: the sum of MEMORY USAGE over the game's keys `talon:{g:<id>}:*`.
Bounded: no new match starts after `--budget` seconds (but the first of each kind does), and each match must end within 60 s.
"""

from __future__ import annotations

import argparse
import time

import requests

from bench import figures
from bench.stack import Stack

KINDS = {"3p": 3, "4p": 4}
MATCH_TIMEOUT_S = 60.0


def create(client: figures.Client, variant: str, seed: int) -> str:
    seats = [{"kind": "bot", "level": "basic"}] * KINDS[variant]
    response = client.http.post(
        client.url("/v1/games"),
        headers=figures.bearer(client.stack.operator_token),
        json={"game": "sixty-six", "options": {"variant": variant}, "seats": seats, "seed": seed},
        timeout=10,
    )
    response.raise_for_status()
    return response.json()["game_id"]


def watch(client: figures.Client, game_id: str) -> None:
    view, deadline = client.view(game_id, None), time.monotonic() + MATCH_TIMEOUT_S
    while view["status"] != "finished":
        if time.monotonic() > deadline:
            raise RuntimeError(f"match {game_id} did not finish within {MATCH_TIMEOUT_S} s")
        view = client.view(game_id, None, after_version=view["version"]) or view


def measure(stack: Stack, variant: str, matches: int, budget_end: float) -> dict:
    game_ids, per_match, per_deal, deals = [], [], [], []
    with requests.Session() as session:
        client = figures.Client(stack, session)
        for i in range(matches):
            if not figures.may_start(i, budget_end):
                break
            game_id = create(client, variant, seed=6600 + i)
            watch(client, game_id)
            log = client.operator_log(game_id)
            sizes = figures._deal_sizes(log)
            game_ids.append(game_id)
            per_match.append(len(log))
            per_deal += sizes
            deals.append(len(sizes))
    memory = figures.memory(stack, game_ids)
    return {
        "matches": len(game_ids),
        "events_per_match": per_match,
        "events_per_deal": per_deal,
        "deals_per_match": deals,
        "bytes_per_match": memory.per_match,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.variants66", description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=10, help="matches of each kind (default 10)")
    parser.add_argument("--budget", type=float, default=120.0, help="seconds after which no match starts")
    args = parser.parse_args(argv)
    started = time.monotonic()
    with Stack() as stack:
        for variant in KINDS:
            # Each kind gets its half of the budget, so that 4p is measured even if 3p is slow.
            share = started + args.budget * (1 if variant == "4p" else 0.5)
            result = measure(stack, variant, args.matches, share)
            print(f"{variant}: {result['matches']} matches of basic bots to 7")
            print(f"  deals per match   {figures.summary(result['deals_per_match'])}")
            print(f"  events per deal   {figures.summary(result['events_per_deal'])}")
            print(f"  events per match  {figures.summary(result['events_per_match'])}")
            print(f"  Redis bytes/match {figures.summary(result['bytes_per_match'])}")
    print(f"took {time.monotonic() - started:.1f} s")


if __name__ == "__main__":
    main()
