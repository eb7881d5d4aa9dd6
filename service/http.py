"""Request helpers shared by the routes: the application, the caller's identity, JSON responses."""

from __future__ import annotations

import hmac
import re
from dataclasses import dataclass

import orjson
from flask import Response, current_app, g, request
from flask_smorest import Blueprint
from marshmallow import RAISE, ValidationError

from app.bootstrap import Application
from app.matches import Matches, UnknownGame, token_hash
from app.players import Players
from app.ports import PlayerRecord
from app.settings import Settings
from games import table as tables
from service import cooperative, observability
from service.caps import AtCapacity, Lease
from service.hub import Hub
from service.problems import PROBLEM_CONTENT_TYPE, TYPES, Problem, error_items, invalid_request
from service.schemas import Problem as ProblemSchema
from service.too_large import body_may_exceed

WWW_AUTHENTICATE = {"WWW-Authenticate": 'Bearer realm="talon"'}
CAPACITY_RETRY_S = 10
IDEMPOTENCY_KEY = re.compile(r"^[A-Za-z0-9_.:-]{1,128}$")


def application() -> Application:
    return current_app.extensions["talon_application"]


def players() -> Players:
    return application().players


def player_from_key(required: bool = True) -> PlayerRecord | None:
    """The registered player whose key is the bearer token. Without a token: 401, or None (a guest) when
    not `required`; the operator's token is no player's (None where not required, else 401); any other
    token that is no player's key: 401."""
    token = bearer_token()
    if token is None or (not required and is_operator_token(token)):
        if required:
            raise unauthorized("this request needs a player key: 'Authorization: Bearer <player key>'")
        return None
    player = players().identify(token)
    if player is None:
        raise unauthorized("unknown player key")
    return player


def matches() -> Matches:
    return current_app.extensions["talon_application"].matches


def settings() -> Settings:
    return current_app.extensions["talon_settings"]


def hub() -> Hub:
    return current_app.extensions["talon_hub"]


class Held:
    """One waiting connection (an event stream, a long-poll) of this process: its lease on the address's
    cap, and its place in the `talon_live_connections` gauge. `close` ends both, once."""

    def __init__(self, kind: str, lease: Lease | None):
        self.kind, self.lease, self.closed = kind, lease, False
        observability.LIVE_CONNECTIONS.labels(kind).inc()

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        observability.LIVE_CONNECTIONS.labels(self.kind).dec()
        if self.lease is not None:
            self.lease.release()


def hold_connection(kind: str, cap: int) -> Held:
    """One more waiting connection of `kind` ("streams", "long-polls") for the client's address; 429
    problem+json when the address holds `cap` of them already (service/caps.py)."""
    try:
        lease = current_app.extensions["talon_caps"].take(kind, request.remote_addr or "unknown", cap)
    except AtCapacity as full:
        raise Problem(
            429,
            "too-many-connections",
            f"this address holds {full.cap} open {kind} already; close one or retry later",
            headers={"Retry-After": str(CAPACITY_RETRY_S)},
        ) from None
    return Held(kind, lease)


def json_response(body, status: int = 200, headers: dict | None = None) -> Response:
    # Headers given to the constructor are added in one go; setting them one by one afterwards makes
    # werkzeug look for an earlier value of each, on every response.
    return Response(orjson.dumps(body), status=status, headers=headers, content_type="application/json")


def view_response(
    table: tables.Table, seat: int | None, status: int = 200, headers: dict | None = None, extra: dict | None = None
) -> Response:
    """The view of `seat` (None: a spectator's), with `extra` fields (a private match's join code)."""
    return json_response(
        {**tables.seat_view(table, seat), **(extra or {})},
        status,
        {"ETag": f'"{table.version}"', "Vary": "Authorization", "Cache-Control": "no-store", **(headers or {})},
    )


def unauthorized(detail: str) -> Problem:
    return Problem(401, "unauthorized", detail, headers=WWW_AUTHENTICATE)


@dataclass(frozen=True)
class Caller:
    seat: int | None = None  # the caller's seat at this table, if any
    operator: bool = False


def header(environ_key: str) -> str | None:
    """A request header by its WSGI environ key (e.g. HTTP_IF_MATCH). Read from the environ itself:
    `request.headers` raises and catches an exception for every header the request does not send."""
    return request.environ.get(environ_key)


def bearer_token() -> str | None:
    header_value = header("HTTP_AUTHORIZATION")
    if header_value is None:
        return None
    scheme, _, token = header_value.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise unauthorized("use the header 'Authorization: Bearer <token>'")
    return token.strip()


def is_operator_token(token: str | None) -> bool:
    expected = settings().operator_token
    return bool(token and expected and hmac.compare_digest(token.encode(), expected.encode()))


def operator_authenticated(token: str) -> bool:
    """Whether `token` is the operator's, under the address's budget of failed authentications
    (service/limits.py AuthFailures): 429 for any token while it is spent, and a wrong token spends it."""
    failures = current_app.extensions["talon_auth_failures"]
    if failures is None:
        return is_operator_token(token)
    failures.check()
    if is_operator_token(token):
        return True
    failures.failed()
    return False


def caller(table: tables.Table, token: str | None, required: bool = False) -> Caller:
    """Who is asking: a seat of this table, the operator, or a spectator (no token). A token that is no
    seat's here counts as a failed authentication unless it is the operator's."""
    if token is None:
        if required:
            raise unauthorized("this request needs a seat token")
        return Caller()
    seat = tables.seat_of_token(table, token_hash(token))
    if seat is not None:
        observability.bind(seat=seat)  # the seat goes into this request's log lines
        return Caller(seat=seat)
    if operator_authenticated(token):
        return Caller(operator=True)
    if _belongs_to_other_game(token, table.game_id):
        raise Problem(403, "forbidden", "this token belongs to another game")
    raise unauthorized("unknown token")


def _belongs_to_other_game(token: str, game_id: str) -> bool:
    other, _, _ = token.partition(".")
    if not other or other == game_id:
        return False
    try:
        return tables.seat_of_token(matches().table(other), token_hash(token)) is not None
    except UnknownGame:
        return False


def require_operator() -> None:
    token = bearer_token()
    if token is None:
        raise unauthorized("this route needs the operator token")
    if not operator_authenticated(token):
        raise Problem(403, "forbidden", "this route is for operators")


IF_MATCH_LIST = re.compile(r'\s*(?:(?:W/)?"[^"]*"\s*(?:,\s*|$))+')
ENTITY_TAG = re.compile(r'(W/)?"([^"]*)"')
ONE_VERSION = re.compile(r'\s*"([0-9]{1,12})"\s*')  # what clients send: the view's ETag
BARE_VERSION = re.compile(r"\s*[0-9]{1,12}\s*")
VERSION = re.compile(r"[0-9]{1,12}")


def if_match_versions() -> frozenset[int] | None:
    """The versions If-Match allows (RFC 9110: "*" or a list of entity tags, compared strongly).

    None: no condition. An empty set: no listed tag can match (weak or not a version), so 412.
    A bare version without quotes is accepted too, as a convenience for hand-written requests.
    """
    raw = header("HTTP_IF_MATCH")
    if raw is None or raw.strip() == "*":
        return None
    if one := ONE_VERSION.fullmatch(raw):
        return frozenset({int(one.group(1))})
    if BARE_VERSION.fullmatch(raw):
        return frozenset({int(raw)})
    if not IF_MATCH_LIST.fullmatch(raw):
        raise invalid_request([{"in": "header", "field": "If-Match", "detail": 'list versions in quotes, e.g. "12"'}])
    return frozenset(int(tag) for weak, tag in ENTITY_TAG.findall(raw) if not weak and VERSION.fullmatch(tag))


def idempotency_key() -> str | None:
    key = header("HTTP_IDEMPOTENCY_KEY")
    if key is not None and not IDEMPOTENCY_KEY.match(key):
        raise invalid_request(
            [{"in": "header", "field": "Idempotency-Key", "detail": "1 to 128 of A-Z a-z 0-9 _ . : -"}]
        )
    return key


def parameters(blp, **schemas):
    """Documents a route's parameters at each location (`headers=`, `query=`: a schema instance each)
    with flask-smorest's `doc`, without `arguments`' parsing: the route parses them itself
    (`arguments`, or its own reading of a header)."""
    return blp.doc(parameters=_parameters(schemas))


def _parameters(schemas: dict) -> list[dict]:
    """A route's parameters as flask-smorest's `doc` takes them: a schema instance per location."""
    return [{"in": location, "schema": schema} for location, schema in schemas.items()]


MAX_JSON_DEPTH = 32  # the deepest body the API takes is 3 levels (decks); Python's json recurses per level


def read_body() -> None:
    """The before-request hook of every request that sends a body (Content-Length or chunked; any other
    request passes at once, on a look at two environ entries):

    - the body is read whole within Settings.body_timeout_s, or the request gets 408 (a client that
      trickles its body cannot hold a connection for ever);
    - a JSON body is parsed once, here, by orjson, and refused with 400 when it does not parse (a lone
      surrogate such as "\\ud800" among the reasons) or nests deeper than MAX_JSON_DEPTH. Routes whose
      arguments webargs parses read the same body with the json module, which recurses per level (a
      RecursionError, a 500, on 3,000 nested arrays) and lets lone surrogates through (a 500 when they
      are stored): neither reaches it now."""
    if not body_may_exceed(request.environ, 0):
        return
    try:
        with cooperative.deadline(settings().body_timeout_s):
            data = request.get_data(cache=True)
    except cooperative.Deadline:
        raise Problem(
            408, "request-timeout", f"the request body did not arrive within {settings().body_timeout_s:g} s"
        ) from None
    if not data or not request.is_json:
        return
    try:
        body = orjson.loads(data)
    except orjson.JSONDecodeError as bad:
        raise invalid_request([{"in": "body", "field": "", "detail": f"not valid JSON: {bad}"}]) from None
    if _too_deep(body):
        raise invalid_request(
            [{"in": "body", "field": "", "detail": f"JSON nested deeper than {MAX_JSON_DEPTH} levels"}]
        )
    g.talon_json = body


def _too_deep(value) -> bool:
    """Whether arrays and objects nest deeper than MAX_JSON_DEPTH (walked with a stack: no recursion)."""
    stack = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        children = node.values() if isinstance(node, dict) else node if isinstance(node, list) else None
        if children is None:
            continue
        if depth > MAX_JSON_DEPTH:
            return True
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return False


def json_body():
    """The request's JSON body as `read_body` read it, or None when it is not JSON (then
    `load_body` says why). Flask's own reader uses the json module."""
    return g.get("talon_json") if request.is_json else None


def load_body(union):
    """The JSON body loaded as one member of `union` (a request body that is a union: an action, a new
    match); 400 `invalid-request` with `errors` when it is not JSON or matches no member."""
    if not request.is_json:
        raise invalid_request(
            [
                {
                    "in": "header",
                    "field": "Content-Type",
                    "detail": "send the body as JSON, with Content-Type: application/json",
                }
            ]
        )
    if "talon_json" not in g:
        raise invalid_request([{"in": "body", "field": "", "detail": "the body is empty: send a JSON object"}])
    try:
        return union.load(g.talon_json)
    except ValidationError as refused:
        raise invalid_request(error_items(refused.messages, "body")) from None


def arguments(schema, location: str = "json") -> dict:
    """The request's arguments at `location` loaded by `schema`, as flask-smorest's `arguments` decorator
    loads them (its webargs parser, so errors are the same 400 problems). A query parameter the route
    does not take is refused (400), as the routes' decorators do (`unknown=RAISE`): a client still
    sending a parameter of an earlier version learns it at once."""
    if location == "query":
        return Blueprint.ARGUMENTS_PARSER.parse(schema, location=location, error_status_code=400, unknown=RAISE)
    return Blueprint.ARGUMENTS_PARSER.parse(schema, location=location, error_status_code=400)


RETRY_AFTER = {
    "Retry-After": {"description": "Seconds to wait before trying again", "schema": {"type": "integer", "minimum": 1}}
}
HEADERS = {
    401: {"WWW-Authenticate": {"description": '`Bearer realm="talon"`', "schema": {"type": "string"}}},
    429: RETRY_AFTER,
    503: RETRY_AFTER,
}
ALWAYS = ("internal-error", "unavailable")  # any route: an unexpected error, or storage out of reach


def problems(blp, *slugs: str):
    """Document the problems a route answers with, one response per status listing the problem types
    (service/problems.py TYPES) and when each happens, plus `default` for the errors any route may give
    (500, 503): one flask-smorest `doc` (one wrapper, where an `alt_response` each made ten)."""
    return blp.doc(responses=problem_responses(slugs))


def problem_responses(slugs) -> dict:
    """The OpenAPI responses for `slugs` (service/problems.py TYPES): one per status, plus `default`."""
    by_status: dict[int, list[str]] = {}
    for slug in slugs:
        by_status.setdefault(TYPES[slug].status, []).append(slug)
    responses: dict = {
        status: _problem_response(found, HEADERS.get(status)) for status, found in sorted(by_status.items())
    }
    responses["default"] = _problem_response(ALWAYS, RETRY_AFTER)
    return responses


def answer(description: str, schema: dict | None = None, *, headers: dict | None = None, example=None) -> dict:
    """One of a route's answers as OpenAPI describes it: a JSON body of `schema` (a component's `ref`),
    or none."""
    response: dict = {"description": description}
    if headers:
        response["headers"] = headers
    if schema is not None:
        response["content"] = {
            "application/json": {"schema": schema, **({} if example is None else {"example": example})}
        }
    return response


def documented(blp, *, answers: dict, problems: tuple[str, ...], parameters: dict | None = None, **operation):
    """The whole OpenAPI description of a route that returns its Response itself (its `answers` by
    status, see `answer`; the `problems` it answers with; its `parameters` by location, as `parameters`
    takes them; the operation's other fields) in one flask-smorest `doc`. flask-smorest's decorators each
    wrap the view in a function of its own, run on every request: the routes every move goes through
    (the view and the action) carried five such wrappers."""
    if parameters:
        operation["parameters"] = _parameters(parameters)
    return blp.doc(responses={**answers, **problem_responses(problems)}, **operation)


def _problem_response(slugs, headers: dict | None) -> dict:
    response = {"description": _described(slugs), "content": {PROBLEM_CONTENT_TYPE: {"schema": ProblemSchema}}}
    if headers:
        response["headers"] = headers
    return response


def _described(slugs) -> str:
    return "\n".join(f"- `{slug}` ({TYPES[slug].status}): {TYPES[slug].when}" for slug in slugs)
