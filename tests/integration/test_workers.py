"""rq jobs with real rq workers on a real Redis: bots play, rounds are scored, duplicates do nothing."""

from __future__ import annotations

import time

from flask.testing import FlaskClient
from rq import Queue
from rq.job import Job
from rq.registry import FinishedJobRegistry

from adapters.rq_queue import job_id
from app import bootstrap, matches
from app.matches import Matches
from app.ports import Job as OwedJob
from app.settings import Settings
from events.store import EventStore
from games import table as tables
from tests.support.talon import auth, make_app, matches_on, run_jobs
from workers.__main__ import Ticker

BOTS_QUEUE = "talon-bots"  # a bot-only match's jobs (adapters/rq_queue.py): taken after the human matches'


def sweep(talon: Matches) -> int:
    return talon.sweep(now_ms=int(time.time() * 1000), idle_expiry_s=3600)


TWO_BOTS = {"game": "sixty-six", "seats": [{"kind": "bot", "level": "basic"}, {"kind": "bot", "level": "random"}]}


def test_a_bot_only_match_runs_to_its_end_by_itself(r, redis_url):
    client = make_app(redis_url).test_client()
    game_id = client.post("/v1/games", json=TWO_BOTS).json["game_id"]
    run_jobs(redis_url)  # one burst: each job enqueues the next until nothing is left to do
    view = client.get(f"/v1/games/{game_id}").json
    assert view["status"] == "finished"
    target = view["options"]["match_target"]
    winner_side = next(side for side in view["standing"] if side["seats"] == view["winner"])
    assert winner_side["score"] >= target
    assert all(side["score"] < target for side in view["standing"] if side is not winner_side)
    versions = [e.version for e in EventStore(r).read(game_id)]
    assert versions == list(range(1, len(versions) + 1))
    assert Queue("talon", connection=r).count == 0


def test_a_human_move_wakes_the_bot(r, redis_url):
    client = make_app(redis_url).test_client()
    body = {
        "game": "sixty-six",
        "options": {"first_dealer": 1},
        "seats": [{"kind": "human"}, {"kind": "bot", "level": "basic"}],
    }
    game_id = client.post("/v1/games", json=body).json["game_id"]
    token = client.post(f"/v1/games/{game_id}/players", json={"name": "Ana"}).json["token"]
    view = client.get(f"/v1/games/{game_id}", headers=auth(token)).json
    assert view["to_act"] == [0]  # the non-dealer leads
    play = next(a for a in view["legal_actions"] if a["type"] == "play")
    client.post(f"/v1/games/{game_id}/actions", json=play, headers=auth(token))
    run_jobs(redis_url, max_jobs=1)
    after = client.get(f"/v1/games/{game_id}", headers=auth(token)).json
    assert len(after["round"]["tricks"]) == 1  # the bot answered the lead


def test_a_duplicated_bot_job_moves_once(r, redis_url, monkeypatch):
    monkeypatch.setattr(matches, "JOB_BUDGET_S", 60.0)  # the steps below in one job, however slow the machine
    talon = matches_on(r)
    created = talon.create_match(
        "sixty-six", {"first_dealer": 0}, [{"kind": "human"}, {"kind": "bot", "level": "random"}]
    )
    table, _, _ = talon.claim_seat(created.game_id, 0, "Ana")
    Queue("talon", connection=r).empty()  # the bot's job from the deal: we deliver it ourselves
    assert tables.owed_work(table) == [("bot", 1)]  # the non-dealer leads
    expected, after = [], table  # what is owed until the human's turn (one job does it all), decided here
    while (owed := tables.owed_work(after)) in ([("bot", 1)], [("advance", None)]):
        step = tables.act(after, 1, tables.bot_choice(after, 1)) if owed == [("bot", 1)] else tables.system_step(after)
        for event in step:
            after = tables.evolve(after, event)
        expected += step
    queue = Queue("talon", connection=r)
    for _ in range(3):  # the same job delivered three times (ids differ, as after a crash and a retry)
        queue.enqueue("workers.jobs.bot_turn", table.game_id, table.version, 1)
    run_jobs(redis_url, max_jobs=3)  # exactly the three deliveries, not the follow-ups they enqueue
    moved = EventStore(r).read(table.game_id, after=table.version)
    assert [(e.type, e.actor, e.data) for e in moved] == [(e["type"], e["actor"], e["data"]) for e in expected]


def test_one_job_plays_the_bots_up_to_the_next_human_turn(r, redis_url, monkeypatch):
    monkeypatch.setattr(matches, "JOB_BUDGET_S", 60.0)  # however slow the machine
    talon = matches_on(r)
    created = talon.create_match("smear", {}, [{"kind": "human"}] + [{"kind": "bot", "level": "basic"}] * 3, seed=5)
    table, _, _ = talon.claim_seat(created.game_id, 0, "Ana")
    run_jobs(redis_url)  # the deal and the bots before Ana's first turn
    table = talon.table(table.game_id)
    assert tables.owed_work(table) == [] and table.rules.to_act(table.state) == [0]
    after = talon.act(table.game_id, tables.seat_view(table, 0)["legal_actions"][0], lambda _: 0).table
    assert tables.owed_work(after) == [("bot", 1)]
    run_jobs(redis_url, max_jobs=1)
    moved = EventStore(r).read(table.game_id, after=after.version)
    assert {e.actor for e in moved if e.actor is not None} == {1, 2, 3}  # the three bots, one after another
    now = talon.table(table.game_id)
    assert now.rules.to_act(now.state) == [0] and Queue("talon", connection=r).count == 0


def test_a_job_yields_the_worker_after_a_bounded_number_of_appends(r, redis_url, monkeypatch):
    monkeypatch.setattr(matches, "JOB_BUDGET_S", 60.0)  # the bound on appends, not on time, ends it
    talon = matches_on(r)
    table = talon.create_match("sixty-six", {}, [{"kind": "bot"}, {"kind": "bot"}], seed=9)
    run_jobs(redis_url, max_jobs=1)
    now = talon.table(table.game_id)
    appends = {e.at for e in EventStore(r).read(table.game_id, after=table.version)}
    assert now.status == "active" and 1 < len(appends) <= matches.JOB_STEPS
    ((kind, seat),) = tables.owed_work(now)  # the rest is left to the next job, queued behind other games'
    queued = Queue(BOTS_QUEUE, connection=r).job_ids
    assert queued == [job_id(OwedJob(kind, now.game_id, now.version, seat))]


def test_a_job_past_its_time_budget_queues_the_next_move(r, redis_url, monkeypatch):
    # As with an expert bot, whose move may take a few hundred ms: other games' jobs come first.
    monkeypatch.setattr(matches, "JOB_BUDGET_S", 0.0)
    talon = matches_on(r)
    table = talon.create_match("sixty-six", {}, [{"kind": "bot"}, {"kind": "bot"}], seed=9)
    Queue(BOTS_QUEUE, connection=r).empty()
    ((_, seat),) = tables.owed_work(table)
    assert talon.bot_turn(table.game_id, table.version, seat)
    now = talon.table(table.game_id)
    assert now.version == table.version + len(tables.bot_move(table, seat))  # one move, then the queue
    ((kind, next_seat),) = tables.owed_work(now)
    assert Queue(BOTS_QUEUE, connection=r).job_ids == [job_id(OwedJob(kind, now.game_id, now.version, next_seat))]


def test_with_a_bot_delay_every_bot_move_waits_for_its_own_job(r):
    talon = matches_on(r, bot_delay_s=5)
    table = talon.create_match("sixty-six", {}, [{"kind": "bot"}, {"kind": "bot"}], seed=9)
    ((_, seat),) = tables.owed_work(table)
    assert talon.bot_turn(table.game_id, table.version, seat)
    assert talon.table(table.game_id).version == table.version + len(tables.bot_move(table, seat))


def test_enqueueing_the_same_owed_job_twice_is_refused(r):
    talon = matches_on(r)
    table = talon.create_match("sixty-six", {}, [{"kind": "bot"}, {"kind": "bot"}])
    assert talon.jobs.enqueue(talon._owed_jobs(table)) == 0  # creation already enqueued it under the same id
    assert Queue(BOTS_QUEUE, connection=r).count == 1


def test_game_jobs_are_ordinary_rq_jobs_that_operators_see(r, redis_url):
    """A game job is enqueued and run by rq's own paths: its record, the finished registry and its
    result are what rq writes for any job (rq-dashboard and `rq info` show them)."""
    talon = matches_on(r)
    table = talon.create_match("sixty-six", {"match_target": 1}, [{"kind": "bot"}, {"kind": "bot"}])
    (owed,) = talon._owed_jobs(table)
    jid = job_id(owed)
    queued = Job.fetch(jid, connection=r)
    assert (queued.func_name, queued.args[:2], queued.origin) == (
        f"workers.jobs.{ {'advance': 'advance', 'bot': 'bot_turn'}[owed.kind] }",
        (table.game_id, table.version),
        BOTS_QUEUE,
    )
    assert queued.get_status() == "queued"
    run_jobs(redis_url, max_jobs=1)
    done = Job.fetch(jid, connection=r)
    assert done.get_status() == "finished" and done.return_value() is True
    assert jid in FinishedJobRegistry(BOTS_QUEUE, connection=r).get_job_ids()


def test_a_stale_job_does_nothing(r, redis_url):
    talon = matches_on(r)
    table = talon.create_match("sixty-six", {}, [{"kind": "bot"}, {"kind": "bot"}])
    run_jobs(redis_url, max_jobs=1)
    version = EventStore(r).version(table.game_id)
    assert talon.bot_turn(table.game_id, table.version, 0) is False
    assert talon.bot_turn(table.game_id, table.version, 1) is False
    assert talon.advance(table.game_id, table.version) is False
    assert EventStore(r).version(table.game_id) == version


def test_the_sweeper_repairs_a_lost_enqueue(r, redis_url):
    talon = matches_on(r)
    table = talon.create_match("sixty-six", {}, [{"kind": "bot"}, {"kind": "bot"}])
    Queue(BOTS_QUEUE, connection=r).empty()  # a crash between the append and the enqueue
    assert sweep(talon) == 1
    assert sweep(talon) == 0  # the repaired job is queued: nothing more to do
    run_jobs(redis_url)
    assert talon.table(table.game_id).status == "finished"


def test_the_sweeper_replaces_a_failed_job(r, redis_url):
    talon = matches_on(r)
    table = talon.create_match("sixty-six", {}, [{"kind": "bot"}, {"kind": "bot"}])
    job = Job.fetch(job_id(OwedJob("bot", table.game_id, table.version, tables.owed_work(table)[0][1])), connection=r)
    Queue(BOTS_QUEUE, connection=r).remove(job)
    job.set_status("failed")
    assert sweep(talon) == 1
    run_jobs(redis_url)
    assert talon.table(table.game_id).status == "finished"


def test_a_round_stored_unscored_is_scored_by_the_worker(r, redis_url):
    """A round ended by an append without its scoring and next deal (as a server before settled moves
    stored it): the sweeper enqueues the system step the table owes, and the worker takes it."""
    talon = matches_on(r)
    table = talon.create_match("sixty-six", {"first_dealer": 0}, [{"kind": "human"}, {"kind": "human"}])
    for seat in (0, 1):
        talon.claim_seat(table.game_id, seat, f"p{seat}")
    table = talon.table(table.game_id)
    # A false declaration ends the round at once.
    talon.tables.save(table.game_id, table, tables.act(table, 1, {"type": "declare_out"}))
    assert tables.owed_work(talon.table(table.game_id)) == [("advance", None)]
    assert sweep(talon) == 1
    run_jobs(redis_url)
    after = talon.table(table.game_id)
    view = tables.seat_view(after, 0)
    assert view["standing"][0]["score"] == 3  # B2: the opponent had no trick
    assert view["round"]["number"] == 2  # the result and the next deal, appended by the job


def _move_the_bot_answers(redis_url: str):
    """An app, its plain Flask test client (which closes nothing by itself), a match of a human (seat 0,
    to lead) against a bot, the human's token and a legal lead: after it, the bot's move is owed."""
    app = make_app(redis_url)
    client = FlaskClient(app)
    game_id = client.post(
        "/v1/games",
        json={"game": "sixty-six", "options": {"first_dealer": 1}, "seats": [{"kind": "human"}, {"kind": "bot"}]},
    ).json["game_id"]
    token = client.post(f"/v1/games/{game_id}/players", json={"name": "a"}).json["token"]
    view = client.get(f"/v1/games/{game_id}", headers=auth(token)).json
    return app, client, game_id, token, view["legal_actions"][0]


def test_a_moves_jobs_are_enqueued_once_its_answer_is_written(r, redis_url):
    _, client, game_id, token, action = _move_the_bot_answers(redis_url)
    queue = Queue("talon", connection=r)
    answer = client.post(f"/v1/games/{game_id}/actions", json=action, headers=auth(token))
    assert answer.status_code == 201 and answer.json["to_act"] == [1]
    assert queue.count == 0  # the answer is out; the server has not closed it yet
    answer.close()  # what a WSGI server does once it has sent it
    assert queue.job_ids == [job_id(OwedJob("bot", game_id, answer.json["version"], 1))]


def test_a_failed_enqueue_after_the_answer_is_logged_and_the_sweeper_repairs_it(r, redis_url, monkeypatch, caplog):
    app, client, game_id, token, action = _move_the_bot_answers(redis_url)
    talon = app.extensions["talon_application"].matches

    def redis_gone(jobs):
        raise ConnectionError("the job queue is unreachable")

    monkeypatch.setattr(talon.jobs, "enqueue", redis_gone)
    with client.post(f"/v1/games/{game_id}/actions", json=action, headers=auth(token)) as answer:
        assert answer.status_code == 201
        moved = answer.json["version"]
    assert "were not enqueued; the sweeper will enqueue them" in caplog.text
    monkeypatch.undo()
    assert Queue("talon", connection=r).count == 0 and sweep(talon) == 1
    run_jobs(redis_url)
    assert talon.table(game_id).version > moved  # the bot has answered


def test_the_ticker_has_the_projections_catch_up_on_a_match_that_owed_them_no_job(r, redis_url):
    """The end of a match nobody registered plays enqueues no job; the worker's ticker sees the feed ahead
    of the projections' cursor and enqueues one catch-up, which records the match; then it rests."""
    client = make_app(redis_url).test_client()
    game_id = client.post("/v1/games", json=TWO_BOTS).json["game_id"]
    run_jobs(redis_url)
    assert client.get(f"/v1/games/{game_id}").json["status"] == "finished"
    assert not [jid for jid in Queue("talon", connection=r).job_ids if jid.startswith("project-")]
    application = bootstrap.build(Settings(redis_url=redis_url), client=r)
    projections, store = application.projections, application.projections.store
    assert projections.behind() and not store.has_match(store.active(), game_id)

    ticker = Ticker(Queue("talon", connection=r), Settings(redis_url=redis_url), projections)
    ticker.tick()
    assert sorted(jid.rsplit("-", 1)[0] for jid in Queue("talon", connection=r).job_ids) == ["catch-up", "sweep"]
    run_jobs(redis_url)
    assert store.has_match(store.active(), game_id) and not projections.behind()
    ticker.tick()  # caught up, and the sweep is not due again yet: nothing to enqueue
    assert Queue("talon", connection=r).job_ids == []
