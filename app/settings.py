"""Every setting Talon reads from its environment, in one place: the API, the workers, the command line
and gunicorn's configuration all build a `Settings` from `from_env`, and nothing else reads the
environment. The README's table lists exactly the variables of `VARIABLES` (a test checks it).

This module imports nothing heavy: gunicorn's master reads it before its gevent workers patch the
standard library.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any


def _switch(text: str) -> bool:
    return text.strip().lower() not in ("off", "0", "false", "no", "")


def _optional(text: str) -> str | None:
    return text or None


MIN_OPERATOR_TOKEN = 32  # characters: a token that cannot be guessed, even without the failure limit


@dataclass(frozen=True)
class Settings:
    # Redis
    redis_url: str = "redis://127.0.0.1:6379/0"
    # The event store's own Redis (a Cluster URL such as redis+cluster://host:port, or host:port,...);
    # unset: the events live on redis_url with everything else.
    events_redis_url: str | None = None
    key_prefix: str = "talon"  # every Redis key of the event store starts with this
    queue_name: str = "talon"  # the rq queue for bot turns and scoring
    redis_pool_size: int = 64  # Redis connections one API process opens at most (requests wait for one)
    # The operator
    operator_token: str | None = None
    environment: str = "production"  # "development" (scripts/run): a short operator token is allowed
    # Serving (the API)
    port: int = 8000
    web_concurrency: int = 2  # gunicorn worker processes
    worker_connections: int = 10_000  # connections one gunicorn worker process holds at most
    accept_per_turn: int = 8  # new connections one API process accepts per turn of its loop (service/gworker.py)
    gunicorn_bind: str | None = None  # overrides 0.0.0.0:<port>
    health_bind: str | None = None  # host:port of the probes' own listener (service/health.py); unset: none
    access_log: str | None = None  # gunicorn's access log ("-": standard error); unset: none
    admission_slots: int = 8  # requests one API process works on at once (service/admission.py)
    max_body_bytes: int = 64 * 1024  # larger request bodies get 413
    body_timeout_s: float = 10.0  # a request body must arrive within this long in all (408 after)
    long_poll_max_s: float = 30.0  # ?wait= is capped here
    stream_max_s: float = 300.0  # an SSE response ends after this; EventSource reconnects by itself
    stream_keepalive_s: float = 15.0  # an event stream sends a comment after this long without an event
    stream_ticket_ttl_s: int = 60  # a stream ticket is good for this long (and opens one stream)
    max_streams_per_address: int = 50  # open event streams one client address may hold (429 beyond)
    max_long_polls_per_address: int = 50  # waiting long-polls one client address may hold (429 beyond)
    events_page_max: int = 500  # upper bound of ?limit= on event pages
    rules_dir: str | None = None  # the Markdown of the rules pages; unset: docs/rules of the checkout
    # Rate limits
    rate_limits_enabled: bool = True
    rate_limit_create: str = "30/minute"  # per client address: POST /v1/games
    rate_limit_join: str = "60/minute"  # per client address: POST /v1/games/{id}/players
    rate_limit_actions: str = "20/second"  # per seat: POST /v1/games/{id}/actions
    max_bot_matches_per_address: int = 2  # unfinished bot-only matches one address may run (operator: any)
    rate_limit_auth_failures: str = "10/minute"  # per client address: tokens that authenticate as nothing
    # The workers
    bot_delay_s: float = 0.0  # pause before a bot acts (nicer for humans watching)
    # A bot's move at a table a human plays is released this long after its decision started, at the
    # earliest: its reply time says nothing about its hand (one legal move is decided at once).
    bot_think_s: float = 0.3
    sweep_interval_s: int = 30  # how often the sweeper repairs lost jobs and closes idle matches
    idle_expiry_s: int = 7 * 24 * 3600  # a match with no event for this long is closed (match_abandoned)
    stale_job_s: float = 30.0  # a job popped or started this long ago lost its worker
    worker_metrics_port: int | None = None  # the worker's own /metrics port; unset: none
    worker_metrics_addr: str = "0.0.0.0"
    # Logs and metrics
    log_level: str = "INFO"
    log_format: str = "json"  # or "text"
    metrics_dir: str | None = None  # Prometheus' multiprocess directory (PROMETHEUS_MULTIPROC_DIR)

    def check(self) -> None:
        """Refuses settings the service must not start with (ValueError saying which and why)."""
        if (
            self.operator_token is not None
            and len(self.operator_token) < MIN_OPERATOR_TOKEN
            and self.environment != "development"
        ):
            raise ValueError(
                f"OPERATOR_TOKEN must have at least {MIN_OPERATOR_TOKEN} characters (e.g. "
                "`openssl rand -hex 24`); a shorter one is allowed only with TALON_ENV=development"
            )

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if environ is None else environ
        given = {}
        for variable, (name, parse) in VARIABLES.items():
            if variable in env:
                given[name] = parse(env[variable])
        return cls(**given)


# Environment variable -> (Settings field, how its text is read).
VARIABLES: dict[str, tuple[str, Callable[[str], Any]]] = {
    "REDIS_URL": ("redis_url", str),
    "EVENTS_REDIS_URL": ("events_redis_url", _optional),
    "TALON_KEY_PREFIX": ("key_prefix", str),
    "TALON_QUEUE": ("queue_name", str),
    "TALON_REDIS_POOL_SIZE": ("redis_pool_size", int),
    "OPERATOR_TOKEN": ("operator_token", _optional),
    "TALON_ENV": ("environment", lambda text: text.strip().lower()),
    "PORT": ("port", int),
    "WEB_CONCURRENCY": ("web_concurrency", int),
    "GUNICORN_WORKER_CONNECTIONS": ("worker_connections", int),
    "TALON_ACCEPT_PER_TURN": ("accept_per_turn", int),
    "GUNICORN_BIND": ("gunicorn_bind", _optional),
    "TALON_HEALTH_BIND": ("health_bind", _optional),
    "GUNICORN_ACCESSLOG": ("access_log", _optional),
    "TALON_ADMISSION_SLOTS": ("admission_slots", int),
    "TALON_BODY_TIMEOUT_S": ("body_timeout_s", float),
    "TALON_STREAM_KEEPALIVE_S": ("stream_keepalive_s", float),
    "TALON_MAX_STREAMS_PER_ADDRESS": ("max_streams_per_address", int),
    "TALON_MAX_LONG_POLLS_PER_ADDRESS": ("max_long_polls_per_address", int),
    "TALON_RULES_DIR": ("rules_dir", _optional),
    "TALON_RATE_LIMITS": ("rate_limits_enabled", _switch),
    "TALON_RATE_LIMIT_CREATE": ("rate_limit_create", str),
    "TALON_RATE_LIMIT_JOIN": ("rate_limit_join", str),
    "TALON_RATE_LIMIT_ACTIONS": ("rate_limit_actions", str),
    "TALON_MAX_BOT_MATCHES_PER_ADDRESS": ("max_bot_matches_per_address", int),
    "TALON_RATE_LIMIT_AUTH_FAILURES": ("rate_limit_auth_failures", str),
    "TALON_BOT_DELAY_S": ("bot_delay_s", float),
    "TALON_BOT_THINK_S": ("bot_think_s", float),
    "TALON_SWEEP_INTERVAL_S": ("sweep_interval_s", int),
    "TALON_IDLE_EXPIRY_S": ("idle_expiry_s", int),
    "TALON_STALE_JOB_S": ("stale_job_s", float),
    "TALON_WORKER_METRICS_PORT": ("worker_metrics_port", lambda text: int(text) if text else None),
    "TALON_WORKER_METRICS_ADDR": ("worker_metrics_addr", str),
    "LOG_LEVEL": ("log_level", lambda text: text.upper()),
    "LOG_FORMAT": ("log_format", lambda text: text.lower()),
    "PROMETHEUS_MULTIPROC_DIR": ("metrics_dir", _optional),
}

assert {name for name, _ in VARIABLES.values()} <= {f.name for f in fields(Settings)}
