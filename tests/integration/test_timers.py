"""Turn timers, bot takeover, seat reset and idle expiry, with real rq workers and its scheduler."""

from __future__ import annotations

import time

from rq import Queue
from rq.registry import ScheduledJobRegistry

from adapters.rq_queue import job_id
from app.matches import Matches
from app.ports import Job
from events.store import EventStore
from games import table as tables
from tests.support.talon import OPERATOR, auth, make_app, matches_on, run_jobs, start_match

HUMAN_VS_BOT = [{"kind": "human"}, {"kind": "bot", "level": "basic"}]


def seated_match(talon: Matches, **options) -> tuple[tables.Table, str]:
    created = talon.create_match("sixty-six", {"first_dealer": 1, **options}, HUMAN_VS_BOT, seed=3)
    table, _, token = talon.claim_seat(created.game_id, 0, "Ana")
    return table, token


def test_a_timer_is_scheduled_for_the_human_to_act(r):
    talon = matches_on(r)
    table, _ = seated_match(talon, turn_timeout_s=30)
    assert tables.owed_work(table) == [("timeout", 0)]  # the non-dealer (seat 0) leads
    scheduled = ScheduledJobRegistry(queue=Queue("talon", connection=r)).get_job_ids()
    assert job_id(Job("timeout", table.game_id, table.version, 0)) in scheduled


def test_no_timer_without_the_option(r):
    talon = matches_on(r)
    table, _ = seated_match(talon)
    assert tables.owed_work(table) == []
    assert ScheduledJobRegistry(queue=Queue("talon", connection=r)).count == 0


def test_timeouts_in_a_row_hand_the_seat_to_a_bot_until_the_human_acts(r, redis_url):
    talon = matches_on(r)
    table, token = seated_match(talon, turn_timeout_s=30, takeover_after=2)
    store = EventStore(r)

    assert talon.turn_timeout(table.game_id, table.version, 0)
    first = store.read(table.game_id, after=table.version)
    assert first[0].actor == 0  # the stand-in bot moved for seat 0
    timed_out = [e for e in first if e.type == "turn_timed_out"]  # the same job may go on with the bot's answer
    assert [e.data for e in timed_out] == [{"seat": 0, "consecutive": 1}]
    run_jobs(redis_url)  # whatever is left until seat 0's turn again
    table = talon.table(table.game_id)
    for _ in range(10):  # a round may need scoring first
        if ("timeout", 0) in tables.owed_work(table):
            break
        run_jobs(redis_url)
        table = talon.table(table.game_id)
    assert talon.turn_timeout(table.game_id, table.version, 0)
    table = talon.table(table.game_id)
    assert table.seats[0].taken_over and table.seats[0].timeouts == 2
    assert talon.turn_timeout(table.game_id, table.version - 1, 0) is False  # stale timers do nothing

    client = make_app(redis_url).test_client()
    view = client.get(f"/v1/games/{table.game_id}", headers=auth(token)).json
    assert view["players"][0]["taken_over"] is True
    run_jobs(redis_url, max_jobs=3)  # the bot plays seat 0 now, without timers
    for _ in range(50):  # until it is seat 0's turn (a queued bot job for it is then made stale)
        view = client.get(f"/v1/games/{table.game_id}", headers=auth(token)).json
        assert view["status"] == "active"
        if view["legal_actions"]:
            break
        run_jobs(redis_url, max_jobs=1)
    before = view["version"]
    back = client.post(f"/v1/games/{table.game_id}/actions", json=view["legal_actions"][0], headers=auth(token))
    assert back.status_code == 201
    returned = store.read(table.game_id, after=before)
    assert returned[0].type == "seat_returned" and returned[0].data == {"seat": 0}
    assert back.json["players"][0]["taken_over"] is False


def test_the_scheduler_fires_the_timer(r, redis_url):
    talon = matches_on(r)
    table, _ = seated_match(talon, turn_timeout_s=1)
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and talon.table(table.game_id).version == table.version:
        time.sleep(0.3)
        run_jobs(redis_url, with_scheduler=True, max_jobs=1)
    moved = EventStore(r).read(table.game_id, after=table.version)
    assert moved and moved[0].actor == 0 and any(e.type == "turn_timed_out" for e in moved)


def test_operator_resets_a_seat_and_a_new_player_takes_it(r, redis_url):
    client = make_app(redis_url).test_client()
    game_id, old = start_match(client)
    assert client.post(f"/v1/ops/games/{game_id}/seats/1/reset", headers=auth(old[0])).status_code == 403
    reset = client.post(f"/v1/ops/games/{game_id}/seats/1/reset", headers=auth(OPERATOR))
    assert reset.status_code == 200 and reset.json["players"][1]["claimed"] is False
    assert client.get(f"/v1/games/{game_id}", headers=auth(old[1])).status_code == 401  # revoked
    before = EventStore(r).version(game_id)
    run_jobs(redis_url, max_jobs=1)  # meanwhile a bot plays the open seat (it leads: any of its choices)
    moved = EventStore(r).read(game_id, after=before)
    assert moved and moved[0].actor == 1
    again = client.post(f"/v1/games/{game_id}/players", json={"name": "Cy"})
    assert again.status_code == 201 and again.json["seat"] == 1


def test_idle_matches_expire(r):
    talon = matches_on(r)
    table, _ = seated_match(talon)
    waiting = talon.create_match("sixty-six", {}, [{"kind": "human"}, {"kind": "human"}])
    now_ms = int(time.time() * 1000)
    assert talon.sweep(now_ms=now_ms, idle_expiry_s=3600) == 0
    assert talon.sweep(now_ms=now_ms + 3_601_000, idle_expiry_s=3600) == 2
    for game_id in (table.game_id, waiting.game_id):
        after = talon.table(game_id)
        assert after.status == "finished" and after.abandoned
    assert talon.store.lobby("finished", 0, 10)[1] == 2
