"""The HTTP API on a real Redis: every error status the spec documents produced for real, and nothing written."""

from __future__ import annotations

import threading
import time

import pytest

from events.store import EventStore
from tests.support.talon import OPERATOR, TWO_HUMANS, auth, make_app
from tests.support.talon import start_match as start

# Worked example A (RULES §2.15): seat 1 leads AS first; hearts are trump.
DECK_A = "AS QH 9H 9S JS KD TS JD AC TH QC 9D KH 9C AH TC JH KS QS AD TD QD KC JC".split()


@pytest.fixture
def app(r, redis_url):
    return make_app(redis_url)


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def store(r):
    return EventStore(r)


def start_with_deck(client, deck=DECK_A):
    return start(client, {**TWO_HUMANS, "decks": [deck]}, headers=auth(OPERATOR))


def assert_problem(response, status):
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.content_type == "application/problem+json"
    body = response.json
    assert body["status"] == status and body["title"] and body["detail"] and body["type"].startswith("https://")
    return body


# -- the happy path ------------------------------------------------------------------------------------


def test_create_claim_and_deal(client):
    created = client.post("/v1/games", json=TWO_HUMANS)
    assert created.status_code == 201
    assert created.headers["Location"] == f"/v1/games/{created.json['game_id']}"
    assert created.json["status"] == "waiting" and created.json["seat"] is None
    game_id = created.json["game_id"]
    first = client.post(f"/v1/games/{game_id}/players", json={"name": "Ana"})
    assert first.status_code == 201 and first.json["seat"] == 0 and first.json["view"]["status"] == "waiting"
    second = client.post(f"/v1/games/{game_id}/players", json={"name": "Bo", "seat": 1})
    assert second.status_code == 201 and second.json["seat"] == 1
    view = second.json["view"]
    assert view["status"] == "active" and len(view["round"]["hand"]) == 6
    assert view["to_act"] == [1] and view["legal_actions"]


def test_view_etag_and_not_modified(client):
    game_id, tokens = start(client)
    view = client.get(f"/v1/games/{game_id}", headers=auth(tokens[1]))
    etag = view.headers["ETag"]
    assert etag == f'"{view.json["version"]}"'
    again = client.get(f"/v1/games/{game_id}", headers={**auth(tokens[1]), "If-None-Match": etag})
    assert again.status_code == 304


def test_long_poll_returns_when_the_version_moves(client, app):
    game_id, tokens = start(client)
    view = client.get(f"/v1/games/{game_id}", headers=auth(tokens[1])).json
    action = next(a for a in view["legal_actions"] if a["type"] == "play")

    def act_soon():
        app.test_client().post(f"/v1/games/{game_id}/actions", json=action, headers=auth(tokens[1]))

    timer = threading.Timer(0.3, act_soon)
    timer.start()
    polled = client.get(
        f"/v1/games/{game_id}?wait=10", headers={**auth(tokens[0]), "If-None-Match": f'"{view["version"]}"'}
    )
    timer.join()
    assert polled.status_code == 200 and polled.json["version"] > view["version"]
    assert polled.json == client.get(f"/v1/games/{game_id}", headers=auth(tokens[0])).json  # the move in it


def _poll_soon(client, path: str, headers: dict) -> tuple[threading.Thread, dict]:
    """A long-poll on its own thread; its answer lands in the returned dict."""
    answer: dict = {}
    poller = threading.Thread(target=lambda: answer.setdefault("response", client.get(path, headers=headers)))
    poller.start()
    time.sleep(0.3)
    return poller, answer


def test_a_long_poll_from_the_held_table_folds_what_another_process_appended(client, redis_url):
    game_id, tokens = start(client)
    view = client.get(f"/v1/games/{game_id}", headers=auth(tokens[1])).json  # this app now holds it
    other = make_app(redis_url).test_client()  # another API process
    poller, answer = _poll_soon(
        client, f"/v1/games/{game_id}?wait=10", {**auth(tokens[1]), "If-None-Match": f'"{view["version"]}"'}
    )
    action = next(a for a in view["legal_actions"] if a["type"] == "play")
    assert other.post(f"/v1/games/{game_id}/actions", json=action, headers=auth(tokens[1])).status_code == 201
    poller.join(10)
    polled = answer["response"]
    assert polled.status_code == 200 and polled.json["version"] > view["version"]
    assert polled.json == other.get(f"/v1/games/{game_id}", headers=auth(tokens[1])).json


def test_a_seat_reset_during_a_long_poll_refuses_the_old_token(client, redis_url):
    game_id, tokens = start(client)
    version = client.get(f"/v1/games/{game_id}", headers=auth(tokens[0])).json["version"]
    other = make_app(redis_url).test_client()
    poller, answer = _poll_soon(
        client, f"/v1/games/{game_id}?wait=10", {**auth(tokens[0]), "If-None-Match": f'"{version}"'}
    )
    reset = other.post(f"/v1/ops/games/{game_id}/seats/0/reset", headers=auth(OPERATOR))
    assert reset.status_code == 200, reset.json
    poller.join(10)
    body = assert_problem(answer["response"], 401)
    assert "hand" not in str(body)


def test_a_long_poll_on_a_game_deleted_meanwhile_ends_in_404(client, store):
    game_id, tokens = start(client)
    version = client.get(f"/v1/games/{game_id}", headers=auth(tokens[0])).json["version"]
    poller, answer = _poll_soon(
        client, f"/v1/games/{game_id}?wait=1", {**auth(tokens[0]), "If-None-Match": f'"{version}"'}
    )
    store.delete(game_id)
    poller.join(10)
    assert_problem(answer["response"], 404)


def test_an_unknown_token_is_refused_before_a_long_poll_waits(client):
    game_id, tokens = start(client)
    version = client.get(f"/v1/games/{game_id}", headers=auth(tokens[0])).json["version"]
    started = time.monotonic()
    refused = client.get(
        f"/v1/games/{game_id}?wait=10", headers={**auth(f"{game_id}.not-a-token"), "If-None-Match": f'"{version}"'}
    )
    assert_problem(refused, 401)
    assert time.monotonic() - started < 5


def test_long_poll_times_out_with_not_modified(client):
    game_id, tokens = start(client)
    version = client.get(f"/v1/games/{game_id}").json["version"]
    polled = client.get(f"/v1/games/{game_id}?wait=0.3", headers={"If-None-Match": f'"{version}"'})
    assert polled.status_code == 304


def test_long_poll_is_capped_by_the_server(r, redis_url):
    client = make_app(redis_url, long_poll_max_s=0.3).test_client()
    game_id, _ = start(client)
    version = client.get(f"/v1/games/{game_id}").json["version"]
    started = time.monotonic()
    polled = client.get(f"/v1/games/{game_id}?wait=20", headers={"If-None-Match": f'"{version}"'})
    assert polled.status_code == 304 and time.monotonic() - started < 5


def test_spectator_sees_no_hand_and_seats_see_only_their_own(client, store):
    game_id, tokens = start_with_deck(client)
    spectator = client.get(f"/v1/games/{game_id}").json
    assert spectator["round"].get("hand") in (None, []) and spectator["legal_actions"] == []
    seat0 = client.get(f"/v1/games/{game_id}", headers=auth(tokens[0])).json
    assert sorted(seat0["round"]["hand"]) == sorted("9S JS KD TH QC 9D".split())
    events = client.get(f"/v1/games/{game_id}/events", headers=auth(tokens[0])).json["events"]
    dealt = next(e for e in events if e["type"] == "dealt")
    text = str(dealt["data"])
    for card in "AS QH 9H TS JD AC".split():  # seat 1's hand
        assert f"'{card}'" not in text
    assert "stock" not in dealt["data"] or not any(isinstance(c, str) for c in dealt["data"]["stock"] or [])
    created = next(e for e in events if e["type"] == "match_created")
    assert "decks" not in created["data"] and "seed" not in created["data"]
    claimed = next(e for e in events if e["type"] == "seat_claimed")
    assert "token_hash" not in claimed["data"]


def test_operator_sees_the_full_log(client):
    game_id, _ = start_with_deck(client)
    log = client.get(f"/v1/ops/games/{game_id}/events", headers=auth(OPERATOR)).json["events"]
    dealt = next(e for e in log if e["type"] == "dealt")
    assert dealt["data"]["hands"][1] and "AS" in dealt["data"]["hands"][1]
    assert [e["version"] for e in log] == list(range(1, len(log) + 1))


def test_worked_example_a_over_http(client, redis_url):
    game_id, (p0, p1) = start_with_deck(client)

    def act(token, action, status=201):
        response = client.post(f"/v1/games/{game_id}/actions", json=action, headers=auth(token))
        assert response.status_code == status, response.json
        return response.json

    act(p1, {"type": "play", "card": "AS"})
    act(p0, {"type": "play", "card": "9S"})
    act(p1, {"type": "draw"})
    act(p1, {"type": "exchange"})
    act(p1, {"type": "meld", "suit": "H"})
    act(p1, {"type": "play", "card": "QH"})
    act(p0, {"type": "play", "card": "AH"})
    act(p0, {"type": "draw"})
    act(p0, {"type": "play", "card": "TC"})
    act(p1, {"type": "play", "card": "AC"})
    answer = act(p1, {"type": "declare_out"})  # the round is scored and the next dealt in the same append
    for view in (answer, client.get(f"/v1/games/{game_id}", headers=auth(p0)).json):
        assert view["standing"] == [{"seats": [0], "score": 0}, {"seats": [1], "score": 2}]
        assert view["last_result"]["game_points"] == [0, 2]
        assert view["round"]["dealer"] == 1 and len(view["round"]["hand"]) == 6
        assert view["to_act"] == [0]


# -- each error status, produced for real, writing nothing ---------------------------------------------


def test_400_malformed_json_and_unknown_action_shape(client, store):
    game_id, tokens = start(client)
    before = store.version(game_id)
    bad_json = client.post(
        f"/v1/games/{game_id}/actions",
        data="{not json",
        headers={**auth(tokens[1]), "Content-Type": "application/json"},
    )
    assert_problem(bad_json, 400)
    unknown = client.post(f"/v1/games/{game_id}/actions", json={"type": "teleport"}, headers=auth(tokens[1]))
    assert "errors" in assert_problem(unknown, 400)
    extra = client.post(
        f"/v1/games/{game_id}/actions", json={"type": "play", "card": "AS", "x": 1}, headers=auth(tokens[1])
    )
    assert_problem(extra, 400)
    no_card = client.post(f"/v1/games/{game_id}/actions", json={"type": "play"}, headers=auth(tokens[1]))
    assert_problem(no_card, 400)
    bad_game = client.post("/v1/games", json={"game": "poker", "seats": [{"kind": "human"}] * 2})
    assert_problem(bad_game, 400)
    assert store.version(game_id) == before


def test_401_without_or_with_unknown_token(client, store):
    game_id, _ = start(client)
    before = store.version(game_id)
    response = client.post(f"/v1/games/{game_id}/actions", json={"type": "draw"})
    assert_problem(response, 401)
    assert response.headers["WWW-Authenticate"].startswith("Bearer")
    assert_problem(client.post(f"/v1/games/{game_id}/actions", json={"type": "draw"}, headers=auth("nope")), 401)
    assert_problem(client.get(f"/v1/games/{game_id}", headers=auth(f"{game_id}.forged")), 401)
    assert store.version(game_id) == before


def test_403_token_for_another_game_and_operator_only(client, store):
    game_a, tokens_a = start(client)
    game_b, _ = start(client)
    before = store.version(game_b)
    assert_problem(client.post(f"/v1/games/{game_b}/actions", json={"type": "draw"}, headers=auth(tokens_a[0])), 403)
    assert_problem(client.post("/v1/games", json={**TWO_HUMANS, "seed": 7}), 403)
    assert_problem(client.post("/v1/games", json={**TWO_HUMANS, "seed": 7}, headers=auth(tokens_a[0])), 403)
    assert_problem(client.get(f"/v1/ops/games/{game_a}/events", headers=auth(tokens_a[0])), 403)
    assert_problem(client.get("/v1/ops/feed"), 401)
    assert store.version(game_b) == before


def test_404_unknown_game(client):
    assert_problem(client.get("/v1/games/doesnotexist"), 404)
    assert_problem(client.post("/v1/games/doesnotexist/players", json={"name": "x"}), 404)
    assert_problem(client.get("/v1/games/bad%20id!/events"), 404)


def test_409_not_your_turn_seat_taken_not_active_and_reused_key(client, store):
    created = client.post("/v1/games", json=TWO_HUMANS).json
    waiting_id = created["game_id"]
    token = client.post(f"/v1/games/{waiting_id}/players", json={"name": "Ana", "seat": 0}).json["token"]
    assert_problem(client.post(f"/v1/games/{waiting_id}/players", json={"name": "Eve", "seat": 0}), 409)
    assert_problem(client.post(f"/v1/games/{waiting_id}/actions", json={"type": "draw"}, headers=auth(token)), 409)

    game_id, tokens = start(client)
    before = store.version(game_id)
    assert_problem(client.post(f"/v1/games/{game_id}/players", json={"name": "Eve"}), 409)
    not_turn = client.post(f"/v1/games/{game_id}/actions", json={"type": "draw"}, headers=auth(tokens[0]))
    assert_problem(not_turn, 409)
    assert store.version(game_id) == before

    view = client.get(f"/v1/games/{game_id}", headers=auth(tokens[1])).json
    plays = [a for a in view["legal_actions"] if a["type"] == "play"]
    key = {"Idempotency-Key": "k-1", **auth(tokens[1])}
    first = client.post(f"/v1/games/{game_id}/actions", json=plays[0], headers=key)
    assert first.status_code == 201
    replay = client.post(f"/v1/games/{game_id}/actions", json=plays[0], headers=key)
    assert replay.status_code == 200 and replay.json["version"] == first.json["version"]
    after = store.version(game_id)
    assert_problem(client.post(f"/v1/games/{game_id}/actions", json=plays[1], headers=key), 409)
    assert store.version(game_id) == after


def test_412_if_match(client, store):
    game_id, tokens = start(client)
    view = client.get(f"/v1/games/{game_id}", headers=auth(tokens[1])).json
    action = view["legal_actions"][0]
    stale = client.post(
        f"/v1/games/{game_id}/actions", json=action, headers={**auth(tokens[1]), "If-Match": f'"{view["version"] - 1}"'}
    )
    assert assert_problem(stale, 412)["current_version"] == view["version"]
    assert store.version(game_id) == view["version"]
    fresh = client.post(
        f"/v1/games/{game_id}/actions", json=action, headers={**auth(tokens[1]), "If-Match": f'"{view["version"]}"'}
    )
    assert fresh.status_code == 201


def test_422_rule_violation_names_the_rule_and_lists_legal_actions(client, store):
    game_id, (p0, p1) = start_with_deck(client)
    before = store.version(game_id)
    response = client.post(f"/v1/games/{game_id}/actions", json={"type": "exchange"}, headers=auth(p1))
    body = assert_problem(response, 422)
    assert "§2.6" in body["rule"] and body["legal_actions"]
    assert {"type": "play", "card": "AS"} in body["legal_actions"]
    not_held = client.post(f"/v1/games/{game_id}/actions", json={"type": "play", "card": "KC"}, headers=auth(p1))
    assert_problem(not_held, 422)
    assert store.version(game_id) == before


def test_options_that_do_not_match_their_schema_are_400_naming_the_field(client):
    body = assert_problem(client.post("/v1/games", json={**TWO_HUMANS, "options": {"match_target": "seven"}}), 400)
    assert body["type"].endswith("/invalid-request")
    assert [(e["in"], e["field"]) for e in body["errors"]] == [("body", "options.match_target")]
    unknown = assert_problem(client.post("/v1/games", json={**TWO_HUMANS, "options": {"no_such_option": 1}}), 400)
    assert unknown["errors"][0]["field"] == "options.no_such_option"
    variant = assert_problem(client.post("/v1/games", json={**TWO_HUMANS, "options": {"variant": "5p"}}), 400)
    assert "2p24" in variant["errors"][0]["detail"]


def test_options_that_do_not_fit_the_seats_are_422_naming_the_valid_ones(client):
    three = {"game": "sixty-six", "seats": [{"kind": "human"}] * 3}
    body = assert_problem(client.post("/v1/games", json={**three, "options": {"variant": "2p24"}}), 422)
    assert body["type"].endswith("/invalid-option") and body["title"] == "Invalid option"
    assert body["errors"] == [{"in": "body", "field": "options.variant", "detail": body["detail"]}]
    assert "3p" in body["detail"]
    assert client.post("/v1/games", json=three).json["options"]["variant"] == "3p"  # the default follows the seats


def test_413_body_too_large(client):
    response = client.post("/v1/games", data="x" * (70 * 1024), headers={"Content-Type": "application/json"})
    assert_problem(response, 413)


def test_405_keeps_allow_header(client):
    response = client.delete("/v1/games")
    assert_problem(response, 405)
    assert "GET" in response.headers["Allow"]


# -- lobby, stream tickets, feed, probes ---------------------------------------------------------------


def test_lobby_lists_open_and_running_matches(client):
    waiting = client.post("/v1/games", json=TWO_HUMANS).json["game_id"]
    running, _ = start(client)
    open_page = client.get("/v1/games").json
    assert [g["game_id"] for g in open_page["games"]] == [waiting]
    assert open_page["games"][0]["open_seats"] == 2 and open_page["has_more"] is False
    active = client.get("/v1/games?status=active&game=sixty-six").json
    assert [g["game_id"] for g in active["games"]] == [running]
    assert_problem(client.get("/v1/games?limit=1000"), 400)


def test_the_lobby_pages_with_a_cursor_and_loses_no_match(client):
    created = [client.post("/v1/games", json=TWO_HUMANS).json["game_id"] for _ in range(5)]
    entries, cursor = [], None
    for _ in range(5):
        page = client.get("/v1/games", query_string={"limit": 2, **({"cursor": cursor} if cursor else {})}).json
        entries += page["games"]
        cursor = page["next_cursor"]
        if not page["has_more"]:
            break
    seen = [g["game_id"] for g in entries]
    assert sorted(seen) == sorted(created) and len(seen) == 5
    # Newest first. Matches created in the same millisecond (a fast host makes several) are ordered by
    # their ids, which are random: the last one created is then among the first, not surely first.
    times = [g["created_ms"] for g in entries]
    assert times == sorted(times, reverse=True)
    assert times[seen.index(created[-1])] == times[0]
    other = assert_problem(client.get("/v1/games", query_string={"status": "active", "cursor": cursor}), 400)
    assert other["errors"][0] == {"in": "query", "field": "cursor", "detail": other["errors"][0]["detail"]}


def test_stream_resumes_after_last_event_id(client):
    game_id, tokens = start_with_deck(client)
    ticket = client.post(f"/v1/games/{game_id}/stream-tickets", headers=auth(tokens[0])).json["ticket"]
    with client.get(
        f"/v1/games/{game_id}/stream?ticket={ticket}", headers={"Last-Event-ID": "2"}, buffered=False
    ) as response:
        assert response.status_code == 200 and response.mimetype == "text/event-stream"
        chunks = iter(response.response)
        text = ""
        while "id: 5\n" not in text:  # 3 (seat claimed), 4 (deal committed), 5 (dealt) follow Last-Event-ID 2
            text += next(chunks).decode()
    ids = [int(line[4:]) for line in text.splitlines() if line.startswith("id: ")]
    assert ids[:3] == [3, 4, 5]
    assert "AS" not in text.split("event: dealt", 1)[1].split("\n\n", 1)[0]  # seat 1's card, hidden from seat 0
    assert_problem(client.get(f"/v1/games/{game_id}/stream?ticket=forged"), 401)


def test_feed_and_probes(client):
    game_id, _ = start(client)
    feed = client.get("/v1/ops/feed", headers=auth(OPERATOR)).json
    assert [(e["game_id"], e["version"]) for e in feed["entries"]][:4] == [(game_id, v) for v in range(1, 5)]
    assert client.get("/livez").json == {"status": "ok"}
    assert client.get("/readyz").status_code == 200
    assert client.get("/openapi.yaml").status_code == 200
    docs = client.get("/docs")
    assert docs.status_code == 200 and b"/docs/assets/swagger-ui-bundle.js" in docs.data
    assert client.get("/docs/assets/swagger-ui-bundle.js").status_code == 200


def test_429_rate_limits_with_retry_after(r, redis_url, store):
    client = make_app(
        redis_url, rate_limits_enabled=True, rate_limit_create="2/minute", rate_limit_actions="1/minute"
    ).test_client()
    game_id, (p0, p1) = start_with_deck(client)
    assert client.post("/v1/games", json=TWO_HUMANS).status_code == 201
    limited = client.post("/v1/games", json=TWO_HUMANS)
    assert_problem(limited, 429)
    assert int(limited.headers["Retry-After"]) > 0
    assert store.lobby("waiting", 0, 10)[1] == 1  # the refused create wrote nothing

    assert (
        client.post(f"/v1/games/{game_id}/actions", json={"type": "play", "card": "AS"}, headers=auth(p1)).status_code
        == 201
    )
    # Each seat has its own budget: seat 0 may answer although seat 1 has spent its own.
    assert (
        client.post(f"/v1/games/{game_id}/actions", json={"type": "play", "card": "9S"}, headers=auth(p0)).status_code
        == 201
    )
    before = store.version(game_id)
    assert_problem(client.post(f"/v1/games/{game_id}/actions", json={"type": "draw"}, headers=auth(p1)), 429)
    assert store.version(game_id) == before


def test_the_action_limit_counts_the_seat_however_its_token_is_written(r, redis_url, store):
    """Finding 4 of the review: the limit counted the raw Authorization header, while the token is read
    after trimming, so `Bearer  <token>` and the like each got a fresh budget. It counts the seat now."""
    client = make_app(redis_url, rate_limits_enabled=True, rate_limit_actions="1/minute").test_client()
    game_id, (p0, p1) = start_with_deck(client)
    assert (
        client.post(f"/v1/games/{game_id}/actions", json={"type": "play", "card": "AS"}, headers=auth(p1)).status_code
        == 201
    )
    assert (
        client.post(f"/v1/games/{game_id}/actions", json={"type": "play", "card": "9S"}, headers=auth(p0)).status_code
        == 201
    )
    before = store.version(game_id)
    for spelling in (f"Bearer  {p1}", f"Bearer {p1}  ", f"bearer {p1}", f"Bearer     {p1}"):
        refused = client.post(
            f"/v1/games/{game_id}/actions", json={"type": "draw"}, headers={"Authorization": spelling}
        )
        assert_problem(refused, 429)
    assert store.version(game_id) == before


def test_if_match_takes_a_list_of_entity_tags(client, store):
    game_id, tokens = start(client)

    def post(if_match: str):
        view = client.get(f"/v1/games/{game_id}", headers=auth(tokens[1])).json
        play = next(a for a in view["legal_actions"] if a["type"] == "play")
        return view["version"], client.post(
            f"/v1/games/{game_id}/actions", json=play, headers={**auth(tokens[1]), "If-Match": if_match}
        )

    version, weak = post('W/"1", W/"999"')  # weak tags never match a strong comparison
    assert_problem(weak, 412)
    version, garbage = post("twelve")
    assert_problem(garbage, 400)
    assert store.version(game_id) == version
    version, listed = post(f'"1", "{version}"')
    assert listed.status_code == 201


def test_a_query_parameter_the_route_does_not_take_is_refused(client):
    body = assert_problem(client.get("/v1/games?offset=20"), 400)
    assert body["errors"][0]["in"] == "query" and body["errors"][0]["field"] == "offset"
    game_id, _ = start(client)
    assert assert_problem(client.get(f"/v1/games/{game_id}/events?after=3"), 400)["errors"][0]["field"] == "after"
