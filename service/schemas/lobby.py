"""The lobby, stream tickets and the probes' answers."""

from __future__ import annotations

from games.registry import game_names
from service.schemas.base import Model, boolean, integer, many, text
from service.schemas.table import STATUSES


class LobbyEntry(Model):
    """One match of the lobby."""

    game_id = text("The match's id")
    game = text(enum=game_names())
    variant = text("The Sixty-Six variant; empty for the other games")
    status = text(enum=STATUSES)
    players = integer("Seats at the table", minimum=2, maximum=8)
    open_seats = integer("Human seats nobody has claimed yet", minimum=0)
    created_ms = integer("When the match was created, milliseconds since 1970 (UTC)", minimum=0)


class Lobby(Model):
    """A page of the lobby, newest match first."""

    games = many(LobbyEntry, "Matches after the cursor, newest first")
    next_cursor = text("Pass as `cursor` for the next page. Opaque.")
    has_more = boolean("Older matches follow")


class StreamTicket(Model):
    """A ticket that opens one event stream of this game for this seat."""

    ticket = text("Pass as `?ticket=` to `GET /v1/games/{id}/stream`")
    expires_in = integer("Seconds the ticket stays valid", minimum=1)


class Health(Model):
    """A probe's answer."""

    status = text("`ok` (livez) or `ready` (readyz)", enum=("ok", "ready"))
