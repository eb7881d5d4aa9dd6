"""Server-Sent Events for one game, and the short-lived tickets browsers use to open them.

The stream reads the game's Redis stream with XREAD BLOCK from the last version the client saw, so a
reconnect with Last-Event-ID resumes without a gap (pub/sub would drop what is sent meanwhile). A stream
ends when the process stops (service/shutdown.py), and the client's reconnect finds another one.
"""
from __future__ import annotations

import re
import time

import orjson
from flask import Response, stream_with_context
from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer

from events.store import StoredEvent
from games import table as tables
from service import shutdown
from service.http import Caller, settings, talon
from service.problems import Problem

KEEPALIVE_S = 15.0
TICKET_SALT = "talon-stream-ticket"


def visible(game: str, event: StoredEvent, who: Caller) -> dict:
    """The event as the caller may see it (API.md: hidden data only for its seat and operators)."""
    shown = tables.event_view(game, {"type": event.type, "actor": event.actor, "data": event.data},
                              who.seat, operator=who.operator)
    return {"version": event.version, "type": shown["type"], "at": event.at, "actor": shown["actor"],
            "data": shown["data"]}


def _serializer() -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(talon().secret_key(), salt=TICKET_SALT)


def issue_ticket(game_id: str, seat: int) -> dict:
    return {"ticket": _serializer().dumps({"g": game_id, "s": seat}), "expires_in": settings().stream_ticket_ttl_s}


def redeem_ticket(ticket: str, game_id: str) -> Caller:
    try:
        claims = _serializer().loads(ticket, max_age=settings().stream_ticket_ttl_s)
    except SignatureExpired:
        raise Problem(401, "ticket-expired", "the stream ticket has expired; get a new one") from None
    except BadSignature:
        raise Problem(401, "unauthorized", "invalid stream ticket") from None
    if claims.get("g") != game_id:
        raise Problem(403, "forbidden", "this ticket is for another game")
    return Caller(seat=claims["s"])


def resume_point(query_value: int | None, header: str | None) -> int:
    if query_value is not None:
        return query_value
    if header and re.fullmatch(r"[0-9]{1,12}", header.strip()):
        return int(header.strip())
    return 0


def response(game: str, game_id: str, who: Caller, after: int) -> Response:
    app, limit_s = talon(), settings().stream_max_s

    def messages():
        nonlocal after
        deadline = time.monotonic() + limit_s
        yield "retry: 1000\n\n"
        while time.monotonic() < deadline and not shutdown.stopping():
            events = app.store.read(game_id, after=after, limit=200)
            if not events:
                events = app.store.wait(game_id, after, min(KEEPALIVE_S, max(deadline - time.monotonic(), 0.1)),
                                        until=shutdown.stopping)
            if not events:
                yield ": keep-alive\n\n"
                continue
            for event in events:
                data = orjson.dumps(visible(game, event, who)).decode()
                yield f"id: {event.version}\nevent: {event.type}\ndata: {data}\n\n"
                after = event.version

    headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
    return Response(stream_with_context(messages()), mimetype="text/event-stream", headers=headers)
