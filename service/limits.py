"""Rate limits (flask-limiter, counters in Redis so every API instance shares them).

Per client address on creating matches and claiming seats, per seat token on actions. A limited
request gets 429 problem+json with Retry-After. Configured by environment (service.config).
"""
from __future__ import annotations

import hashlib

from flask import Flask, request
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address

from service.config import Settings
from service.http import settings

limiter = Limiter(key_func=get_remote_address, headers_enabled=True, strategy="moving-window",
                  swallow_errors=True, key_prefix="talon-limits")


def init_limits(app: Flask, config: Settings) -> None:
    app.config.update(RATELIMIT_ENABLED=config.rate_limits_enabled, RATELIMIT_STORAGE_URI=config.redis_url)
    limiter.init_app(app)


def per_seat() -> str:
    """Actions are counted per seat token (hashed: the token itself is never a Redis key)."""
    token = request.headers.get("Authorization", "")
    return hashlib.sha256(token.encode()).hexdigest() if token else get_remote_address()


create_limit = limiter.limit(lambda: settings().rate_limit_create)
join_limit = limiter.limit(lambda: settings().rate_limit_join)
action_limit = limiter.limit(lambda: settings().rate_limit_actions, key_func=per_seat)
