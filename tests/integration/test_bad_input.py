"""Generated garbage: action bodies and headers get a 4xx problem and write nothing (or, when they happen
to form a legal action, exactly that action). Never a 5xx."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from events.store import EventStore
from tests.support.talon import auth, make_app, start_match

JSON_SCALARS = (
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False) | st.text(max_size=20)
)
JSON = st.recursive(
    JSON_SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
ACTION_LIKE = st.fixed_dictionaries(
    {"type": st.sampled_from(["play", "meld", "draw", "close", "exchange", "declare_out", "bid", "pass", "x"])},
    optional={
        "card": st.text(max_size=3) | st.sampled_from(["AS", "TS", "9H", "KC"]),
        "suit": st.text(max_size=2) | st.sampled_from(["H", "S", "NT"]),
        "value": JSON_SCALARS,
        "cards": JSON,
        "extra": JSON,
    },
)
HEADER_TEXT = st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=40)


@pytest.fixture(scope="module")
def game(redis_url):
    app = make_app(redis_url)
    client = app.test_client()
    game_id, tokens = start_match(client)
    return app, game_id, tokens


def check(app, game_id, response_fn):
    store = EventStore(app.extensions["talon_application"].redis)
    before = store.version(game_id)
    response = response_fn(app.test_client())
    assert response.status_code < 500, response.get_data(as_text=True)
    if response.status_code in (200, 201):
        assert store.version(game_id) >= before
    else:
        assert 400 <= response.status_code < 500
        assert response.content_type == "application/problem+json"
        assert store.version(game_id) == before, "a refused request wrote an event"


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(body=JSON | ACTION_LIKE, seat=st.sampled_from([0, 1]))
def test_generated_action_bodies(game, body, seat):
    app, game_id, tokens = game
    check(
        app,
        game_id,
        lambda c: c.post(
            f"/v1/games/{game_id}/actions",
            data=json.dumps(body),
            headers={**auth(tokens[seat]), "Content-Type": "application/json"},
        ),
    )


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    if_match=st.none() | HEADER_TEXT,
    key=st.none() | HEADER_TEXT,
    authorization=st.none() | HEADER_TEXT,
    raw=st.binary(max_size=60),
)
def test_generated_headers_and_raw_bodies(game, if_match, key, authorization, raw):
    app, game_id, tokens = game
    headers = {"Content-Type": "application/json"}
    for name, value in (("If-Match", if_match), ("Idempotency-Key", key), ("Authorization", authorization)):
        if value is not None:
            headers[name] = value
    check(app, game_id, lambda c: c.post(f"/v1/games/{game_id}/actions", data=raw, headers=headers))
    check(
        app,
        game_id,
        lambda c: c.get(f"/v1/games/{game_id}", headers={k: v for k, v in headers.items() if k != "Content-Type"}),
    )
