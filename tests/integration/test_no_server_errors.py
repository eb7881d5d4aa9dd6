"""Finding 3 of the outside review: inputs that gave a 500. Each is a 4xx problem now (or 503 with
Retry-After while Redis refuses writes), and a refused request stores nothing."""

from __future__ import annotations

import base64

import pytest
import redis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.schemas.options import FIFTY_SIX, SIXTY_SIX, SMEAR, TABLE
from tests.support.redis_proc import RedisProcess
from tests.support.talon import OPERATOR, auth, make_app, run_jobs, start_match

JSON = {"Content-Type": "application/json"}
SEATS = [{"kind": "human"}, {"kind": "bot", "level": "basic"}]
GAMES = {"sixty-six": (SIXTY_SIX + TABLE, 2), "fifty-six": (FIFTY_SIX + TABLE, 4), "smear": (SMEAR + TABLE, 2)}
EXAMPLES = settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))


@pytest.fixture(scope="module")
def app(redis_url):
    return make_app(redis_url)


@pytest.fixture
def fresh(app, r):
    """The app on an empty database, its client, and a match of two humans with its tokens."""
    client = app.test_client()
    game_id, tokens = start_match(client, {"game": "sixty-six", "seats": [{"kind": "human"}, {"kind": "human"}]})
    return client, game_id, tokens


def refused_and_nothing_stored(r, send, status=(400,)) -> dict:
    """Sends one request; it must be a problem with one of `status`, and the database must not change."""
    before = {key: r.type(key) for key in r.keys("*")}
    versions = {key: r.xlen(key) for key, kind in before.items() if kind == b"stream"}
    response = send()
    assert response.status_code in status, response.get_data(as_text=True)
    assert response.content_type == "application/problem+json"
    assert {key: r.type(key) for key in r.keys("*")} == before, "a refused request created or removed a key"
    assert {key: r.xlen(key) for key in versions} == versions, "a refused request appended to a stream"
    return response.get_json()


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def test_finding_3_nested_arrays_are_a_400(fresh, r):
    client, game_id, tokens = fresh
    for path in ("/v1/games", f"/v1/games/{game_id}/players", f"/v1/games/{game_id}/actions"):
        problem = refused_and_nothing_stored(
            r, lambda path=path: client.post(path, data=nested(3000), headers={**JSON, **auth(tokens[0])})
        )
        assert "JSON" in problem["detail"]


@EXAMPLES
@given(depth=st.integers(1, 5000), wrap=st.sampled_from(["bare", "name", "options", "action"]))
def test_finding_3_any_nesting_depth_is_never_a_5xx(app, redis_url, depth, wrap):
    client = app.test_client()
    r = redis.Redis.from_url(redis_url)
    r.flushall()
    game_id, tokens = start_match(client, {"game": "sixty-six", "seats": [{"kind": "human"}, {"kind": "human"}]})
    body = {
        "bare": nested(depth),
        "name": '{"name": %s}' % nested(depth),
        "options": '{"game": "sixty-six", "seats": [{"kind": "human"}, {"kind": "human"}], "options": {"x": %s}}'
        % nested(depth),
        "action": '{"type": "play", "card": %s}' % nested(depth),
    }[wrap]
    for path in ("/v1/games", f"/v1/games/{game_id}/players", f"/v1/games/{game_id}/actions"):
        refused_and_nothing_stored(
            r,
            lambda path=path: client.post(path, data=body, headers={**JSON, **auth(tokens[0])}),
            status=(400, 409, 422),
        )


SURROGATES = st.sampled_from(["\\ud800", "\\udfff", "a\\udc00b", "\\ud83d", "\\ude00x"])


@EXAMPLES
@given(surrogate=SURROGATES, where=st.sampled_from(["name", "option key", "option value", "seat kind", "action"]))
def test_finding_3_lone_surrogates_are_a_4xx(app, redis_url, surrogate, where):
    client = app.test_client()
    r = redis.Redis.from_url(redis_url)
    r.flushall()
    game_id, tokens = start_match(client, {"game": "sixty-six", "seats": [{"kind": "human"}, {"kind": "human"}]})
    open_game = client.post("/v1/games", json={"game": "sixty-six", "seats": SEATS}).get_json()["game_id"]
    path, body = {
        "name": (f"/v1/games/{open_game}/players", '{"name": "%s"}' % surrogate),
        "option key": (
            "/v1/games",
            '{"game": "sixty-six", "seats": [{"kind": "human"}, {"kind": "human"}], "options": {"%s": 1}}' % surrogate,
        ),
        "option value": (
            "/v1/games",
            '{"game": "sixty-six", "seats": [{"kind": "human"}, {"kind": "human"}], '
            '"options": {"dealer_rule": "%s"}}' % surrogate,
        ),
        "seat kind": ("/v1/games", '{"game": "sixty-six", "seats": [{"kind": "%s"}, {"kind": "human"}]}' % surrogate),
        "action": (f"/v1/games/{game_id}/actions", '{"type": "play", "card": "%s"}' % surrogate),
    }[where]
    refused_and_nothing_stored(
        r, lambda: client.post(path, data=body, headers={**JSON, **auth(tokens[0])}), status=(400, 422)
    )


def wrong_types(kind: str) -> list:
    """JSON values of another type than the option's (a string of digits for a number, 1 for a boolean)."""
    common = [["x"], {"a": 1}, [1], {}]
    return (
        common + {"text": [1, True, 2.5], "bool": [1, 0, "true", "yes", None], "int": ["7", "٥", True, 2.5, "x"]}[kind]
    )


@pytest.mark.parametrize("game", sorted(GAMES))
def test_finding_3_option_values_of_a_wrong_type_are_a_400_naming_the_option(app, r, game):
    """`"options": {"variant": ["2p24"]}` for Sixty-Six gave a 500; every option of every game now."""
    client = app.test_client()
    options, players = GAMES[game]
    for option in options:
        for value in wrong_types(option.kind):
            if value is None and option.nullable:
                continue
            body = {"game": game, "seats": [{"kind": "human"}] * players, "options": {option.name: value}}
            problem = refused_and_nothing_stored(r, lambda body=body: client.post("/v1/games", json=body))
            assert [e["field"] for e in problem["errors"]] == [f"options.{option.name}"], (option.name, value, problem)


@EXAMPLES
@given(game=st.sampled_from(sorted(GAMES)), data=st.data())
def test_finding_3_generated_option_values_are_never_a_5xx(app, redis_url, game, data):
    client = app.test_client()
    r = redis.Redis.from_url(redis_url)
    r.flushall()
    options, players = GAMES[game]
    names = st.sampled_from([o.name for o in options]) | st.text(max_size=12)
    scalar = st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats() | st.text(max_size=12)
    values = st.recursive(
        scalar,
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
        max_leaves=6,
    )
    chosen = data.draw(st.dictionaries(names, values, min_size=1, max_size=4))
    body = {"game": game, "seats": [{"kind": "human"}] * players, "options": chosen}
    before = r.dbsize()
    response = client.post("/v1/games", json=body)
    assert response.status_code in (201, 400, 422), response.get_data(as_text=True)
    if response.status_code != 201:
        assert response.content_type == "application/problem+json"
        assert r.dbsize() == before


def cursor(position: str) -> str:
    return base64.urlsafe_b64encode(f"f:feed:{position}".encode()).decode().rstrip("=")


@pytest.mark.parametrize(
    "position",
    [
        "99999999999999999999-1",
        "1-99999999999999999999",
        "18446744073709551616-0",
        "18446744073709551615-18446744073709551615",
        "5\n",
        "٥-0",
        "5-٥",
        "5 ",
        "-1-0",
    ],
)
def test_finding_3_feed_cursors_out_of_range_or_not_ascii_digits_are_a_400(app, r, position):
    """`?after=99999999999999999999999-1` and the like gave a 500 (Redis refuses the id); the feed reads
    on from a cursor now, whose position is checked as strictly."""
    client = app.test_client()
    problem = refused_and_nothing_stored(
        r, lambda: client.get(f"/v1/ops/feed?cursor={cursor(position)}", headers=auth(OPERATOR))
    )
    assert problem["errors"][0]["field"] == "cursor"
    for raw in ("99999999999999999999999-1", "5%0A", "%D9%A5"):
        assert client.get(f"/v1/ops/feed?after={raw}", headers=auth(OPERATOR)).status_code == 400
        assert client.get(f"/v1/ops/feed?limit={raw}", headers=auth(OPERATOR)).status_code == 400


def test_the_largest_feed_cursor_redis_takes_is_read(app, r):
    client = app.test_client()
    page = client.get(
        f"/v1/ops/feed?cursor={cursor('18446744073709551615-18446744073709551614')}", headers=auth(OPERATOR)
    )
    assert page.status_code == 200 and page.get_json()["entries"] == []


def test_finding_3_writes_while_redis_is_out_of_memory_are_a_503_with_retry_after():
    server = RedisProcess().start()
    try:
        client = make_app(server.url).test_client()
        game_id, tokens = start_match(client, {"game": "sixty-six", "seats": [{"kind": "human"}, {"kind": "human"}]})
        run_jobs(server.url)  # the first deal
        views = [client.get(f"/v1/games/{game_id}", headers=auth(token)).get_json() for token in tokens]
        seat = next(v["seat"] for v in views if v["legal_actions"])
        open_game = client.post("/v1/games", json={"game": "sixty-six", "seats": SEATS}).get_json()["game_id"]
        r = redis.Redis.from_url(server.url)
        r.config_set("maxmemory", 1)  # every write is refused with OOM from now on
        for send in (
            lambda: client.post("/v1/games", json={"game": "sixty-six", "seats": SEATS}),
            lambda: client.post(f"/v1/games/{open_game}/players", json={"name": "Ana"}),
            lambda: client.post(
                f"/v1/games/{game_id}/actions", json=views[seat]["legal_actions"][0], headers=auth(tokens[seat])
            ),
        ):
            before = {key: r.xlen(key) for key in r.keys("*") if r.type(key) == b"stream"}
            response = send()
            assert response.status_code == 503, response.get_data(as_text=True)
            assert int(response.headers["Retry-After"]) >= 1
            assert response.get_json()["type"].endswith("/unavailable")
            assert {key: r.xlen(key) for key in before} == before
        r.config_set("maxmemory", 0)
        assert client.post("/v1/games", json={"game": "sixty-six", "seats": SEATS}).status_code == 201
    finally:
        server.stop()
