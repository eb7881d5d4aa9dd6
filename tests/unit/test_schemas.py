"""The request schemas' shortcut for plain action bodies (service/schemas.py plain_action)."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from marshmallow import ValidationError

from service.schemas import ACTION_TYPES, SUITS, Action, plain_action

SCHEMA = Action()
TEXT = st.one_of(st.sampled_from([*ACTION_TYPES, *SUITS, "TS", "AH", "9C", "1S", "TS\n", "ts", " TS", ""]),
                 st.text(max_size=4))
VALUES = st.one_of(TEXT, st.integers(), st.floats(), st.booleans(), st.none(), st.lists(TEXT, max_size=2))
KEYS = st.sampled_from(["type", "card", "suit", "value", "cards", "trump", "convention", "other"])
BODIES = st.one_of(st.dictionaries(KEYS, VALUES, max_size=3), VALUES)


@settings(max_examples=1500)
@given(BODIES)
def test_a_plain_action_is_what_the_schema_would_load_and_nothing_it_refuses(body):
    plain = plain_action(body)
    if plain is None:
        return
    try:
        loaded = SCHEMA.load(body)
    except ValidationError as refused:
        raise AssertionError(f"plain_action accepted {body!r}, which the schema refuses: {refused.messages}")
    assert loaded == plain


def test_the_actions_clients_send_are_plain():
    for body in ({"type": "play", "card": "TS"}, {"type": "meld", "suit": "H"}, {"type": "close"},
                 {"type": "declare_out"}, {"type": "bid", "suit": "NT"}, {"type": "pass"}):
        assert plain_action(body) == body == SCHEMA.load(body)


def test_anything_else_goes_to_the_schema():
    for body in ({"type": "bid", "value": 28}, {"type": "play", "card": "TS", "suit": "S"},
                 {"type": "play", "card": "ts"}, {"type": "fly"}, {"card": "TS"}, [], None, "play",
                 {"type": "play", "card": "TS\n"}, {"type": "meld", "suit": "X"}):
        assert plain_action(body) is None
