"""What the requests take: creating a match (a union told apart by `game`, each with its game's
options), claiming a seat, and the query strings (the cursor of every paged list among them)."""

from __future__ import annotations

import re
import unicodedata

from marshmallow import Schema, ValidationError, fields, validate

from games.registry import BOT_LEVELS, game_names
from service.schemas.base import MAX_VERSION, Model, Union, WholeNumber, card, constant, nested
from service.schemas.options import INPUT

CURSOR = (
    "Where to read on: a page's `next_cursor`, as it is (opaque). Omitted: from the start (for the lobby, "
    "the newest match)."
)


class SeatSpec(Model):
    """One seat of a new match: a human (who claims it) or a bot."""

    kind = fields.String(required=True, validate=validate.OneOf(["human", "bot"]))
    level = fields.String(
        validate=validate.OneOf(BOT_LEVELS), metadata={"description": "Bot level (bots only); default basic"}
    )


def _create(game: str, prefix: str) -> type[Model]:
    schema = Model.from_dict(
        {
            "game": constant(game),
            "options": nested(
                INPUT[game],
                "The match's options; omitted ones take their defaults (the view shows every "
                "option in force). Every option is explained on the game's rules page, "
                f"/rules/{game}; the rules of every game: /rules/",
                required=False,
            ),
            "seats": fields.List(
                fields.Nested(SeatSpec),
                required=True,
                validate=validate.Length(min=2, max=8),
                metadata={
                    "description": "One entry per player, in seat (play) order: their number is the number of players"
                },
            ),
            "private": fields.Boolean(
                metadata={
                    "description": "A private match: not listed in the lobby, and its seats are claimed only with the "
                    "`join_code` the answer to this request carries (once). Default false"
                }
            ),
            "seed": WholeNumber(
                validate=validate.Range(min=0, max=2**63 - 1),
                metadata={"description": "Operator only: the seed of the shuffles, for a reproducible match"},
            ),
            "decks": fields.List(
                fields.List(card(), validate=validate.Length(max=64)),
                validate=validate.Length(max=100),
                metadata={
                    "description": "Operator only: exact deck orders, top first, one per deal. Deck 0 "
                    "is the first deal's pack; a later deck must be a pack the match "
                    "can use, and a deal whose players it does not fit (Fifty-Six: 48 "
                    "cards once 8 players are down to 6 or 4) is dealt from the seed"
                },
            ),
        },
        name=f"Create{prefix}Game",
    )
    schema.__doc__ = f"A new {game} match. The operator may add `seed` or `decks` (with the operator token)."
    return schema


CREATE_GAME = Union(
    "CreateGame",
    {
        "sixty-six": _create("sixty-six", "SixtySix"),
        "fifty-six": _create("fifty-six", "FiftySix"),
        "smear": _create("smear", "Smear"),
    },
    by="game",
    description="A new match, told apart by `game`; each game has its own options.",
)


# Control characters (NUL, CR, LF...) and the bidi embeddings, overrides and isolates (which turn the
# text after a name around in every view that shows it) have no place in a name. The spec's pattern
# (ECMA-262, as validators read it) leaves out the surrogates: a lone one never gets this far in JSON
# (service/http.py refuses the body), and refusing them here as well costs nothing.
NAME_CHARACTER = "[^\\x00-\\x1f\\x7f-\\x9f\\u202a-\\u202e\\u2066-\\u2069]"
NAME = re.compile("[^\\x00-\\x1f\\x7f-\\x9f\\u202a-\\u202e\\u2066-\\u2069\\ud800-\\udfff]{1,40}")  # and surrogates


class PlayerName(fields.String):
    """A player's name: 1 to 40 characters as sent, none of them a control or bidi character (checked
    before NFC normalization, which may lengthen a name: the spec's limits hold for what a client sends),
    stored NFC-normalized (one spelling per name)."""

    def _deserialize(self, value, attr, data, **kwargs):
        name = super()._deserialize(value, attr, data, **kwargs)
        if not 1 <= len(name) <= 40:
            raise ValidationError("a name has 1 to 40 characters")
        # fullmatch: a Regexp validator's `$` would let a trailing LF through.
        if not NAME.fullmatch(name):
            raise ValidationError(
                "a name may not hold control characters (NUL, CR, LF...) nor bidi embeddings, "
                "overrides or isolates (U+202A-U+202E, U+2066-U+2069)"
            )
        return unicodedata.normalize("NFC", name)


class ClaimSeat(Model):
    """Who takes a seat."""

    name = PlayerName(
        required=True,
        metadata={
            "description": "Your name at the table, 1 to 40 characters; stored (and shown) in Unicode NFC normalization. "
            "Control characters and bidi embeddings, overrides or isolates are refused.",
            "minLength": 1,
            "maxLength": 40,
            "pattern": f"^{NAME_CHARACTER}+$",
        },
    )
    seat = WholeNumber(
        validate=validate.Range(min=0, max=7), metadata={"description": "Omit to take the first open seat"}
    )
    join_code = fields.String(
        validate=validate.Length(min=1, max=100),
        metadata={"description": "A private match's join code, as its creator got it; other matches ignore it"},
    )


# -- query strings (parameters, not components) -------------------------------------------------------


class GameQuery(Schema):
    wait = fields.Float(
        validate=validate.Range(min=0, max=30),
        metadata={
            "description": "Long-poll: wait up to this many seconds (the server may cap it) "
            "for the version to move past If-None-Match (or past the current "
            "version without it)"
        },
    )


class EventsQuery(Schema):
    cursor = fields.String(validate=validate.Length(min=1, max=200), metadata={"description": CURSOR})
    limit = WholeNumber(
        load_default=100, validate=validate.Range(min=1, max=500), metadata={"description": "Events per page"}
    )


class LobbyQuery(Schema):
    status = fields.String(
        load_default="waiting",
        validate=validate.OneOf(["waiting", "active", "finished"]),
        metadata={"description": "Open matches (`waiting`), running ones (`active`) or `finished`"},
    )
    game = fields.String(validate=validate.OneOf(game_names()), metadata={"description": "Only matches of this game"})
    cursor = fields.String(validate=validate.Length(min=1, max=200), metadata={"description": CURSOR})
    limit = WholeNumber(
        load_default=20, validate=validate.Range(min=1, max=100), metadata={"description": "Matches per page"}
    )


class ReplayQuery(Schema):
    version = WholeNumber(
        validate=validate.Range(min=1, max=MAX_VERSION),
        metadata={
            "description": "The version to show (1: the match just created); omitted: the last. Beyond the match's last "
            "version: 400"
        },
    )


class FeedQuery(Schema):
    cursor = fields.String(validate=validate.Length(min=1, max=200), metadata={"description": CURSOR})
    limit = WholeNumber(
        load_default=100, validate=validate.Range(min=1, max=1000), metadata={"description": "Entries per page"}
    )


class StreamQuery(Schema):
    ticket = fields.String(
        validate=validate.Length(min=1, max=1000),
        metadata={
            "description": "A stream ticket from `POST /v1/games/{id}/stream-tickets`, for clients that cannot send "
            "Authorization (a browser's EventSource): it opens one stream, within a minute"
        },
    )
    last_event_id = WholeNumber(
        validate=validate.Range(min=0, max=MAX_VERSION),
        metadata={
            "description": "Replay from the event after this version, as the Last-Event-ID header does (for clients "
            "that cannot send it; if both are sent, this one counts). Without either, the stream starts "
            "with the first event."
        },
    )


# -- request headers (documentation: service/http.py reads them) ----------------------------------------


class ViewHeaders(Schema):
    if_none_match = fields.String(
        data_key="If-None-Match",
        metadata={
            "example": '"12"',
            "description": 'The version the client holds, as the view\'s ETag gives it (`"12"`): 304 while the game is '
            "still there; with `wait`, the request waits until it moves on. A value that names no "
            "version is ignored.",
        },
    )


class ActionHeaders(Schema):
    if_match = fields.String(
        data_key="If-Match",
        validate=validate.Regexp(r'^\s*(\*|[0-9]{1,12}|(W/)?"[^"]*"(\s*,\s*(W/)?"[^"]*")*)\s*$'),
        metadata={
            "example": '"12"',
            "description": 'Act only if the game is still at this version, e.g. "12" (the view\'s ETag); otherwise 412 '
            "`version-mismatch`",
        },
    )
    idempotency_key = fields.String(
        data_key="Idempotency-Key",
        validate=validate.Regexp(r"^[A-Za-z0-9_.:-]{1,128}$"),
        metadata={
            "description": "Retrying with the same key and body returns the "
            "original result (200) instead of acting twice. Keys "
            "are the seat's own: another seat's same key is a new "
            "request"
        },
    )


class StreamHeaders(Schema):
    last_event_id = fields.String(
        data_key="Last-Event-ID",
        metadata={
            "example": "42",
            "description": "Resume after this version: the `id:` of the last message the client received (browsers send "
            "it by themselves when they reconnect). Without it (and without `last_event_id`) the stream "
            "starts with the first event of the match; a value that is not a version is ignored.",
        },
    )
