"""The Flask application factory."""
from __future__ import annotations

import types

import redis
from flask import Flask
from flask_smorest import Api
from flask_smorest.utils import prepare_response
from werkzeug.exceptions import HTTPException

from events.connection import connect
from events.store import EventStore
from service import errors, observability, shutdown, stream
from service.admission import Admission
from service.caps import Caps
from service.parking import Parking, ParkingMiddleware
from service.config import Settings
from service.http import read_body_in_time
from service.hub import Hub
from service.limits import init_limits
from service.problems import PROBLEM_CONTENT_TYPE
from service.schemas import Problem as ProblemSchema
from service.usecases import Talon

API_DESCRIPTION = """\
Talon serves three trick-taking card games (Sixty-Six, Fifty-Six, Four-Point Northeastern Wisconsin
Smear) to humans and bots at one table.

**How a match goes.** `POST /v1/games` creates it with its seats (humans and bots). Each human claims
a seat with `POST /v1/games/{id}/players` and receives a bearer token, shown once. When the last human
seat is taken, the cards are dealt. A seat reads its view with `GET /v1/games/{id}` (with
`Authorization: Bearer <token>`): the view lists `legal_actions`, and posting any one of them as it is
to `POST /v1/games/{id}/actions` plays it. Bots and the end-of-round scoring run by themselves.
Follow the game live with `GET /v1/games/{id}/stream` (Server-Sent Events), or long-poll the view with
`?wait=`.

**Errors** are `application/problem+json` (RFC 9457). A rejected request changes nothing.
"""


class TalonFlask(Flask):
    """Flask, remembering which functions need no async wrapper: Flask asks it of every hook and view on
    every request (`ensure_sync`: inspect reads the function's code flags), about five times a request,
    for functions that never change."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._sync: dict = {}

    def ensure_sync(self, func):
        try:
            return self._sync[func]
        except (KeyError, TypeError):  # TypeError: an unhashable callable
            pass
        sync = super().ensure_sync(func)
        if isinstance(func, types.FunctionType):  # a bound method is a new object each time: not kept
            self._sync[func] = sync
        return sync


class TalonApi(Api):
    """flask-smorest, with the default error response documented as problem+json."""

    def _register_responses(self):
        response = {"description": "Any other error, as problem details", "schema": ProblemSchema}
        prepare_response(response, self.spec, PROBLEM_CONTENT_TYPE)
        self.spec.components.response(self.DEFAULT_ERROR_RESPONSE_NAME, response, lazy=True)


HUB_BLOCK_S = 25.0  # one blocking read of the fan-out hub; its client's socket timeout is a bit longer
HUB_MAX_READERS = 100_000  # matches with waiters in one process, each read on a connection of its own


def _init_live(app: Flask, settings: Settings, client: redis.Redis) -> None:
    """The fan-out hub (one Redis read per match per process for every stream and long-poll) on a
    client of its own, whose blocking reads may outlast the default socket timeout; and the caps on
    the connections one address holds."""
    talon: Talon = app.extensions["talon"]
    # Each match with local waiters keeps one connection blocked in a read: not the bounded request pool.
    blocking = connect(settings.events_redis_url or settings.redis_url, max_connections=HUB_MAX_READERS,
                       socket_timeout=HUB_BLOCK_S + 5, health_check_interval=30)
    store = EventStore(blocking, prefix=settings.key_prefix, max_block_s=HUB_BLOCK_S)
    hub = Hub(store, listener=talon.tables.extend, block_s=HUB_BLOCK_S)
    shutdown.on_stop(hub.stop)
    app.extensions["talon_hub"] = hub
    app.extensions["talon_parking"] = Parking(hub, talon.store, stream.render, stream.revoked, stream.TERMINAL,
                                              settings.stream_keepalive_s)
    app.extensions["talon_caps"] = Caps(client, f"{settings.key_prefix}:caps")


def create_app(settings: Settings | None = None, client: redis.Redis | None = None) -> Flask:
    settings = settings or Settings.from_env()
    app = TalonFlask(__name__)
    app.config.update(
        API_TITLE="Talon", API_VERSION="1.0.0", OPENAPI_VERSION="3.0.3",
        API_SPEC_OPTIONS={"info": {"description": API_DESCRIPTION},
                          "servers": [{"url": "/", "description": "this server"}],
                          "components": {"securitySchemes": {
                              "seat": {"type": "http", "scheme": "bearer",
                                       "description": "A seat token from POST /v1/games/{id}/players"},
                              "operator": {"type": "http", "scheme": "bearer",
                                           "description": "The operator token (OPERATOR_TOKEN)"}}}},
        MAX_CONTENT_LENGTH=settings.max_body_bytes,
        JSON_SORT_KEYS=False,
    )
    client = client or connect(settings.redis_url, pool_size=settings.redis_pool_size, health_check_interval=30)
    events_client = connect(settings.events_redis_url, pool_size=settings.redis_pool_size, health_check_interval=30) \
        if settings.events_redis_url else None
    app.extensions["talon"] = Talon(client, key_prefix=settings.key_prefix, queue_name=settings.queue_name,
                                    bot_delay_s=settings.bot_delay_s, events_client=events_client)
    app.extensions["talon_settings"] = settings

    _init_live(app, settings, client)
    observability.init_app(app, client, settings.queue_name)
    init_limits(app, settings, client)
    api = TalonApi(app)
    from service.routes import docs, games, health, hints, ops, rules, web
    for module in (games, ops, health, observability):
        api.register_blueprint(module.blp)
    api.register_blueprint(hints.blp)  # GET /v1/games/{id}/hint
    app.register_blueprint(docs.blp)
    app.register_blueprint(web.blp)  # the browser client at / (not API: kept out of the spec)
    app.register_blueprint(rules.blp)  # the rules pages at /rules/ (not API either)
    app.extensions["talon_api"] = api

    app.wsgi_app = ParkingMiddleware(Admission(app.wsgi_app, settings.admission_slots),
                                     app.extensions["talon_parking"])
    app.before_request(read_body_in_time)
    # Registered after Api(): flask-smorest's own handler drops headers such as Allow and Retry-After.
    app.register_error_handler(HTTPException, errors.http_error)
    for exc_type, handler in errors.HANDLERS.items():
        app.register_error_handler(exc_type, handler)
    return app
