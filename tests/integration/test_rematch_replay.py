"""A finished match's rematch and replay over HTTP, on a real Redis with the jobs run by a real rq worker:
the rematch links both matches and seats the same players; a replay at every version equals the fold of
the log up to that version with every hand shown; a running match has neither (409)."""

from __future__ import annotations

import random

import pytest

from app.audit import audit_game
from events.store import EventStore
from games import table as tables
from games.replay import fold
from tests.support.talon import OPERATOR, auth, make_app, run_jobs, start_match

# A short match: one game point wins Sixty-Six, so one deal ends it.
SHORT = {
    "game": "sixty-six",
    "options": {"first_dealer": 0, "match_target": 1},
    "seats": [{"kind": "human"}, {"kind": "human"}],
}
WITH_BOT = {
    "game": "sixty-six",
    "options": {"first_dealer": 1, "match_target": 1, "turn_timeout_s": 600},
    "seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}],
}


@pytest.fixture
def client(redis_url, r):
    return make_app(redis_url).test_client()


def play_to_the_end(client, redis_url, game_id: str, tokens: list[str], seed: int = 3) -> dict:
    """Every human seat plays a random legal action when it is its turn; the jobs (deals, scoring, bots)
    run in between. Returns the last view."""
    rng = random.Random(seed)
    for _ in range(500):
        run_jobs(redis_url)
        view = client.get(f"/v1/games/{game_id}").json
        if view["status"] == "finished":
            return view
        for token in tokens:
            mine = client.get(f"/v1/games/{game_id}", headers=auth(token)).json
            if mine["legal_actions"]:
                posted = client.post(
                    f"/v1/games/{game_id}/actions", json=rng.choice(mine["legal_actions"]), headers=auth(token)
                )
                assert posted.status_code == 201, posted.json
                break
    raise AssertionError("the match did not finish")


def finished_match(client, redis_url, body: dict = SHORT) -> tuple[str, list[str]]:
    game_id, tokens = start_match(client, body)
    play_to_the_end(client, redis_url, game_id, tokens)
    return game_id, tokens


# -- rematch -----------------------------------------------------------------------------------------------


def test_the_rematch_of_a_private_match_is_private_with_the_same_join_code(client, redis_url, r):
    created = client.post("/v1/games", json={**SHORT, "private": True})
    game_id, code = created.json["game_id"], created.json["join_code"]
    tokens = [
        client.post(f"/v1/games/{game_id}/players", json={"name": name, "join_code": code}).json["token"]
        for name in ("Ana", "Bo")
    ]
    play_to_the_end(client, redis_url, game_id, tokens)
    rematch = client.post(f"/v1/games/{game_id}/rematch", headers=auth(tokens[0])).json
    assert rematch["view"]["private"] is True
    listed = [
        g["game_id"] for status in ("waiting", "active") for g in client.get(f"/v1/games?status={status}").json["games"]
    ]
    assert rematch["game_id"] not in listed
    refused = client.post(f"/v1/games/{rematch['game_id']}/players", json={"name": "Eve"})
    assert refused.status_code in (403, 409), refused.json


def test_a_rematch_links_both_matches_and_seats_the_same_players(client, redis_url, r):
    game_id, (ana, bo) = finished_match(client, redis_url)
    old = client.get(f"/v1/games/{game_id}", headers=auth(ana)).json
    assert old["rematch"] is None and old["rematch_of"] is None

    first = client.post(f"/v1/games/{game_id}/rematch", headers=auth(bo))
    assert first.status_code == 201, first.json
    new_id = first.json["game_id"]
    assert new_id != game_id and first.json["seat"] == 1
    assert first.headers["Location"] == f"/v1/games/{new_id}"
    # Bo is seated, Ana's seat is kept for her: the rematch waits for her.
    new = first.json["view"]
    assert new["rematch_of"] == game_id and new["status"] == "waiting" and new["seat"] == 1
    assert [(p["name"], p["claimed"], p["reserved"]) for p in new["players"]] == [
        (None, False, True),
        ("Bo", True, False),
    ]
    # The same options, the first dealer moved on by one.
    assert new["options"] == {**old["options"], "first_dealer": 1}

    # The finished match names its rematch, for every seat and for spectators.
    for headers in (auth(ana), auth(bo), {}):
        assert client.get(f"/v1/games/{game_id}", headers=headers).json["rematch"] == {"game_id": new_id}

    # Nobody else takes Ana's seat, by seat number or as the first open one; the lobby shows none open.
    taken = client.post(f"/v1/games/{new_id}/players", json={"name": "Eve", "seat": 0})
    assert taken.status_code == 409 and taken.json["type"].endswith("/seat-unavailable")
    assert client.post(f"/v1/games/{new_id}/players", json={"name": "Eve"}).status_code == 409
    waiting = client.get("/v1/games?status=waiting").json["games"]
    assert [g["open_seats"] for g in waiting if g["game_id"] == new_id] == [0]

    # Ana joins with one call: the same match, her seat, and the match starts.
    second = client.post(f"/v1/games/{game_id}/rematch", headers=auth(ana))
    assert second.status_code == 200, second.json
    assert second.json["game_id"] == new_id and second.json["seat"] == 0
    ana_new, bo_new = second.json["token"], first.json["token"]
    assert ana_new != ana and ana_new.startswith(f"{new_id}.")
    run_jobs(redis_url)
    for seat, (token, _name) in enumerate(((ana_new, "Ana"), (bo_new, "Bo"))):
        view = client.get(f"/v1/games/{new_id}", headers=auth(token)).json
        assert view["seat"] == seat and view["status"] == "active"
        assert [p["name"] for p in view["players"]] == ["Ana", "Bo"]
    # The old tokens keep their seats in the finished match.
    assert client.get(f"/v1/games/{game_id}", headers=auth(ana)).json["seat"] == 0

    # Asking again (an answer lost on the way) gives the same seat and token, and changes nothing.
    version = client.get(f"/v1/games/{new_id}").json["version"]
    again = client.post(f"/v1/games/{game_id}/rematch", headers=auth(bo))
    assert again.status_code == 200 and (again.json["game_id"], again.json["seat"], again.json["token"]) == (
        new_id,
        1,
        bo_new,
    )
    assert client.get(f"/v1/games/{new_id}").json["version"] == version

    # Both logs pass the audit: the offer after the match's end, the reserved seats' claims.
    store = EventStore(r)
    for gid in (game_id, new_id):
        report = audit_game(store, gid)
        assert report["ok"], report["findings"]
    events = client.get(f"/v1/games/{game_id}/events").json["events"]
    assert [e["type"] for e in events[-2:]] == ["match_ended", "rematch_offered"]
    assert events[-1]["data"] == {"game_id": new_id}


def test_a_rematch_against_a_bot_starts_at_once_with_the_same_bot(client, redis_url):
    game_id, (ana,) = finished_match(client, redis_url, WITH_BOT)
    made = client.post(f"/v1/games/{game_id}/rematch", headers=auth(ana))
    assert made.status_code == 201
    view = made.json["view"]
    assert view["status"] == "active" and view["options"]["first_dealer"] == 0
    assert view["options"]["turn_timeout_s"] == 600 and view["options"]["match_target"] == 1
    assert [(p["kind"], p["level"], p["name"]) for p in view["players"]] == [
        ("human", None, "Ana"),
        ("bot", "random", "Bot 1 (random)"),
    ]


def test_a_rematch_is_for_the_seats_of_a_finished_match(client, redis_url):
    running, (ana, _) = start_match(client, SHORT)
    refused = client.post(f"/v1/games/{running}/rematch", headers=auth(ana))
    assert refused.status_code == 409 and refused.json["type"].endswith("/match-not-finished")

    game_id, tokens = finished_match(client, redis_url)
    version = client.get(f"/v1/games/{game_id}").json["version"]
    for headers, status in (({}, 401), (auth("nobody-holds-this"), 401), (auth(ana), 403), (auth(OPERATOR), 403)):
        response = client.post(f"/v1/games/{game_id}/rematch", headers=headers)
        assert response.status_code == status, (headers, response.json)
        assert response.content_type == "application/problem+json"
    assert client.post("/v1/games/nosuchgame/rematch", headers=auth(tokens[0])).status_code == 404
    # Nothing was written by the refusals.
    assert client.get(f"/v1/games/{game_id}").json["version"] == version


def test_two_seats_asking_at_once_make_one_rematch(redis_url, r):
    """The seat that loses the race to offer (its append expected the version before the offer) joins the
    rematch the other made."""
    from app import bootstrap
    from app.settings import Settings

    application = bootstrap.build(Settings(redis_url=redis_url), client=r)
    client = make_app(redis_url).test_client()
    game_id, (ana, bo) = finished_match(client, redis_url)
    stale = application.matches.table(game_id)
    first = application.rematches.rematch(game_id, ana)
    # Bo's call decided on the table before Ana's offer: its offer's append conflicts, and it joins.
    original = application.matches.table
    calls = []

    def table_once_stale(gid):
        calls.append(gid)
        return stale if len(calls) == 1 else original(gid)

    application.matches.table = table_once_stale
    second = application.rematches.rematch(game_id, bo)
    assert second.table.game_id == first.table.game_id and not second.created and first.created
    assert second.table.status == "active"


# -- replay ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        SHORT,
        {
            "game": "smear",
            "options": {"first_dealer": 0, "match_target": 5},
            "seats": [
                {"kind": "human"},
                {"kind": "bot", "level": "basic"},
                {"kind": "human"},
                {"kind": "bot", "level": "basic"},
            ],
        },
    ],
    ids=["sixty-six", "smear"],
)
def test_a_replay_at_every_version_is_the_fold_of_the_log_with_every_hand_shown(client, redis_url, r, body):
    game_id, _ = finished_match(client, redis_url, body)
    client.post(f"/v1/games/{game_id}/rematch", headers=auth(_[0]))  # the offer is a version of its own
    events = [{"type": e.type, "actor": e.actor, "data": e.data} for e in EventStore(r).read(game_id)]
    last = len(events)
    assert client.get(f"/v1/games/{game_id}/replay").json["version"] == last
    hidden_filled = 0
    for version in range(1, last + 1):
        response = client.get(f"/v1/games/{game_id}/replay?version={version}")
        assert response.status_code == 200, response.json
        step = response.json
        table = fold(events[:version])
        spectator = tables.seat_view(table, None)
        seats = [tables.seat_view(table, s) for s in range(len(table.seats))]
        assert (step["game_id"], step["version"], step["last_version"]) == (game_id, version, last)
        if table.deals == 0:
            assert step["hands"] is None and step["view"] == spectator
            continue
        # Every hand, as its seat saw it.
        assert step["hands"] == [s["round"]["hand"] for s in seats]
        assert sum(map(len, step["hands"])) == sum(spectator["round"]["hand_sizes"])
        # The rest of the view is the spectator's, but for what a seat saw of the round that a spectator did not.
        assert {k: v for k, v in step["view"].items() if k != "round"} == {
            k: v for k, v in spectator.items() if k != "round"
        }
        for key, value in step["view"]["round"].items():
            if spectator["round"][key] is not None:
                assert value == spectator["round"][key], key
            else:
                known = [s["round"][key] for s in seats if s["round"][key] is not None and key != "hand"]
                assert value == (known[0] if known else None), key
                hidden_filled += bool(known)
    if body["game"] == "smear":
        assert hidden_filled > 0  # the widow, the discard or the named trump was shown


def test_a_replay_is_for_a_finished_match_and_a_version_it_has(client, redis_url):
    running, _ = start_match(client, SHORT)
    refused = client.get(f"/v1/games/{running}/replay?version=1")
    assert refused.status_code == 409 and refused.json["type"].endswith("/match-not-finished")
    assert client.get(f"/v1/games/{running}/replay").status_code == 409
    game_id, _ = finished_match(client, redis_url)
    last = client.get(f"/v1/games/{game_id}").json["version"]
    for version in (0, -1, last + 1, "x"):
        bad = client.get(f"/v1/games/{game_id}/replay?version={version}")
        assert bad.status_code == 400 and bad.json["errors"][0]["field"] == "version", bad.json
    assert client.get("/v1/games/nosuchgame/replay").status_code == 404
    assert client.get(f"/v1/games/{game_id}/replay?version=1&seat=0").status_code == 400


def test_the_audit_refuses_a_second_offer_and_an_offer_before_the_end(client, redis_url, r):
    """Written past the use case (straight to the store): the audit's replay refuses what the table would not."""
    store = EventStore(r)
    game_id, (ana, _) = finished_match(client, redis_url)
    client.post(f"/v1/games/{game_id}/rematch", headers=auth(ana))
    head = client.get(f"/v1/games/{game_id}").json["version"]
    store.append(game_id, [{"type": "rematch_offered", "actor": None, "data": {"game_id": "another"}}], head)
    report = audit_game(store, game_id)
    assert not report["ok"] and report["first_broken"]["version"] == head + 1
    assert report["first_broken"]["check"] == "replay"

    running, _ = start_match(client, SHORT)
    run_jobs(redis_url)
    version = client.get(f"/v1/games/{running}").json["version"]
    store.append(running, [{"type": "rematch_offered", "actor": None, "data": {"game_id": "early"}}], version)
    report = audit_game(store, running)
    assert not report["ok"] and report["first_broken"]["version"] == version + 1
    assert report["first_broken"]["check"] == "replay"
