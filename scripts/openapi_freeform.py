"""Counts the free-form schemas of an OpenAPI document (make lint): `python scripts/openapi_freeform.py [openapi.yaml]`.

A schema is free-form when a client learns nothing from it about the value's shape:
- an object without `properties`, `oneOf`/`anyOf`/`allOf` or `$ref`, whose `additionalProperties` is
  absent, `true` or an empty schema (a map with typed values, `additionalProperties: {type: integer}`,
  is not free-form);
- a schema that constrains nothing at all (`{}`, or only `nullable`, a description, an example).

Each is listed with its place in the document. The spec may keep one only where the value really is
free-form, and then says why in the schema's description, starting a sentence with "Free-form:".
Exit status 1 when a free-form schema does not say why.
"""

from __future__ import annotations

import sys
from pathlib import Path

import yaml

REASON = "Free-form:"
SHAPE_KEYS = ("properties", "oneOf", "anyOf", "allOf", "$ref", "enum", "items", "not", "const")
# Keys that say something about a value without saying what shape it has.
NEUTRAL = {
    "nullable",
    "description",
    "example",
    "examples",
    "title",
    "readOnly",
    "writeOnly",
    "deprecated",
    "default",
    "externalDocs",
    "xml",
}


def is_free_form(schema: dict) -> bool:
    if any(key in schema for key in SHAPE_KEYS):
        return False
    kind = schema.get("type")
    if kind == "object" or (kind is None and "additionalProperties" in schema):
        extra = schema.get("additionalProperties", True)
        return extra is True or extra == {} or (isinstance(extra, dict) and is_free_form(extra))
    if kind is None:
        return all(key in NEUTRAL or key.startswith("x-") for key in schema)
    return False


def walk_schema(schema, where: str):
    """(place, schema) for this schema and every schema inside it."""
    if not isinstance(schema, dict):
        return
    yield where, schema
    for key in ("properties", "patternProperties"):
        for name, sub in (schema.get(key) or {}).items():
            yield from walk_schema(sub, f"{where}.{key}.{name}")
    for key in ("items", "not"):
        if isinstance(schema.get(key), dict):
            yield from walk_schema(schema[key], f"{where}.{key}")
    # The empty value schema of a free-form object is part of that one free-form object.
    if isinstance(schema.get("additionalProperties"), dict) and not is_free_form(schema):
        yield from walk_schema(schema["additionalProperties"], f"{where}.additionalProperties")
    for key in ("oneOf", "anyOf", "allOf"):
        for i, sub in enumerate(schema.get(key) or []):
            yield from walk_schema(sub, f"{where}.{key}[{i}]")


def walk_content(content, where: str):
    for media, body in (content or {}).items():
        if isinstance(body, dict) and isinstance(body.get("schema"), dict):
            yield from walk_schema(body["schema"], f"{where}.content[{media}].schema")


def all_schemas(spec: dict):
    components = spec.get("components") or {}
    for name, schema in (components.get("schemas") or {}).items():
        yield from walk_schema(schema, f"components.schemas.{name}")
    for name, response in (components.get("responses") or {}).items():
        yield from walk_content(response.get("content"), f"components.responses.{name}")
    for path, operations in (spec.get("paths") or {}).items():
        for method, operation in operations.items():
            if not isinstance(operation, dict) or method == "parameters":
                continue
            at = f"paths.{path}.{method}"
            for i, parameter in enumerate(operation.get("parameters") or []):
                if isinstance(parameter.get("schema"), dict):
                    yield from walk_schema(parameter["schema"], f"{at}.parameters[{parameter.get('name', i)}]")
            body = operation.get("requestBody") or {}
            yield from walk_content(body.get("content"), f"{at}.requestBody")
            for status, response in (operation.get("responses") or {}).items():
                yield from walk_content(response.get("content"), f"{at}.responses.{status}")
                for header, spec_header in (response.get("headers") or {}).items():
                    if isinstance(spec_header.get("schema"), dict):
                        yield from walk_schema(spec_header["schema"], f"{at}.responses.{status}.headers.{header}")


def free_forms(spec: dict) -> list[tuple[str, bool]]:
    """(place, says why) of every free-form schema."""
    return [
        (where, REASON in (schema.get("description") or ""))
        for where, schema in all_schemas(spec)
        if is_free_form(schema)
    ]


def main(argv: list[str]) -> int:
    path = Path(argv[1] if len(argv) > 1 else "openapi.yaml")
    found = free_forms(yaml.safe_load(path.read_text()))
    unexplained = [where for where, why in found if not why]
    for where, why in found:
        print(f"  {'free-form (reason given)' if why else 'FREE-FORM, NO REASON    '}  {where}")
    print(f"{path}: {len(found)} free-form schema(s), {len(unexplained)} without a reason")
    return 1 if unexplained else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
