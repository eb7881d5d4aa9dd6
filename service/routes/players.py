"""Routes for players: register, profile, active seats and their resume, history, leaderboards.

A player key is sent as `Authorization: Bearer <player key>` (the `player` security scheme), like a seat
token; it is never logged (the access log has no headers) and never shown again after registering.
"""

from __future__ import annotations

from flask_smorest import Blueprint
from marshmallow import RAISE

from app.ratings.matches import LEADERBOARD_MAX_DEVIATION, LEADERBOARD_MIN_MATCHES
from games import table as tables
from games.registry import game_names
from service import cursors
from service.http import application, json_response, player_from_key, players, problems
from service.limits import join_limit, register_limit
from service.problems import Problem
from service.schemas import (
    ActiveSeats,
    HistoryQuery,
    Leaderboard,
    LeaderboardQuery,
    MatchHistory,
    PlayerCreated,
    PlayerProfile,
    RegisterPlayer,
    SeatClaimed,
)
from service.schemas import players as examples

blp = Blueprint("players", __name__, url_prefix="/v1", description="Players: identities, seats, histories, ratings")

PLAYER = [{"player": []}]
PUBLIC: list = []
PLAYER_OR_ANYONE = [{}, {"player": []}]
LOCATION = {"Location": {"description": "The player's profile, /v1/players/{id}", "schema": {"type": "string"}}}


@blp.route("/players", methods=["POST"])
@register_limit
@blp.doc(
    operationId="registerPlayer",
    security=PUBLIC,
    responses={
        201: {
            "links": {
                "GetPlayer": {
                    "operationId": "getPlayer",
                    "parameters": {"player_id": "$response.body#/player_id"},
                    "description": "The player's profile",
                },
                "GetMyMatches": {
                    "operationId": "getPlayerMatches",
                    "parameters": {"player_id": "$response.body#/player_id"},
                    "description": "The player's matches",
                },
            }
        }
    },
)
@blp.arguments(RegisterPlayer(), error_status_code=400, example={"name": "Ana"})
@blp.response(
    201,
    PlayerCreated,
    headers=LOCATION,
    description="The player and their key (shown once)",
    example=examples.PLAYER_CREATED_EXAMPLE,
)
@problems(blp, "invalid-request", "request-timeout", "payload-too-large", "too-many-requests")
def register(body):
    """Register a player (no password: a key)

    The answer holds the player key, shown once and stored only as a hash: whoever holds it is the
    player. Claim seats with it (`Authorization: Bearer <player key>` on `POST /v1/games/{id}/players`) so
    that the matches join your history and rating."""
    player, key = players().register(body["name"])
    return json_response(
        {"player_id": player.player_id, "name": player.name, "player_key": key},
        201,
        {"Location": f"/v1/players/{player.player_id}"},
    )


@blp.route("/players/me", methods=["GET"])
@blp.doc(operationId="getMe", security=PLAYER)
@blp.response(200, PlayerProfile, description="The key's player", example=examples.PROFILE_EXAMPLE)
@problems(blp, "unauthorized")
def me():
    """The player of the key: profile and ratings

    The same as `GET /v1/players/{id}` for the key's own player: a client that holds only the key finds
    its player id here."""
    return json_response(players().profile(player_from_key().player_id))


@blp.route("/players/me/seats", methods=["GET"])
@blp.doc(operationId="getMySeats", security=PLAYER)
@blp.response(
    200, ActiveSeats, description="The player's seats in matches not over yet", example=examples.SEATS_EXAMPLE
)
@problems(blp, "unauthorized")
def my_seats():
    """The seats the key's player holds in matches not over yet

    Resume any of them on this device with `POST /v1/games/{id}/seats/{seat}/resume`."""
    return json_response({"seats": players().active_seats(player_from_key())})


@blp.route("/games/<game_id>/seats/<int:seat>/resume", methods=["POST"])
@join_limit
@blp.doc(
    operationId="resumeSeat",
    security=PLAYER,
    responses={
        201: {
            "links": {
                "GetSeatView": {
                    "operationId": "getGame",
                    "parameters": {
                        "game_id": "$response.body#/view/game_id",
                        "header.Authorization": "Bearer {$response.body#/token}",
                    },
                    "description": "The seat's own view, with the new token",
                }
            }
        }
    },
)
@blp.response(201, SeatClaimed, description="The seat, a fresh token for it and its view")
@problems(blp, "unauthorized", "unknown-game", "seat-unavailable", "too-many-requests")
def resume_seat(game_id, seat):
    """Resume a seat of yours on this device: a fresh seat token

    With the player key of the player who claimed the seat. The new token is shown once; the seat's
    earlier tokens keep working (the other device goes on as well). 409 `seat-unavailable` when the seat
    is not the player's or the match is over."""
    table, token = players().resume(game_id, seat, player_from_key())
    return json_response({"seat": seat, "token": token, "view": tables.seat_view(table, seat)}, 201)


@blp.route("/players/<player_id>", methods=["GET"])
@blp.doc(operationId="getPlayer", security=PUBLIC)
@blp.response(200, PlayerProfile, description="The player's name and ratings", example=examples.PROFILE_EXAMPLE)
@problems(blp, "unknown-player")
def profile(player_id):
    """A player's profile: name and rating per game

    Public: anyone may look a player up by id. Never shows the key. Ratings follow the matches' logs,
    updated by the workers shortly after each match ends."""
    return json_response(players().profile(player_id))


@blp.route("/players/<player_id>/matches", methods=["GET"])
@blp.doc(operationId="getPlayerMatches", security=PUBLIC)
@blp.arguments(HistoryQuery(), location="query", error_status_code=400, unknown=RAISE)
@blp.response(
    200, MatchHistory, description="A page of the player's finished matches", example=examples.HISTORY_EXAMPLE
)
@problems(blp, "invalid-request", "unknown-player")
def history(query, player_id):
    """A player's finished matches, newest first

    Each with the game, its options, the players, the result and the player's own result (and rating
    change). A page at a time: pass `next_cursor` as `cursor`. A match shows here once the workers have
    recorded its end, shortly after it."""
    player = players().get(player_id)
    before = cursors.read(query.get("cursor"), cursors.HISTORY, player.player_id)
    items, last, has_more = application().projections.history(player.player_id, before, query["limit"])
    return json_response(
        {"matches": items, "next_cursor": cursors.history(player.player_id, last), "has_more": has_more}
    )


@blp.route("/leaderboards/<game>", methods=["GET"])
@blp.doc(operationId="getLeaderboard", security=PLAYER_OR_ANYONE)
@blp.arguments(LeaderboardQuery(), location="query", error_status_code=400, unknown=RAISE)
@blp.response(200, Leaderboard, description="The top players of the game", example=examples.LEADERBOARD_EXAMPLE)
@problems(blp, "invalid-request", "unauthorized", "not-found")
def leaderboard(query, game):
    """The leaderboard of one game

    The top players by rating, with their deviation and rated matches. Players with fewer than
    `min_matches` rated matches or a deviation above `max_deviation` are left out (docs/ratings.md), as
    are bots. With a player key, `me` is the caller's own standing."""
    if game not in game_names():
        raise Problem(404, "not-found", f"there is no leaderboard {game!r}: the games are {', '.join(game_names())}")
    player = player_from_key(required=False)
    entries, mine = application().projections.leaderboard(game, query["limit"], player and player.player_id)
    names = players().names([e["player_id"] for e in entries])
    for entry in entries:
        entry["name"] = names.get(entry["player_id"], "")
        del entry["game"]
    if mine is not None:
        del mine["game"]
    return json_response(
        {
            "game": game,
            "min_matches": LEADERBOARD_MIN_MATCHES,
            "max_deviation": int(LEADERBOARD_MAX_DEVIATION),
            "entries": entries,
            "me": mine,
        }
    )
