"""The expert Sixty-Six player: search over the worlds consistent with its view.

* Stock exhausted (two players): the other hand is exactly the unseen cards, so the exact solver
  (expert_solver) plays the game-theoretically best card, and declares out when that is best.
* Stock closed: the solver on sampled worlds (perfect-information Monte Carlo), values averaged.
* Stock open: every legal action (play, meld, exchange, close, draw, declare out) is tried in the same
  sampled worlds and the deal played out by basic players; a world that reaches a closed or exhausted
  stock with few cards left is finished by the solver. The best average deal result wins.
Values are game points of the deal, own side minus the other. Variants other than the two-player
games play "basic". `samples` bounds the work (worlds times actions); `stop()` may end it early.
"""
from __future__ import annotations

import random
from typing import Callable

from games.bots import action_key as key
from games.sixtysix import bots as basic
from games.sixtysix.expert_solver import Solver, action_of, applies
from games.sixtysix.expert_world import sample, supported
from games.sixtysix.legal import legal_actions, to_act
from games.sixtysix.rules import decide
from games.sixtysix.evolve import evolve
from games.sixtysix.scoring import round_result
from games.sixtysix.state import ROUND_OVER, State
from games.sixtysix.view import round_view, standing

SOLVE_CARDS = 6  # solve a rollout's end exactly when at most this many cards are left in hands
MAX_STEPS = 80  # a deal has far fewer decisions; a guard against a rules change looping a rollout


def evaluate(view: dict, rng: random.Random, samples: int, stop: Callable[[], bool]) -> dict[str, float] | None:
    """Estimated value of each legal action, or None where the expert has no search (then basic)."""
    if not supported(view):
        return None
    legal = view["legal_actions"]
    first = sample(view, rng)
    if applies(first):
        return _solved(view, first, rng, samples, stop)
    return _rolled_out(view, legal, rng, samples, stop)


def _solved(view: dict, world: State, rng, samples: int, stop) -> dict[str, float]:
    exact = view["round"]["stock_size"] == 0  # nothing hidden but the other hand: one world is all
    cards_left = sum(len(h) for h in world.round.hands)
    worlds = 1 if exact else max(1, samples // (4 if cards_left <= 8 else 40))
    totals: dict[str, float] = {}
    for n in range(worlds):
        state = world if n == 0 else sample(view, rng)
        for move, value in Solver(state).root_values().items():
            totals[key(action_of(move))] = totals.get(key(action_of(move)), 0) + value
        if stop():
            worlds = n + 1
            break
    return {k: v / worlds for k, v in totals.items()}


def _rolled_out(view: dict, legal: list[dict], rng, samples: int, stop) -> dict[str, float]:
    seat = view["seat"]
    worlds = max(2, samples // len(legal))
    totals = {key(a): 0.0 for a in legal}
    done = 0
    for _ in range(worlds):
        world, seed = sample(view, rng), rng.random()
        for action in legal:
            totals[key(action)] += playout(_apply(world, seat, action), seat, random.Random(seed))
        done += 1
        if stop():
            break
    return {k: v / done for k, v in totals.items()}


def _apply(state: State, seat: int, action: dict) -> State:
    for event in decide(state, seat, action):
        state = evolve(state, event)
    return state


def playout(state: State, me: int, rng: random.Random) -> float:
    """The deal's result for `me` when basic players play it out (the solver finishes short ends)."""
    for _ in range(MAX_STEPS):
        if state.phase == ROUND_OVER:
            game = round_result(state).game_points
            return game[me] - game[1 - me]
        seat = to_act(state)[0]
        if applies(state) and sum(len(h) for h in state.round.hands) <= SOLVE_CARDS:
            best = max(Solver(state).root_values().values())
            return best if seat == me else -best
        state = _apply(state, seat, basic.choose(_bot_view(state, seat), "basic", rng))
    return 0.0


def _bot_view(state: State, seat: int) -> dict:
    """The parts of the seat's view the basic player reads."""
    return {"seat": seat, "standing": standing(state), "round": round_view(state, seat),
            "legal_actions": legal_actions(state, seat)}


def choose(view: dict, rng: random.Random, samples: int, stop: Callable[[], bool]) -> tuple[dict, dict | None]:
    values = evaluate(view, rng, samples, stop)
    if values is None:
        return basic.choose(view, "basic", rng), None
    # Ties go to the basic player's choice, then to the order of legal_actions.
    fallback = key(basic.choose(view, "basic", rng))
    best = max(view["legal_actions"], key=lambda a: (round(values[key(a)], 6), key(a) == fallback))
    return best, values
