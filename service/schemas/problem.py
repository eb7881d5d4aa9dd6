"""The problem details every error comes as (RFC 9457), with the catalogue of their types."""

from __future__ import annotations

from marshmallow import fields, validate

from service.problems import PROBLEM_TYPE_BASE, TYPES
from service.schemas.actions import ACTION
from service.schemas.base import Model, OneOf, integer, many, text


def catalogue() -> str:
    rows = "\n".join(f"| `{slug}` | {t.status} | {t.when} |" for slug, t in TYPES.items())
    return f"The type's URI is `{PROBLEM_TYPE_BASE}<slug>`:\n\n| slug | status | when |\n|---|---|---|\n{rows}"


class ErrorItem(Model):
    """One way the request does not match its schema (or, for `invalid-option`, one option that does not fit)."""

    in_ = fields.String(
        required=True,
        data_key="in",
        validate=validate.OneOf(["body", "query", "header", "path"]),
        metadata={"description": "Where: the JSON body, a query parameter, a header, or the path"},
    )
    field = text(
        "A dotted path into the body (`options.variant`, `seats.2.kind`), a parameter's or header's name; "
        "empty for the body as a whole",
        example="options.variant",
    )
    detail = text("What is wrong", example="Must be one of: 2p24, 2p20, 2p32, 3p, 4p.")


class Problem(Model):
    """An error (application/problem+json, RFC 9457). A refused request changed nothing."""

    type = text(
        "The problem type's URI (stable; see the description of `Problem`'s catalogue below)",
        enum=[PROBLEM_TYPE_BASE + slug for slug in TYPES],
        example=PROBLEM_TYPE_BASE + "rule-violation",
    )
    title = text("The type's short title, the same for every problem of the type", example="Rule violation")
    status = integer("The HTTP status", minimum=400, maximum=599, example=422)
    detail = text(
        "What happened, for a person", example="you must lead the K or Q of the marriage you showed (66 §2.5)"
    )
    errors = many(ErrorItem, "invalid-request, invalid-option: each mismatch", required=False)
    current_version = integer(
        "not-your-turn, match-not-active, busy, version-mismatch, rule-violation: the game's version now",
        required=False,
        minimum=0,
    )
    rule = text("rule-violation: the rule that forbids the action", required=False, example="66 §2.5")
    legal_actions = fields.List(
        OneOf(ACTION), required=False, metadata={"description": "rule-violation: what the seat may do now"}
    )


Problem.__doc__ = f"{Problem.__doc__}\n\n{catalogue()}"
