"""RFC 9457 problem details: every error the API returns is application/problem+json.

Each problem has a stable `type` URI, `PROBLEM_TYPE_BASE` + a slug from `TYPES`, the catalogue the spec
lists (each type with its status, title and when it happens). A request that does not match its schema
gets `invalid-request` with `errors`, one item per mismatch: where (`in`: body, query, header or path),
which field (a dotted path into the body, e.g. `options.variant` or `seats.2.kind`; the parameter's or
header's name; empty for the body as a whole) and what is wrong (`detail`).
"""

from __future__ import annotations

from dataclasses import dataclass
from http import HTTPStatus

import orjson
from flask import Response
from werkzeug.exceptions import HTTPException

PROBLEM_TYPE_BASE = "https://talon.example/problems/"
PROBLEM_CONTENT_TYPE = "application/problem+json"


@dataclass(frozen=True)
class ProblemType:
    status: int
    title: str
    when: str


TYPES: dict[str, ProblemType] = {
    "invalid-request": ProblemType(
        400,
        "Invalid request",
        "The body is not JSON, or the body, a query parameter or a "
        "header does not match its schema (If-Match, Idempotency-Key included); `errors` "
        "lists each mismatch. Nothing was changed.",
    ),
    "malformed-action": ProblemType(
        400,
        "Malformed action",
        "The action is none of this match's game (a `bid` in Sixty-Six), or has fields its type does not take there.",
    ),
    "unauthorized": ProblemType(
        401,
        "Unauthorized",
        "No token where one is needed, a header that is not "
        "`Authorization: Bearer <token>`, or, on a match's routes, a token nobody holds (a "
        "seat's revoked token, an invalid stream ticket); on the players' routes, no player "
        "key where one is needed or a key no player holds. Comes with `WWW-Authenticate: "
        "Bearer`.",
    ),
    "ticket-expired": ProblemType(
        401, "Stream ticket expired", "The stream ticket is older than its `expires_in`: get a new one."
    ),
    "ticket-used": ProblemType(
        401,
        "Stream ticket used",
        "The stream ticket has opened a stream already (a ticket opens one): get a new one for each connection.",
    ),
    "ticket-revoked": ProblemType(
        401,
        "Stream ticket revoked",
        "The ticket's seat was reset by an operator after "
        "the ticket was issued: get a new one with the seat's current token.",
    ),
    "forbidden": ProblemType(
        403,
        "Forbidden",
        "The token may not do this: a seat token of another match; a "
        "spectator or the operator where a seat must act; on the operator's routes and fields "
        "(`seed`, `decks`), any token but the operator's.",
    ),
    "join-code-refused": ProblemType(
        403,
        "Join code refused",
        "The match is private: its seats are claimed with "
        "the `join_code` its creator got, and none or another one was given.",
    ),
    "unknown-game": ProblemType(404, "Unknown game", "There is no match with this id."),
    "unknown-player": ProblemType(404, "Unknown player", "There is no registered player with this id."),
    "not-found": ProblemType(404, "Not found", "There is no such route."),
    "method-not-allowed": ProblemType(
        405, "Method not allowed", "The route does not take this method; `Allow` lists the ones it takes."
    ),
    "not-your-turn": ProblemType(
        409,
        "Not your turn",
        "The match does not wait for this seat now: another seat's "
        "turn, a deal being scored, or the match is over. `current_version` says where the "
        "game is: wait for a newer view (long-poll or stream) and act then.",
    ),
    "match-not-active": ProblemType(
        409,
        "Match not active",
        "The match is still waiting for players, or is "
        "finished: actions are accepted while it is active. `current_version`.",
    ),
    "match-not-finished": ProblemType(
        409,
        "Match not finished",
        "The match is still running (or waiting for players): a rematch and a replay are for finished matches.",
    ),
    "seat-unavailable": ProblemType(
        409,
        "Seat unavailable",
        "The seat asked for is taken, a bot's, or does not "
        "exist; or no human seat is open; or the match is finished; or (resuming) the "
        "seat is not held by the player of the key.",
    ),
    "busy": ProblemType(
        409,
        "Busy",
        "The game moved on while this request was decided (another move came first): "
        "nothing was changed; read the view again (`current_version`) and retry.",
    ),
    "idempotency-key-reused": ProblemType(
        409, "Idempotency key reused", "This Idempotency-Key was used before with another request."
    ),
    "version-mismatch": ProblemType(
        412, "Version mismatch", "If-Match names another version than the current one (`current_version`)."
    ),
    "request-timeout": ProblemType(
        408,
        "Request timeout",
        "The request's body did not arrive in time (`TALON_BODY_TIMEOUT_S`); nothing was changed.",
    ),
    "payload-too-large": ProblemType(413, "Payload too large", "The request body is larger than the server takes."),
    "rule-violation": ProblemType(
        422,
        "Rule violation",
        "A well-formed action the rules forbid now: `rule` names "
        "the rule, `legal_actions` lists what the seat may do, `current_version` where "
        "the game is.",
    ),
    "invalid-option": ProblemType(
        422,
        "Invalid option",
        "Options, seats or decks that are each well-formed but do "
        "not fit together: a variant for another number of players, a stock minimum "
        "above the variant's stock, a first dealer beyond the seats, decks that are not "
        "the game's pack; `errors` names the field and the valid values.",
    ),
    "too-many-requests": ProblemType(
        429,
        "Too many requests",
        "A rate limit was hit (on routes that take a token: "
        "too many tokens from this address authenticated as nothing, after which "
        "operator authentication is refused for a while): retry after `Retry-After` "
        "seconds.",
    ),
    "too-many-matches": ProblemType(
        429,
        "Too many matches",
        "This address runs as many bot-only matches (no "
        "human seat) as it may at once: wait for one to end, or retry after "
        "`Retry-After` seconds.",
    ),
    "too-many-connections": ProblemType(
        429,
        "Too many connections",
        "This address holds as many open event "
        "streams (or waiting long-polls) as it may: close one, or retry after "
        "`Retry-After` seconds.",
    ),
    "internal-error": ProblemType(500, "Internal error", "An unexpected error; nothing was changed."),
    "unavailable": ProblemType(
        503,
        "Unavailable",
        "Storage is unreachable, or refuses writes for now (out of "
        "memory, or failing over): nothing was changed; retry after `Retry-After` seconds.",
    ),
}

# Werkzeug's own errors (no route, wrong method, body too large, JSON that does not parse).
HTTP_SLUGS = {400: "invalid-request", 404: "not-found", 405: "method-not-allowed", 413: "payload-too-large"}
LOCATIONS = {"json": "body", "query": "query", "headers": "header", "view_args": "path", "form": "body"}


class Problem(Exception):
    """An error response: status, a slug of `TYPES` for `type`, a human `detail`, optional extensions
    (`errors`, `current_version`, `rule`, `legal_actions`)."""

    def __init__(self, status: int, slug: str, detail: str, headers: dict | None = None, **extensions):
        super().__init__(detail)
        self.status, self.slug, self.detail = status, slug, detail
        self.headers = headers or {}
        self.extensions = extensions


def title_of(slug: str, status: int) -> str:
    known = TYPES.get(slug)
    return known.title if known is not None else HTTPStatus(status).phrase


def problem_body(problem: Problem) -> dict:
    """The problem+json document of `problem`."""
    return {
        "type": PROBLEM_TYPE_BASE + problem.slug,
        "title": title_of(problem.slug, problem.status),
        "status": problem.status,
        "detail": problem.detail,
        **problem.extensions,
    }


def problem_response(problem: Problem) -> Response:
    response = Response(orjson.dumps(problem_body(problem)), status=problem.status, content_type=PROBLEM_CONTENT_TYPE)
    for name, value in problem.headers.items():
        response.headers[name] = value
    return response


def error_items(messages, where: str, prefix: str = "") -> list[dict]:
    """marshmallow's nested messages ({"options": {"variant": ["..."]}}, {"seats": {2: {...}}}, ["..."]) as
    a flat list of {in, field, detail}. `_schema` (the object itself) keeps the parent's path."""
    if isinstance(messages, dict):
        items = []
        for key, value in messages.items():
            name = prefix if key == "_schema" else (f"{prefix}.{key}" if prefix else str(key))
            items += error_items(value, where, name)
        return items
    if isinstance(messages, (list, tuple)):
        if all(isinstance(m, str) for m in messages):
            return [{"in": where, "field": prefix, "detail": m} for m in messages]
        return [item for m in messages for item in error_items(m, where, prefix)]
    return [{"in": where, "field": prefix, "detail": str(messages)}]


def invalid_request(items: list[dict]) -> Problem:
    """400 `invalid-request` with these `errors` items (error_items), the first one in its `detail`."""
    items = items or [{"in": "body", "field": "", "detail": "does not match the schema"}]
    first = items[0]
    what = {"body": "the request body", "query": "the query string", "header": "a header", "path": "the path"}
    at = f" at {first['field']}" if first["field"] else ""
    more = f" (and {len(items) - 1} more: see errors)" if len(items) > 1 else ""
    return Problem(
        400,
        "invalid-request",
        f"{what[first['in']]} does not match the schema{at}: {first['detail']}{more}",
        errors=items,
    )


def from_http_exception(exc: HTTPException) -> Response:
    """Werkzeug's errors (404 route, 405, 413, 400 bad JSON, webargs' validation errors) as problems,
    keeping their headers."""
    status = exc.code or 500
    headers = {k: v for k, v in exc.get_headers() if k.lower() != "content-type"}
    messages = (getattr(exc, "data", None) or {}).get("messages")
    if messages:  # webargs: {"json": {...}} or {"query": {...}}
        problem = _webargs_problem(messages)
        problem.headers = headers
        return problem_response(problem)
    slug = HTTP_SLUGS.get(status) or HTTPStatus(status).phrase.lower().replace(" ", "-")
    detail = exc.description or HTTPStatus(status).description
    if slug == "invalid-request":  # e.g. a body that does not parse as JSON
        problem = invalid_request([{"in": "body", "field": "", "detail": detail}])
        problem.headers = headers
        return problem_response(problem)
    return problem_response(Problem(status, slug, detail, headers=headers))


def _webargs_problem(messages) -> Problem:
    if not isinstance(messages, dict):
        return invalid_request(error_items(messages, "body"))
    return invalid_request(
        [item for location, found in messages.items() for item in error_items(found, LOCATIONS.get(location, "body"))]
    )
