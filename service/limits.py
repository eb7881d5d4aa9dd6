"""Rate limits: per client address on creating matches, registering players and claiming (or resuming) seats,
per seat on actions.

A limited request gets 429 problem+json with Retry-After; every API instance shares the counts
through Redis. Configured by environment (app/settings.py): "20/second", "30/minute", "100 per hour".

Creating a match and claiming a seat (per client address) cost one EVALSHA of their own on REDIS_URL;
they are rare. A seat's actions, the hot path, are limited inside the move's own append (the event
store's APPEND script throttles the seat: `action_rate`), so a limited move costs no round trip more.

The algorithm is GCRA (generic cell rate algorithm): one key per subject holding the theoretical
arrival time of its next request. `N/period` allows N requests at once, then one per period/N. The
time is Redis's own (TIME), so API instances with drifting clocks agree.
"""

from __future__ import annotations

import functools
import logging
import math
import re
from collections.abc import Callable
from dataclasses import dataclass

import redis
from flask import Flask, current_app, request

from app.settings import Settings
from service.problems import Problem

log = logging.getLogger("talon.limits")

# KEYS[1] the subject's key   ARGV[1] the emission interval in µs (period / N)   ARGV[2] the period in µs
# Returns 0 when allowed, else the microseconds until a request would be.
GCRA = """
local now = redis.call('TIME')
now = tonumber(now[1]) * 1000000 + tonumber(now[2])
local interval, period = tonumber(ARGV[1]), tonumber(ARGV[2])
local tat = math.max(tonumber(redis.call('GET', KEYS[1]) or now), now)
local new_tat = tat + interval
if new_tat - now > period then return new_tat - now - period end
redis.call('SET', KEYS[1], new_tat, 'PX', math.ceil((new_tat - now) / 1000))
return 0
"""

_PERIODS = {"second": 1, "minute": 60, "hour": 3600, "day": 86400}
_RATE = re.compile(r"^\s*(\d+)\s*(?:/|per)\s*(\d+)?\s*(second|minute|hour|day)s?\s*$")


@dataclass(frozen=True)
class Rate:
    count: int
    seconds: int

    @classmethod
    @functools.lru_cache(maxsize=64)
    def parse(cls, text: str) -> Rate:
        match = _RATE.match(text.lower())
        if not match or int(match[1]) < 1:
            raise ValueError(f"a rate limit reads like '20/second' or '30 per minute', not {text!r}")
        return cls(int(match[1]), int(match[2] or 1) * _PERIODS[match[3]])

    def __str__(self) -> str:
        return f"{self.count} per {self.seconds} second{'s' if self.seconds != 1 else ''}"


class Limiter:
    """Checks a subject's rate on the Redis the app keeps its shared keys in."""

    def __init__(self, client: redis.Redis, prefix: str) -> None:
        self.prefix = prefix
        self._gcra = client.register_script(GCRA)

    def retry_after(self, scope: str, subject: str, rate: Rate) -> float:
        """0 if this request is allowed (and counted), else the seconds until one would be."""
        period_us = rate.seconds * 1_000_000
        try:
            wait_us = self._gcra(
                keys=[f"{self.prefix}:rate:{scope}:{subject}"], args=[period_us // rate.count, period_us]
            )
        except redis.RedisError as exc:  # fail open: the request itself will meet the outage
            log.warning("rate limit not checked: %s", exc)
            return 0.0
        return int(wait_us) / 1_000_000


# KEYS[1] the address's failures   ARGV[1] the window in ms. One more failure; the window starts with the
# first one. Returns the failures in the window.
FAILED = """
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n
"""


class AuthFailures:
    """Failed authentications per client address, in a window that starts with the first failure: once an
    address has used its budget, every authentication that could be the operator's is refused with 429
    until the window ends, the right token's too (so neither a wrong nor a right guess tells anything
    then). Seat tokens are not refused: a seat's own token is not a guess."""

    def __init__(self, client: redis.Redis, prefix: str, rate: Rate) -> None:
        self.client, self.prefix, self.rate = client, prefix, rate
        self._failed = client.register_script(FAILED)

    def _key(self) -> str:
        return f"{self.prefix}:auth-failures:{_address()}"

    def check(self) -> None:
        """429 with Retry-After while this address is over its budget."""
        try:
            with self.client.pipeline(transaction=False) as pipe:
                failures, ttl_ms = pipe.get(self._key()).pttl(self._key()).execute()
        except redis.RedisError as exc:  # fail open: the request itself will meet the outage
            log.warning("authentication failures not checked: %s", exc)
            return
        if failures is not None and int(failures) >= self.rate.count and ttl_ms > 0:
            raise Problem(
                429,
                "too-many-requests",
                f"too many failed authentications from this address: at most {self.rate}",
                headers={"Retry-After": str(max(1, math.ceil(ttl_ms / 1000)))},
            )

    def failed(self) -> None:
        try:
            self._failed(keys=[self._key()], args=[self.rate.seconds * 1000])
        except redis.RedisError as exc:
            log.warning("authentication failure not counted: %s", exc)


def init_limits(app: Flask, config: Settings, client: redis.Redis) -> None:
    app.extensions["talon_limiter"] = (
        Limiter(client, f"{config.key_prefix}:limits") if config.rate_limits_enabled else None
    )
    app.extensions["talon_auth_failures"] = (
        AuthFailures(client, f"{config.key_prefix}:limits", Rate.parse(config.rate_limit_auth_failures))
        if config.rate_limits_enabled
        else None
    )
    for text in (config.rate_limit_create, config.rate_limit_join, config.rate_limit_actions):
        Rate.parse(text)  # a typo in the configuration stops the start, not the first request


def _address() -> str:
    return request.remote_addr or "unknown"


def limited(scope: str, rate_of: Callable[[Settings], str], subject: Callable[[], str]):
    """A route decorator: 429 with Retry-After once `subject()` exceeds its rate in `scope`."""

    def decorate(view):
        @functools.wraps(view)
        def wrapper(*args, **kwargs):
            limiter: Limiter | None = current_app.extensions["talon_limiter"]
            if limiter is not None:
                rate = Rate.parse(rate_of(current_app.extensions["talon_settings"]))
                wait = limiter.retry_after(scope, subject(), rate)
                if wait > 0:
                    raise Problem(
                        429,
                        "too-many-requests",
                        f"rate limit exceeded: {rate}",
                        headers={"Retry-After": str(max(1, math.ceil(wait)))},
                    )
            return view(*args, **kwargs)

        return wrapper

    return decorate


create_limit = limited("create", lambda s: s.rate_limit_create, _address)
join_limit = limited("join", lambda s: s.rate_limit_join, _address)
# Registering players: at the rate of creating matches, counted apart (one does not use up the other).
register_limit = limited("register", lambda s: s.rate_limit_create, _address)


def action_rate(settings: Settings) -> tuple[int, float] | None:
    """The per-seat rate of actions, (count, seconds), or None with rate limits off. It is checked by the
    move's own append (events/scripts.py APPEND's throttle), keyed by the seat the token authenticated:
    no extra round trip, and no way around it with another spelling of the Authorization header."""
    if not settings.rate_limits_enabled:
        return None
    rate = Rate.parse(settings.rate_limit_actions)
    return rate.count, float(rate.seconds)
