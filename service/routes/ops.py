"""Operator routes: the full event log with hidden data, the global feed, seat resets, ending a match,
and the audit of one game. Every one needs the operator token: none at all is 401, any other token 403."""

from __future__ import annotations

import time

from flask_smorest import Blueprint
from marshmallow import RAISE

from app import audit
from app.matches import UnknownGame
from service import cursors
from service.http import Caller, application, json_response, matches, problems, require_operator, view_response
from service.routes.games import event_page
from service.schemas import AuditReport, EventsQuery, Feed, FeedQuery, ref
from service.stream import visible

blp = Blueprint("ops", __name__, url_prefix="/v1/ops", description="Operators (OPERATOR_TOKEN)")
OPERATOR = [{"operator": []}]


@blp.route("/games/<game_id>/events", methods=["GET"])
@blp.doc(operationId="getEventsAsOperator", security=OPERATOR)
@blp.arguments(EventsQuery(), location="query", error_status_code=400, unknown=RAISE)
@blp.response(200, ref("EventsPage"), description="A page of events with every field, hidden data included")
@problems(blp, "invalid-request", "unauthorized", "forbidden", "unknown-game", "too-many-requests")
def game_events(query, game_id):
    """One game's full event log, hidden data included

    Every field of every event (the hands, the stock, the seed, token hashes). A page at a time: pass
    `next_cursor` as `cursor`."""
    require_operator()
    app = matches()
    table = app.table(game_id)
    after = cursors.read(query.get("cursor"), cursors.EVENTS, game_id)
    events, has_more = app.events_page(game_id, after, query["limit"])
    shown = [visible(table.game, e, Caller(operator=True)) for e in events]
    return json_response(event_page(table, shown, after, has_more))


@blp.route("/feed", methods=["GET"])
@blp.doc(operationId="getFeed", security=OPERATOR)
@blp.arguments(FeedQuery(), location="query", error_status_code=400, unknown=RAISE)
@blp.response(200, Feed, description="A page of the feed")
@problems(blp, "invalid-request", "unauthorized", "forbidden", "too-many-requests")
def feed(query):
    """The global feed: every event of every game, in the order they were appended

    A page at a time: pass `next_cursor` as `cursor`; an empty page's `next_cursor` is the one given, so
    a reader polls from it. On a Redis Cluster an entry may show twice: skip a (game_id, version) seen."""
    require_operator()
    after = cursors.read(query.get("cursor"), cursors.FEED, "feed")
    entries = application().store.feed(after=after, count=query["limit"] + 1)
    rows = [{"id": e.id, "game_id": e.game_id, "version": e.version, "type": e.type} for e in entries[: query["limit"]]]
    return json_response(
        {
            "entries": rows,
            "next_cursor": cursors.feed(rows[-1]["id"] if rows else after),
            "has_more": len(entries) > query["limit"],
        }
    )


@blp.route("/games/<game_id>/seats/<int:seat>/reset", methods=["POST"])
@blp.doc(operationId="resetSeat", security=OPERATOR)
@blp.response(200, ref("View"), description="The match after the reset, as a spectator sees it")
@problems(blp, "unauthorized", "forbidden", "unknown-game", "seat-unavailable", "match-not-active", "too-many-requests")
def reset_seat(game_id, seat):
    """Revoke a seat's token: the seat reopens for claiming, and a basic bot plays it meanwhile

    409 `seat-unavailable` when the seat is not a human seat of the match; 409 `match-not-active` when
    the match is finished (nothing follows its end)."""
    require_operator()
    return view_response(matches().reset_seat(game_id, seat), None)


@blp.route("/games/<game_id>/abandon", methods=["POST"])
@blp.doc(operationId="abandonGame", security=OPERATOR)
@blp.response(200, ref("View"), description="The match, finished, as a spectator sees it")
@problems(blp, "unauthorized", "forbidden", "unknown-game", "match-not-active")
def abandon_game(game_id):
    """End a match now, whatever its state (waiting or active)

    Appends `match_abandoned` (with `by: "operator"`) and reveals the deal in play; the match is
    finished, without a winner, and its queued jobs do nothing. 409 `match-not-active` when the match is
    finished already. The same as `talon abandon GAME_ID`."""
    require_operator()
    return view_response(matches().abandon(game_id, int(time.time() * 1000)), None)


@blp.route("/games/<game_id>/audit", methods=["GET"])
@blp.doc(operationId="auditGame", security=OPERATOR)
@blp.response(200, AuditReport, description="The audit report; `ok` is false when any check fails")
@problems(blp, "unauthorized", "forbidden", "unknown-game", "too-many-requests")
def audit_game(game_id):
    """Audit one game: hash chain, deal commitments, replay of every step, card conservation

    Names the first broken event precisely (`first_broken`). The report may quote hidden cards."""
    require_operator()
    try:
        report = audit.audit_game(application().store, game_id)
    except (audit.NotFound, ValueError):  # ValueError: an id the store refuses as a key
        raise UnknownGame(game_id) from None
    return json_response(report)
