"""schemathesis follows the spec's OpenAPI links (create → claim a seat → view and act with its token)
through sequences of calls against the app: no server error, no schema violation on any step.

Each scenario starts on an empty database. Hypothesis replays the choices of a scenario and requires the
same draws from them; a lobby still holding the games of earlier scenarios makes the link from the lobby
list resolve in one run and not in its replay, which it reports as a flaky strategy."""

from __future__ import annotations

from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, settings

from tests.support.talon import make_contract_app

SPEC = Path(__file__).resolve().parents[2] / "openapi.yaml"
schema = schemathesis.openapi.from_path(str(SPEC))


class Workflow(schema.as_state_machine()):
    app = None  # set by the test: the app on the session's Redis
    redis = None

    def setup(self):
        self.redis.flushall()

    def get_call_kwargs(self, case):
        return {"app": self.app}


@pytest.fixture
def workflow(redis_url, r):
    Workflow.app = make_contract_app(redis_url)
    Workflow.redis = r
    return Workflow


def test_linked_sequences_conform_to_the_spec(workflow):
    workflow.run(
        settings=settings(
            max_examples=25, stateful_step_count=6, deadline=None, suppress_health_check=list(HealthCheck)
        )
    )
