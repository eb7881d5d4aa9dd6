"""The committed openapi.yaml is what the code generates, and it is a valid OpenAPI document."""

from __future__ import annotations

import re
from pathlib import Path

import yaml
from openapi_spec_validator import validate

from service.openapi import generate
from service.problems import TYPES

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


def test_every_api_operation_documents_a_4xx_and_the_default_problem():
    """The probes take no input (Redocly's operation-4xx-response is waived for them only,
    tools/openapi/.redocly.lint-ignore.yaml); every /v1 operation lists its client errors."""
    spec = yaml.safe_load(SPEC.read_text())
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            if method == "parameters":
                continue
            statuses = [str(s) for s in operation["responses"]]
            assert "default" in statuses, (method, path)
            if path.startswith("/v1/"):
                assert any(s.startswith("4") for s in statuses), (method, path)
                assert operation.get("operationId") and operation.get("description"), (method, path)


PROBLEM_SITE = re.compile(r'Problem\(\s*(\d{3}),\s*"([a-z-]+)"')


def test_every_problem_the_code_raises_is_in_the_catalogue_with_its_status():
    """A new problem type is added to service/problems.py TYPES (and so to the spec's catalogue), with
    the status it is raised with."""
    root = SPEC.parent
    for source in [*root.glob("service/**/*.py"), *root.glob("workers/**/*.py")]:
        for status, slug in PROBLEM_SITE.findall(source.read_text()):
            assert slug in TYPES, (
                f"{source.relative_to(root)}: problem type {slug!r} is not in service/problems.py TYPES"
            )
            assert TYPES[slug].status == int(status), f"{source.relative_to(root)}: {slug} is {TYPES[slug].status}"


def test_the_changelog_describes_this_version_of_the_contract():
    """docs/API_VERSIONING.md: every version of the contract has its CHANGELOG entry, the newest first."""
    version = yaml.safe_load(SPEC.read_text())["info"]["version"]
    newest = re.search(r"^## (\S+)", (SPEC.parent / "CHANGELOG.md").read_text(), re.MULTILINE)
    assert newest and newest.group(1) == version, f"CHANGELOG.md has no entry for {version} at its top"
