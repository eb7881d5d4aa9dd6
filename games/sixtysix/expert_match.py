"""What a deal's result is worth in the match: the chance to win the match from the new standing.

A match is to `match_target` game points (7). One game point matters more at 6-6 than at 0-0, and
a safe 1 can beat a risky 2 when the other side is about to win. So the expert values a deal's game
points (seat 0's, seat 1's) by 2·P(seat 0 wins the match after them) − 1, which is zero-sum (seat 1's
value is the negative, since the model is symmetric) as the solver's negamax needs.

P comes from a plain model of the deals to come: each side wins a deal half the time, scoring 1, 2
or 3 game points with the frequencies below (roughly what the bot lab's deals show); drawn deals
are left out. Match wins depend on the standing only through the points each side still needs.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from games.sixtysix.expert_solver import Utility

DEAL_POINTS = {1: 0.45, 2: 0.4, 3: 0.15}


@cache
def win_chance(need: int, other_needs: int) -> float:
    """The chance to reach the target first, needing `need` points while the other needs `other_needs`."""
    if need <= 0:
        return 1.0
    if other_needs <= 0:
        return 0.0
    return sum(
        p * (win_chance(need - k, other_needs) + win_chance(need, other_needs - k)) / 2 for k, p in DEAL_POINTS.items()
    )


def match_utility(scores: Sequence[int], target: int) -> Utility:
    """Seat 0's value of a deal's game points, from the standing `scores` (per seat) before it."""
    need, other_needs = target - scores[0], target - scores[1]

    def utility(first: int, second: int) -> float:
        return 2 * win_chance(need - first, other_needs - second) - 1

    return utility
