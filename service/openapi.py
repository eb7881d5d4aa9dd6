"""`python -m service.openapi` prints the OpenAPI document generated from the code (make openapi)."""

from __future__ import annotations

import json
import sys

import yaml

from app.settings import Settings
from service.app import create_app


def spec_dict() -> dict:
    # The Redis client is created lazily and never used here: no server is needed to write the spec.
    app = create_app(Settings(redis_url="redis://127.0.0.1:1/0"))
    return without_unused_schemas(app.extensions["talon_api"].spec.to_dict())


def without_unused_schemas(spec: dict) -> dict:
    """The spec without component schemas nothing refers to: flask-smorest registers one for its own
    pagination header (PaginationMetadata), which no Talon route uses."""
    schemas = spec.get("components", {}).get("schemas", {})
    while True:
        text = json.dumps({k: v for k, v in spec.items() if k != "components"}) + json.dumps(
            {k: v for k, v in spec["components"].items()}
        )
        unused = [name for name in schemas if f'"#/components/schemas/{name}"' not in text]
        if not unused:
            return spec
        for name in unused:
            del schemas[name]


class _Dumper(yaml.SafeDumper):
    """YAML with multi-line descriptions as literal blocks, readable as they were written."""


def _text(dumper: yaml.SafeDumper, value: str):
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style="|" if "\n" in value else None)


_Dumper.add_representer(str, _text)


def generate() -> str:
    return yaml.dump(spec_dict(), Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=120)


if __name__ == "__main__":
    sys.stdout.write(generate())
