"""The expert Fifty-Six player: search over the worlds consistent with its view.

Each decision samples worlds (expert_world: the unseen cards dealt to the other seats, respecting the
voids play has shown and the strength their bids promise) and tries every candidate action in each
world, the same worlds for every action:
* Play: each legal card is played, then the deal is played out by the basic player's rules for all
  four seats (expert_sim). The partner is on the own side of the result, so overtaking its winning
  card shows up as points lost or a contract not made.
* Auction: a handful of calls (expert_bid) are made, the auction finished by basic bidders and the
  deal played out: a bid is worth how often its contract makes and what it pays. The search only
  overrides the basic bidder's call on a clear edge (PASS_MARGIN, BOLD_MARGIN): its worlds flatter
  the own side and the best of a few noisy estimates flatters itself.
Values are tables the seat's team gains in the deal (short payment included) plus POINT_WEIGHT
(expert_sim) per card point. `samples` bounds the work, worlds times actions tried (a call's
play-out counts double); `stop()` may end it early.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from games.bots import action_key as key
from games.engine import Action, View
from games.fiftysix import bots as basic
from games.fiftysix.expert_bid import call_value, candidates, may_bid
from games.fiftysix.expert_hand import Model
from games.fiftysix.expert_sim import Deal
from games.fiftysix.expert_world import Sampler
from games.fiftysix.state import State

MIN_WORLDS = 2
MAX_WORLDS = 32  # with few actions left, more worlds than this add little
PASS_MARGIN = 0.2  # tables a pass must gain over the basic call to be preferred
BOLD_MARGIN = 1.0  # tables a bid, double or redouble must gain over the basic call
AUCTION_SHARE = 0.5  # a call's world is a whole deal played out, twice a card's average


def evaluate(
    view: View, rng: random.Random, samples: int, stop: Callable[[], bool]
) -> tuple[dict[str, float], dict[str, Action]]:
    """(value per action key, the action tried for each key)."""
    auction = view["round"]["phase"] == "auction"
    tried: list[Action] = candidates(view) if auction else view["legal_actions"]
    budget = samples * AUCTION_SHARE if auction else samples
    worlds = min(MAX_WORLDS, max(MIN_WORLDS, int(budget) // len(tried)))
    if len(view["legal_actions"]) == 1:
        worlds = MIN_WORLDS  # nothing to choose: a rough value for the hint is enough
    me: int = view["seat"]
    sampler = Sampler(view)
    totals = [0.0] * len(tried)
    done = 0
    for _ in range(worlds):
        world = sampler.sample(rng)
        if auction:
            model = Model(world)
            for i, action in enumerate(tried):
                totals[i] += call_value(world, me, action, model)
        else:
            _play_world(world, me, tried, totals)
        done += 1
        if stop():
            break
    return _averaged(totals, done, tried)


def _averaged(totals: list[float], done: int, tried: list[Action]) -> tuple[dict[str, float], dict[str, Action]]:
    """Several bids share the key "bid": the best of them stands for it."""
    values: dict[str, float] = {}
    actions: dict[str, Action] = {}
    for action, total in zip(tried, totals):
        k = key(action)
        if k not in values or total / done > values[k]:
            values[k], actions[k] = total / done, action
    return values, actions


def _play_world(world: State, me: int, tried: list[Action], totals: list[float]) -> None:
    start = Deal.from_state(world)
    team = start.team[me]
    for i, action in enumerate(tried):
        deal = start.copy()
        deal.play(action["card"])
        deal.play_out()
        totals[i] += deal.outcome(team)


def choose(
    view: View, rng: random.Random, samples: int, stop: Callable[[], bool]
) -> tuple[Action, dict[str, float] | None]:
    values, actions = evaluate(view, rng, samples, stop)
    basic_action = basic.choose(view, "basic", rng)
    if view["round"]["phase"] == "auction":
        allowed = {k: a for k, a in actions.items() if k != "bid" or may_bid(view)}
        return _call(values, allowed, basic_action), values
    # Ties go to the basic player's choice, then to the order of legal_actions.
    fallback = key(basic_action)
    best = max(actions, key=lambda k: (round(values[k], 6), k == fallback))
    return actions[best], values


def _call(values: dict[str, float], actions: dict[str, Action], basic_action: Action) -> Action:
    """The basic bidder's call unless the search finds a clearly better one. The best of a few noisy
    estimates looks better than it is (the winner's curse), and the worlds overrate the own side
    (bidders' hands are fitted just strong enough for their bids): so a pass needs a small edge,
    a bid, double or redouble a large one."""
    fallback = key(basic_action)
    best = max(actions, key=lambda k: values[k] - (0 if k == "pass" else BOLD_MARGIN))
    if fallback not in actions:
        return actions[best]
    margin = PASS_MARGIN if best == "pass" else BOLD_MARGIN
    if best != fallback and values[best] > values[fallback] + margin:
        return actions[best]
    return basic_action
