"""The committed openapi.yaml is what the code generates, and it is a valid OpenAPI document."""
from __future__ import annotations

from pathlib import Path

import yaml
from openapi_spec_validator import validate

from service.openapi import generate

SPEC = Path(__file__).resolve().parents[2] / "openapi.yaml"


def test_committed_spec_matches_the_code():
    assert SPEC.read_text() == generate(), "openapi.yaml is stale: run `make openapi` and commit it"


def test_committed_spec_is_valid_openapi():
    validate(yaml.safe_load(SPEC.read_text()))


def test_every_operation_documents_its_problems():
    spec = yaml.safe_load(SPEC.read_text())
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            for status, response in operation["responses"].items():
                if str(status).startswith(("4", "5")) and status != "304":
                    assert "application/problem+json" in response.get("content", {}), (method, path, status)
