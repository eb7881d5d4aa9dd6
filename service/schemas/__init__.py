"""The API's marshmallow schemas: they parse request bodies and describe every response, and through
flask-smorest and apispec they write openapi.yaml (`make openapi`).

One module per concern: base (field makers, unions), table (what every game shares), one module per
game (round, result, view, events), actions, options, events (the catalogue), views, requests, hints,
lobby, ops, problem. `register` puts every schema and union into the spec as a component.
"""

from service.schemas.actions import ACTION, ACTION_TYPES, SUITS, plain_action
from service.schemas.base import MAX_VERSION, Plugin, ref, register
from service.schemas.events import EVENTS_PAGE
from service.schemas.hints import HINT
from service.schemas.lobby import Health, Lobby, StreamTicket
from service.schemas.ops import AuditReport, Feed
from service.schemas.players import (
    ActiveSeats,
    HistoryQuery,
    Leaderboard,
    LeaderboardQuery,
    MatchHistory,
    PlayerCreated,
    PlayerProfile,
    RegisterPlayer,
)
from service.schemas.problem import Problem
from service.schemas.requests import (
    CREATE_GAME,
    ActionHeaders,
    ClaimSeat,
    EventsQuery,
    FeedQuery,
    GameQuery,
    LobbyQuery,
    ReplayQuery,
    StreamHeaders,
    StreamQuery,
    ViewHeaders,
)
from service.schemas.views import VIEW, Rematch, ReplayStep, SeatClaimed

__all__ = [
    "ACTION",
    "ACTION_TYPES",
    "SUITS",
    "plain_action",
    "MAX_VERSION",
    "Plugin",
    "register",
    "ref",
    "EVENTS_PAGE",
    "HINT",
    "Health",
    "Lobby",
    "StreamTicket",
    "AuditReport",
    "Feed",
    "Problem",
    "CREATE_GAME",
    "ClaimSeat",
    "EventsQuery",
    "FeedQuery",
    "GameQuery",
    "LobbyQuery",
    "StreamQuery",
    "VIEW",
    "SeatClaimed",
    "Rematch",
    "ReplayStep",
    "ReplayQuery",
    "ActionHeaders",
    "StreamHeaders",
    "ViewHeaders",
    "ActiveSeats",
    "HistoryQuery",
    "Leaderboard",
    "LeaderboardQuery",
    "MatchHistory",
    "PlayerCreated",
    "PlayerProfile",
    "RegisterPlayer",
]
