"""RFC 9457 problem details: every error the API returns is application/problem+json."""
from __future__ import annotations

from http import HTTPStatus

import orjson
from flask import Response
from werkzeug.exceptions import HTTPException

PROBLEM_TYPE_BASE = "https://talon.example/problems/"
PROBLEM_CONTENT_TYPE = "application/problem+json"


class Problem(Exception):
    """An error response: status, a short slug for `type`, a human `detail`, optional extensions."""

    def __init__(self, status: int, slug: str, detail: str, headers: dict | None = None, **extensions):
        super().__init__(detail)
        self.status, self.slug, self.detail = status, slug, detail
        self.headers = headers or {}
        self.extensions = extensions


def problem_response(problem: Problem) -> Response:
    body = {"type": PROBLEM_TYPE_BASE + problem.slug, "title": HTTPStatus(problem.status).phrase,
            "status": problem.status, "detail": problem.detail, **problem.extensions}
    # Validation messages of list items are keyed by index: allow non-string keys.
    response = Response(orjson.dumps(body, option=orjson.OPT_NON_STR_KEYS), status=problem.status,
                        content_type=PROBLEM_CONTENT_TYPE)
    for name, value in problem.headers.items():
        response.headers[name] = value
    return response


def from_http_exception(exc: HTTPException) -> Response:
    """Werkzeug's errors (404 route, 405, 413, 400 bad JSON …) as problems, keeping their headers."""
    status = exc.code or 500
    extensions = {}
    messages = getattr(exc, "data", {}).get("messages") if hasattr(exc, "data") else None
    if messages:  # webargs validation errors: {"json": {"field": ["msg"]}}
        extensions["errors"] = messages.get("json", messages) if isinstance(messages, dict) else messages
    detail = exc.description or HTTPStatus(status).description
    if messages:
        detail = "the request body does not match the schema: see errors"
    slug = HTTPStatus(status).phrase.lower().replace(" ", "-")
    headers = {k: v for k, v in exc.get_headers() if k.lower() != "content-type"}
    return problem_response(Problem(status, slug, detail, headers=headers, **extensions))
