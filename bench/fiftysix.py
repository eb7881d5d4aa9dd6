"""`python -m bench.fiftysix [--matches N] [--tables T ...] [--budget S]`: Fifty-Six figures, 8 basic bots.

Starts the stack of bench/stack.py (Redis append-only, gunicorn, one rq worker), then plays seeded
8-player `pairs` matches, every seat a `basic` bot, each watched by a long-polling spectator, for each
`starting_tables` value given (RULES §1.10). It prints, per value:
- events per 8-player deal (from `dealt` to `round_scored`, operator log, deals dealt to all 8 seats)
  and per deal of any size, deals per match;
- Redis memory per finished match: the sum of MEMORY USAGE over the game's keys `talon:{g:<id>}:*`;
- wall time of a match from the POST that creates it to the spectator seeing it finished, the one
  worker doing every bot move, deal and scoring;
and, over all matches, the replay time of the longest one (EventStore.read + fold with
games.table.evolve, median of repetitions).
Bounded: no new match starts after `--budget` seconds (but the first of each kind does), and each match must end within --match-timeout.
"""

from __future__ import annotations

import argparse
import time

import requests

from bench import figures
from bench.stack import Stack

PLAYERS = 8


def create(client: figures.Client, tables: int, seed: int) -> str:
    response = client.http.post(
        client.url("/v1/games"),
        headers=figures.bearer(client.stack.operator_token),
        json={
            "game": "fifty-six",
            "options": {"starting_tables": tables},
            "seed": seed,
            "seats": [{"kind": "bot", "level": "basic"}] * PLAYERS,
        },
        timeout=10,
    )
    response.raise_for_status()
    return response.json()["game_id"]


def watch(client: figures.Client, game_id: str, timeout_s: float) -> None:
    view, deadline = client.view(game_id, None), time.monotonic() + timeout_s
    while view["status"] != "finished":
        if time.monotonic() > deadline:
            raise RuntimeError(f"match {game_id} did not finish within {timeout_s} s")
        view = client.view(game_id, None, after_version=view["version"]) or view


def deal_sizes(log: list[dict]) -> tuple[list[int], list[int]]:
    """Events of each deal (dealt ... round_scored): (deals dealt to all 8 seats, every deal)."""
    full, every, start, seats = [], [], None, 0
    for i, event in enumerate(log):
        if event["type"] == "dealt":
            start, seats = i, len(event["data"]["active"])
        elif event["type"] == "round_scored" and start is not None:
            every.append(i - start + 1)
            if seats == PLAYERS:
                full.append(i - start + 1)
            start = None
    return full, every


def measure(stack: Stack, tables: int, matches: int, budget_end: float, timeout_s: float) -> dict:
    out = {"game_ids": [], "events": [], "per_8p_deal": [], "per_deal": [], "deals": [], "seconds": []}
    with requests.Session() as session:
        client = figures.Client(stack, session)
        for i in range(matches):
            if not figures.may_start(i, budget_end):
                break
            started = time.perf_counter()
            game_id = create(client, tables, seed=5600 + i)
            watch(client, game_id, timeout_s)
            out["seconds"].append(time.perf_counter() - started)
            log = client.operator_log(game_id)
            full, every = deal_sizes(log)
            out["game_ids"].append(game_id)
            out["events"].append(len(log))
            out["per_8p_deal"] += full
            out["per_deal"] += every
            out["deals"].append(len(every))
    out["bytes"] = figures.memory(stack, out["game_ids"]).per_match
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.fiftysix", description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=5, help="matches per starting_tables value (default 5)")
    parser.add_argument("--tables", type=int, nargs="+", default=[2, 12], help="starting_tables values (default 2 12)")
    parser.add_argument("--budget", type=float, default=300.0, help="seconds after which no match starts")
    parser.add_argument("--match-timeout", type=float, default=300.0, help="seconds one match may take")
    parser.add_argument("--repetitions", type=int, default=5, help="replays of the longest match (default 5)")
    args = parser.parse_args(argv)
    started = time.monotonic()
    longest: tuple[int, str] | None = None
    with Stack() as stack:
        for k, tables in enumerate(args.tables):
            # Each value gets its share of the budget, so that the last one is measured too.
            share = started + args.budget * (k + 1) / len(args.tables)
            r = measure(stack, tables, args.matches, share, args.match_timeout)
            print(f"starting_tables {tables}: {len(r['game_ids'])} matches of 8 basic bots (pairs), one worker")
            print(f"  deals per match            {figures.summary(r['deals'])}")
            print(f"  events per 8-player deal   {figures.summary(r['per_8p_deal'])}")
            print(f"  events per deal (any size) {figures.summary(r['per_deal'])}")
            print(f"  events per match           {figures.summary(r['events'])}")
            print(f"  Redis bytes per match      {figures.summary(r['bytes'])}")
            print(f"  wall time per match (s)    {figures.summary(r['seconds'], '.2f')}", flush=True)
            for events, game_id in zip(r["events"], r["game_ids"]):
                if longest is None or events > longest[0]:
                    longest = (events, game_id)
        if longest is not None:
            replayed = figures.replay(stack, [longest[1]], args.repetitions)
            print(
                f"replay of the longest match ({longest[0]} events), median of {args.repetitions}: "
                f"read {replayed.read_s[0] * 1000:.1f} ms + fold {replayed.fold_s[0] * 1000:.1f} ms = "
                f"{replayed.full_s[0] * 1000:.1f} ms; Repository.get (snapshot + {replayed.tail[0]} events) "
                f"{replayed.repo_s[0] * 1000:.1f} ms"
            )
    print(f"bench finished in {time.monotonic() - started:.0f} s")


if __name__ == "__main__":
    main()
