"""The Flask application factory."""

from __future__ import annotations

from flask import Flask
from flask.sessions import NullSession, SessionInterface
from flask_smorest import Api
from werkzeug.exceptions import HTTPException

from app import bootstrap
from app.bootstrap import Application
from app.settings import Settings
from events.connection import connect
from events.store import EventStore
from service import errors, headers, observability, schemas, shutdown, stream
from service.admission import Admission
from service.botcap import BotMatchCap
from service.caps import Caps
from service.http import read_body
from service.hub import Hub
from service.limits import init_limits
from service.parking import Parking, ParkingMiddleware
from service.too_large import CloseAfterTooLarge

API_VERSION = "3.0.0"  # the contract's version: docs/API_VERSIONING.md says when which part moves

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

**Errors** are `application/problem+json` (RFC 9457), each with a stable `type` URI; the `Problem` schema
lists every type and when it happens. A rejected request changes nothing.

**Players** may register (`POST /v1/players`) for a player key, also shown once: a seat claimed with it
joins the player's history and rating, and the key lists and resumes the player's seats from any device.
Histories, ratings and leaderboards follow the matches' event logs (updated by the workers shortly after a
match ends).

**Lists** (the lobby, a match's events, the operators' feed, a player's matches) are read in pages: pass a page's `next_cursor`
as `cursor` to read on; `has_more` says whether more follow already.

**Rules** of every game, each option with its default and a worked example: `/rules/`.

**Versions**: `info.version` follows the versioning policy in docs/API_VERSIONING.md; CHANGELOG.md lists
every change.
"""


class TalonApi(Api):
    """flask-smorest without its generic default error response: each route lists its own problems
    (service/http.py `problems`)."""

    DEFAULT_ERROR_RESPONSE_NAME = None


class NoSessions(SessionInterface):
    """Talon keeps no session: every caller sends its bearer token. Flask's default interface opens a
    cookie session on every request (a signing serializer asked for, an empty session built) to find
    none; this one hands out the same empty, read-only session."""

    _none = NullSession()

    def open_session(self, app, request):
        return self._none

    def save_session(self, app, session, response) -> None:
        return None


HUB_BLOCK_S = 25.0  # one blocking read of the fan-out hub; its client's socket timeout is a bit longer
HUB_MAX_READERS = 100_000  # matches with waiters in one process, each read on a connection of its own


def _init_live(app: Flask, settings: Settings, application: Application) -> None:
    """The fan-out hub (one Redis read per match per process for every stream and long-poll) on a
    client of its own, whose blocking reads may outlast the default socket timeout; parked connections;
    and the caps on the connections one address holds."""
    # Each match with local waiters keeps one connection blocked in a read: not the bounded request pool.
    blocking = connect(
        settings.events_redis_url or settings.redis_url,
        max_connections=HUB_MAX_READERS,
        socket_timeout=HUB_BLOCK_S + 5,
        health_check_interval=30,
    )
    store = EventStore(blocking, prefix=settings.key_prefix, max_block_s=HUB_BLOCK_S)
    hub = Hub(store, listener=application.matches.tables.extend, block_s=HUB_BLOCK_S)
    shutdown.on_stop(hub.stop)
    app.extensions["talon_hub"] = hub
    app.extensions["talon_parking"] = Parking(
        hub, application.store, stream.render, stream.revoked, stream.TERMINAL, settings.stream_keepalive_s
    )
    app.extensions["talon_caps"] = Caps(application.redis, f"{settings.key_prefix}:caps")
    # /readyz on connections of its own: the requests' pool may be all in use under load, and a probe that
    # waits for one would time the load, not Redis.
    app.extensions["talon_probe_redis"] = connect(settings.redis_url, pool_size=2, socket_timeout=2.0)


def create_app(settings: Settings | None = None) -> Flask:
    """The API on `settings` (by default the environment's): the application built by app/bootstrap.py
    with Redis pools bounded for the gevent worker's thousands of greenlets."""
    settings = settings or Settings.from_env()
    settings.check()  # e.g. a short operator token outside development: the service does not start
    application = bootstrap.build(settings, pool_size=settings.redis_pool_size)
    app = Flask(__name__)
    app.config.update(
        API_TITLE="Talon",
        API_VERSION=API_VERSION,
        OPENAPI_VERSION="3.1.0",
        API_SPEC_OPTIONS={
            "info": {
                "description": API_DESCRIPTION,
                "contact": {"name": "Talon maintainers"},
                "license": {"name": "Proprietary: all rights reserved", "identifier": "LicenseRef-Proprietary"},
            },
            "servers": [{"url": "/", "description": "this server"}],
            "components": {
                "securitySchemes": {
                    "seat": {
                        "type": "http",
                        "scheme": "bearer",
                        "description": "A seat token from POST /v1/games/{id}/players",
                    },
                    "operator": {
                        "type": "http",
                        "scheme": "bearer",
                        "description": "The operator token (OPERATOR_TOKEN)",
                    },
                    "player": {"type": "http", "scheme": "bearer", "description": "A player key from POST /v1/players"},
                }
            },
        },
        MAX_CONTENT_LENGTH=settings.max_body_bytes,
        JSON_SORT_KEYS=False,
    )
    app.session_interface = NoSessions()
    app.extensions["talon_application"] = application
    app.extensions["talon_settings"] = settings

    _init_live(app, settings, application)
    observability.init_app(app, application)
    init_limits(app, settings, application.redis)
    app.extensions["talon_botcap"] = (
        BotMatchCap(
            application.redis,
            application.store,
            f"{settings.key_prefix}:limits",
            settings.max_bot_matches_per_address,
            settings.idle_expiry_s,
        )
        if settings.rate_limits_enabled
        else None
    )
    api = TalonApi(app, spec_kwargs={"marshmallow_plugin": schemas.Plugin()})
    schemas.register(api.spec)  # every schema and union as a component, before the routes
    from service.routes import docs, finished, games, health, hints, metrics, ops, players, rules, web

    for module in (games, players, ops, health, metrics):
        api.register_blueprint(module.blp)
    api.register_blueprint(hints.blp)  # GET /v1/games/{id}/hint
    api.register_blueprint(finished.blp)  # POST /v1/games/{id}/rematch, GET /v1/games/{id}/replay
    app.register_blueprint(docs.blp)
    app.register_blueprint(web.blp)  # the browser client at / (not API: kept out of the spec)
    app.register_blueprint(rules.blp)  # the rules pages at /rules/ (not API either)
    app.extensions["talon_api"] = api

    observed = observability.RequestTelemetry(app.wsgi_app, headers.SECURITY_HEADERS)
    app.wsgi_app = ParkingMiddleware(
        Admission(CloseAfterTooLarge(observed, settings.max_body_bytes), settings.admission_slots),
        app.extensions["talon_parking"],
    )
    app.before_request(read_body)
    # Registered after Api(): flask-smorest's own handler drops headers such as Allow and Retry-After.
    app.register_error_handler(HTTPException, errors.http_error)
    for exc_type, handler in errors.HANDLERS.items():
        app.register_error_handler(exc_type, handler)
    return app
