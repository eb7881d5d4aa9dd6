"""From one finished match to rating updates: the method of docs/ratings.md, case by case."""

from __future__ import annotations

import pytest

from app.ratings.glicko2 import NEW_PLAYER, Rating, rate, rate_weighted
from app.ratings.matches import (
    Match,
    Seat,
    bot_participant,
    display,
    eligible,
    is_bot,
    match_from_standing,
    rate_match,
)


def match(game, seats, scores, winner, abandoned=False):
    return Match(game, tuple(Seat(*s) for s in seats), tuple(scores), winner, abandoned)


# ---------------------------------------------------------------------------------------------------
# Two players


def test_a_two_player_match_is_exactly_one_game_of_the_paper():
    ana, ben = Rating(1620, 80, 0.058), Rating(1480, 190, 0.061)
    m = match("sixty-six", [("ana", 0), ("ben", 1)], [7, 3], 0)
    assert rate_match(m, {"ana": ana, "ben": ben}) == {"ana": rate(ana, [(ben, 1)]), "ben": rate(ben, [(ana, 0)])}


def test_a_participant_without_a_rating_starts_as_a_new_player():
    m = match("sixty-six", [("ana", 0), ("ben", 1)], [2, 7], 1)
    assert rate_match(m, {}) == {"ana": rate(NEW_PLAYER, [(NEW_PLAYER, 0)]), "ben": rate(NEW_PLAYER, [(NEW_PLAYER, 1)])}


# ---------------------------------------------------------------------------------------------------
# Teams


def test_worked_team_example():
    """Smear for four: A (1700/100) and C (1500/100) at seats 0 and 2 beat B and D (1600/100 each);
    every σ is 0.06, τ = 0.5. Computed by hand, 6 decimals, from the steps of Glickman's paper.

    Sides: (A, C) mean 1600; (B, D) mean 1600, RD √((100² + 100²) / 2) = 100.
    A's opponent: 1600 + (1700 - 1600) = 1700, RD 100 (the other side seen from A's seat).

    Step 2: μ = (1700 - 1500) / 173.7178 = 1.151292, φ = 100 / 173.7178 = 0.575646 (φ² = 0.331369);
            the opponent has the same μj and φj.
    Step 3: g(φj) = 1 / √(1 + 3 · 0.331369 / π²) = 1 / √1.100724 = 0.953149;
            E = 1 / (1 + exp(-g · 0)) = 0.5;  v = 1 / (0.953149² · 0.5 · 0.5) = 1 / 0.227123 = 4.402896.
    Step 4: Σ g (s - E) = 0.953149 · (1 - 0.5) = 0.476574;  Δ = 4.402896 · 0.476574 = 2.098308.
    Step 5: a = ln 0.06² = -5.626821. Here Δ² = v (Δ = 2/g and v = 4/g²), so Δ² - φ² - v = -φ²:
            f(x) = -eˣ (φ² + eˣ) / (2 (φ² + v + eˣ)²) - (x - a) / τ².
            f(a) = -0.0036 · 0.334969 / (2 · 4.737865²) = -0.0012059 / 44.8947 = -0.0000269.
            Δ² ≤ φ² + v, so B = a - kτ: f(a - 0.5) = +2.0 (the last term), k = 1.
            Near a, f falls with slope -1/τ² = -4 (the first term hardly moves), so the root is
            x = a - 0.0000269 / 4 = a - 0.0000067 and σ' = exp(x / 2) = 0.06 · exp(-0.0000034) = 0.0599998.
    Step 6: φ* = √(0.331369 + 0.0599998²) = √0.334969 = 0.578765.
    Step 7: φ' = 1 / √(1 / 0.334969 + 1 / 4.402896) = 1 / √(2.985355 + 0.227123) = 1 / √3.212478 = 0.557930;
            μ' = 1.151292 + 0.557930² · 0.476574 = 1.151292 + 0.311286 · 0.476574 = 1.151292 + 0.148351 = 1.299643.
    Step 8: r' = 173.7178 · 1.299643 + 1500 = 1725.77;  RD' = 173.7178 · 0.557930 = 96.92.

    C's opponent is 1600 + (1500 - 1600) = 1500, C's own rating: the same E = 0.5, g, v, Δ, σ', φ',
    so C gains the same 25.77 (1525.77): the team's expectation decides, not C's rating against theirs.
    B's and D's opponents are 1600 + (1600 - 1600) = 1600: E = 0.5, s = 0, so each loses 25.77 (1574.23).
    """
    m = match("smear", [("A", 0), ("B", 1), ("C", 0), ("D", 1)], [11, 7], 0)
    ratings = {"A": Rating(1700, 100), "B": Rating(1600, 100), "C": Rating(1500, 100), "D": Rating(1600, 100)}
    after = rate_match(m, ratings)
    expected = {"A": 1725.77, "B": 1574.23, "C": 1525.77, "D": 1574.23}
    assert {p: round(r.rating, 2) for p, r in after.items()} == expected
    assert all(round(r.deviation, 2) == 96.92 for r in after.values())
    assert all(r.volatility == pytest.approx(0.0599998, abs=5e-8) for r in after.values())


def test_against_a_team_the_opponent_is_its_mean_with_the_root_mean_square_deviation():
    """One player against a team of two (as in a side left alone): the team is one opponent."""
    solo, p, q = Rating(1550, 120, 0.06), Rating(1700, 50, 0.06), Rating(1400, 150, 0.06)
    m = match("fifty-six", [("solo", 0), ("p", 1), ("q", 1)], [0, 8], 1)
    after = rate_match(m, {"solo": solo, "p": p, "q": q})
    composite = Rating(1550, (50**2 / 2 + 150**2 / 2) ** 0.5)
    assert after["solo"].rating == pytest.approx(rate(solo, [(composite, 0)]).rating, abs=1e-9)
    assert after["solo"].deviation == pytest.approx(rate(solo, [(composite, 0)]).deviation, abs=1e-9)


def test_partners_are_not_opponents_a_stronger_partner_makes_a_win_worth_less():
    me, opponents = Rating(1500, 100), {"o1": Rating(1500, 100), "o2": Rating(1500, 100)}
    seats = [("me", 0), ("o1", 1), ("partner", 0), ("o2", 1)]
    with_weak = rate_match(match("smear", seats, [11, 3], 0), {"me": me, "partner": Rating(1300, 100), **opponents})
    with_strong = rate_match(match("smear", seats, [11, 3], 0), {"me": me, "partner": Rating(1700, 100), **opponents})
    assert with_strong["me"].rating < with_weak["me"].rating


# ---------------------------------------------------------------------------------------------------
# Three players, each for himself, and more than two sides


def test_three_players_play_pairwise_games_of_half_weight():
    ana, ben, eva = Rating(1500, 200, 0.06), Rating(1650, 90, 0.06), Rating(1420, 300, 0.06)
    m = match("sixty-six", [("ana", 0), ("ben", 1), ("eva", 2)], [7, 5, 2], 0)
    after = rate_match(m, {"ana": ana, "ben": ben, "eva": eva})
    assert after == {
        "ana": rate_weighted(ana, [(ben, 1, 0.5), (eva, 1, 0.5)]),
        "ben": rate_weighted(ben, [(ana, 0, 0.5), (eva, 1, 0.5)]),
        "eva": rate_weighted(eva, [(ana, 0, 0.5), (ben, 0, 0.5)]),
    }


def test_a_three_player_match_counts_once_not_twice():
    """Among equal newcomers the winner moves as a two-player winner does, the second as a draw, the
    third as a two-player loser: one game's worth each."""
    m = match("sixty-six", [("ana", 0), ("ben", 1), ("eva", 2)], [8, 4, 1], 0)
    after = rate_match(m, {})
    assert after["ana"] == rate(NEW_PLAYER, [(NEW_PLAYER, 1)])
    assert after["ben"] == rate(NEW_PLAYER, [(NEW_PLAYER, 0.5)])
    assert after["ben"].rating == 1500
    assert after["eva"] == rate(NEW_PLAYER, [(NEW_PLAYER, 0)])


def test_equal_final_scores_below_the_winner_are_a_draw():
    ana, ben, eva = Rating(1500, 200), Rating(1600, 100), Rating(1450, 150)
    m = match("sixty-six", [("ana", 0), ("ben", 1), ("eva", 2)], [7, 3, 3], 0)
    after = rate_match(m, {"ana": ana, "ben": ben, "eva": eva})
    assert after["ben"] == rate_weighted(ben, [(ana, 0, 0.5), (eva, 0.5, 0.5)])
    assert after["eva"] == rate_weighted(eva, [(ana, 0, 0.5), (ben, 0.5, 0.5)])


def test_the_winner_ranks_first_even_with_fewer_points():
    """Smear: both sides reach the target in one deal and the bidders win with the lower score."""
    m = match("smear", [("a", 0), ("b", 1), ("c", 0), ("d", 1)], [11, 12], 0)
    after = rate_match(m, {})
    assert after["a"].rating > 1500 > after["b"].rating


def test_fifty_six_in_pairs_the_teams_out_of_tables_are_level():
    seats = [("p0", 0), ("p1", 1), ("p2", 2), ("p3", 0), ("p4", 1), ("p5", 2)]
    ratings = {f"p{i}": Rating(1500 + 40 * i, 100 + 20 * i) for i in range(6)}
    after = rate_match(match("fifty-six", seats, [0, 24, 0], 1), ratings)
    team = {0: ("p0", "p3"), 1: ("p1", "p4"), 2: ("p2", "p5")}
    mean = {t: sum(ratings[p].rating for p in ps) / 2 for t, ps in team.items()}
    rms = {t: (sum(ratings[p].deviation ** 2 for p in ps) / 2) ** 0.5 for t, ps in team.items()}
    p0 = ratings["p0"]
    seen_from_p0 = {t: Rating(mean[t] + p0.rating - mean[0], rms[t]) for t in (1, 2)}
    expected = rate_weighted(p0, [(seen_from_p0[1], 0, 0.5), (seen_from_p0[2], 0.5, 0.5)])
    assert after["p0"].rating == pytest.approx(expected.rating, abs=1e-9)
    assert after["p0"].deviation == pytest.approx(expected.deviation, abs=1e-9)
    assert after["p1"].rating > ratings["p1"].rating and after["p4"].rating > ratings["p4"].rating


# ---------------------------------------------------------------------------------------------------
# Bots


def test_bot_levels_are_rated_like_players_and_move_a_newcomers_rating():
    expert = bot_participant("expert")
    assert expert == "bot:expert" and is_bot(expert) and not is_bot("ana")
    ratings = {expert: Rating(1800, 60, 0.05)}
    after = rate_match(match("sixty-six", [("ana", 0), (expert, 1)], [7, 6], 0), ratings)
    assert after["ana"] == rate(NEW_PLAYER, [(ratings[expert], 1)])
    assert after[expert] == rate(ratings[expert], [(NEW_PLAYER, 0)])
    assert after["ana"].rating > 1700


def test_two_seats_of_one_bot_level_on_one_side_are_rated_once():
    basic = bot_participant("basic")
    m = match("smear", [("ana", 0), (basic, 1), ("ben", 0), (basic, 1)], [11, 4], 0)
    after = rate_match(m, {basic: Rating(1450, 70)})
    assert list(after) == ["ana", "ben", basic]  # one entry, in sorted order
    team = Rating(1500, 350)  # ana and ben, both new
    assert after[basic] == rate(Rating(1450, 70), [(team, 0)])


def test_a_bot_level_on_both_sides_plays_itself_and_is_not_rated():
    expert = bot_participant("expert")
    m = match("smear", [("ana", 0), (expert, 1), (expert, 0), (expert, 1)], [11, 4], 0)
    ratings = {expert: Rating(1800, 60)}
    after = rate_match(m, ratings)
    assert sorted(after) == ["ana"]
    assert after["ana"].rating > 1500  # ana's side, her and the expert, beat two experts


def test_a_match_of_bots_only_is_not_rated():
    m = match("sixty-six", [(bot_participant("expert"), 0), (bot_participant("random"), 1)], [7, 0], 0)
    assert rate_match(m, {}) == {}


# ---------------------------------------------------------------------------------------------------
# Abandoned matches and stand-ins


def test_an_abandoned_match_is_not_rated():
    m = match("sixty-six", [("ana", 0), ("ben", 1)], [5, 3], None, abandoned=True)
    assert rate_match(m, {}) == {}


def test_a_match_that_was_not_abandoned_has_a_winner():
    with pytest.raises(ValueError):
        match("sixty-six", [("ana", 0), ("ben", 1)], [5, 3], None)


@pytest.mark.parametrize("share, rated", [(0.0, True), (0.5, True), (0.51, False), (1.0, False)])
def test_a_seat_mostly_played_by_a_stand_in_is_not_rated_nor_rated_against(share, rated):
    m = match("sixty-six", [("ana", 0), ("ben", 1, share)], [7, 2], 0)
    assert sorted(rate_match(m, {})) == (["ana", "ben"] if rated else [])


def test_a_taken_over_partner_takes_the_whole_partnership_out():
    m = match("sixty-six", [("a", 0), ("b", 1), ("c", 0, 0.8), ("d", 1)], [7, 4], 1)
    assert rate_match(m, {}) == {}


def test_three_players_one_taken_over_the_other_two_play_one_full_game():
    ana, ben = Rating(1500, 200), Rating(1600, 100)
    m = match("sixty-six", [("ana", 0), ("ben", 1), ("eva", 2, 0.9)], [7, 4, 5], 0)
    after = rate_match(m, {"ana": ana, "ben": ben})
    assert after == {"ana": rate(ana, [(ben, 1)]), "ben": rate(ben, [(ana, 0)])}


def test_fifty_six_one_team_taken_over_the_others_are_rated_among_themselves():
    seats = [("p0", 0), ("p1", 1), ("p2", 2, 0.7), ("p3", 0), ("p4", 1), ("p5", 2)]
    after = rate_match(match("fifty-six", seats, [0, 24, 0], 1), {})
    two_teams = rate_match(match("fifty-six", [("p0", 0), ("p1", 1), ("p3", 0), ("p4", 1)], [0, 24], 1), {})
    assert after == two_teams


# ---------------------------------------------------------------------------------------------------
# Building a match from what the games say


def test_match_from_standing_reads_the_match_ended_event():
    ended = {"winner": [1, 3], "standing": [{"seats": [0, 2], "score": 3}, {"seats": [1, 3], "score": 7}]}
    m = match_from_standing(
        "sixty-six", ["a", "b", "c", "d"], ended["standing"], ended["winner"], taken_over_share=[0, 0.25, 0, 0]
    )
    assert m == match("sixty-six", [("a", 0), ("b", 1, 0.25), ("c", 0), ("d", 1)], [3, 7], 1)


def test_match_from_standing_of_an_abandoned_match():
    standing = [{"seats": [0], "score": 2}, {"seats": [1], "score": 4}]
    m = match_from_standing("sixty-six", ["a", "b"], standing, None, abandoned=True)
    assert m.abandoned and m.winner is None and rate_match(m, {}) == {}


@pytest.mark.parametrize(
    "standing, winner",
    [
        ([{"seats": [0], "score": 7}], [0]),  # seat 1 is missing
        ([{"seats": [0, 1], "score": 7}, {"seats": [1], "score": 2}], [1]),  # seat 1 twice
        ([{"seats": [0], "score": 7}, {"seats": [1], "score": 2}], [0, 1]),  # the winner is no side
    ],
)
def test_match_from_standing_refuses_what_does_not_fit(standing, winner):
    with pytest.raises(ValueError):
        match_from_standing("sixty-six", ["a", "b"], standing, winner)


@pytest.mark.parametrize(
    "seats, scores, winner",
    [
        ([("a", 0), ("b", 0)], [7], 0),  # one side only
        ([("a", 0), ("b", 2)], [7, 3], 0),  # a team that is no side
        ([("a", 0), ("b", 1, 1.5)], [7, 3], 0),  # a share is a fraction
        ([("a", 0), ("", 1)], [7, 3], 0),  # every seat names its participant
        ([("a", 0), ("b", 1)], [7, 3], 2),  # the winner is a side
    ],
)
def test_a_match_that_does_not_fit_is_refused(seats, scores, winner):
    with pytest.raises(ValueError):
        match("smear", seats, scores, winner)


# ---------------------------------------------------------------------------------------------------
# Leaderboards and display


@pytest.mark.parametrize(
    "deviation, played, listed",
    [
        (110, 10, True),
        (60, 250, True),
        (110.01, 10, False),
        (80, 9, False),
        (350, 0, False),
    ],
)
def test_leaderboard_eligibility(deviation, played, listed):
    assert eligible(Rating(1600, deviation), played) is listed


def test_ratings_are_rounded_for_display_only():
    after = rate_match(match("sixty-six", [("ana", 0), ("ben", 1)], [7, 1], 0), {"ben": Rating(1400, 30)})
    assert after["ana"] == rate(NEW_PLAYER, [(Rating(1400, 30), 1)])  # the state: full floats
    assert after["ana"].rating != round(after["ana"].rating, 2)
    shown = display(after["ana"])
    assert shown == {
        "rating": round(after["ana"].rating),
        "deviation": round(after["ana"].deviation),
        "volatility": round(after["ana"].volatility, 4),
    }
    assert isinstance(shown["rating"], int)
