"""What holds for every match: order independence to the last bit, incremental = rebuild, and the
direction of the updates in a match between two sides.

Matches are generated with 2 to 4 sides of 1 to 4 seats, participants drawn from a small pool of
players and bot levels (so the same participant often sits twice, on one side or on two), random
standings and winners, and stand-in shares on both sides of the ½ threshold.
"""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from app.ratings.glicko2 import Rating
from app.ratings.matches import Match, Seat, is_bot, rate_match

POOL = ["ana", "ben", "eva", "ivo", "mia", "bot:random", "bot:basic", "bot:expert"]
RATINGS = st.builds(Rating, st.floats(800, 2200), st.floats(30, 350), st.floats(0.03, 0.1))
SHARES = st.sampled_from([0.0, 0.0, 0.0, 0.2, 0.5, 0.6, 1.0])


@st.composite
def matches(draw, pool=POOL, shares=SHARES, max_sides=4):
    n_sides = draw(st.integers(2, max_sides))
    sizes = draw(st.lists(st.integers(1, 4), min_size=n_sides, max_size=n_sides))
    teams = [t for t, size in enumerate(sizes) for _ in range(size)]
    teams = draw(st.permutations(teams))
    seats = tuple(Seat(draw(st.sampled_from(pool)), t, draw(shares)) for t in teams)
    scores = tuple(draw(st.lists(st.integers(-5, 12), min_size=n_sides, max_size=n_sides)))
    return Match(
        draw(st.sampled_from(["sixty-six", "fifty-six", "smear"])), seats, scores, draw(st.integers(0, n_sides - 1))
    )


RATED_POOL = st.dictionaries(st.sampled_from(POOL), RATINGS)


@given(matches(), RATED_POOL, st.randoms(use_true_random=False))
def test_the_order_of_seats_sides_and_ratings_does_not_matter_to_the_last_bit(m, ratings, rnd):
    renumber = list(range(len(m.scores)))
    rnd.shuffle(renumber)  # side t becomes side renumber[t]
    scores = [0] * len(m.scores)
    for t, score in enumerate(m.scores):
        scores[renumber[t]] = score
    seats = [Seat(s.participant, renumber[s.team], s.taken_over_share) for s in m.seats]
    rnd.shuffle(seats)
    shuffled = Match(m.game, tuple(seats), tuple(scores), renumber[m.winner])
    items = list(ratings.items())
    rnd.shuffle(items)
    assert rate_match(shuffled, dict(items)) == rate_match(m, ratings)


@given(matches(), RATED_POOL)
def test_only_participants_of_the_match_are_rated_in_sorted_order(m, ratings):
    after = rate_match(m, ratings)
    assert list(after) == sorted(after)
    assert set(after) <= {s.participant for s in m.seats}
    assert not after or any(not is_bot(p) for p in after)


PLAYERS = [f"player{i}" for i in range(8)]


@given(matches(pool=PLAYERS, shares=st.just(0.0), max_sides=2), st.dictionaries(st.sampled_from(PLAYERS), RATINGS))
def test_between_two_sides_every_winner_gains_and_every_loser_loses(m, ratings):
    sides = {s.participant: {t.team for t in m.seats if t.participant == s.participant} for s in m.seats}
    after = rate_match(m, ratings)
    for participant, new in after.items():
        old = ratings.get(participant, Rating()).rating
        assert (new.rating > old) if sides[participant] == {m.winner} else (new.rating < old)
    assert set(after) == {p for p, teams in sides.items() if len(teams) == 1}


@given(st.lists(matches(), min_size=1, max_size=12))
def test_the_incremental_projection_and_a_full_rebuild_agree_exactly(history):
    """Incremental: after each match the ratings are stored as JSON and read back for the next.
    Rebuild: one fold over the whole history in memory. Same numbers, bit for bit."""
    stored = "{}"
    for m in history:
        current = {p: Rating(*v) for p, v in json.loads(stored).items()}
        current.update(rate_match(m, current))
        stored = json.dumps({p: [r.rating, r.deviation, r.volatility] for p, r in current.items()})
    rebuilt: dict[str, Rating] = {}
    for m in history:
        rebuilt.update(rate_match(m, rebuilt))
    assert {p: Rating(*v) for p, v in json.loads(stored).items()} == rebuilt
