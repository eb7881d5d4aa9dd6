"""`python -m bench.smear [--matches N] [--budget S]`: Smear figures, every seat a `basic` bot.

Starts the stack of bench/stack.py (Redis append-only, gunicorn, one rq worker), then plays N seeded
matches to the default target of 15 for widow sizes 0 and 3, each watched by a long-polling spectator.
It prints, per widow size:
- events per played deal (from `dealt` to `round_scored`, operator log) and deals per match (thrown-in
  deals, all four passing, are counted apart);
- Redis memory per finished match: the sum of MEMORY USAGE over the game's keys `talon:{g:<id>}:*`;
- wall time of a match from the POST that creates it to the spectator seeing it finished, with the
  one worker doing every bot move, deal and scoring.
Bounded: no new match starts after `--budget` seconds (but the first of each kind does), and each match must end within 60 s.
"""

from __future__ import annotations

import argparse
import time

import requests

from bench import figures
from bench.stack import Stack

WIDOWS = (0, 3)
MATCH_TIMEOUT_S = 60.0


def create(client: figures.Client, widow_size: int, seed: int) -> str:
    response = client.http.post(
        client.url("/v1/games"),
        headers=figures.bearer(client.stack.operator_token),
        json={
            "game": "smear",
            "options": {"widow_size": widow_size},
            "seed": seed,
            "seats": [{"kind": "bot", "level": "basic"}] * 4,
        },
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


def deal_sizes(log: list[dict]) -> tuple[list[int], int]:
    """Events of each played deal (dealt … round_scored), and how many deals were thrown in."""
    sizes, thrown, start = [], 0, None
    for i, event in enumerate(log):
        if event["type"] == "dealt":
            start = i
        elif event["type"] == "thrown_in":
            thrown += 1
        elif event["type"] == "round_scored" and start is not None:
            sizes.append(i - start + 1)
    return sizes, thrown


def measure(stack: Stack, widow_size: int, matches: int, budget_end: float) -> dict:
    out = {"game_ids": [], "per_match": [], "per_deal": [], "deals": [], "thrown": [], "seconds": []}
    with requests.Session() as session:
        client = figures.Client(stack, session)
        for i in range(matches):
            if not figures.may_start(i, budget_end):
                break
            started = time.perf_counter()
            game_id = create(client, widow_size, seed=5600 + i)
            watch(client, game_id)
            out["seconds"].append(time.perf_counter() - started)
            log = client.operator_log(game_id)
            sizes, thrown = deal_sizes(log)
            out["game_ids"].append(game_id)
            out["per_match"].append(len(log))
            out["per_deal"] += sizes
            out["deals"].append(len(sizes))
            out["thrown"].append(thrown)
    out["bytes"] = figures.memory(stack, out["game_ids"]).per_match
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.smear", description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=10, help="matches per widow size (default 10)")
    parser.add_argument("--budget", type=float, default=120.0, help="seconds after which no match starts")
    args = parser.parse_args(argv)
    started = time.monotonic()
    with Stack() as stack:
        for k, widow in enumerate(WIDOWS):
            # Each widow size gets its share of the budget, so that the last one is measured too.
            share = started + args.budget * (k + 1) / len(WIDOWS)
            r = measure(stack, widow, args.matches, share)
            print(f"widow_size {widow}: {len(r['game_ids'])} matches of basic bots to 15, one worker")
            print(f"  played deals per match  {figures.summary(r['deals'])} (thrown in: {sum(r['thrown'])} in all)")
            print(f"  events per played deal  {figures.summary(r['per_deal'])}")
            print(f"  events per match        {figures.summary(r['per_match'])}")
            print(f"  Redis bytes per match   {figures.summary(r['bytes'])}")
            print(f"  wall time per match (s) {figures.summary(r['seconds'], '.2f')}")
    print(f"bench finished in {time.monotonic() - started:.0f} s")


if __name__ == "__main__":
    main()
