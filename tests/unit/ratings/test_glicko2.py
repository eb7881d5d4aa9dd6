"""Glicko-2 for one player and one rating period: Glickman's worked example, and what always holds.

The properties are checked on generated ratings within what a rating pool holds (500 to 2500, RD 30
to 350, σ 0.03 to 0.1). They were chosen because they are true; the one that is not ("RD never grows
after a period with games") has its counterexample below.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.ratings.glicko2 import NEW_DEVIATION, NEW_PLAYER, SCALE, Rating, rate, rate_weighted

RATINGS = st.builds(Rating, st.floats(500, 2500), st.floats(30, NEW_DEVIATION), st.floats(0.03, 0.1))
SCORES = st.sampled_from([0.0, 0.5, 1.0])
RESULTS = st.lists(st.tuples(RATINGS, SCORES), min_size=1, max_size=8)


def test_glickmans_worked_example():
    """The paper's example: 1500/200/0.06 beats 1400/30, loses to 1550/100 and to 1700/300, τ = 0.5.

    The paper prints r' = 1464.06 from μ' rounded to -0.2069; unrounded, r' is 1464.0507.
    """
    after = rate(Rating(1500, 200, 0.06), [(Rating(1400, 30), 1), (Rating(1550, 100), 0), (Rating(1700, 300), 0)])
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.rating == pytest.approx(1464.0507, abs=0.00005)
    assert after.deviation == pytest.approx(151.52, abs=0.005)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)  # printed to 5 places: 0.059996
    assert after.volatility == pytest.approx(0.059996, abs=0.0000005)


def test_a_new_player_starts_at_1500_350_006():
    assert (NEW_PLAYER.rating, NEW_PLAYER.deviation, NEW_PLAYER.volatility) == (1500, 350, 0.06)


def test_a_new_player_without_games_stays_at_the_cap():
    assert rate(NEW_PLAYER, []) == NEW_PLAYER


@given(RATINGS)
def test_a_period_without_games_only_grows_the_deviation_up_to_350(player):
    after = rate(player, [])
    assert (after.rating, after.volatility) == (player.rating, player.volatility)
    grown = math.hypot(player.deviation, player.volatility * SCALE)
    assert after.deviation == pytest.approx(min(grown, NEW_DEVIATION), rel=1e-12)
    assert player.deviation <= after.deviation <= NEW_DEVIATION


@given(RATINGS, RATINGS, SCORES)
def test_one_game_moves_the_rating_the_way_of_the_result(player, opponent, score):
    after = rate(player, [(opponent, score)])
    if score == 1:
        assert after.rating > player.rating
    elif score == 0:
        assert after.rating < player.rating
    elif opponent.rating > player.rating:
        assert after.rating >= player.rating  # a draw moves towards the opponent's rating
    else:
        assert after.rating <= player.rating


@given(RATINGS, st.lists(RATINGS, min_size=1, max_size=8))
def test_a_period_of_wins_never_lowers_the_rating(player, opponents):
    assert rate(player, [(o, 1) for o in opponents]).rating > player.rating


@given(RATINGS, RESULTS)
def test_mirrored_results_give_mirrored_ratings(player, results):
    """Reflect every rating about 1500 and reverse every score: the update is reflected too."""

    def mirror(r: Rating) -> Rating:
        return Rating(3000 - r.rating, r.deviation, r.volatility)

    after = rate(player, results)
    mirrored = rate(mirror(player), [(mirror(o), 1 - s) for o, s in results])
    assert mirrored.rating - 1500 == pytest.approx(1500 - after.rating, abs=1e-4)
    assert mirrored.deviation == pytest.approx(after.deviation, rel=1e-6)
    assert mirrored.volatility == pytest.approx(after.volatility, rel=1e-6)


@given(st.floats(500, 2500), st.floats(500, 2500), st.floats(30, 350), st.floats(0.03, 0.1), SCORES)
def test_players_with_equal_deviation_and_volatility_exchange_equal_points(r_a, r_b, rd, sigma, score):
    a, b = Rating(r_a, rd, sigma), Rating(r_b, rd, sigma)
    a_after, b_after = rate(a, [(b, score)]), rate(b, [(a, 1 - score)])
    assert a_after.rating - a.rating == pytest.approx(b.rating - b_after.rating, abs=1e-6)
    assert a_after.deviation == pytest.approx(b_after.deviation, rel=1e-6)


@given(RATINGS, RESULTS)
def test_games_never_leave_the_deviation_above_a_period_without_them(player, results):
    after = rate(player, results)
    without_games = min(math.hypot(player.deviation, after.volatility * SCALE), NEW_DEVIATION)
    assert after.deviation < without_games
    assert after.deviation <= NEW_DEVIATION


def test_the_deviation_can_grow_after_a_game_against_an_unknown():
    """Not an invariant: a well-known player's one game against a total unknown tells less than the
    period's added uncertainty, so RD 30 ends at 31.7."""
    after = rate(Rating(1500, 30), [(NEW_PLAYER, 1)])
    assert after.deviation == pytest.approx(31.70, abs=0.005)


@given(RATINGS, RESULTS, st.randoms(use_true_random=False))
def test_the_order_of_the_games_does_not_matter_to_the_last_bit(player, results, rnd):
    shuffled = list(results)
    rnd.shuffle(shuffled)
    assert rate(player, shuffled) == rate(player, results)


@given(RATINGS, RATINGS, SCORES)
def test_two_half_games_are_exactly_one_game(player, opponent, score):
    assert rate_weighted(player, [(opponent, score, 0.5), (opponent, score, 0.5)]) == rate(player, [(opponent, score)])


@given(RATINGS, RATINGS)
def test_a_lighter_win_moves_the_rating_less(player, opponent):
    """(Not its RD: a full surprising win raises the volatility more, and with it the RD, at times.)"""
    full, half = rate(player, [(opponent, 1)]), rate_weighted(player, [(opponent, 1, 0.5)])
    assert player.rating < half.rating < full.rating


@pytest.mark.parametrize(
    "game", [(NEW_PLAYER, 1.5, 1.0), (NEW_PLAYER, -0.5, 1.0), (NEW_PLAYER, 1.0, 0.0), (NEW_PLAYER, 1.0, 1.5)]
)
def test_scores_and_weights_outside_their_range_are_refused(game):
    with pytest.raises(ValueError):
        rate_weighted(NEW_PLAYER, [game])


@pytest.mark.parametrize("values", [(1500, 0, 0.06), (1500, 350, 0), (math.nan, 350, 0.06), (1500, math.inf, 0.06)])
def test_a_rating_is_finite_with_positive_deviation_and_volatility(values):
    with pytest.raises(ValueError):
        Rating(*values)
