"""Regression tests of the outside security review's findings (issue 27) that are about requests: each
test reproduces its finding as the review describes it."""

from __future__ import annotations

import pytest

from app.matches import Matches
from app.settings import Settings
from events.store import EventStore
from games.errors import OptionError
from service.app import create_app
from tests.support.talon import OPERATOR, auth, make_app, matches_on, run_jobs, start_match

TWO_HUMANS = {"game": "sixty-six", "seats": [{"kind": "human"}, {"kind": "human"}]}
HUMAN_AND_BOT = {"game": "sixty-six", "seats": [{"kind": "human"}, {"kind": "bot", "level": "basic"}]}


@pytest.fixture
def app(r, redis_url):
    return make_app(redis_url)


@pytest.fixture
def client(app):
    return app.test_client()


def dealt(client, redis_url, body=TWO_HUMANS):
    """A match of two humans, dealt: its id, the seats' tokens and the seat whose turn it is."""
    game_id, tokens = start_match(client, body)
    run_jobs(redis_url)
    views = [client.get(f"/v1/games/{game_id}", headers=auth(t)).get_json() for t in tokens]
    return game_id, tokens, next(v["seat"] for v in views if v["legal_actions"])


def legal(client, game_id, token) -> dict:
    return client.get(f"/v1/games/{game_id}", headers=auth(token)).get_json()["legal_actions"][0]


# -- finding 11: idempotency keys per seat, takeover_after's range, names --------------------------------


def test_finding_11_an_idempotency_key_is_scoped_to_its_seat(client, redis_url, r):
    """Another seat sending a key a seat has used sends a new request (it was 409 idempotency-key-reused)."""
    game_id, tokens, first = dealt(client, redis_url)
    second = 1 - first
    key = {"Idempotency-Key": "move-1"}
    lead = legal(client, game_id, tokens[first])
    assert (
        client.post(f"/v1/games/{game_id}/actions", json=lead, headers={**auth(tokens[first]), **key}).status_code
        == 201
    )
    follow = legal(client, game_id, tokens[second])
    answer = client.post(f"/v1/games/{game_id}/actions", json=follow, headers={**auth(tokens[second]), **key})
    assert answer.status_code == 201, answer.get_data(as_text=True)
    # Each seat's own retry is still answered from its record, and a different body under it is refused.
    version = EventStore(r).version(game_id)
    replay = client.post(f"/v1/games/{game_id}/actions", json=lead, headers={**auth(tokens[first]), **key})
    assert replay.status_code == 200
    other = {"type": "close"} if lead != {"type": "close"} else {"type": "draw"}
    reused = client.post(f"/v1/games/{game_id}/actions", json=other, headers={**auth(tokens[first]), **key})
    assert reused.status_code == 409 and reused.get_json()["type"].endswith("/idempotency-key-reused")
    assert EventStore(r).version(game_id) == version


@pytest.mark.parametrize("value", [0, False, True, -1, 21, 1000, 2.5, "2", None])
def test_finding_11_takeover_after_outside_its_range_is_refused(client, r, value):
    """`takeover_after: 0` or `false` silently became 2."""
    if value is None:  # null is not "omitted": the option has no null
        body = {**HUMAN_AND_BOT, "options": {"takeover_after": None}}
    else:
        body = {**HUMAN_AND_BOT, "options": {"takeover_after": value}}
    refused = client.post("/v1/games", json=body)
    assert refused.status_code == 400, refused.get_data(as_text=True)
    assert refused.get_json()["errors"][0]["field"] == "options.takeover_after"
    assert r.dbsize() == 0


@pytest.mark.parametrize("value", [0, False, 21])
def test_finding_11_the_engine_refuses_takeover_after_outside_its_range(r, value):
    """The use case as well (the engine read 0 and false as "omitted"): 422 `invalid-option` over HTTP."""
    talon: Matches = matches_on(r)
    with pytest.raises(OptionError) as refused:
        talon.create_match("sixty-six", {"takeover_after": value}, HUMAN_AND_BOT["seats"])
    assert refused.value.field == "takeover_after"
    assert talon.create_match("sixty-six", {}, HUMAN_AND_BOT["seats"]).takeover_after == 2


@pytest.mark.parametrize(
    "name",
    [
        "a\x00b",
        "Ana\r\nSet-Cookie: x",
        "Ana\n",
        "\tAna",
        "a\x7f",
        "a\x85",
        "\u202eanA",
        "a\u202a",
        "a\u202b",
        "a\u202c",
        "a\u202d",
        "a\u2066b",
        "a\u2067",
        "a\u2068",
        "a\u2069",
        "",
        "x" * 41,
    ],
)
def test_finding_11_names_with_control_or_bidi_characters_are_refused(client, r, name):
    game_id = client.post("/v1/games", json=HUMAN_AND_BOT).get_json()["game_id"]
    version = EventStore(r).version(game_id)
    refused = client.post(f"/v1/games/{game_id}/players", json={"name": name})
    assert refused.status_code == 400, refused.get_data(as_text=True)
    assert refused.get_json()["errors"][0]["field"] == "name"
    assert EventStore(r).version(game_id) == version


def test_finding_11_names_are_stored_nfc_normalized(client):
    game_id = client.post("/v1/games", json=HUMAN_AND_BOT).get_json()["game_id"]
    decomposed = "Zoe\u0308 " + "e\u0301" * 17  # 40 code points, 22 once composed
    claimed = client.post(f"/v1/games/{game_id}/players", json={"name": decomposed})
    assert claimed.status_code == 201, claimed.get_data(as_text=True)
    assert claimed.get_json()["view"]["players"][0]["name"] == "Zoë " + "é" * 17


# -- finding 8: the operator token cannot be guessed without limit, nor be short ---------------------------


def test_finding_8_failed_operator_authentication_is_limited_per_address(r, redis_url):
    """1,000 wrong tokens went through in 0.5 s, then the right one worked."""
    client = make_app(redis_url, rate_limits_enabled=True).test_client()
    game_id, tokens = start_match(client, HUMAN_AND_BOT)
    for guess in range(10):
        assert client.get("/v1/ops/feed", headers=auth(f"guess-{guess}")).status_code == 403
    for token in ("guess-10", OPERATOR):  # the right token too, while the address is limited
        limited = client.get("/v1/ops/feed", headers=auth(token))
        assert limited.status_code == 429, limited.get_data(as_text=True)
        assert 1 <= int(limited.headers["Retry-After"]) <= 60
    # Other routes that take the operator token are limited alike (a right guess is not told apart) ...
    assert client.get(f"/v1/games/{game_id}/events", headers=auth(OPERATOR)).status_code == 429
    assert client.get(f"/v1/games/{game_id}/events", headers=auth("guess-11")).status_code == 429
    seeded = client.post("/v1/games", json={**HUMAN_AND_BOT, "seed": 1}, headers=auth(OPERATOR))
    assert seeded.status_code == 429
    # ... a seat's own token is no guess and still works there, and another address is not limited.
    assert client.get(f"/v1/games/{game_id}", headers=auth(tokens[0])).status_code == 200
    elsewhere = client.get("/v1/ops/feed", headers=auth(OPERATOR), environ_base={"REMOTE_ADDR": "10.0.0.2"})
    assert elsewhere.status_code == 200


def test_finding_8_unknown_tokens_on_match_routes_count_as_failures(r, redis_url):
    client = make_app(redis_url, rate_limits_enabled=True, rate_limit_auth_failures="3/minute").test_client()
    game_id, _ = start_match(client, HUMAN_AND_BOT)
    statuses = [client.get(f"/v1/games/{game_id}", headers=auth(f"guess-{n}")).status_code for n in range(4)]
    assert statuses == [401, 401, 401, 429]
    assert client.get("/v1/ops/feed", headers=auth(OPERATOR)).status_code == 429


def test_finding_8_the_service_refuses_a_short_operator_token_outside_development(redis_url):
    with pytest.raises(ValueError, match="OPERATOR_TOKEN must have at least 32 characters"):
        create_app(Settings(redis_url=redis_url, operator_token="x" * 31))
    with pytest.raises(ValueError):
        create_app(Settings.from_env({"REDIS_URL": redis_url, "OPERATOR_TOKEN": "hunter2"}))
    create_app(Settings(redis_url=redis_url, operator_token="x" * 32))
    create_app(Settings(redis_url=redis_url))  # no token: no operator access at all
    create_app(Settings.from_env({"REDIS_URL": redis_url, "OPERATOR_TOKEN": "hunter2", "TALON_ENV": "development"}))


# -- finding 7 (second half): /metrics is for operators --------------------------------------------------


def test_finding_7_metrics_are_served_to_operators_only(client):
    """/metrics published talon_bot_decision_seconds and everything else to anyone."""
    game_id, tokens = start_match(client, HUMAN_AND_BOT)
    anyone = client.get("/metrics")
    assert anyone.status_code == 401 and "talon_" not in anyone.get_data(as_text=True)
    assert anyone.headers["WWW-Authenticate"].startswith("Bearer")
    seat = client.get("/metrics", headers=auth(tokens[0]))
    assert seat.status_code == 403 and "talon_" not in seat.get_data(as_text=True)
    operator = client.get("/metrics", headers=auth(OPERATOR))
    assert operator.status_code == 200 and "talon_http_requests_total" in operator.get_data(as_text=True)


# -- finding 9: security headers on every response --------------------------------------------------------


def test_finding_9_every_response_carries_the_security_headers(client):
    """The web page sent no CSP, frame-ancestors/X-Frame-Options, nosniff nor Referrer-Policy: it could be
    framed, and a future script injection would read the seat tokens in localStorage."""
    game_id, tokens = start_match(client, HUMAN_AND_BOT)
    responses = {
        path: client.get(path)
        for path in (
            "/",
            "/web/js/main.js",
            "/web/app.css",
            "/favicon.svg",
            "/rules/",
            "/rules/smear",
            "/rules/style.css",
            "/docs",
            "/docs/assets/start.js",
            "/openapi.yaml",
            "/livez",
            f"/v1/games/{game_id}",
            "/v1/games",
            "/v1/games/nope",
            "/no-such-page",
            "/metrics",
        )
    }
    responses["POST actions"] = client.post(f"/v1/games/{game_id}/actions", json={"type": "x"}, headers=auth(tokens[0]))
    for what, response in responses.items():
        headers = response.headers
        policy = headers.get("Content-Security-Policy", "")
        assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy, what
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy, what
        assert headers.get("X-Frame-Options") == "DENY", what
        assert headers.get("X-Content-Type-Options") == "nosniff", what
        assert headers.get("Referrer-Policy") == "no-referrer", what
        assert len(headers.getlist("Content-Security-Policy")) == 1, what
    # Nothing inline is left for the policy to block: the pages load scripts and styles from files.
    for path in ("/", "/docs", "/rules/", "/rules/sixty-six"):
        page = responses.get(path) or client.get(path)
        html = page.get_data(as_text=True)
        assert "<style" not in html and " style=" not in html, path
        assert all("src=" in tag for tag in html.split("<script")[1:]), path
