"""Server-Sent Events for one game, and the short-lived tickets browsers use to open them.

A stream first sends what the client has not seen (from `Last-Event-ID`, or from the first event),
read from the store, then waits on the process's fan-out hub (service/hub.py) for what follows: one
Redis read per match per process feeds every stream of it, and a waiting stream holds a greenlet, not a
thread. A reconnect with Last-Event-ID resumes without a gap. Every Settings.stream_keepalive_s without an
event the stream sends a comment line; it ends:
- after the events of a finished match (`match_ended`, or `match_abandoned` and the reveal with it);
- at once when an operator resets the caller's seat (`seat_reset`): nothing dealt to the seat's next
  player reaches the old one;
- when its client goes away (noticed within moments: service/cooperative.py), after
  Settings.stream_max_s (the client reconnects by itself), or when the process stops.

Tickets: EventSource cannot send an Authorization header, so a seat trades its token for a ticket
(POST /stream-tickets) and opens `/stream?ticket=...`. A ticket is signed, names the game, the seat and
a digest of the seat's token hash, expires after Settings.stream_ticket_ttl_s, and opens one stream
only (its id is spent in Redis when it is redeemed). A ticket issued before an operator reset the seat
opens nothing: the seat's token hash has changed since.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import time
from collections.abc import Iterator
from dataclasses import dataclass

import orjson
from flask import Response, request
from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer

from app.settings import Settings
from events.store import EventStore, StoredEvent
from games import table as tables
from service import cooperative, parking
from service.http import Caller, application, hold_connection, hub, settings
from service.hub import Hub, HubStopped
from service.problems import Problem

TICKET_SALT = "talon-stream-ticket"
CATCH_UP_PAGE = 200
# The events after which nothing more is appended to a match (its reveal comes in the same append).
TERMINAL = frozenset({"match_ended", "match_abandoned"})


def visible(game: str, event: StoredEvent, who: Caller) -> dict:
    """The event as the caller may see it (hidden data only for its seat and operators)."""
    shown = tables.event_view(
        game, {"type": event.type, "actor": event.actor, "data": event.data}, who.seat, operator=who.operator
    )
    return {
        "version": event.version,
        "type": shown["type"],
        "at": event.at,
        "actor": shown["actor"],
        "data": shown["data"],
    }


def message(game: str, event: StoredEvent, who: Caller) -> str:
    return f"id: {event.version}\nevent: {event.type}\ndata: {orjson.dumps(visible(game, event, who)).decode()}\n\n"


# -- tickets ------------------------------------------------------------------------------------------


def _serializer() -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(_secret_key(), salt=TICKET_SALT)


def _secret_key() -> str:
    """The key that signs stream tickets, shared by every API instance through Redis (made by the first
    one to need it), held by the process once read."""
    extensions = application()
    cached = getattr(extensions, "ticket_key", None)
    if cached is None:
        key = f"{settings().key_prefix}:secret"
        extensions.redis.set(key, secrets.token_hex(32), nx=True)
        cached = extensions.ticket_key = extensions.redis.get(key).decode()
    return cached


def _seat_digest(token_hash: str | None) -> str:
    """Stands for the seat's current token in a ticket (the token hash itself never leaves the server)."""
    return hashlib.sha256(f"stream-ticket:{token_hash}".encode()).hexdigest()[:32]


def issue_ticket(table: tables.Table, seat: int) -> dict:
    claims = {
        "g": table.game_id,
        "s": seat,
        "d": _seat_digest(table.seats[seat].token_hash),
        "n": secrets.token_hex(12),
    }
    return {"ticket": _serializer().dumps(claims), "expires_in": settings().stream_ticket_ttl_s}


def redeem_ticket(ticket: str, table: tables.Table) -> Caller:
    """The seat a ticket opens a stream for, spending the ticket; a problem if it cannot."""
    ttl = settings().stream_ticket_ttl_s
    try:
        claims = _serializer().loads(ticket, max_age=ttl)
    except SignatureExpired:
        raise Problem(401, "ticket-expired", "the stream ticket has expired; get a new one") from None
    except BadSignature:
        raise Problem(401, "unauthorized", "invalid stream ticket") from None
    if claims.get("g") != table.game_id:
        raise Problem(403, "forbidden", "this ticket is for another game")
    seat = claims.get("s")
    if (
        not isinstance(seat, int)
        or not 0 <= seat < len(table.seats)
        or claims.get("d") != _seat_digest(table.seats[seat].token_hash)
    ):
        raise Problem(
            401,
            "ticket-revoked",
            "this ticket's seat was reset since it was issued; get a new ticket with the seat's current token",
        )
    spent = application().redis.set(f"{settings().key_prefix}:ticket:{claims.get('n')}", 1, nx=True, ex=ttl + 5)
    if not spent:
        raise Problem(401, "ticket-used", "this ticket has opened a stream already; get a new one")
    return Caller(seat=seat)


def resume_point(query_value: int | None, header: str | None) -> int:
    if query_value is not None:
        return query_value
    if header and re.fullmatch(r"[0-9]{1,12}", header.strip()):
        return int(header.strip())
    return 0


# -- the stream -------------------------------------------------------------------------------------


def response(table: tables.Table, who: Caller, after: int) -> Response:
    """The event stream of `table`'s game for `who`, from the event after `after`. `table` is the one
    the caller was authorized on: a reset of the caller's seat after its version ends the stream.

    Under gunicorn's gevent worker the stream is parked once it has caught up (service/parking.py);
    elsewhere (the Flask test client) it is a generator that waits on the hub itself."""
    held = hold_connection("streams", settings().max_streams_per_address)
    headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
    try:
        caught_up, cursor, ended = _catch_up(application().store, table, who, after)
    except BaseException:
        held.close()
        raise
    sock = cooperative.client_socket(request.environ)
    if ended or sock is None or parking.gevent_loop() is None:
        body = (
            caught_up
            if ended
            else _following(caught_up, table, who, cursor, sock, Needs(application().store, hub(), settings()))
        )
        response = Response(body, mimetype="text/event-stream", headers=headers)
        response.call_on_close(held.close)
        return response
    request.environ[parking.PLAN] = parking.Plan(
        table.game_id, table.game, who.seat, who.operator, table.version, cursor, settings().stream_max_s, held.close
    )
    return Response(caught_up, mimetype="text/event-stream", headers=headers)


def _catch_up(store: EventStore, table: tables.Table, who: Caller, after: int) -> tuple[list[str], int, bool]:
    """The messages of what follows `after` up to the newest event, the version they reach, and whether
    the stream ends there (the match is finished, or the caller's seat was reset)."""
    messages = ["retry: 1000\n\n"]
    while events := store.read(table.game_id, after=after, limit=CATCH_UP_PAGE):
        for event in events:
            if revoked(event, who.seat, table.version):
                return messages, after, True
            messages.append(message(table.game, event, who))
            after = event.version
        if TERMINAL.intersection(e.type for e in events):
            return messages, after, True
    return messages, after, table.status == "finished" and after >= table.version


@dataclass(frozen=True)
class Needs:
    """What a stream uses once its request has been answered (outside Flask's request context)."""

    store: EventStore
    hub: Hub
    settings: Settings


def _following(caught_up: list[str], table: tables.Table, who: Caller, after: int, sock, needs: Needs) -> Iterator[str]:
    """The unparked stream: what it caught up with, then what the hub brings."""
    yield from caught_up
    deadline = time.monotonic() + needs.settings.stream_max_s
    keepalive_s = needs.settings.stream_keepalive_s
    with needs.hub.subscribe(table.game_id, after) as subscription:
        gone = []
        stop_watching = cooperative.watch_disconnect(sock, lambda: (gone.append(True), subscription.wake()))
        try:
            while not gone and (remaining := deadline - time.monotonic()) > 0:
                try:
                    batch = subscription.next_batch(min(keepalive_s, remaining))
                except HubStopped:
                    return
                if gone:
                    return
                if not batch:
                    yield ": keep-alive\n\n"
                    continue
                for event in batch:
                    if revoked(event, who.seat, table.version):
                        return
                    yield message(table.game, event, who)
                if TERMINAL.intersection(e.type for e in batch):
                    return
        finally:
            stop_watching()


def render(game: str, event: StoredEvent, seat: int | None, operator: bool) -> bytes:
    """A parked stream's message (service/parking.py)."""
    return message(game, event, Caller(seat=seat, operator=operator)).encode()


def revoked(event: StoredEvent, seat: int | None, authorized_at: int) -> bool:
    """An operator reset the caller's seat after the caller was authorized: its stream ends there."""
    return (
        event.type == "seat_reset"
        and seat is not None
        and event.version > authorized_at
        and event.data.get("seat") == seat
    )
