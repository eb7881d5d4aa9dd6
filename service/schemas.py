"""Marshmallow schemas: they parse request bodies and, through flask-smorest, write openapi.yaml."""
from __future__ import annotations

import math
import re

from marshmallow import Schema, ValidationError, fields, validate

from games.registry import BOT_LEVELS, game_names

CARD = r"^[AKQJT987][SHDC]$"
MAX_VERSION = 10**12  # versions are stream ids: keep numbers Redis accepts (and far beyond any game)
ACTION_TYPES = ("play", "pass", "bid", "double", "redouble", "meld", "exchange", "close",
                "declare_out", "draw", "discard")
SUITS = ("S", "H", "D", "C", "NT")


class WholeNumber(fields.Integer):
    """An integer that JSON may write as 2 or 2.0, but never 2.5 (marshmallow's Integer truncates)."""

    def _validated(self, value):
        if isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        if isinstance(value, float) and (not math.isfinite(value) or not value.is_integer()):
            raise self.make_error("invalid", input=value)
        return super()._validated(value)


class Problem(Schema):
    type = fields.String(required=True, metadata={"example": "https://talon.example/problems/rule-violation"})
    title = fields.String(required=True, metadata={"example": "Unprocessable Content"})
    status = fields.Integer(required=True, metadata={"example": 422})
    detail = fields.String(required=True, metadata={"example": "you must lead the K or Q of the marriage you showed (66 §2.5)"})
    errors = fields.Raw(metadata={"description": "Per-field messages of a request that does not match its schema"})
    current_version = fields.Integer(metadata={"description": "The game's version now (409/412)"})
    legal_actions = fields.List(fields.Dict(), metadata={"description": "What the seat may do now (422)"})
    rule = fields.String(metadata={"description": "The rule section that forbids the action (422)", "example": "66 §2.5"})


# -- requests ----------------------------------------------------------------------------------------

class SeatSpec(Schema):
    kind = fields.String(required=True, validate=validate.OneOf(["human", "bot"]))
    level = fields.String(validate=validate.OneOf(BOT_LEVELS),
                          metadata={"description": "Bot level (bots only); default basic"})


class CreateGame(Schema):
    game = fields.String(required=True, validate=validate.OneOf(game_names()))
    options = fields.Dict(keys=fields.String(), load_default=dict, metadata={
        "description": "Options in snake_case (RULES.md), e.g. variant, match_target, dealer_rule, first_dealer. "
                       "Omitted options take their defaults; the view shows every option in force.",
        "example": {"variant": "2p24", "match_target": 7}})
    seats = fields.List(fields.Nested(SeatSpec), required=True, validate=validate.Length(min=2, max=8),
                        metadata={"description": "One entry per player, in seat (play) order"})
    seed = WholeNumber(validate=validate.Range(min=0, max=2**63 - 1),
                       metadata={"description": "Operator only: seed for reproducible shuffles"})
    decks = fields.List(fields.List(fields.String(validate=validate.Regexp(CARD)), validate=validate.Length(max=64)),
                        validate=validate.Length(max=100),
                        metadata={"description": "Operator only: exact deck orders, top first, one per deal. Deck 0 "
                                              "is the first deal's pack; a later deck must be a pack the match "
                                              "can use, and a deal whose players it does not fit (Fifty-Six: 48 "
                                              "cards once 8 players are down to 6 or 4) is dealt from the seed"})


class ClaimSeat(Schema):
    name = fields.String(required=True, validate=validate.Length(min=1, max=40))
    seat = WholeNumber(validate=validate.Range(min=0, max=7), metadata={"description": "Omit to take the first open seat"})


class Action(Schema):
    """One action object exactly as listed in the view's legal_actions."""
    type = fields.String(required=True, validate=validate.OneOf(ACTION_TYPES))
    card = fields.String(validate=validate.Regexp(CARD), metadata={"example": "TS"})
    suit = fields.String(validate=validate.OneOf(SUITS))
    value = WholeNumber(validate=validate.Range(min=0, max=56))
    convention = fields.String(validate=validate.Length(max=40))
    cards = fields.List(fields.String(validate=validate.Regexp(CARD)), validate=validate.Length(max=8))
    trump = fields.String(validate=validate.OneOf(["S", "H", "D", "C"]))


_ACTION_TYPES, _SUITS, _CARD = frozenset(ACTION_TYPES), frozenset(SUITS), re.compile(CARD)


def plain_action(body) -> dict | None:
    """`body` when it has one of the plain shapes nearly every action has - {"type"}, {"type", "card"} or
    {"type", "suit"}, every value valid - which `Action` would load unchanged; else None, and `Action`
    decides (with its error messages). Every move's body passes here: marshmallow's load of it cost as
    much as the rest of the request's own Python work besides the view. tests/unit/test_schemas.py
    checks that this accepts nothing `Action` refuses or would load differently."""
    if type(body) is not dict or type(body.get("type")) is not str or body["type"] not in _ACTION_TYPES:
        return None
    if len(body) == 1:
        return body
    if len(body) != 2:
        return None
    card, suit = body.get("card"), body.get("suit")
    if type(card) is str and _CARD.match(card) and len(card) == 2:
        return body
    if type(suit) is str and suit in _SUITS:
        return body
    return None


class GameQuery(Schema):
    wait = fields.Float(validate=validate.Range(min=0, max=30),
                        metadata={"description": "Long-poll: wait up to this many seconds for the version to move "
                                                 "past If-None-Match (or the current version)"})


class EventsQuery(Schema):
    after = WholeNumber(load_default=0, validate=validate.Range(min=0, max=MAX_VERSION), metadata={"description": "Events after this version"})
    limit = WholeNumber(load_default=100, validate=validate.Range(min=1, max=500))


class LobbyQuery(Schema):
    status = fields.String(load_default="waiting", validate=validate.OneOf(["waiting", "active", "finished"]))
    game = fields.String(validate=validate.OneOf(game_names()))
    offset = WholeNumber(load_default=0, validate=validate.Range(min=0, max=100_000))
    limit = WholeNumber(load_default=20, validate=validate.Range(min=1, max=100))


class FeedQuery(Schema):
    after = fields.String(load_default="0", validate=validate.Regexp(r"^\d+(-\d+)?$"))
    limit = WholeNumber(load_default=100, validate=validate.Range(min=1, max=1000))


class StreamQuery(Schema):
    ticket = fields.String(metadata={"description": "A stream ticket from POST /v1/games/{id}/stream-tickets "
                                                    "(browsers cannot send Authorization on EventSource)"})
    last_event_id = WholeNumber(validate=validate.Range(min=0, max=MAX_VERSION),
                                metadata={"description": "Resume after this version (same as the Last-Event-ID header)"})


# -- responses -----------------------------------------------------------------------------------------

class Player(Schema):
    seat = fields.Integer(required=True)
    kind = fields.String(required=True, validate=validate.OneOf(["human", "bot"]))
    name = fields.String(allow_none=True, required=True)
    level = fields.String(allow_none=True, required=True)
    team = fields.Integer(allow_none=True, required=True)
    claimed = fields.Boolean(required=True)
    taken_over = fields.Boolean(required=True, metadata={"description": "A bot plays this human seat after its turn timer ran out; the human takes it back by acting"})


class Side(Schema):
    seats = fields.List(fields.Integer(), required=True)
    score = fields.Integer(required=True)


class View(Schema):
    game_id = fields.String(required=True)
    game = fields.String(required=True)
    options = fields.Dict(required=True)
    version = fields.Integer(required=True, metadata={"description": "The number of the last event"})
    status = fields.String(required=True, validate=validate.OneOf(["waiting", "active", "finished"]))
    seat = fields.Integer(allow_none=True, required=True, metadata={"description": "null for a spectator"})
    players = fields.List(fields.Nested(Player), required=True)
    to_act = fields.List(fields.Integer(), required=True)
    standing = fields.List(fields.Nested(Side), required=True)
    winner = fields.List(fields.Integer(), allow_none=True, required=True)
    round = fields.Dict(allow_none=True, required=True, metadata={"description": "The current round as this seat may see it"})
    last_result = fields.Dict(allow_none=True, required=True, metadata={"description": "How the last round was scored, until the next starts"})
    legal_actions = fields.List(fields.Dict(), required=True)


class SeatClaimed(Schema):
    seat = fields.Integer(required=True)
    token = fields.String(required=True, metadata={"description": "The seat's bearer token. Shown once: keep it."})
    view = fields.Nested(View, required=True)


class Event(Schema):
    version = fields.Integer(required=True)
    type = fields.String(required=True)
    at = fields.String(required=True)
    actor = fields.Raw(allow_none=True, required=True, metadata={"description": "Seat number, or null for the system"})
    data = fields.Dict(required=True)


class EventsPage(Schema):
    events = fields.List(fields.Nested(Event), required=True)
    next_after = fields.Integer(required=True, metadata={"description": "Pass as ?after= for the next page"})
    has_more = fields.Boolean(required=True)


class LobbyEntry(Schema):
    game_id = fields.String(required=True)
    game = fields.String(required=True)
    variant = fields.String(required=True)
    status = fields.String(required=True)
    players = fields.Integer(required=True)
    open_seats = fields.Integer(required=True)
    created_ms = fields.Integer(required=True)


class Lobby(Schema):
    games = fields.List(fields.Nested(LobbyEntry), required=True)
    total = fields.Integer(required=True)
    offset = fields.Integer(required=True)
    limit = fields.Integer(required=True)


class StreamTicket(Schema):
    ticket = fields.String(required=True)
    expires_in = fields.Integer(required=True)


class FeedEntry(Schema):
    id = fields.String(required=True)
    game_id = fields.String(required=True)
    version = fields.Integer(required=True)
    type = fields.String(required=True)


class Feed(Schema):
    entries = fields.List(fields.Nested(FeedEntry), required=True)
    next_after = fields.String(required=True)


class Health(Schema):
    status = fields.String(required=True)


def validation_error(err: ValidationError) -> dict:
    return err.messages if isinstance(err.messages, dict) else {"_schema": err.messages}


class ActionValue(Schema):
    action = fields.Dict(required=True, metadata={"description": "One of the view's legal_actions"})
    value = fields.Float(allow_none=True, required=True, metadata={
        "description": "The expert's estimate of this action, higher is better, per game: Sixty-Six (2 players) "
                       "2 x the chance to win the match after the deal, minus 1 (-1..1); Sixty-Six (3-4 players) "
                       "game points of the deal, own side minus all other sides' together; Fifty-Six tables the seat's team gains "
                       "in the deal plus 0.03 per card point; Smear the deal's points, own team minus the other "
                       "(a failed bid counts as its loss). Null where the expert has no search for this position, or for "
                       "an action it never plays because another is always better (Sixty-Six: leading the King or "
                       "Queen of a marriage it could show first, keeping the trump 9 it could exchange)"})


class Hint(Schema):
    version = fields.Integer(required=True, metadata={"description": "The game version the hint is for"})
    seat = fields.Integer(required=True)
    level = fields.String(required=True, metadata={"description": "The bot level that made the suggestion"})
    suggestion = fields.Dict(required=True, metadata={"description": "The suggested action, as listed in legal_actions"})
    searched = fields.Boolean(required=True, metadata={
        "description": "true: values come from search over worlds consistent with the seat's view; "
                       "false: no search for this position, and the basic rules chose"})
    values = fields.List(fields.Nested(ActionValue), required=True)
