"""The one paging scheme of every list (the lobby, a match's events, the operators' feed, a player's matches): a client passes
the `next_cursor` of a page as `cursor` to read on, and `has_more` tells whether more follow already.

A cursor is opaque to clients: url-safe base64 of `<list>:<scope>:<position>`, where the scope ties it to
one list (a match's id for its events, a status for the lobby) and the position is where the page ended:
an event's version, a feed entry's id, a lobby match's creation time and id (matches created in the
same millisecond are ordered by id), or a history match's position (its place among the recorded matches). A cursor of another list, or none at all, is refused with 400
`invalid-request` naming the `cursor` parameter.
"""

from __future__ import annotations

import base64
import binascii
import re

from service.problems import invalid_request

EVENTS, LOBBY, FEED, HISTORY = "e", "l", "f", "h"
_POSITION = {
    EVENTS: re.compile(r"[0-9]{1,13}"),
    FEED: re.compile(r"[0-9]{1,20}-[0-9]{1,20}"),
    HISTORY: re.compile(r"start|[0-9]{1,15}"),
    LOBBY: re.compile(r"start|[0-9]{1,16}\.[A-Za-z0-9_-]{1,64}"),
}


def _encode(kind: str, scope: str, position: str) -> str:
    return base64.urlsafe_b64encode(f"{kind}:{scope}:{position}".encode()).decode().rstrip("=")


def _decode(cursor: str, kind: str, scope: str) -> str:
    """The position in a cursor of this list, or 400."""
    try:
        text = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
    except (binascii.Error, UnicodeDecodeError, ValueError):
        text = ""
    found_kind, _, rest = text.partition(":")
    found_scope, _, position = rest.rpartition(":")
    if (
        found_kind != kind
        or found_scope != scope
        or not _POSITION[kind].fullmatch(position)
        or not _in_range(kind, position)
    ):
        raise invalid_request(
            [
                {
                    "in": "query",
                    "field": "cursor",
                    "detail": "not a cursor of this list: pass a page's next_cursor as it is",
                }
            ]
        )
    return position


def _in_range(kind: str, position: str) -> bool:
    """A feed position is a Redis stream id that pages can start after: two 64-bit numbers, short of the
    largest id (Redis refuses a larger one, or reading after the largest: a 500)."""
    if kind != FEED:
        return True
    ms, seq = (int(part) for part in position.split("-"))
    return max(ms, seq) < 2**64 and (ms, seq) != (2**64 - 1, 2**64 - 1)


def events(game_id: str, version: int) -> str:
    return _encode(EVENTS, game_id, str(version))


def feed(entry_id: str) -> str:
    return _encode(FEED, "feed", entry_id)


def lobby(status: str, position: tuple[int, str] | None) -> str:
    """The lobby's cursor after `position` (creation ms, game id); None: the start (the newest match)."""
    return _encode(LOBBY, status, "start" if position is None else f"{position[0]}.{position[1]}")


def history(player_id: str, position: int | None) -> str:
    """A player's history after the match at `position`; None: the start (the newest match)."""
    return _encode(HISTORY, player_id, "start" if position is None else str(position))


def read(cursor: str | None, kind: str, scope: str):
    """Where a page starts: events → the version after which to read (0: from the first); feed → the entry
    id after which to read ("0": from the first); lobby → (creation ms, game id) of the last match seen, or
    None for the newest; history → the position of the last match seen, or None for the newest."""
    if kind == HISTORY:
        position = "start" if cursor is None else _decode(cursor, kind, scope)
        return None if position == "start" else int(position)
    if kind == LOBBY:
        position = "start" if cursor is None else _decode(cursor, kind, scope)
        if position == "start":
            return None
        created, _, game_id = position.partition(".")
        return int(created), game_id
    if cursor is None:
        return 0 if kind == EVENTS else "0"
    position = _decode(cursor, kind, scope)
    return int(position) if kind == EVENTS else position
