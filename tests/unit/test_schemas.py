"""The request schemas: the shortcut for plain action bodies (service/schemas/actions.py plain_action), and
the unions that read a request body as the member its discriminator names."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from marshmallow import ValidationError

from service.schemas import ACTION, ACTION_TYPES, CREATE_GAME, SUITS, plain_action

TEXT = st.one_of(
    st.sampled_from([*ACTION_TYPES, *SUITS, "TS", "AH", "9C", "1S", "TS\n", "ts", " TS", ""]), st.text(max_size=4)
)
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
        loaded = ACTION.load(body)
    except ValidationError as refused:
        raise AssertionError(
            f"plain_action accepted {body!r}, which the schema refuses: {refused.messages}"
        ) from refused
    assert loaded == plain


def test_the_actions_clients_send_are_plain():
    for body in (
        {"type": "play", "card": "TS"},
        {"type": "meld", "suit": "H"},
        {"type": "close"},
        {"type": "declare_out"},
        {"type": "pass"},
        {"type": "draw"},
        {"type": "double"},
    ):
        assert plain_action(body) == body == ACTION.load(body)


def test_anything_else_goes_to_the_schema():
    for body in (
        {"type": "bid", "value": 28},
        {"type": "bid", "suit": "NT"},
        {"type": "play", "card": "TS", "suit": "S"},
        {"type": "play", "card": "ts"},
        {"type": "fly"},
        {"card": "TS"},
        [],
        None,
        "play",
        {"type": "play", "card": "TS\n"},
        {"type": "meld", "suit": "X"},
        {"type": "draw", "card": "TS"},
    ):
        assert plain_action(body) is None


def test_an_action_of_any_game_loads_as_that_games_action():
    assert ACTION.load({"type": "bid", "value": 30, "suit": "NT"}) == {"type": "bid", "value": 30, "suit": "NT"}
    assert ACTION.load({"type": "bid", "value": 3}) == {"type": "bid", "value": 3}
    assert ACTION.load({"type": "discard", "cards": ["AS", "7H"], "trump": "S"})["cards"] == ["AS", "7H"]


@pytest.mark.parametrize(
    "body, field",
    [
        ({"type": "fly"}, "type"),
        ({"type": "bid", "suit": "NT"}, "value"),  # Fifty-Six's bid: the first game whose types know it
        ({"type": "play", "card": "TS\n"}, "card"),
        ({"type": "meld", "suit": "NT"}, "suit"),
    ],
)
def test_a_refused_action_names_the_field(body, field):
    with pytest.raises(ValidationError) as refused:
        ACTION.load(body)
    assert field in refused.value.messages


def test_a_new_match_is_read_with_its_games_options():
    body = {"game": "smear", "seats": [{"kind": "human"}] * 4, "options": {"widow_size": 2}}
    assert CREATE_GAME.load(body)["options"] == {"widow_size": 2}
    with pytest.raises(ValidationError) as refused:
        CREATE_GAME.load({**body, "options": {"variant": "2p24"}})  # a Sixty-Six option
    assert "variant" in refused.value.messages["options"]
    with pytest.raises(ValidationError) as refused:
        CREATE_GAME.load({**body, "game": "sixty-six", "options": {"variant": "5p"}})
    assert "2p24" in refused.value.messages["options"]["variant"][0]
