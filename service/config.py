"""Settings from the environment (API.md: REDIS_URL, PORT, OPERATOR_TOKEN, WEB_CONCURRENCY)."""
from __future__ import annotations

import os
from dataclasses import dataclass


@dataclass(frozen=True)
class Settings:
    redis_url: str = "redis://127.0.0.1:6379/0"
    # The event store's own Redis (a Cluster URL such as redis+cluster://host:port, or host:port,...);
    # unset: the events live on redis_url with everything else.
    events_redis_url: str | None = None
    operator_token: str | None = None
    admission_slots: int = 32         # requests one API process works on at once (service/admission.py)
    redis_pool_size: int = 64          # Redis connections one API process opens at most (requests wait for one)
    key_prefix: str = "talon"          # every Redis key of the event store starts with this
    queue_name: str = "talon"          # the rq queue for bot turns and scoring
    max_body_bytes: int = 64 * 1024    # larger request bodies get 413
    long_poll_max_s: float = 30.0      # ?wait= is capped here (API.md)
    stream_max_s: float = 300.0        # an SSE response ends after this; EventSource reconnects by itself
    stream_keepalive_s: float = 15.0   # an event stream sends a comment after this long without an event
    stream_ticket_ttl_s: int = 60      # a stream ticket is good for this long (and opens one stream)
    max_streams_per_address: int = 50     # open event streams one client address may hold (429 beyond)
    max_long_polls_per_address: int = 50  # waiting long-polls one client address may hold (429 beyond)
    body_timeout_s: float = 10.0       # a request body must arrive within this long in all (408 after)
    events_page_max: int = 500         # upper bound of ?limit= on event pages
    bot_delay_s: float = 0.0           # pause before a bot acts (nicer for humans watching)
    rate_limits_enabled: bool = True
    rate_limit_create: str = "30/minute"   # per client address: POST /v1/games
    rate_limit_join: str = "60/minute"     # per client address: POST /v1/games/{id}/players
    rate_limit_actions: str = "20/second"  # per seat: POST /v1/games/{id}/actions

    @classmethod
    def from_env(cls, environ: dict | None = None) -> "Settings":
        env = os.environ if environ is None else environ
        return cls(
            redis_url=env.get("REDIS_URL", cls.redis_url),
            events_redis_url=env.get("EVENTS_REDIS_URL") or None,
            operator_token=env.get("OPERATOR_TOKEN") or None,
            redis_pool_size=int(env.get("TALON_REDIS_POOL_SIZE", cls.redis_pool_size)),
            admission_slots=int(env.get("TALON_ADMISSION_SLOTS", cls.admission_slots)),
            key_prefix=env.get("TALON_KEY_PREFIX", cls.key_prefix),
            queue_name=env.get("TALON_QUEUE", cls.queue_name),
            bot_delay_s=float(env.get("TALON_BOT_DELAY_S", cls.bot_delay_s)),
            rate_limits_enabled=env.get("TALON_RATE_LIMITS", "on").lower() not in ("off", "0", "false", "no"),
            rate_limit_create=env.get("TALON_RATE_LIMIT_CREATE", cls.rate_limit_create),
            rate_limit_join=env.get("TALON_RATE_LIMIT_JOIN", cls.rate_limit_join),
            rate_limit_actions=env.get("TALON_RATE_LIMIT_ACTIONS", cls.rate_limit_actions),
            max_streams_per_address=int(env.get("TALON_MAX_STREAMS_PER_ADDRESS", cls.max_streams_per_address)),
            max_long_polls_per_address=int(env.get("TALON_MAX_LONG_POLLS_PER_ADDRESS",
                                                   cls.max_long_polls_per_address)),
            body_timeout_s=float(env.get("TALON_BODY_TIMEOUT_S", cls.body_timeout_s)),
            stream_keepalive_s=float(env.get("TALON_STREAM_KEEPALIVE_S", cls.stream_keepalive_s)),
        )
