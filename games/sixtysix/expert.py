"""The expert Sixty-Six player: search over the worlds consistent with its view.

* Stock exhausted (two players): the other hand is exactly the unseen cards, so the exact solver
  (expert_solver) plays the game-theoretically best card, and declares out when that is best.
* Stock closed: the solver on sampled worlds (perfect-information Monte Carlo), values averaged.
* Stock open: every legal action (play, meld, exchange, close, draw, declare out) is tried in the same
  sampled worlds and the deal played out by basic players (expert_playout, fast); a playout that
  reaches a closed or exhausted stock with few cards left is finished by the solver. The best average
  wins.
Values are what a deal's game points are worth in the match (expert_match): the chance to win the
match after the deal, so a point counts for more when the match is close to its end. The 3- and
4-player variants use expert_multi (sampled worlds played out through the engine by basic players).
`samples` bounds the work (worlds times actions); `stop()` may end it early.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from games.bots import action_key as key
from games.engine import Action, View
from games.sixtysix import bots as basic
from games.sixtysix import expert_multi
from games.sixtysix.expert_match import match_utility
from games.sixtysix.expert_playout import playout
from games.sixtysix.expert_solver import Solver, Utility, action_of, applies, value_for
from games.sixtysix.expert_world import apply, sample, supported
from games.sixtysix.scoring import round_result
from games.sixtysix.state import ROUND_OVER, State

# Solving a closed deal exactly costs far more with many cards left: fewer worlds then. Each entry is
# (at most this many cards in hands, samples per world).
SOLVE_COST = ((8, 2), (10, 4))


def candidates(view: View) -> list[Action]:
    """The legal actions worth searching. Two are dominated and never tried: keeping the trump 9 when
    it can be exchanged (the higher trump is never worse to hold, and every other action stays
    available after the exchange), and leading the K or Q of a marriage that could be shown first
    (showing it, then leading the same card, only adds the marriage)."""
    legal: list[Action] = view["legal_actions"]
    if {"type": "exchange"} in legal:
        return [{"type": "exchange"}]
    meldable = {a["suit"] for a in legal if a["type"] == "meld"}
    return [a for a in legal if not (a["type"] == "play" and a["card"][0] in "KQ" and a["card"][1] in meldable)]


def utility_of(view: View) -> Utility:
    return match_utility([s["score"] for s in view["standing"]], view["options"].get("match_target", 7))


def evaluate(view: View, rng: random.Random, samples: int, stop: Callable[[], bool]) -> dict[str, float] | None:
    """Estimated value of each legal action, or None where the expert has no search (then basic)."""
    if expert_multi.supported(view):
        return expert_multi.evaluate(view, rng, samples, stop)  # 3p and 4p: Monte Carlo via the engine
    if not supported(view):
        return None
    first, utility = sample(view, rng), utility_of(view)
    if applies(first):
        return _solved(view, first, utility, rng, samples, stop)
    return _rolled_out(view, utility, rng, samples, stop)


def _solved(
    view: View, world: State, utility: Utility, rng: random.Random, samples: int, stop: Callable[[], bool]
) -> dict[str, float]:
    exact = view["round"]["stock_size"] == 0  # nothing hidden but the other hand: one world is all
    assert world.round is not None
    cards_left = sum(len(h) for h in world.round.hands)
    cost = next((c for n, c in SOLVE_COST if cards_left <= n), 8)
    worlds = 1 if exact else max(1, samples // cost)
    totals: dict[str, float] = {}
    for n in range(worlds):
        state = world if n == 0 else sample(view, rng)
        for move, value in Solver(state, utility).root_values().items():
            totals[key(action_of(move))] = totals.get(key(action_of(move)), 0) + value
        if stop():
            worlds = n + 1
            break
    return {k: v / worlds for k, v in totals.items()}


def _rolled_out(
    view: View, utility: Utility, rng: random.Random, samples: int, stop: Callable[[], bool]
) -> dict[str, float]:
    seat: int = view["seat"]
    legal = candidates(view)
    if len(legal) == 1:
        return {key(legal[0]): 0.0}  # nothing to weigh
    worlds = max(2, samples // len(legal))
    totals = {key(a): 0.0 for a in legal}
    done = 0
    for _ in range(worlds):
        world = sample(view, rng)
        for action in legal:
            totals[key(action)] += value_after(apply(world, seat, action), seat, utility)
        done += 1
        if stop():
            break
    return {k: v / done for k, v in totals.items()}


def value_after(state: State, me: int, utility: Utility) -> float:
    if state.phase == ROUND_OVER:
        game = round_result(state).game_points
        return value_for(utility, game, me)
    return playout(state, me, utility)


def choose(
    view: View, rng: random.Random, samples: int, stop: Callable[[], bool]
) -> tuple[Action, dict[str, float] | None]:
    values = evaluate(view, rng, samples, stop)
    if values is None:
        return basic.choose(view, "basic", rng), None
    # Ties go to the basic player's choice, then to the order of legal_actions.
    fallback = key(basic.choose(view, "basic", rng))
    tried = [a for a in view["legal_actions"] if key(a) in values]
    best = max(tried, key=lambda a: (round(values[key(a)], 6), key(a) == fallback))
    return best, values
