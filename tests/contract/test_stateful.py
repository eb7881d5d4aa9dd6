"""schemathesis follows the spec's OpenAPI links (create → claim a seat → view and act with its token)
through sequences of calls against the app: no server error, no schema violation on any step."""
from __future__ import annotations

from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, settings

from tests.support.talon import make_app

SPEC = Path(__file__).resolve().parents[2] / "openapi.yaml"
schema = schemathesis.openapi.from_path(str(SPEC))
# The spec allows ?wait= up to 30 s; the server caps it (Settings.long_poll_max_s), here short, so that
# generated long-polls on games nobody moves do not each hold the run for up to 30 s. Likewise an event
# stream ends after Settings.stream_max_s (300 s in service) and is read here to its end.
LONG_POLL_S = 0.2
STREAM_S = 0.5


class Workflow(schema.as_state_machine()):
    app = None  # set by the test: the app on the session's Redis

    def get_call_kwargs(self, case):
        return {"app": self.app}


@pytest.fixture
def workflow(redis_url):
    Workflow.app = make_app(redis_url, long_poll_max_s=LONG_POLL_S, stream_max_s=STREAM_S)
    return Workflow


def test_linked_sequences_conform_to_the_spec(workflow):
    workflow.run(settings=settings(max_examples=25, stateful_step_count=6, deadline=None,
                                   suppress_health_check=list(HealthCheck)))
