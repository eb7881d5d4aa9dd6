"""The expert Smear player: determinized Monte Carlo over the worlds consistent with its view.

Every decision is searched the same way: sample worlds (expert_world: the hidden cards dealt
consistently with the cards played, the voids shown and the calls made), try each candidate action
in each world, let basic players finish the deal (expert_playout) and score it with the engine. The
value of an action is the average of its team's score change minus the other team's, a set costing
the bid. So
* bidding asks "how often would this contract make, and what is it worth?": pass and each bid are
  played out in the same deals, the rest of the auction included (a partner may still bid, an
  opponent may outbid);
* the bidder's first lead, which names trump, is a choice among its cards like any other play;
* the partner is part of every playout, and its calls shape the hands it is dealt.
With a widow, only the basic discard for each trump suit is searched (there are up to 336 discards);
the others are shown a point below the searched discard of the same trump, which they resemble.

`samples` bounds the work: about that many playouts per decision (at least two worlds), and `stop()`
may end it after any world. The same view and rng give the same action and values.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from games import cards
from games.bots import action_key as key
from games.engine import Action, View
from games.smear import bots as basic
from games.smear.expert_playout import apply, playout
from games.smear.expert_world import Sampler

UNSEARCHED_PENALTY = 1.0  # how far below its trump's searched discard an unsearched discard is shown


def candidates(view: View) -> list[Action]:
    """The actions searched: all of them, except for discards (the basic discard per trump suit)."""
    legal: list[Action] = view["legal_actions"]
    if legal[0]["type"] != "discard":
        return legal
    picks = []
    for suit in cards.SUITS:
        same = [a for a in legal if a["trump"] == suit]
        if same:
            picks.append(basic.choose({**view, "legal_actions": same}, "basic", random.Random(0)))
    return picks


def search(
    view: View, tried: list[Action], rng: random.Random, samples: int, stop: Callable[[], bool]
) -> dict[str, float]:
    """Average playout value of each tried action over the same sampled worlds."""
    seat: int = view["seat"]
    worlds = max(2, samples // len(tried))
    totals = {key(a): 0.0 for a in tried}
    done, sampler = 0, Sampler(view)
    for _ in range(worlds):
        world = sampler.sample(rng)
        for action in tried:
            totals[key(action)] += playout(apply(world, seat, action), seat)
        done += 1
        if stop():
            break
    return {k: v / done for k, v in totals.items()}


def evaluate(view: View, rng: random.Random, samples: int, stop: Callable[[], bool]) -> dict[str, float]:
    """Estimated value of every legal action (deal score change, own team minus the other)."""
    legal: list[Action] = view["legal_actions"]
    if len(legal) == 1:
        return {key(legal[0]): 0.0}  # nothing to weigh; the playouts would only cost time
    tried = candidates(view)
    values = search(view, tried, rng, samples, stop)
    for action in legal:
        if key(action) not in values:
            same = [values[key(t)] for t in tried if t["trump"] == action["trump"]]
            values[key(action)] = (same[0] if same else min(values.values())) - UNSEARCHED_PENALTY
    return values


def choose(
    view: View, rng: random.Random, samples: int, stop: Callable[[], bool]
) -> tuple[Action, dict[str, float] | None]:
    values = evaluate(view, rng, samples, stop)
    # Ties go to the basic player's choice, then to the order of legal_actions.
    fallback = key(basic.choose(view, "basic", random.Random(0)))
    best = max(view["legal_actions"], key=lambda a: (round(values[key(a)], 6), key(a) == fallback))
    return best, values
