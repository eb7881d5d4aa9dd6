"""From the outcome of one finished match to the rating updates of its participants.

One match is one Glicko-2 rating period for its participants, and counts as one game's worth of
evidence for each of them, however many sides it had. docs/ratings.md explains the method for each
kind of match; in short:

- the match's sides (a team, or one seat each for himself) are ranked: the winner first, then the
  others by their final score (game points, tables or match points), equal scores level;
- each rated participant plays one game against every other rated side, scored 1, 0.5 or 0 by the
  ranking, each of weight 1/(number of other rated sides);
- that game's opponent is the other side's strength seen from the participant's seat: the mean rating
  of the other side plus the participant's own distance from their side's mean (partners are never
  opponents; a strong partner raises what the participant is expected to score), with the other
  side's members' root-mean-square deviation;
- abandoned matches are not rated; a side with a seat mostly played by a stand-in bot is neither rated
  nor rated against; a participant sitting on two sides plays itself and is not rated; a match whose
  rated participants are all bots is not rated.

Pure and deterministic: the result depends on the match and the ratings, never on the order of the
seats, the teams' numbering or the mapping's order (every sum is a `math.fsum`), so replaying the
matches in the order of the global feed rebuilds exactly the ratings the incremental projection holds.
Nothing is rounded in the state: `display` rounds for people only.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TypedDict

from app.ratings.glicko2 import NEW_PLAYER, Rating, rate_weighted
from games.events import Side

BOT_PREFIX = "bot:"  # a bot level's participant id: bot:random, bot:basic, bot:expert
TAKEOVER_LIMIT = 0.5  # a seat with a larger share of stand-in moves is not the human's result
# Leaderboard: a deviation of at most 110 puts the 95% interval within ±220 of the rating. A newcomer
# playing well-rated opponents gets there in about 10 matches, so the two thresholds agree then;
# against uncertain opponents it takes longer and the deviation decides (docs/ratings.md).
LEADERBOARD_MIN_MATCHES = 10
LEADERBOARD_MAX_DEVIATION = 110.0


@dataclass(frozen=True)
class Seat:
    participant: str  # a player id, or BOT_PREFIX + level for a bot seat
    team: int  # index of the seat's side in Match.scores
    taken_over_share: float = 0.0  # fraction of this seat's moves made by a stand-in bot


@dataclass(frozen=True)
class Match:
    game: str  # names the rating pool: ratings are kept per game
    seats: tuple[Seat, ...]  # in seat order
    scores: tuple[float, ...]  # the final standing per side: game points, tables, match points
    winner: int | None  # index of the winning side; None for an abandoned match
    abandoned: bool = False

    def __post_init__(self) -> None:
        _check(self)


def is_bot(participant: str) -> bool:
    return participant.startswith(BOT_PREFIX)


def bot_participant(level: str) -> str:
    return BOT_PREFIX + level


def match_from_standing(
    game: str,
    participants: Sequence[str],
    standing: Sequence[Side],
    winner: Sequence[int] | None,
    taken_over_share: Sequence[float] = (),
    abandoned: bool = False,
) -> Match:
    """The Match of a finished game, from what its `match_ended` event (or the view) says.

    `standing` is the games' `[{"seats": [...], "score": n}, ...]`, `winner` the winning side's seats
    (None when abandoned), `participants` and `taken_over_share` are per seat (shares default to 0).
    """
    team_of = {seat: team for team, side in enumerate(standing) for seat in side["seats"]}
    if sorted(team_of) != list(range(len(participants))) or sum(len(s["seats"]) for s in standing) != len(team_of):
        raise ValueError("the standing must name every seat exactly once")
    shares = tuple(taken_over_share) or (0.0,) * len(participants)
    if len(shares) != len(participants):
        raise ValueError("taken_over_share has one entry per seat")
    seats = tuple(Seat(p, team_of[i], share) for i, (p, share) in enumerate(zip(participants, shares)))
    winning = None
    if winner is not None:
        winning = next((t for t, side in enumerate(standing) if sorted(side["seats"]) == sorted(winner)), None)
        if winning is None:
            raise ValueError(f"the winner {list(winner)} is not a side of the standing")
    return Match(game, seats, tuple(side["score"] for side in standing), winning, abandoned)


def rate_match(match: Match, ratings: Mapping[str, Rating]) -> dict[str, Rating]:
    """The new rating of every participant the match rates, by participant id (sorted).

    `ratings` holds the current ratings of the match's game; a participant missing from it is new
    (1500/350/0.06). A participant the match does not rate is absent from the answer: its rating and
    its count of rated matches stay as they were.
    """
    if match.abandoned:
        return {}
    rated_sides = [t for t in range(len(match.scores)) if _counts(match, t)]
    sides = {t: [s for s in match.seats if s.team == t] for t in rated_sides}
    current = {s.participant: ratings.get(s.participant, NEW_PLAYER) for s in match.seats}
    strength = {t: _side_strength([current[s.participant] for s in seats]) for t, seats in sides.items()}
    ranks = _ranks(match)
    updated = {}
    for participant in sorted(_rated_participants(match, rated_sides)):
        own = next(s.team for s in match.seats if s.participant == participant)
        others = [t for t in rated_sides if t != own]
        weight = 1.0 / len(others)
        games = [
            (_opponent(current[participant], strength[own], strength[t]), _score(ranks[own], ranks[t]), weight)
            for t in others
        ]
        updated[participant] = rate_weighted(current[participant], games)
    return updated


def eligible(rating: Rating, matches_played: int) -> bool:
    """Whether a player may be listed on a leaderboard: enough rated matches, and a rating we trust."""
    return matches_played >= LEADERBOARD_MIN_MATCHES and rating.deviation <= LEADERBOARD_MAX_DEVIATION


class Displayed(TypedDict):
    rating: int
    deviation: int
    volatility: float


def display(rating: Rating) -> Displayed:
    """The rating as people see it (whole points). Only for display: never store what this returns."""
    return {
        "rating": round(rating.rating),
        "deviation": round(rating.deviation),
        "volatility": round(rating.volatility, 4),
    }


# ---------------------------------------------------------------------------------------------------


def _counts(match: Match, team: int) -> bool:
    """A side counts unless one of its seats was mostly played by a stand-in bot."""
    return all(s.taken_over_share <= TAKEOVER_LIMIT for s in match.seats if s.team == team)


def _rated_participants(match: Match, rated_sides: list[int]) -> set[str]:
    """Participants on exactly one side, that side rated, with another rated side to play against;
    none at all unless one of them is human (bot-only matches do not move the reference ratings)."""
    if len(rated_sides) < 2:
        return set()
    teams: dict[str, set[int]] = {}
    for seat in match.seats:
        teams.setdefault(seat.participant, set()).add(seat.team)
    rated = {p for p, ts in teams.items() if len(ts) == 1 and next(iter(ts)) in rated_sides}
    return rated if any(not is_bot(p) for p in rated) else set()


def _ranks(match: Match) -> dict[int, int]:
    """Rank per side (0 = best): the winner first, the others by score, equal scores sharing a rank."""
    others = sorted({score for t, score in enumerate(match.scores) if t != match.winner}, reverse=True)
    return {t: 0 if t == match.winner else 1 + others.index(score) for t, score in enumerate(match.scores)}


def _score(own_rank: int, other_rank: int) -> float:
    return 1.0 if own_rank < other_rank else 0.5 if own_rank == other_rank else 0.0


@dataclass(frozen=True)
class _Strength:
    rating: float  # mean rating of the side's seats
    deviation: float  # root mean square of their deviations


def _side_strength(members: list[Rating]) -> _Strength:
    if len(members) == 1:  # exact, so that one against one is the paper's game
        return _Strength(members[0].rating, members[0].deviation)
    n = len(members)
    return _Strength(
        math.fsum(m.rating for m in members) / n, math.sqrt(math.fsum(m.deviation**2 for m in members) / n)
    )


def _opponent(player: Rating, own: _Strength, other: _Strength) -> Rating:
    """The other side as one opponent for this player: their mean, moved by the player's distance
    from their own side's mean, so that the expected score is the side's expected score."""
    return Rating(other.rating + (player.rating - own.rating), other.deviation)


def _check(match: Match) -> None:
    n_sides = len(match.scores)
    if n_sides < 2:
        raise ValueError("a match has at least two sides")
    if {s.team for s in match.seats} != set(range(n_sides)):
        raise ValueError("every side has a seat, and every seat's team is a side of the standing")
    for seat in match.seats:
        if not seat.participant:
            raise ValueError("every seat names its participant")
        if not 0.0 <= seat.taken_over_share <= 1.0:
            raise ValueError(f"taken_over_share is a fraction, not {seat.taken_over_share!r}")
    if not all(math.isfinite(score) for score in match.scores):
        raise ValueError("scores are finite numbers")
    if match.winner is None and not match.abandoned:
        raise ValueError("a finished match that was not abandoned has a winner")
    if match.winner is not None and not 0 <= match.winner < n_sides:
        raise ValueError(f"the winner {match.winner} is not a side of the standing")
