"""Players: registering, the profile, active seats, the history of matches and the leaderboards."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from app.ratings.matches import LEADERBOARD_MAX_DEVIATION, LEADERBOARD_MIN_MATCHES
from games.registry import BOT_LEVELS, game_names
from service.schemas.base import (
    Model,
    OneOf,
    Union,
    WholeNumber,
    boolean,
    constant,
    integer,
    many,
    nested,
    seat,
    seats,
    text,
)
from service.schemas.options import GAME_ONLY, GAMES
from service.schemas.requests import CURSOR
from service.schemas.table import STATUSES, Side

PLAYER_ID = "A player's id: 16 hex digits"


def player_id(description: str = PLAYER_ID, *, nullable: bool = False) -> fields.String:
    return text(description, nullable=nullable, pattern="^[0-9a-f]{16}$", example="3f2a9c1d5e7b4a60")


# -- requests ------------------------------------------------------------------------------------------


class RegisterPlayer(Model):
    """A new player: the name others see."""

    name = fields.String(
        required=True,
        validate=validate.Length(min=1, max=40),
        metadata={"description": "Your display name (need not be unique)"},
    )


class HistoryQuery(Schema):
    cursor = fields.String(validate=validate.Length(min=1, max=200), metadata={"description": CURSOR})
    limit = WholeNumber(
        load_default=20, validate=validate.Range(min=1, max=100), metadata={"description": "Matches per page"}
    )


class LeaderboardQuery(Schema):
    limit = WholeNumber(
        load_default=20,
        validate=validate.Range(min=1, max=100),
        metadata={"description": "How many of the top players"},
    )


# -- responses -----------------------------------------------------------------------------------------


class PlayerCreated(Model):
    """The new player and their key, shown once: it is the player's only credential (it is stored only as a
    hash, and cannot be shown again or recovered)."""

    player_id = player_id()
    name = text("The display name")
    player_key = text(
        "The player key: send it as `Authorization: Bearer <player key>` when claiming a seat, "
        "listing or resuming your seats, and to see your rank. Shown once: keep it.",
        example="pk_Yp4m0q2XJ1bq3rWg8nHkzv5t7aLcE9sDfRuO6iTyQwA",
    )


class RatingEntry(Model):
    """A player's (or a bot level's) rating in one game (Glicko-2, whole points: docs/ratings.md)."""

    game = text(enum=game_names())
    rating = integer("The rating (a newcomer starts at 1500)", example=1534)
    deviation = integer(
        "The rating deviation: the rating is within about twice this, 95% of the time",
        minimum=0,
        maximum=350,
        example=96,
    )
    matches = integer("Rated matches played", minimum=0)


class PlayerProfile(Model):
    """A player as everyone sees them: name and ratings (never the key)."""

    player_id = player_id()
    name = text("The display name")
    created_ms = integer("When the player registered, milliseconds since 1970 (UTC)", minimum=0)
    ratings = many(RatingEntry, "A rating per game the player has been rated in")


class ActiveSeat(Model):
    """A seat the player holds in a match that is not over."""

    game_id = text("The match's id")
    game = text(enum=game_names())
    seat = seat()
    status = text(enum=STATUSES)
    version = integer("The match's version now", minimum=1)
    name = text("The name the seat plays under", nullable=True)
    to_act = boolean("The match waits for this seat now")


class ActiveSeats(Model):
    """The player's seats in matches not over yet; resume any of them from this device with
    `POST /v1/games/{id}/seats/{seat}/resume`."""

    seats = many(ActiveSeat, "By match id")


class HistoryPlayer(Model):
    """A seat of a finished match and who played it."""

    seat = seat()
    kind = text(enum=("human", "bot"))
    level = text("The bot's level (bots only)", nullable=True, enum=BOT_LEVELS)
    name = text("The name at the table", nullable=True)
    player_id = player_id(
        "The registered player who played most of the seat's moves; null for a guest or a bot", nullable=True
    )
    team = integer(
        "Index of the seat's side in `standing` when sides have several seats; else null", nullable=True, minimum=0
    )


class MatchResult(Model):
    """How the match ended."""

    status = text(
        "`finished` (it was played to its end) or `abandoned` (closed after a long idle time)",
        enum=("finished", "abandoned"),
    )
    winner = seats("The winning side's seats; null for an abandoned match", nullable=True)
    standing = many(Side, "The final standing; null for an abandoned match", nullable=True)


class OwnResult(Model):
    """The player's own result in the match."""

    seats = seats("The player's seats")
    outcome = text(enum=("won", "lost", "abandoned"))
    score = integer("The player's side's final score; null for an abandoned match", nullable=True)
    rated = boolean("The match moved the player's rating (docs/ratings.md says which matches do)")
    rating_before = integer("The player's rating in this game before the match; null if not rated", nullable=True)
    rating_after = integer("And after it; null if not rated", nullable=True)


def _history_item(game: str, prefix: str) -> type[Model]:
    schema = Model.from_dict(
        {
            "game_id": text("The match's id"),
            "game": constant(game),
            "options": nested(GAME_ONLY[game], "The game's options in force"),
            "ended_at": text("When the match ended (ISO 8601, UTC)", example="2026-12-01T13:39:35.141Z"),
            "players": many(HistoryPlayer, "Every seat, in seat order"),
            "result": nested(MatchResult),
            "own": nested(OwnResult),
        },
        name=f"{prefix}HistoryItem",
    )
    schema.__doc__ = f"A finished {game} match of a player's history."
    return schema


HISTORY_ITEM = Union(
    "HistoryItem",
    {game: _history_item(game, prefix) for game, (prefix, _) in GAMES.items()},
    by="game",
    description="A finished match of a player's history, told apart by `game` (each game has its own options).",
)


class MatchHistory(Model):
    """A page of a player's matches, newest first."""

    matches = fields.List(
        OneOf(HISTORY_ITEM, required=True),
        required=True,
        metadata={"description": "Matches after the cursor, newest first"},
    )
    next_cursor = text("Pass as `cursor` for the next page. Opaque.")
    has_more = boolean("Older matches follow")


class LeaderboardEntry(Model):
    """A player on the leaderboard."""

    rank = integer("1 is the best", minimum=1)
    player_id = player_id()
    name = text("The display name")
    rating = integer(example=1712)
    deviation = integer(minimum=0, maximum=350, example=74)
    matches = integer("Rated matches played", minimum=0)


class OwnStanding(Model):
    """The caller's own place (with a player key): the rank is null while the player is below the
    thresholds."""

    player_id = player_id()
    rank = integer("1 is the best; null when not on the leaderboard", nullable=True, minimum=1)
    rating = integer("Null when never rated in this game", nullable=True)
    deviation = integer(nullable=True, minimum=0, maximum=350)
    matches = integer("Rated matches played", minimum=0)


class Leaderboard(Model):
    """The top players of one game. Players with fewer than `min_matches` rated matches, or a deviation
    above `max_deviation`, are left out (docs/ratings.md §5), as are bots."""

    game = text(enum=game_names())
    min_matches = integer("Rated matches needed to be listed", minimum=1, example=LEADERBOARD_MIN_MATCHES)
    max_deviation = integer(
        "The largest deviation a listed player may have", minimum=1, example=int(LEADERBOARD_MAX_DEVIATION)
    )
    entries = many(LeaderboardEntry, "Best first")
    me = nested(OwnStanding, "The caller's standing, with a player key; else null", nullable=True)


# -- examples (the spec's; Spectral checks each against its schema) ----------------------------------------

_ANA, _BO = "3f2a9c1d5e7b4a60", "8b0e6d2f4a1c9e37"
PLAYER_CREATED_EXAMPLE = {
    "player_id": _ANA,
    "name": "Ana",
    "player_key": "pk_Yp4m0q2XJ1bq3rWg8nHkzv5t7aLcE9sDfRuO6iTyQwA",
}
PROFILE_EXAMPLE = {
    "player_id": _ANA,
    "name": "Ana",
    "created_ms": 1764596375141,
    "ratings": [{"game": "sixty-six", "rating": 1662, "deviation": 290, "matches": 1}],
}
SEATS_EXAMPLE = {
    "seats": [
        {
            "game_id": "5d1c0e7f9a2b4c3d",
            "game": "sixty-six",
            "seat": 0,
            "status": "active",
            "version": 17,
            "name": "Ana",
            "to_act": True,
        }
    ]
}
HISTORY_EXAMPLE = {
    "matches": [
        {
            "game_id": "5d1c0e7f9a2b4c3d",
            "game": "sixty-six",
            "options": {
                "variant": "2p24",
                "profile": "sixty_six",
                "three_player_mode": "talon_with_dead_cards",
                "match_target": 7,
                "dealer_rule": "alternate",
                "close_before_draw": True,
                "meld_after_close": False,
                "false_declaration": "two_or_three",
                "last_trick_rule": "plus10",
                "closed_scoring": "final_totals",
                "non_closer_may_exchange_at_close": False,
                "min_stock_to_close": 0,
                "min_stock_for_exchange": 0,
                "schneider_threshold": 33,
                "draw_bonus": False,
            },
            "ended_at": "2026-12-01T13:39:35.141Z",
            "players": [
                {"seat": 0, "kind": "human", "level": None, "name": "Ana", "player_id": _ANA, "team": None},
                {"seat": 1, "kind": "human", "level": None, "name": "Bo", "player_id": _BO, "team": None},
            ],
            "result": {
                "status": "finished",
                "winner": [0],
                "standing": [{"seats": [0], "score": 7}, {"seats": [1], "score": 3}],
            },
            "own": {
                "seats": [0],
                "outcome": "won",
                "score": 7,
                "rated": True,
                "rating_before": 1500,
                "rating_after": 1662,
            },
        }
    ],
    "next_cursor": "aDozZjJhOWMxZDVlN2I0YTYwOjE",
    "has_more": False,
}
LEADERBOARD_EXAMPLE = {
    "game": "sixty-six",
    "min_matches": LEADERBOARD_MIN_MATCHES,
    "max_deviation": int(LEADERBOARD_MAX_DEVIATION),
    "entries": [{"rank": 1, "player_id": _BO, "name": "Bo", "rating": 1712, "deviation": 74, "matches": 31}],
    "me": {"player_id": _ANA, "rank": None, "rating": 1662, "deviation": 290, "matches": 1},
}
