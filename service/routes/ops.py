"""Operator routes: the full event log with hidden data, the global feed, and the audit of one game."""
from __future__ import annotations

from flask_smorest import Blueprint
from marshmallow import Schema, fields

from service import audit

from service.http import Caller, json_response, problems, require_operator, talon, view_response
from service.usecases import UnknownGame
from service.schemas import EventsPage, EventsQuery, Feed, FeedQuery, View
from service.stream import visible

blp = Blueprint("ops", __name__, url_prefix="/v1/ops", description="Operators (OPERATOR_TOKEN)")


@blp.route("/games/<game_id>/events", methods=["GET"])
@blp.doc(security=[{"operator": []}])
@blp.arguments(EventsQuery(), location="query", error_status_code=400)
@blp.response(200, EventsPage)
@problems(blp, 400, 401, 403, 404)
def game_events(query, game_id):
    """One game's full event log, hidden data included"""
    require_operator()
    app = talon()
    table = app.table(game_id)
    events, has_more = app.events_page(game_id, query["after"], query["limit"])
    shown = [visible(table.game, e, Caller(operator=True)) for e in events]
    return json_response({"events": shown, "has_more": has_more,
                          "next_after": events[-1].version if events else query["after"]})


@blp.route("/feed", methods=["GET"])
@blp.doc(security=[{"operator": []}])
@blp.arguments(FeedQuery(), location="query", error_status_code=400)
@blp.response(200, Feed)
@problems(blp, 400, 401, 403)
def feed(query):
    """The global feed: every event of every game, in the order they were appended"""
    require_operator()
    entries = talon().store.feed(after=query["after"], count=query["limit"])
    rows = [{"id": e.id, "game_id": e.game_id, "version": e.version, "type": e.type} for e in entries]
    return json_response({"entries": rows, "next_after": rows[-1]["id"] if rows else query["after"]})


@blp.route("/games/<game_id>/seats/<int:seat>/reset", methods=["POST"])
@blp.doc(security=[{"operator": []}])
@blp.response(200, View, description="The match after the reset, as a spectator sees it")
@problems(blp, 401, 403, 404, 409)
def reset_seat(game_id, seat):
    """Revoke a seat's token: the seat reopens for claiming, and a basic bot plays it meanwhile"""
    require_operator()
    return view_response(talon().reset_seat(game_id, seat), None)


class AuditFinding(Schema):
    version = fields.Integer(allow_none=True, required=True,
                             metadata={"description": "The event where the check fails (null: the log as a whole)"})
    check = fields.String(required=True, metadata={"enum": ["chain", "replay", "commitment", "conservation"]})
    detail = fields.String(required=True, metadata={"example": "event 42's content does not match its hash: "
                                                               "the stored event was edited after it was written"})


class AuditReport(Schema):
    game_id = fields.String(required=True)
    ok = fields.Boolean(required=True, metadata={"description": "Every check passed"})
    events = fields.Integer(required=True)
    head = fields.Dict(required=True, metadata={"description": "The last event's version and chain hash"})
    checks = fields.Dict(required=True, metadata={
        "description": "chain, replay (events reproduced, rounds scored, match result), commitments (deals, "
                       "revealed, pending) and conservation, each with `ok`"})
    first_broken = fields.Nested(AuditFinding, allow_none=True, required=True,
                                 metadata={"description": "The first event at which a check fails, or null"})
    findings = fields.List(fields.Nested(AuditFinding), required=True)
    elapsed_ms = fields.Float(required=True)


@blp.route("/games/<game_id>/audit", methods=["GET"])
@blp.doc(security=[{"operator": []}])
@blp.response(200, AuditReport, description="The audit report; `ok` is false when any check fails")
@problems(blp, 401, 403, 404)
def audit_game(game_id):
    """Audit one game: hash chain, deal commitments, replay of every step, card conservation

    Names the first broken event precisely (`first_broken`). The report may quote hidden cards."""
    require_operator()
    try:
        report = audit.audit_game(talon().store, game_id)
    except (audit.NotFound, ValueError):  # ValueError: an id the store refuses as a key
        raise UnknownGame(game_id) from None
    return json_response(report)
