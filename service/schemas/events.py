"""The event catalogue: every event type of every game and of the table, each with its data schema and
who may see which of its fields; a game's event is a union told apart by `type`. One event schema per
(type, data) pair: an event both games write alike (`played`) is one schema in both unions.

The same event comes as an item of an event page (`GET /v1/games/{id}/events`, the operator's
`GET /v1/ops/games/{id}/events`) and as the `data:` of a message of the game's stream
(`GET /v1/games/{id}/stream`). The caller sees it as its seat may (hidden cards are null or left out;
the operator sees everything): each data schema says which fields depend on who asks.
"""

from __future__ import annotations

from marshmallow import fields

from service.schemas import fiftysix, sixtysix, smear
from service.schemas.base import Model, OneOf, Union, boolean, constant, integer, nested, prose, seat, text
from service.schemas.options import GAME_ONLY
from service.schemas.table import TABLE_EVENTS, match_created_data

GAMES = {
    "sixty-six": ("SixtySix", sixtysix.EVENTS),
    "fifty-six": ("FiftySix", fiftysix.EVENTS),
    "smear": ("Smear", smear.EVENTS),
}


def _camel(kind: str) -> str:
    return "".join(part.capitalize() for part in kind.split("_"))


def _event_schema(name: str, kind: str, data: type[Model], summary: str) -> type[Model]:
    schema = Model.from_dict(
        {
            "version": integer("The event's number in the match's log (1, 2, ...): its SSE `id`", minimum=1),
            "type": constant(kind),
            "at": text(
                "When it was stored, ISO 8601 UTC with milliseconds",
                format="date-time",
                example="2026-11-30T03:04:05.123Z",
            ),
            "actor": seat(
                "The seat that acted; null for the system (deals, trick ends, scoring, the table's events)",
                nullable=True,
            ),
            "data": nested(data),
        },
        name=name,
    )
    schema.__doc__ = f"`{kind}`: {summary}."
    return schema


def _catalogue() -> dict[str, dict[str, type[Model]]]:
    """game -> {event type -> event schema}, the table's events first."""
    games_of: dict[tuple[str, type], list[str]] = {}
    for game, (_, events) in GAMES.items():
        for kind, (data, _) in events.items():
            games_of.setdefault((kind, data), []).append(game)
    table = {
        kind: _event_schema(f"{_camel(kind)}Event", kind, data, summary)
        for kind, (data, summary) in TABLE_EVENTS.items()
    }
    shared: dict[tuple[str, type], type[Model]] = {}
    catalogue = {}
    for game, (prefix, events) in GAMES.items():
        created = match_created_data(GAME_ONLY[game], game)
        found = {
            "match_created": _event_schema(
                f"{prefix}MatchCreatedEvent", "match_created", created, "The match was created"
            )
        }
        found.update(table)
        for kind, (data, summary) in events.items():
            key = (kind, data)
            if key not in shared:
                several = len(games_of[key]) > 1
                shared[key] = _event_schema(f"{'' if several else prefix}{_camel(kind)}Event", kind, data, summary)
            found[kind] = shared[key]
        catalogue[game] = found
    return catalogue


CATALOGUE = _catalogue()


# Who sees what of an event (games/table.py event_view and each game's view.py); anything not named
# here is the same for everyone.
VISIBILITY = {
    "match_created": "`seed` and `decks`: operators only",
    "seat_claimed": "`token_hash`: operators only",
    "seat_resumed": "`token_hash`: operators only",
    "dealt": "`hands`: each seat its own (others null); operators every hand and the undealt cards",
    "drew": "`card`: the seat that drew it, and everyone for the face-up trump card",
    "widow_taken": "`cards`: the bidder and operators; everyone else `count`",
    "discarded": "`cards` and `trump`: the bidder and operators; everyone else `count`",
}


def _union_description(game: str) -> str:
    rows = "\n".join(
        f"| `{kind}` | {prose(schema.__doc__).split(': ', 1)[1]} | {VISIBILITY.get(kind, 'everyone')} |"
        for kind, schema in CATALOGUE[game].items()
    )
    return (
        f"An event of a {game} match, told apart by `type`: the table's events (match_created, seat_claimed, "
        "turn timers, seat resets, deal commitments) and the game's own. Each `data` schema says in detail "
        "what the caller sees of it.\n\n| type | what happened | who sees what |\n|---|---|---|\n" + rows
    )


UNIONS = {
    game: Union(f"{GAMES[game][0]}Event", CATALOGUE[game], by="type", description=_union_description(game))
    for game in GAMES
}


def _page(game: str) -> type[Model]:
    prefix = GAMES[game][0]
    schema = Model.from_dict(
        {
            "game": constant(game),
            "events": fields.List(
                OneOf(UNIONS[game]),
                required=True,
                metadata={"description": "Events after the cursor, oldest first, as the caller may see them"},
            ),
            "next_cursor": text(
                "Pass as `cursor` to read on after the last event of this page (or, on an empty page, "
                "from the same place). Opaque."
            ),
            "has_more": boolean(
                "More events follow already; false: this page reaches the newest event (a later read "
                "from `next_cursor` finds the events appended meanwhile)"
            ),
        },
        name=f"{prefix}EventsPage",
    )
    schema.__doc__ = f"A page of a {game} match's event log."
    return schema


EVENT = Union(
    "Event",
    list(UNIONS.values()),
    by=None,
    description=(
        "An event of any game (the data of one message of a match's event stream); within a match, always "
        "one of its game's: SixtySixEvent, FiftySixEvent or SmearEvent."
    ),
)

STREAM_MESSAGE = {
    "type": "object",
    "description": "One message of the event stream, as an SSE client reads it: `id:` the event's version (send it "
    "as Last-Event-ID to resume after it), `event:` its type, `data:` the event as JSON, the same as "
    "an item of `GET /v1/games/{id}/events`. The first message only sets `retry:` (milliseconds "
    "before a reconnect); comment lines (starting with `:`) are heartbeats.",
    "properties": {
        "id": {"type": "string", "pattern": "^[0-9]+$", "description": "The event's version"},
        "event": {"type": "string", "description": "The event's type"},
        "data": {
            "type": "string",
            "contentMediaType": "application/json",
            "contentSchema": {"$ref": "#/components/schemas/Event"},
            "description": "The event as JSON: an Event of the match's game",
        },
        "retry": {"type": "integer", "description": "Milliseconds to wait before reconnecting"},
    },
}

EVENTS_PAGE = Union(
    "EventsPage",
    {game: _page(game) for game in GAMES},
    by="game",
    description=("A page of a match's event log, told apart by the match's `game`."),
)
