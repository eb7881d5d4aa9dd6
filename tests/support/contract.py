"""Every response checked against the committed openapi.yaml: its status must be documented for the
operation, its content type too, and its JSON body must match that response's schema (jsonschema, draft
2020-12, which OpenAPI 3.1's schemas are; jsonschema-rs). The tests' HTTP clients call `check_response` on each answer
(tests/support/talon.py ServerLikeClient for the in-process app; tests/e2e/conftest.py for requests to the
real service), so any drift between what the code sends and what the spec says fails the test that saw it.

Routes outside the API (the web client, /docs, /openapi.yaml) are not in the spec and not checked. A
method the spec does not list for an API path must be answered 405 with a problem.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from urllib.parse import quote

import jsonschema_rs
import yaml

SPEC_PATH = Path(__file__).resolve().parents[2] / "openapi.yaml"
API_PREFIXES = ("/v1/", "/livez", "/readyz", "/metrics")


class ContractViolation(AssertionError):
    """A response the spec does not describe."""


@cache
def spec() -> dict:
    return yaml.safe_load(SPEC_PATH.read_text())


@cache
def _routes() -> list[tuple[re.Pattern, str]]:
    routes = []
    for template in spec()["paths"]:
        pattern = re.escape(template)
        pattern = re.sub(r"\\\{[^}]+\\\}", "[^/]+", pattern)
        routes.append((re.compile(f"^{pattern}$"), template))
    return routes


@cache
def _validator(pointer: str) -> jsonschema_rs.Draft202012Validator:
    """A validator of the schema at this JSON pointer of the spec, its references resolved in the spec
    (jsonschema-rs: views with hundreds of legal actions and pages of 500 events, each a oneOf, are
    checked on every request of the suites)."""
    return jsonschema_rs.Draft202012Validator(
        {"$ref": "#" + quote(pointer, safe="/~"), "components": spec()["components"], "paths": spec()["paths"]}
    )


def _pointer(*parts: str) -> str:
    return "/" + "/".join(p.replace("~", "~0").replace("/", "~1") for p in parts)


def schema_errors(pointer: str, instance) -> list[str]:
    found = list(_validator(pointer).iter_errors(instance))[:5]
    return [f"{'/'.join(map(str, e.instance_path)) or '(root)'}: {e.message[:300]}" for e in found]


def check_schema(component: str, instance, what: str = "") -> None:
    """`instance` matches components/schemas/<component>."""
    errors = schema_errors(_pointer("components", "schemas", component), instance)
    if errors:
        raise ContractViolation(f"{what or component} does not match {component}:\n  " + "\n  ".join(errors))


def check_response(method: str, path: str, status: int, content_type: str | None, body: bytes | None) -> None:
    """Raises ContractViolation when the spec does not describe this response. `body` None: not read
    (a stream left open), so only the status and content type are checked."""
    if not path.startswith(API_PREFIXES):
        return
    method = method.lower()
    template = next((t for pattern, t in _routes() if pattern.match(path)), None)
    operations = spec()["paths"].get(template, {}) if template else {}
    if method not in operations:
        if status in (404, 405):  # no such route, or not this method: a problem all the same
            _check_body("a problem", "/components/schemas/Problem", content_type, body, "application/problem+json")
            return
        raise ContractViolation(f"{method.upper()} {path}: no operation in the spec, answered {status}")
    responses = operations[method]["responses"]
    key = str(status) if str(status) in responses else "default" if status >= 400 and "default" in responses else None
    if key is None:
        raise ContractViolation(
            f"{method.upper()} {path}: status {status} is not documented (documented: {', '.join(map(str, responses))})"
        )
    content = responses[key].get("content")
    where = f"{method.upper()} {path} -> {status}"
    if not content:
        if body:
            raise ContractViolation(f"{where}: a body where the spec documents none")
        return
    media = (content_type or "").split(";")[0].strip()
    if media not in content:
        raise ContractViolation(f"{where}: content type {content_type!r}, documented: {', '.join(content)}")
    if body is None or not media.endswith("json"):
        return
    pointer = _pointer("paths", template, method, "responses", key, "content", media, "schema")
    _check_body(where, pointer, content_type, body, media)


def _check_body(where: str, pointer: str, content_type: str | None, body: bytes | None, media: str) -> None:
    if body is None:
        return
    if (content_type or "").split(";")[0].strip() != media:
        raise ContractViolation(f"{where}: content type {content_type!r}, expected {media}")
    try:
        instance = json.loads(body)
    except ValueError as bad:
        raise ContractViolation(f"{where}: the body is not JSON ({bad})") from None
    errors = schema_errors(pointer, instance)
    if errors:
        raise ContractViolation(f"{where}: the body does not match the spec:\n  " + "\n  ".join(errors))


def sse_messages(text: str) -> list[dict]:
    """The messages of an event stream's text: {id, event, data (parsed JSON)} each; comments and the
    retry-only message left out. Each data is checked against the Event schema."""
    messages = []
    for block in text.split("\n\n"):
        fields: dict[str, str] = {}
        for line in block.splitlines():
            if not line or line.startswith(":"):
                continue
            name, _, value = line.partition(":")
            value = value.removeprefix(" ")
            fields[name] = fields[name] + "\n" + value if name == "data" and "data" in fields else value
        if "data" in fields:
            event = json.loads(fields["data"])
            check_schema("Event", event, f"stream message {fields.get('id')}")
            if fields.get("id") != str(event["version"]) or fields.get("event") != event["type"]:
                raise ContractViolation(f"stream message {fields}: id and event must be the event's version and type")
            messages.append({"id": fields.get("id"), "event": fields.get("event"), "data": event})
    return messages
