"""Routes for one game: create, join, view, act, events, live stream; and the lobby."""
from __future__ import annotations

import re

from flask import request
from flask_smorest import Blueprint

from games import table as tables
from games.errors import RuleError
from service import admission, cooperative, examples, parking, stream
from service.http import (arguments, bearer_token, caller, documented, hub, idempotency_key, if_match_versions,
                          hold_connection, is_operator_token, json_body, json_response, problems, settings, talon,
                          view_response)
from service.hub import HubStopped
from service.limits import action_limit, create_limit, join_limit
from service.problems import Problem
from service.schemas import (Action, ClaimSeat, CreateGame, EventsPage, EventsQuery, GameQuery, Lobby,
                             LobbyQuery, SeatClaimed, StreamQuery, StreamTicket, View, plain_action)

# Request schemas are passed as instances: given a class, webargs builds a new schema on every request.
blp = Blueprint("games", __name__, url_prefix="/v1/games", description="Matches: create, join, play, follow")



@blp.route("", methods=["POST"])
@create_limit
@blp.doc(operationId="createGame", responses={201: {"links": {
    "GetGame": {"operationId": "getGame", "parameters": {"game_id": "$response.body#/game_id"},
                "description": "The match's view"},
    "ClaimSeat": {"operationId": "claimSeat", "parameters": {"game_id": "$response.body#/game_id"},
                  "description": "Take a seat in this match"},
    "GetEvents": {"operationId": "getEvents", "parameters": {"game_id": "$response.body#/game_id"},
                  "description": "The match's event log"}}}})
@blp.arguments(CreateGame(), error_status_code=400, example={
    "game": "sixty-six", "options": {"variant": "2p24"}, "seats": [{"kind": "human"}, {"kind": "bot", "level": "basic"}]})
@blp.response(201, View, description="The match as a spectator sees it; `Location` is its URL")
@problems(blp, 400, 403, 413, 422, 429)
def create_game(body):
    """Create a match

    The number of seats is the number of players. Operators may add `seed` (reproducible shuffles)
    or `decks` (exact deck orders for successive deals)."""
    if ("seed" in body or "decks" in body) and not is_operator_token(bearer_token()):
        raise Problem(403, "forbidden", "seed and decks are operator-only fields")
    table = talon().create_match(body["game"], body["options"], body["seats"], body.get("seed"), body.get("decks"))
    return view_response(table, None, 201, {"Location": f"/v1/games/{table.game_id}"})


@blp.route("", methods=["GET"])
@blp.arguments(LobbyQuery(), location="query", error_status_code=400)
@blp.response(200, Lobby)
@problems(blp, 400)
def lobby(query):
    """List matches (lobby)

    Open matches (`status=waiting`, the default), running ones (`active`) or `finished`, newest first."""
    entries, total = talon().lobby(query["status"], query.get("game"), query["offset"], query["limit"])
    return json_response({"games": entries, "total": total, "offset": query["offset"], "limit": query["limit"]})


GAME_QUERY, ACTION = GameQuery(), Action()


# The two routes of every move: documented by flask-smorest's decorators, without their wrappers
# (service/http.py `documented`); each parses its arguments itself (a view GET mostly has none, and an
# action mostly has a plain shape that needs no schema: service/schemas.py `plain_action`).
@blp.route("/<game_id>", methods=["GET"])
@documented(
    blp.doc(operationId="getGame"),
    blp.doc(security=[{}, {"seat": []}]),
    blp.arguments(GAME_QUERY, location="query", error_status_code=400),
    blp.response(200, View, example=examples.VIEW,
                 headers={"ETag": {"description": "The version, quoted", "schema": {"type": "string"}}}),
    blp.alt_response(304, description="Not modified (If-None-Match matches the version)"))
@problems(blp, 400, 401, 403, 404)
def get_game(game_id):
    """The view of one seat (with its token) or of a spectator (without)

    `If-None-Match: "<version>"` gives 304 while nothing changed; with `?wait=<seconds>` the request
    waits (long-polls) until the version moves past that one."""
    query = arguments(GAME_QUERY, "query") if request.args else {}
    app, token = talon(), bearer_token()
    known = _if_none_match()
    again = parking.AGAIN in request.environ   # a parked long-poll answered now: no wait, the stored table
    wait = min(query["wait"], settings().long_poll_max_s) if query.get("wait") and not again else 0
    table = _table_at(app, game_id, known) if wait else app.table(game_id)
    if wait and table.version == (known if known is not None else table.version):
        caller(table, token)  # a stranger is refused before the wait, not after it
        if parking.can_park(request.environ):
            return _park_poll(table, wait)
        table = _wait_past(app, game_id, table.version, wait)
    who = caller(table, token)  # as the table is now: a seat reset during the wait is no longer that seat
    if known is not None and known == table.version:
        return "", 304, {"ETag": f'"{table.version}"'}
    return view_response(table, who.seat)


def _park_poll(table, wait: float):
    """Under gunicorn's gevent worker the long-poll is parked (service/parking.py): the request ends
    here, and it is run again without its wait once the match moves on or the wait is over, its answer
    sent then. What is returned here is never sent."""
    held = hold_connection("long-polls", settings().max_long_polls_per_address)
    request.environ[parking.POLL] = parking.PollPlan(table.game_id, table.game, table.version, wait, held.close)
    return "", 204


def _table_at(app, game_id: str, version: int | None):
    """The table to start a long-poll from: the one this process holds when it is at the version the
    client has (the common case: this process answered the client's last request; no round trip), else
    the table as stored."""
    held = app.held_table(game_id)
    return held if held is not None and version is not None and held.version == version else app.table(game_id)


def _wait_past(app, game_id: str, version: int, seconds: float):
    """The table once its version has moved past `version`, or as it is after `seconds` (or when the client
    went away, or the process stops). The wait is a place in the process's fan-out hub (no Redis read of
    its own, no thread), under the address's cap on waiting long-polls."""
    held = hold_connection("long-polls", settings().max_long_polls_per_address)
    try:
        with hub().subscribe(game_id, version) as subscription, admission.paused(request.environ):
            stop_watching = cooperative.watch_disconnect(cooperative.client_socket(request.environ),
                                                         subscription.wake)
            try:
                subscription.next_batch(seconds)
            except HubStopped:
                pass
            finally:
                stop_watching()
    finally:
        held.close()
    table = app.held_table(game_id)  # the hub folds what it reads onto the table this process holds
    return table if table is not None and table.version > version else app.table(game_id)


def _held_for(app, game_id: str, token: str | None, required: bool = False):
    """(the table this process holds for the game, who the caller is at it), without a round trip; None
    when the process holds none or that table does not know the caller: the route then loads it."""
    held = app.held_table(game_id)
    if held is None:
        return None
    try:
        return held, caller(held, token, required=required)
    except Problem:
        return None


@blp.route("/<game_id>/players", methods=["POST"])
@join_limit
@blp.doc(operationId="claimSeat", responses={201: {"links": {
    "GetSeatView": {"operationId": "getGame", "parameters": {
        "game_id": "$response.body#/view/game_id", "header.Authorization": "Bearer {$response.body#/token}"},
        "description": "The seat's own view, with its token"},
    "PostAction": {"operationId": "postAction", "parameters": {
        "game_id": "$response.body#/view/game_id", "header.Authorization": "Bearer {$response.body#/token}"},
        "description": "Act with the seat's token"}}}})

@blp.arguments(ClaimSeat(), error_status_code=400, example={"name": "Ana"})
@blp.response(201, SeatClaimed)
@problems(blp, 400, 404, 409, 413, 429)
def claim_seat(body, game_id):
    """Claim an open human seat

    The token in the answer is shown once: send it as `Authorization: Bearer <token>`. When the last
    human seat is taken, the first deal happens by itself."""
    table, seat, token = talon().claim_seat(game_id, body.get("seat"), body["name"])
    return json_response({"seat": seat, "token": token, "view": tables.seat_view(table, seat)}, 201,
                         {"Location": f"/v1/games/{game_id}"})


@blp.route("/<game_id>/actions", methods=["POST"])
@action_limit
@documented(
    blp.doc(operationId="postAction"),
    blp.doc(security=[{"seat": []}], parameters=[
        {"in": "header", "name": "If-Match", "required": False,
         "schema": {"type": "string", "pattern": r'^\s*(\*|(W/)?"[^"]*"(\s*,\s*(W/)?"[^"]*")*)\s*$'},
         "description": 'Act only if the game is still at this version, e.g. "12" (the view\'s ETag); otherwise 412'},
        {"in": "header", "name": "Idempotency-Key", "schema": {"type": "string", "pattern": "^[A-Za-z0-9_.:-]{1,128}$"},
         "required": False, "description": "Retrying with the same key and body returns the original result (200)"}]),
    blp.arguments(ACTION, error_status_code=400, example={"type": "play", "card": "TS"}),
    blp.response(201, View, description="Accepted: the seat's new view", example=examples.VIEW),
    blp.alt_response(200, schema=View, description="An idempotent replay: the action was already accepted"))
@problems(blp, 400, 401, 403, 404, 409, 412, 413, 422, 429)
def post_action(game_id):
    """Play one action, exactly as listed in the view's `legal_actions`"""
    action = plain_action(json_body()) or arguments(ACTION)
    app = talon()
    outcome, seat = _act_on_held(app, game_id, action)
    if outcome is not None:
        return _answer(outcome, seat)
    table = app.table(game_id)
    who = caller(table, bearer_token(), required=True)
    if who.seat is None:
        raise Problem(403, "forbidden", "only a seat acts: use that seat's token")
    try:
        outcome = app.act(game_id, who.seat, action, if_match=if_match_versions(),
                          idempotency_key=idempotency_key(), table=table, defer_followups=True)
    except RuleError as refused:
        current = app.table(game_id)
        raise Problem(422, "rule-violation", str(refused), rule=refused.rule, current_version=current.version,
                      legal_actions=tables.seat_view(current, who.seat)["legal_actions"]) from None
    return _answer(outcome, who.seat)


def _answer(outcome, seat: int):
    """The seat's view after its move. The jobs the move calls for (a bot's turn, a round's scoring) are
    enqueued once the answer is written: the player does not wait for that, nor for the worker the job
    wakes, which took the CPU from the request at the end of every round."""
    response = view_response(outcome.table, seat, 200 if outcome.replayed else 201)
    if outcome.followups is not None:
        response.call_on_close(outcome.followups)
    return response


def _act_on_held(app, game_id: str, action: dict):
    """The common case without loading the table: the one this process holds (from the seat's last GET)
    decides, and the append's version check proves it was current. (None, None) when the held table
    is missing, refuses the caller, or cannot decide: the route then loads it and goes the full way."""
    found = _held_for(app, game_id, bearer_token(), required=True)
    if found is None or found[1].seat is None:
        return None, None
    held, who = found
    outcome = app.act_on_held(game_id, who.seat, action, held, if_match=if_match_versions(),
                              idempotency_key=idempotency_key(), defer_followups=True)
    return outcome, who.seat


@blp.route("/<game_id>/events", methods=["GET"])
@blp.doc(operationId="getEvents")
@blp.doc(security=[{}, {"seat": []}, {"operator": []}])
@blp.arguments(EventsQuery(), location="query", error_status_code=400)
@blp.response(200, EventsPage)
@problems(blp, 400, 401, 403, 404)
def get_events(query, game_id):
    """The event log, oldest first, as the caller may see it (operators see everything)"""
    app = talon()
    table = app.table(game_id)
    who = caller(table, bearer_token())
    events, has_more = app.events_page(game_id, query["after"], query["limit"])
    shown = [stream.visible(table.game, e, who) for e in events]
    next_after = events[-1].version if events else query["after"]
    return json_response({"events": shown, "next_after": next_after, "has_more": has_more})


@blp.route("/<game_id>/stream-tickets", methods=["POST"])
@blp.doc(security=[{"seat": []}])
@blp.response(201, StreamTicket)
@problems(blp, 401, 403, 404)
def stream_ticket(game_id):
    """A short-lived ticket for the event stream

    Browsers cannot send `Authorization` on `EventSource`: get a ticket here with the seat token and
    open `/v1/games/{id}/stream?ticket=...` instead. The ticket expires after a minute."""
    table = talon().table(game_id)
    who = caller(table, bearer_token(), required=True)
    if who.seat is None:
        raise Problem(403, "forbidden", "tickets are for seats; spectators need none")
    return json_response(stream.issue_ticket(table, who.seat), 201)


@blp.route("/<game_id>/stream", methods=["GET"])
@blp.doc(security=[{}, {"seat": []}], parameters=[
    {"in": "header", "name": "Last-Event-ID", "schema": {"type": "string"}, "required": False,
     "description": "Resume after this version"}])
@blp.arguments(StreamQuery(), location="query", error_status_code=400)
@blp.response(200, description="`text/event-stream`: one message per event (`id:` = version, `event:` = type, "
                               "`data:` = the event as the caller may see it)", content_type="text/event-stream")
@problems(blp, 400, 401, 403, 404)
def get_stream(query, game_id):
    """Server-Sent Events, resumable with `Last-Event-ID`"""
    table = talon().table(game_id)
    if "ticket" in query:
        who = stream.redeem_ticket(query["ticket"], table)
    else:
        who = caller(table, bearer_token())
    after = stream.resume_point(query.get("last_event_id"), request.headers.get("Last-Event-ID"))
    return stream.response(table, who, after)


def _if_none_match() -> int | None:
    raw = request.headers.get("If-None-Match")
    if raw is None:
        return None
    digits = raw.strip().removeprefix("W/").strip('"')
    return int(digits) if re.fullmatch(r"[0-9]{1,12}", digits) else None
