"""What a finished match offers: its rematch (the same seats and options again, each player seated with
one call) and its replay (the table at any version, every hand shown). Use cases: app/rematches.py and
app/replays.py."""

from __future__ import annotations

from flask_smorest import Blueprint
from marshmallow import RAISE

from app.matches import NotASeat
from app.replays import VersionOutOfRange
from games import table as tables
from service import examples
from service.http import application, bearer_token, caller, json_response, problems, unauthorized
from service.limits import join_limit
from service.problems import Problem, invalid_request
from service.schemas import Rematch, ReplayQuery, ReplayStep

blp = Blueprint(
    "finished",
    __name__,
    url_prefix="/v1/games",
    description="A finished match: its rematch with the same players, its replay with every hand shown",
)

LOCATION = {"Location": {"description": "The rematch's URL, /v1/games/{id}", "schema": {"type": "string"}}}


@blp.route("/<game_id>/rematch", methods=["POST"])
@join_limit
@blp.doc(
    operationId="rematch",
    security=[{"seat": []}],
    responses={
        201: {
            "links": {
                "GetRematchView": {
                    "operationId": "getGame",
                    "parameters": {
                        "game_id": "$response.body#/game_id",
                        "header.Authorization": "Bearer {$response.body#/token}",
                    },
                    "description": "Your seat's view of the rematch, with its token",
                }
            }
        }
    },
)
@blp.response(
    201,
    Rematch,
    headers=LOCATION,
    example=examples.REMATCH,
    description="The rematch was made by this call: your seat in it, its token and its view",
)
@blp.alt_response(
    200,
    schema=Rematch,
    headers=LOCATION,
    example=examples.REMATCH,
    description="The rematch existed already (another seat asked first, or you did): your seat in it",
)
@problems(
    blp,
    "unauthorized",
    "forbidden",
    "unknown-game",
    "match-not-finished",
    "seat-unavailable",
    "busy",
    "too-many-requests",
)
def rematch(game_id):
    """Play a finished match again, with the same players

    With your seat's token of the finished match. The first seat to ask makes the rematch: a new match
    with the same options and seats (the same bots; the first dealer moves on by one), in which each
    human seat is kept for its player, and seats the caller (201). The finished match's view names it
    (`rematch`), and the other players take their seats with the same call (200); so does a call
    repeated by the same seat, which gets the same token again. The new match's view names the match
    it follows (`rematch_of`); it starts when every kept seat is taken."""
    token = bearer_token()
    if token is None:
        raise unauthorized("this request needs the seat token of the finished match")
    try:
        seated = application().rematches.rematch(game_id, token)
    except NotASeat as stranger:
        if caller(stranger.table, token, required=True).seat is None:  # the precise 401 or 403 otherwise
            raise Problem(403, "forbidden", "only a seat of the finished match asks for its rematch") from None
        raise
    body = {
        "game_id": seated.table.game_id,
        "seat": seated.seat,
        "token": seated.token,
        "view": tables.seat_view(seated.table, seated.seat),
    }
    return json_response(body, 201 if seated.created else 200, {"Location": f"/v1/games/{seated.table.game_id}"})


@blp.route("/<game_id>/replay", methods=["GET"])
@blp.doc(operationId="getReplay", security=[{}])
@blp.arguments(ReplayQuery(), location="query", error_status_code=400, unknown=RAISE)
@blp.response(200, ReplayStep, example=examples.REPLAY, description="The table at that version, every hand shown")
@problems(blp, "invalid-request", "unknown-game", "match-not-finished")
def replay(query, game_id):
    """A finished match at any version, every hand shown

    The match is over, so nothing in it is hidden any more: the table as it stood after event
    `version` (1 to `last_version`; omitted, the last), as a spectator's view with every seat's hand
    (`hands`) and what else a seat saw of the round filled in. Step through the match by asking for
    each version in turn. A match still running answers 409 `match-not-finished`. Anyone may ask."""
    try:
        step = application().replays.step(game_id, query.get("version"))
    except VersionOutOfRange as beyond:
        raise invalid_request(
            [{"in": "query", "field": "version", "detail": f"this match has versions 1 to {beyond.last}"}]
        ) from None
    return json_response(step, headers={"Cache-Control": "no-cache"})
