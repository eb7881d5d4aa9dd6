"""The floor the service is measured against: a bare Flask endpoint pair on the same gunicorn settings
and the same Redis, doing only the storage work of one step.

    GET  /bare/<stream>   the last 50 entries of the stream (XREVRANGE COUNT 50), as JSON
    POST /bare/<stream>   appends one small JSON entry (XADD), answers its id as JSON

Served by bench.stack.Stack with `gunicorn -c deploy/gunicorn.conf.py bench.bare:app`.
"""

from __future__ import annotations

import os
import re

import orjson
import redis
from flask import Flask, Response, abort, request

READ_COUNT = 50
_STREAM = re.compile(r"[A-Za-z0-9_-]{1,64}")


def create_app(redis_url: str | None = None) -> Flask:
    app = Flask(__name__)
    client = redis.Redis.from_url(redis_url or os.environ["REDIS_URL"])

    def key(stream: str) -> str:
        if not _STREAM.fullmatch(stream):
            abort(404)
        return f"bare:{{{stream}}}:events"

    @app.get("/bare/<stream>")
    def read(stream: str) -> Response:
        entries = client.xrevrange(key(stream), count=READ_COUNT)
        body = [orjson.loads(fields[b"e"]) for _, fields in entries]
        return Response(orjson.dumps({"entries": body}), mimetype="application/json")

    @app.post("/bare/<stream>")
    def append(stream: str) -> Response:
        entry = request.get_json(silent=True) or {}
        entry_id = client.xadd(key(stream), {"e": orjson.dumps(entry)})
        return Response(orjson.dumps({"id": entry_id.decode()}), status=201, mimetype="application/json")

    return app


app = create_app() if "REDIS_URL" in os.environ else None
