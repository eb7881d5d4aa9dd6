"""Glicko-2, as in Mark Glickman's "Example of the Glicko-2 system" (2013): one player, one rating period.

A player has a rating r, a rating deviation RD (how uncertain r is) and a volatility σ (how erratic the
player's results are). `rate(player, results)` is the player's rating after one rating period in which
they played `results` (the opponents' ratings before the period, and the score of each game: 1 win,
0.5 draw, 0 loss). The steps below carry the paper's numbers (step 2 … step 8).

Two things go beyond the paper, and neither changes its worked example:
- `rate_weighted` lets a game count for a fraction of a game: its terms in v and Δ (steps 3 and 4) are
  multiplied by its weight, as a fractional game adds that fraction of a full game's information. A
  weight of 1 is the paper's game; `rate` is `rate_weighted` with weight 1 for every game.
- The deviation is capped at a new player's 350: a player we have lost track of is no less known than a
  newcomer (Glicko-1 has the same cap; the Glicko-2 paper leaves the growth unbounded).

Every sum is a `math.fsum` (exactly rounded), so the result does not depend on the order of the games.
Nothing is rounded here: round for display only.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

# Glickman suggests a system constant between 0.3 and 1.2: the smaller it is, the less a surprising
# result can move the volatility. Talon rates every match as its own rating period (docs/ratings.md),
# so the volatility sees one result at a time; 0.5, the paper's own example value, keeps one upset from
# inflating it while still letting a player who really changed level speed up.
TAU = 0.5
EPSILON = 0.000001  # convergence of the volatility iteration (step 5), the paper's value
SCALE = 173.7178  # Glicko-2 scale: μ = (r - 1500) / SCALE, φ = RD / SCALE
BASE_RATING = 1500.0
NEW_DEVIATION = 350.0  # a new player's RD, and the most an RD can ever be
NEW_VOLATILITY = 0.06


@dataclass(frozen=True)
class Rating:
    rating: float = BASE_RATING
    deviation: float = NEW_DEVIATION
    volatility: float = NEW_VOLATILITY

    def __post_init__(self) -> None:
        for name in ("rating", "deviation", "volatility"):
            if not math.isfinite(getattr(self, name)):
                raise ValueError(f"{name} must be a finite number, not {getattr(self, name)!r}")
        if self.deviation <= 0 or self.volatility <= 0:
            raise ValueError("deviation and volatility must be positive")


NEW_PLAYER = Rating()


def rate(player: Rating, results: Sequence[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """The player's rating after a rating period with these games (opponent before the period, score)."""
    return rate_weighted(player, [(opponent, score, 1.0) for opponent, score in results], tau)


def rate_weighted(player: Rating, games: Sequence[tuple[Rating, float, float]], tau: float = TAU) -> Rating:
    """Like `rate`, each game (opponent, score, weight) counting as `weight` of a game (0 < weight ≤ 1)."""
    for _, score, weight in games:
        if not 0.0 <= score <= 1.0:
            raise ValueError(f"a score is between 0 and 1, not {score!r}")
        if not 0.0 < weight <= 1.0:
            raise ValueError(f"a game's weight is in (0, 1], not {weight!r}")
    mu, phi = _to_glicko2(player)  # step 2
    terms = [_game_terms(mu, opponent, score, weight) for opponent, score, weight in games]
    information = math.fsum(info for info, _ in terms)
    if information == 0.0:
        # No game, or (only in floating point) games so lopsided that E is exactly 0 or 1: nothing
        # was learnt, so the period only adds its uncertainty (step 6 with σ' = σ).
        return Rating(player.rating, SCALE * _pre_period(phi, player.volatility), player.volatility)
    v = 1.0 / information  # step 3
    improvement = math.fsum(gain for _, gain in terms)
    delta = v * improvement  # step 4
    sigma = _new_volatility(phi, player.volatility, v, delta, tau)  # step 5
    phi_star = _pre_period(phi, sigma)  # step 6
    new_phi = 1.0 / math.sqrt(1.0 / phi_star**2 + 1.0 / v)  # step 7
    # Steps 7 and 8 together: r' = 173.7178 μ' + 1500 with μ' = μ + φ'² Σ g(φj)(sj - E), written as
    # r plus the change, so that a zero change leaves r exactly as it was (no round trip through μ).
    return Rating(player.rating + SCALE * new_phi**2 * improvement, SCALE * new_phi, sigma)  # step 8


def g(phi: float) -> float:
    """How much an opponent's uncertainty φ damps what a game against them tells (step 3)."""
    return 1.0 / math.sqrt(1.0 + 3.0 * phi**2 / math.pi**2)


def expected(mu: float, mu_j: float, phi_j: float) -> float:
    """E(μ, μj, φj): the expected score against that opponent (step 3)."""
    return 1.0 / (1.0 + math.exp(-g(phi_j) * (mu - mu_j)))


def _game_terms(mu: float, opponent: Rating, score: float, weight: float) -> tuple[float, float]:
    """One game's weighted terms: of the sum whose inverse is v (step 3), and of Σ g(φj)(sj - E) (step 4)."""
    mu_j, phi_j = _to_glicko2(opponent)
    g_j, e = g(phi_j), expected(mu, mu_j, phi_j)
    return weight * g_j**2 * e * (1.0 - e), weight * g_j * (score - e)


def _new_volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """Step 5: σ' = exp(A/2), A the root of f found by the Illinois algorithm (regula falsi)."""
    a = math.log(sigma**2)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta**2 - phi**2 - v - ex) / (2.0 * (phi**2 + v + ex) ** 2) - (x - a) / tau**2

    big_a = a  # step 5.2: bracket the root
    if delta**2 > phi**2 + v:
        big_b = math.log(delta**2 - phi**2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:  # step 5.4
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a = f_a / 2.0  # the Illinois step: halve the stale end so the bracket keeps shrinking
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)  # step 5.5


def _pre_period(phi: float, sigma: float) -> float:
    """Step 6: φ* = √(φ² + σ²), the deviation grown by one period; capped at a new player's."""
    return min(math.sqrt(phi**2 + sigma**2), NEW_DEVIATION / SCALE)


def _to_glicko2(rating: Rating) -> tuple[float, float]:
    return (rating.rating - BASE_RATING) / SCALE, rating.deviation / SCALE
