"""The response checker every suite's client uses (tests/support/contract.py) catches what it must: a key
the spec does not describe, a missing one, a mistyped one, an undocumented status, a wrong content type."""

from __future__ import annotations

import copy
import json

import pytest

from service.examples import VIEW
from tests.support.contract import ContractViolation, check_response, check_schema, sse_messages


def answer(body, status=200, path="/v1/games/5d1c0e7f9a2b4c3d", content_type="application/json", method="GET"):
    check_response(method, path, status, content_type, json.dumps(body).encode())


def test_a_view_as_the_code_gives_it_passes():
    answer(VIEW)


@pytest.mark.parametrize(
    "change",
    [
        lambda v: v.update(extra=1),  # a key the spec does not describe
        lambda v: v["round"].pop("hand_sizes"),  # a key missing
        lambda v: v["round"].update(trump="X"),  # a value out of its enum
        lambda v: v["legal_actions"].append({"type": "bid", "value": 3}),  # an action of another game
        lambda v: v["options"].update(variant=5),  # mistyped
    ],
)
def test_a_view_that_drifts_from_the_spec_fails(change):
    view = copy.deepcopy(VIEW)
    change(view)
    with pytest.raises(ContractViolation):
        answer(view)


def test_an_undocumented_status_or_content_type_fails():
    with pytest.raises(ContractViolation, match="not documented"):
        answer(VIEW, status=202)
    with pytest.raises(ContractViolation, match="content type"):
        answer(VIEW, content_type="text/html")


def test_a_problem_must_be_a_catalogued_type():
    problem = {"type": "https://talon.example/problems/conflict", "title": "Conflict", "status": 409, "detail": "x"}
    with pytest.raises(ContractViolation):
        answer(problem, status=409, path="/v1/games/g/actions", method="POST", content_type="application/problem+json")


def test_a_stream_message_is_checked_as_an_event():
    event = {
        "version": 2,
        "type": "seat_claimed",
        "at": "2026-11-30T03:04:05.123Z",
        "actor": 0,
        "data": {"seat": 0, "name": "Ana"},
    }
    text = f"retry: 1000\n\nid: 2\nevent: seat_claimed\ndata: {json.dumps(event)}\n\n: keep-alive\n\n"
    assert [m["data"] for m in sse_messages(text)] == [event]
    with pytest.raises(ContractViolation):
        sse_messages(text.replace('"name": "Ana"', '"name": "Ana", "token": "t"'))
    check_schema("SeatClaimedEvent", event)
