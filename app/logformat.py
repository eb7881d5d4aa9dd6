"""Log lines: one JSON object a line (or plain text), with the request's or the job's context, and
anything shaped like a secret masked.

Kept apart from service/observability.py and free of heavy imports: gunicorn's master process loads
these formatters from its logging configuration (deploy/gunicorn.conf.py), and it must not import
redis-py, rq or Flask before its gevent workers monkey-patch the standard library.
"""

from __future__ import annotations

import contextvars
import logging
import re
from collections.abc import Callable, Mapping

import orjson

from events.codec import format_at

request_id: contextvars.ContextVar[str | None] = contextvars.ContextVar("request_id", default=None)
game_id: contextvars.ContextVar[str | None] = contextvars.ContextVar("game_id", default=None)
seat: contextvars.ContextVar[int | None] = contextvars.ContextVar("seat", default=None)

CONTEXT_FIELDS = ("request_id", "game_id", "seat", "job_id")
# Extra fields a log call may pass (anything else given as `extra` is dropped, so nothing leaks by accident).
EXTRA_FIELDS = ("method", "route", "path", "status", "duration_ms", "versions", "types", "worker")
# A seat token is `<game id>.<urlsafe secret>`; a credential follows "Bearer".
SECRET_SHAPES = re.compile(r"(?i)(bearer\s+)\S+|\b[A-Za-z0-9_-]{1,64}\.[A-Za-z0-9_-]{32,}\b")

# More context for every line, e.g. the rq job being run (the worker adds it: service/observability.py).
_providers: list[Callable[[], Mapping[str, object]]] = []


def add_context(provider: Callable[[], Mapping[str, object]]) -> None:
    if provider not in _providers:
        _providers.append(provider)


def redact(text: str) -> str:
    return SECRET_SHAPES.sub(lambda m: (m.group(1) or "") + "[redacted]", text)


def _context() -> dict[str, object]:
    context: dict[str, object] = {"request_id": request_id.get(), "game_id": game_id.get(), "seat": seat.get()}
    for provider in _providers:
        context.update(provider())
    return context


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, object] = {
            "ts": format_at(int(record.created), int(record.msecs)),
            "level": record.levelname,
            "logger": record.name,
            "msg": redact(record.getMessage()),
        }
        context, given = _context(), record.__dict__  # a record's attributes, its `extra` among them
        for name in CONTEXT_FIELDS:
            value = given.get(name)
            value = context.get(name) if value is None else value
            if value is not None:
                entry[name] = value
        for name in EXTRA_FIELDS:
            if name in given:
                entry[name] = given[name]
        if record.exc_info:
            entry["exc"] = redact(self.formatException(record.exc_info))
        return orjson.dumps(entry, default=str).decode()


class TextFormatter(logging.Formatter):
    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        return redact(super().format(record))
