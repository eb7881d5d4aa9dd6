"""Routes for one game: create, join, view, act, events, live stream; and the lobby."""

from __future__ import annotations

import math
import re
from contextlib import nullcontext

from flask import Response, current_app, request
from flask_smorest import Blueprint
from marshmallow import RAISE

from app.matches import NotASeat, token_hash
from events.store import Throttled
from games import table as tables
from games.errors import NotActive, NotYourTurn, RuleError
from service import admission, botcap, cooperative, cursors, examples, observability, parking, stream
from service.http import (
    answer,
    arguments,
    bearer_token,
    caller,
    documented,
    header,
    hold_connection,
    hub,
    idempotency_key,
    if_match_versions,
    json_body,
    json_response,
    load_body,
    matches,
    operator_authenticated,
    parameters,
    player_from_key,
    players,
    problems,
    settings,
    unauthorized,
    view_response,
)
from service.hub import HubStopped
from service.limits import action_rate, create_limit, join_limit
from service.problems import Problem
from service.schemas import (
    ACTION,
    CREATE_GAME,
    ActionHeaders,
    ClaimSeat,
    EventsQuery,
    GameQuery,
    LobbyQuery,
    SeatClaimed,
    StreamHeaders,
    StreamQuery,
    StreamTicket,
    ViewHeaders,
    plain_action,
    ref,
)
from service.schemas import Lobby as LobbySchema
from service.schemas.events import STREAM_MESSAGE

# Request schemas are passed as instances: given a class, webargs builds a new schema on every request.
blp = Blueprint("games", __name__, url_prefix="/v1/games", description="Matches: create, join, play, follow")


SEAT = [{"seat": []}]
SEAT_OR_SPECTATOR = [{}, {"seat": []}]
PUBLIC: list = []
ETAG = {
    "ETag": {
        "description": "The view's version, quoted (send it as If-None-Match or If-Match)",
        "schema": {"type": "string", "pattern": '^"[0-9]+"$'},
    }
}
LOCATION = {"Location": {"description": "The match's URL, /v1/games/{id}", "schema": {"type": "string"}}}
CREATE_EXAMPLE = {
    "game": "sixty-six",
    "options": {"match_target": 7},
    "seats": [{"kind": "human"}, {"kind": "bot", "level": "basic"}],
}


@blp.route("", methods=["POST"])
@create_limit
@blp.doc(
    operationId="createGame",
    security=[{}, {"operator": []}],
    requestBody={
        "required": True,
        "content": {"application/json": {"schema": ref("CreateGame"), "example": CREATE_EXAMPLE}},
    },
    responses={
        201: {
            "links": {
                "GetGame": {
                    "operationId": "getGame",
                    "parameters": {"game_id": "$response.body#/game_id"},
                    "description": "The match's view",
                },
                "ClaimSeat": {
                    "operationId": "claimSeat",
                    "parameters": {"game_id": "$response.body#/game_id"},
                    "description": "Take a seat in this match",
                },
                "GetEvents": {
                    "operationId": "getEvents",
                    "parameters": {"game_id": "$response.body#/game_id"},
                    "description": "The match's event log",
                },
            }
        }
    },
)
@blp.response(201, ref("View"), description="The match as a spectator sees it", headers={**LOCATION, **ETAG})
@problems(
    blp,
    "invalid-request",
    "forbidden",
    "request-timeout",
    "payload-too-large",
    "invalid-option",
    "too-many-requests",
    "too-many-matches",
)
def create_game():
    """Create a match

    The number of seats is the number of players. Without a token anyone may create a match; `seed`
    (reproducible shuffles) and `decks` (exact deck orders for successive deals) need the operator token
    (403 `forbidden` without it). Options the game does not know, or values out of their range, are
    refused with 400 `invalid-request`; options that do not fit together (a variant for another number of
    players) with 422 `invalid-option`, naming the valid values.

    `"private": true` makes a private match: it is not listed in the lobby, and the answer's `join_code`
    (shown once) is what its seats are claimed with.

    A match without a human seat (bot-only) plays itself out on the workers after every human match's
    jobs; one address may run at most `TALON_MAX_BOT_MATCHES_PER_ADDRESS` unfinished ones at once (429
    `too-many-matches` beyond; the operator's token is not capped)."""
    body = load_body(CREATE_GAME)
    # A token on a create is the operator's or a failed authentication (counted against the address).
    token = bearer_token()
    operator = token is not None and operator_authenticated(token)
    if ("seed" in body or "decks" in body) and not operator:
        raise Problem(403, "forbidden", "seed and decks are operator-only fields")
    cap = current_app.extensions["talon_botcap"]
    capped = cap is not None and not operator and botcap.bots_only(body["seats"])
    join_code = matches().new_join_code() if body.get("private") else None
    with cap.creating(request.remote_addr or "unknown") if capped else nullcontext([]) as created:
        table = matches().create_match(
            body["game"], body.get("options", {}), body["seats"], body.get("seed"), body.get("decks"), join_code
        )
        created.append(table.game_id)
    headers = {"Location": f"/v1/games/{table.game_id}"}
    if join_code is None:
        return view_response(table, None, 201, headers)
    return view_response(table, None, 201, headers, extra={"join_code": join_code})


@blp.route("", methods=["GET"])
@blp.doc(operationId="listGames", security=PUBLIC)
@blp.arguments(LobbyQuery(), location="query", error_status_code=400, unknown=RAISE)
@blp.response(200, LobbySchema)
@problems(blp, "invalid-request")
def lobby(query):
    """List matches (lobby)

    Open matches (`status=waiting`, the default), running ones (`active`) or `finished`, newest first,
    a page at a time: pass the page's `next_cursor` as `cursor` for the next one."""
    after = cursors.read(query.get("cursor"), cursors.LOBBY, query["status"])
    entries, last, has_more = matches().lobby_page(query["status"], query.get("game"), after, query["limit"])
    return json_response({"games": entries, "next_cursor": cursors.lobby(query["status"], last), "has_more": has_more})


GAME_QUERY = GameQuery()


# The two routes of every move parse their arguments themselves (a view GET mostly has none, and an
# action mostly has a plain shape that needs no schema: service/schemas `plain_action`): their headers
# and query are documented as parameters (service/http.py `documented`), not parsed by a decorator.
@blp.route("/<game_id>", methods=["GET"])
@documented(
    blp,
    operationId="getGame",
    security=SEAT_OR_SPECTATOR,
    parameters={"headers": ViewHeaders(), "query": GAME_QUERY},
    answers={
        200: answer(
            "The view: the seat's with its token, a spectator's without",
            ref("View"),
            headers=ETAG,
            example=examples.VIEW,
        ),
        304: answer("Not modified: If-None-Match names the current version", headers=ETAG),
    },
    problems=(
        "invalid-request",
        "unauthorized",
        "forbidden",
        "unknown-game",
        "too-many-requests",
        "too-many-connections",
    ),
)
def get_game(game_id):
    """The view of one seat (with its token) or of a spectator (without)

    `If-None-Match: "<version>"` (the ETag of the view the client holds) gives 304 while nothing changed.
    With `?wait=<seconds>` as well, the request waits (long-polls) until the version moves past that one,
    and answers at once when it already has: a client whose turn it is gets its view without waiting.
    Without If-None-Match, `wait` waits for the next event from now."""
    query = arguments(GAME_QUERY, "query") if request.query_string else {}
    app, token = matches(), bearer_token()
    known = _if_none_match()
    again = parking.AGAIN in request.environ  # a parked long-poll answered now: no wait, the stored table
    wait = min(query["wait"], settings().long_poll_max_s) if query.get("wait") and not again else 0
    table = _table_at(app, game_id, known) if wait else app.table(game_id)
    if wait and table.version == (known if known is not None else table.version):
        caller(table, token)  # a stranger is refused before the wait, not after it
        if parking.can_park(request.environ):
            return _park_poll(table, wait)
        table = _wait_past(app, game_id, table.version, wait)
    who = caller(table, token)  # as the table is now: a seat reset during the wait is no longer that seat
    if known is not None and known == table.version:
        return Response(status=304, headers={"ETag": f'"{table.version}"'})
    return view_response(table, who.seat)


def _park_poll(table, wait: float):
    """Under gunicorn's gevent worker the long-poll is parked (service/parking.py): the request ends
    here, and it is run again without its wait once the match moves on, its answer sent then. What is
    returned here is the answer should the wait end with nothing new: the view the client holds is
    still the match's."""
    held = hold_connection("long-polls", settings().max_long_polls_per_address)
    request.environ[parking.POLL] = parking.PollPlan(table.game_id, table.game, table.version, wait, held.close)
    return Response(status=304, headers={"ETag": f'"{table.version}"'})


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
            stop_watching = cooperative.watch_disconnect(cooperative.client_socket(request.environ), subscription.wake)
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


@blp.route("/<game_id>/players", methods=["POST"])
@join_limit
@blp.doc(
    operationId="claimSeat",
    security=[{}, {"player": []}],
    responses={
        201: {
            "links": {
                "GetSeatView": {
                    "operationId": "getGame",
                    "parameters": {
                        "game_id": "$response.body#/view/game_id",
                        "header.Authorization": "Bearer {$response.body#/token}",
                    },
                    "description": "The seat's own view, with its token",
                },
                "PostAction": {
                    "operationId": "postAction",
                    "parameters": {
                        "game_id": "$response.body#/view/game_id",
                        "header.Authorization": "Bearer {$response.body#/token}",
                    },
                    "description": "Act with the seat's token",
                },
            }
        }
    },
)
@blp.arguments(ClaimSeat(), error_status_code=400, example={"name": "Ana"})
@blp.response(201, SeatClaimed, headers=LOCATION, description="Your seat, its token and its view")
@problems(
    blp,
    "invalid-request",
    "unauthorized",
    "join-code-refused",
    "unknown-game",
    "seat-unavailable",
    "request-timeout",
    "payload-too-large",
    "too-many-requests",
)
def claim_seat(body, game_id):
    """Claim an open human seat

    The token in the answer is shown once: send it as `Authorization: Bearer <token>`. When the last
    human seat is taken, the first deal happens by itself. With a player key
    (`Authorization: Bearer <player key>`) the seat is the player's: the match joins their history and
    rating, and the key resumes the seat from any device; without one, the seat is a guest's. A key no
    player holds is 401. A private match's seats need its `join_code` (403 `join-code-refused` without
    it or with another)."""
    table, seat, token = players().claim_seat(
        game_id, body.get("seat"), body["name"], player_from_key(required=False), body.get("join_code")
    )
    return json_response(
        {"seat": seat, "token": token, "view": tables.seat_view(table, seat)}, 201, {"Location": f"/v1/games/{game_id}"}
    )


@blp.route("/<game_id>/actions", methods=["POST"])
@documented(
    blp,
    operationId="postAction",
    security=SEAT,
    requestBody={
        "required": True,
        "content": {"application/json": {"schema": ref("Action"), "example": {"type": "play", "card": "TS"}}},
    },
    parameters={"headers": ActionHeaders()},
    answers={
        201: answer("Accepted: the seat's new view", ref("View"), headers=ETAG, example=examples.VIEW),
        200: answer(
            "An idempotent replay (same Idempotency-Key and body): the action was already accepted; the seat's "
            "view now",
            ref("View"),
            headers=ETAG,
        ),
    },
    problems=(
        "invalid-request",
        "malformed-action",
        "unauthorized",
        "forbidden",
        "unknown-game",
        "not-your-turn",
        "match-not-active",
        "busy",
        "idempotency-key-reused",
        "version-mismatch",
        "request-timeout",
        "payload-too-large",
        "rule-violation",
        "too-many-requests",
    ),
)
def post_action(game_id):
    """Play one action, exactly as listed in the view's `legal_actions`

    With the seat's token. Any one of the view's `legal_actions` may be posted as it is. A move the
    rules forbid gets 422 with the rule and what the seat may do instead; a move when it is not the
    seat's turn 409 `not-your-turn` with the game's `current_version`."""
    try:
        return _post_action(game_id)
    except (NotYourTurn, NotActive) as refused:
        slug = "not-your-turn" if isinstance(refused, NotYourTurn) else "match-not-active"
        raise Problem(409, slug, refused.detail, current_version=matches().table(game_id).version) from None


def _post_action(game_id: str):
    action = plain_action(json_body()) or load_body(ACTION)
    app, token = matches(), bearer_token()
    if token is None:
        raise unauthorized("this request needs a seat token")
    seat_of = _seat_of(token)
    try:
        outcome = app.act(
            game_id,
            action,
            seat_of,
            if_match=if_match_versions(),
            idempotency_key=idempotency_key(),
            rate=action_rate(settings()),
            enqueue_later=True,
        )
    except NotASeat as stranger:
        if caller(stranger.table, token, required=True).seat is None:  # the precise 401 or 403 otherwise
            raise Problem(403, "forbidden", "only a seat acts: use that seat's token") from None
        raise
    except Throttled as limited:
        raise Problem(
            429,
            "too-many-requests",
            f"this seat acts too often: at most {settings().rate_limit_actions}",
            headers={"Retry-After": str(max(1, math.ceil(limited.retry_after_s)))},
        ) from None
    except RuleError as refused:
        current = app.table(game_id)
        raise Problem(
            422,
            "rule-violation",
            str(refused),
            rule=refused.rule,
            current_version=current.version,
            legal_actions=tables.seat_view(current, seat_of(current))["legal_actions"],
        ) from None
    return _answer(outcome, seat_of(outcome.table))


def _seat_of(token: str):
    """Which seat a token holds at a table (None: none), the seat bound to the request's log lines."""
    digest = token_hash(token)

    def seat_of(table) -> int | None:
        seat = tables.seat_of_token(table, digest)
        if seat is not None:
            observability.bind(seat=seat)
        return seat

    return seat_of


def _answer(outcome, seat: int):
    """The seat's view after its move. The jobs the move calls for (a bot's turn, a round's scoring) are
    enqueued once the answer is written: the player does not wait for that, nor for the worker the job
    wakes, which took the CPU from the request at the end of every round."""
    response = view_response(outcome.table, seat, 200 if outcome.replayed else 201)
    if outcome.enqueue is not None:
        response.call_on_close(outcome.enqueue)
    return response


@blp.route("/<game_id>/events", methods=["GET"])
@blp.doc(operationId="getEvents", security=[{}, {"seat": []}, {"operator": []}])
@blp.arguments(EventsQuery(), location="query", error_status_code=400, unknown=RAISE)
@blp.response(200, ref("EventsPage"), description="A page of events, as the caller may see them")
@problems(blp, "invalid-request", "unauthorized", "forbidden", "unknown-game", "too-many-requests")
def get_events(query, game_id):
    """The event log, oldest first, as the caller may see it

    A seat sees its own hidden cards, a spectator none, the operator everything (each event's data
    schema says which fields depend on who asks). A page at a time: pass `next_cursor` as `cursor`."""
    app = matches()
    table = app.table(game_id)
    who = caller(table, bearer_token())
    after = cursors.read(query.get("cursor"), cursors.EVENTS, game_id)
    events, has_more = app.events_page(game_id, after, query["limit"])
    return json_response(event_page(table, [stream.visible(table.game, e, who) for e in events], after, has_more))


def event_page(table, shown: list[dict], after: int, has_more: bool) -> dict:
    """An EventsPage: the events shown and the cursor after the last of them."""
    last = shown[-1]["version"] if shown else after
    return {
        "game": table.game,
        "events": shown,
        "next_cursor": cursors.events(table.game_id, last),
        "has_more": has_more,
    }


@blp.route("/<game_id>/stream-tickets", methods=["POST"])
@blp.doc(operationId="createStreamTicket", security=SEAT)
@blp.response(201, StreamTicket, description="A ticket for one stream of this game")
@problems(blp, "unauthorized", "forbidden", "unknown-game", "too-many-requests")
def stream_ticket(game_id):
    """A short-lived ticket for the event stream

    Browsers cannot send `Authorization` on `EventSource`: get a ticket here with the seat token and
    open `/v1/games/{id}/stream?ticket=...` instead. A ticket opens one stream, and only within a minute
    (`expires_in`)."""
    table = matches().table(game_id)
    who = caller(table, bearer_token(), required=True)
    if who.seat is None:
        raise Problem(403, "forbidden", "tickets are for seats; spectators need none")
    return json_response(stream.issue_ticket(table, who.seat), 201)


@blp.route("/<game_id>/stream", methods=["GET"])
@blp.doc(operationId="getStream", security=SEAT_OR_SPECTATOR)
@parameters(blp, headers=StreamHeaders())
@blp.arguments(StreamQuery(), location="query", error_status_code=400, unknown=RAISE)
@blp.response(
    200,
    STREAM_MESSAGE,
    content_type="text/event-stream",
    description="Server-Sent Events: one message per event, as the caller may see it (the schema describes "
    "one message)",
)
@problems(
    blp,
    "invalid-request",
    "unauthorized",
    "ticket-expired",
    "ticket-used",
    "ticket-revoked",
    "forbidden",
    "unknown-game",
    "too-many-requests",
    "too-many-connections",
)
def get_stream(query, game_id):
    """The match's events live, as Server-Sent Events

    Each message is one event: `id:` its version, `event:` its type, `data:` the event as JSON, exactly
    as an item of `GET /v1/games/{id}/events` (the game's event schema, e.g. `SixtySixEvent`). A seat
    authenticates with `Authorization: Bearer <token>` or with `?ticket=` (one stream per ticket,
    within a minute); without either, the spectator's stream. The stream replays from the first event,
    or after `Last-Event-ID` (or `last_event_id`), then follows live; lines starting with `:` are
    heartbeats (SSE comments) to ignore. It ends after the events that finish the match (`match_ended`,
    `match_abandoned`); a client that reconnects with its Last-Event-ID misses nothing. Too many open
    streams or long-polls from one address get 429 with `Retry-After`."""
    table = matches().table(game_id)
    if "ticket" in query:
        who = stream.redeem_ticket(query["ticket"], table)
    else:
        who = caller(table, bearer_token())
    after = stream.resume_point(query.get("last_event_id"), request.headers.get("Last-Event-ID"))
    return stream.response(table, who, after)


def _if_none_match() -> int | None:
    raw = header("HTTP_IF_NONE_MATCH")
    if raw is None:
        return None
    digits = raw.strip().removeprefix("W/").strip('"')
    return int(digits) if re.fullmatch(r"[0-9]{1,12}", digits) else None
