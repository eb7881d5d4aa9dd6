"""The bot lab: `python -m bench.botlab --game sixty-six --a expert --b basic --matches 400`.

Plays N duplicate match pairs between two bot levels with the pure engines (no Redis): each match is
played twice with the same decks, the levels swapping seats, so the luck of the cards cancels. The
pairs run in parallel on all cores (multiprocessing). Prints, for level A: matches and deals won, with
95% Wilson confidence intervals, its share of the game points (Sixty-Six), tables (Fifty-Six) or smear
points, and the decision time p50/p95 of each level, measured here (the bots themselves read no clock).

Lab options (OPTIONS, overridable with --option): Fifty-Six plays with starting_tables=2 instead of 12.
With 12 tables a match takes dozens of deals (basic bots bid 28 and make it, one table a deal), so 400
expert matches would take hours; with 2 a match still spans several deals (a failed 28 costs both
tables: about 2.8 deals a match) and 400 expert-vs-basic matches take about 24 minutes on two cores.

`--solver-check N` instead compares the Sixty-Six exhausted-stock solver with a plain minimax over all
continuations through the engine on N random positions, and prints how many agree.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import statistics
import time

from games import bots
from games.registry import rules_for

SEATS = {"sixty-six": 2, "fifty-six": 4, "smear": 4}
OPTIONS = {"sixty-six": {"variant": "2p24"}, "fifty-six": {"starting_tables": 2}, "smear": {"widow_size": 0}}
MAX_DEALS = 300  # a match that has not ended by then counts as unfinished (no winner)


def seat_view(rules, game: str, options: dict, state, seat: int) -> dict:
    """The view the API would give this seat (the parts the bots read)."""
    return {
        "game": game,
        "options": {**options, "first_dealer": 0},
        "seat": seat,
        **rules.view(state, seat),
        "legal_actions": rules.legal_actions(state, seat),
    }


def play_match(game: str, levels: list[str], match_seed: int, times: dict[str, list[float]]) -> dict:
    """One match; `levels[seat]` plays each seat. Returns the winning seats and points per seat."""
    rules, n = rules_for(game), SEATS[game]
    options = rules.normalize_options(OPTIONS[game], n)
    state = rules.new_state(options, n, 0)
    deals = 0
    deal_winners: list[list[int]] = []
    points = [0] * n
    before: dict = {}
    for _ in range(MAX_DEALS * 60):
        pending = rules.pending_system_action(state)
        if pending is None and not rules.to_act(state):
            break
        if pending is not None:
            action = dict(pending)
            if action["type"] == "deal":
                deck = rules.deck(options)
                random.Random(f"{match_seed}:{deals}").shuffle(deck)
                action["deck"] = deck
                deals += 1
                if deals > MAX_DEALS:
                    break
            events = rules.decide(state, None, action)
            for event in events:
                deal_winners += _deal_winner(event, points, before)
        else:
            seat = rules.to_act(state)[0]
            view = seat_view(rules, game, options, state, seat)
            started = time.perf_counter()
            action = bots.choose(view, levels[seat], seed=f"{match_seed}:{deals}:{len(times[levels[seat]])}")
            times[levels[seat]].append(time.perf_counter() - started)
            events = rules.decide(state, seat, action)
        for event in events:
            state = rules.evolve(state, event)
    final = rules.view(state, None)
    return {"winner": final["winner"], "deal_winners": deal_winners, "points": points}


def _deal_winner(event: dict, points: list[int], before: dict) -> list[list[int]]:
    """From a round's scoring event: the seats of the side that gained most in it; each seat's
    points add its side's gain (game points, tables or smear points; losses count as nothing)."""
    if event["type"] != "round_scored":
        return []
    standing = event["data"]["standing"]
    gained = []
    for side in standing:
        key = tuple(side["seats"])
        gained.append(side["score"] - before.get(key, 0))
        before[key] = side["score"]
        for seat in side["seats"]:
            points[seat] += max(0, gained[-1])
    best = max(gained)
    if gained.count(best) != 1 or best <= 0:
        return [[]]
    return [standing[gained.index(best)]["seats"]]


def duplicate_pair(args: tuple) -> dict:
    """The match `seed` played twice, level A on one side then on the other."""
    game, a, b, seed = args
    n = SEATS[game]
    times: dict[str, list[float]] = {a: [], b: []} if a != b else {a: []}
    out = {"wins": 0, "matches": 0, "deal_wins": 0, "deals": 0, "points_a": 0, "points": 0}
    for a_first in (True, False):
        levels = [(a if (s % 2 == 0) == a_first else b) for s in range(n)]
        result = play_match(game, levels, seed, times)
        a_seats = {s for s in range(n) if levels[s] == a}
        out["matches"] += 1
        out["wins"] += bool(result["winner"]) and set(result["winner"]) <= a_seats
        out["deals"] += len(result["deal_winners"])
        out["deal_wins"] += sum(bool(w) and set(w) <= a_seats for w in result["deal_winners"])
        out["points_a"] += sum(result["points"][s] for s in a_seats) // max(1, len(a_seats))
        out["points"] += sum(result["points"]) // max(1, len(a_seats))
    out["times"] = times
    return out


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 0.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def run(game: str, a: str, b: str, pairs: int, procs: int, seed: int = 1) -> dict:
    jobs = [(game, a, b, seed * 1_000_003 + i) for i in range(pairs)]
    if procs > 1:
        with multiprocessing.get_context("fork").Pool(procs) as pool:
            results = pool.map(duplicate_pair, jobs)
    else:
        results = [duplicate_pair(job) for job in jobs]
    total = {k: sum(r[k] for r in results) for k in ("wins", "matches", "deal_wins", "deals", "points_a", "points")}
    times = {level: sorted(t for r in results for t in r["times"].get(level, [])) for level in {a, b}}
    total["times"] = {level: _percentiles(t) for level, t in times.items()}
    return total


def _percentiles(values: list[float]) -> dict:
    if not values:
        return {"n": 0, "p50_ms": 0.0, "p95_ms": 0.0}
    p95 = values[min(len(values) - 1, int(0.95 * len(values)))]
    return {"n": len(values), "p50_ms": 1000 * statistics.median(values), "p95_ms": 1000 * p95}


def report(game: str, a: str, b: str, total: dict) -> str:
    lo, hi = wilson(total["wins"], total["matches"])
    dlo, dhi = wilson(total["deal_wins"], total["deals"])
    share = total["points_a"] / total["points"] if total["points"] else 0.0
    lines = [
        f"{game}: {a} (A) vs {b} (B), {total['matches']} matches ({total['matches'] // 2} duplicate pairs)",
        f"  matches won by A: {total['wins']}/{total['matches']} = {total['wins'] / max(1, total['matches']):.1%}"
        f"  (95% CI {lo:.1%}-{hi:.1%})",
        f"  deals won by A:   {total['deal_wins']}/{total['deals']} = {total['deal_wins'] / max(1, total['deals']):.1%}"
        f"  (95% CI {dlo:.1%}-{dhi:.1%})",
        f"  A's share of the points: {share:.1%}",
    ]
    for level, t in sorted(total["times"].items()):
        lines.append(f"  decision time {level}: n={t['n']} p50 {t['p50_ms']:.1f} ms, p95 {t['p95_ms']:.1f} ms")
    return "\n".join(lines)


def solver_position(rng: random.Random):
    """A random 2p24 position with the stock closed or exhausted, reached by random play."""
    from games.sixtysix import RULES
    from games.sixtysix.expert_solver import applies

    options = RULES.normalize_options({"variant": "2p24"}, 2)
    while True:
        state = RULES.new_state(options, 2, 0)
        deck = RULES.deck(options)
        rng.shuffle(deck)
        for event in RULES.decide(state, None, {"type": "deal", "deck": deck}):
            state = RULES.evolve(state, event)
        stop_at, steps = rng.randint(8, 30), 0
        while RULES.to_act(state):
            seat = RULES.to_act(state)[0]
            if applies(state) and steps >= stop_at:
                return state
            moves = [a for a in RULES.legal_actions(state, seat) if a["type"] != "declare_out"]
            for event in RULES.decide(state, seat, rng.choice(moves)):
                state = RULES.evolve(state, event)
            steps += 1


def minimax(state) -> dict[str, int]:
    """Plain minimax through the engine: each legal action's value for the seat to act."""
    from games.sixtysix import RULES
    from games.sixtysix.scoring import round_result

    seat, values = RULES.to_act(state)[0], {}
    for action in RULES.legal_actions(state, seat):
        after = state
        for event in RULES.decide(after, seat, action):
            after = RULES.evolve(after, event)
        if not RULES.to_act(after):
            game = round_result(after).game_points
            value = game[seat] - game[1 - seat]
        else:
            best = max(minimax(after).values())
            value = best if RULES.to_act(after)[0] == seat else -best
        values[bots.action_key(action)] = value
    return values


def check(positions: int, seed: int) -> tuple[int, int]:
    from games.sixtysix.expert_solver import solve

    rng, agreed = random.Random(seed), 0
    for _ in range(positions):
        state = solver_position(rng)
        agreed += solve(state) == minimax(state)
    return agreed, positions


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.botlab", description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(SEATS), default="sixty-six")
    parser.add_argument("--a", choices=bots.LEVELS, default="expert")
    parser.add_argument("--b", choices=bots.LEVELS, default="basic")
    parser.add_argument("--matches", type=int, default=400, help="matches in all (pairs of duplicate matches)")
    parser.add_argument("--procs", type=int, default=multiprocessing.cpu_count())
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a game option for every match (integers as numbers), e.g. starting_tables=2",
    )
    parser.add_argument("--solver-check", type=int, default=0, metavar="N")
    parser.add_argument("--seats", type=int, default=None, help="seats per match (default: the game's usual count)")
    args = parser.parse_args(argv)
    if args.seats is not None:
        SEATS[args.game] = args.seats
    if args.solver_check:
        agreed, total = check(args.solver_check, args.seed)
        print(f"sixty-six solver vs plain minimax: {agreed}/{total} positions agree")
        return
    for option in args.option:
        name, _, value = option.partition("=")
        OPTIONS[args.game] = {**OPTIONS[args.game], name: int(value) if value.lstrip("-").isdigit() else value}
    total = run(args.game, args.a, args.b, max(1, args.matches // 2), args.procs, args.seed)
    print(f"options: {OPTIONS[args.game]}")
    print(report(args.game, args.a, args.b, total))


if __name__ == "__main__":
    main()
