"""Helpers for tests that run the real app on a real Redis, with real rq workers."""

from __future__ import annotations

import random
import signal
import time
from collections.abc import Callable

import redis
from flask.testing import FlaskClient
from rq import Queue, SimpleWorker

from adapters.rq_queue import background_queue_name
from app import bootstrap
from app.matches import Matches
from app.settings import Settings
from service.app import create_app
from tests.support.contract import check_response

OPERATOR = "operator-test-token-0123456789abcdef"  # 32+ characters, as outside development


class ServerLikeClient(FlaskClient):
    """Flask's test client, closing each response once it is read, as a WSGI server closes a response
    once it has sent it: a move's follow-up jobs are enqueued then (service/routes/games.py `_answer`).
    An event stream is left open for the test to read. Every response is checked against openapi.yaml
    (tests/support/contract.py): the status, the content type and, but for a stream, the body."""

    def open(self, *args, **kwargs):
        response = super().open(*args, **kwargs)
        body = None
        if response.mimetype != "text/event-stream":
            body = response.get_data()
            response.close()
        check_response(
            response.request.method, response.request.path, response.status_code, response.content_type, body
        )
        return response


def matches_on(client: redis.Redis, **settings) -> Matches:
    """The use cases as app/bootstrap.py builds them, on this Redis client (`settings` override the
    defaults, e.g. bot_delay_s; bots think for no time unless asked to)."""
    settings.setdefault("bot_think_s", 0.0)
    url = "redis://{host}:{port}/{db}".format(**client.connection_pool.connection_kwargs)
    return bootstrap.build(Settings(redis_url=url, **settings), client=client).matches


def make_app(redis_url: str, **overrides):
    """The app on this Redis. Rate limits are off unless a test turns them on (test_rate_limits)."""
    overrides.setdefault("rate_limits_enabled", False)
    overrides.setdefault("bot_think_s", 0.0)
    app = create_app(Settings(redis_url=redis_url, operator_token=OPERATOR, **overrides))
    app.test_client_class = ServerLikeClient
    return app


def make_contract_app(redis_url: str):
    """The app for generated traffic (schemathesis). The spec allows ?wait= up to 30 s and the server caps
    it (Settings.long_poll_max_s), here at 0.2 s, so that generated long-polls on games nobody moves do not
    each hold the run for up to 30 s; likewise an event stream, read to its end, ends after 0.5 s
    (Settings.stream_max_s, 300 s in service)."""
    return make_app(redis_url, long_poll_max_s=0.2, stream_max_s=0.5)


def run_jobs(
    redis_url: str, queue_name: str = "talon", max_jobs: int | None = None, with_scheduler: bool = False
) -> None:
    """Run queued jobs in-process with the worker class `python -m workers` runs, on its two queues in
    its order (the bot-only matches' last), until they are empty (with the scheduler: also the scheduled
    jobs that are due)."""
    connection = redis.Redis.from_url(redis_url)
    queues = [Queue(name, connection=connection) for name in (queue_name, background_queue_name(queue_name))]
    burst(
        SimpleWorker(queues, connection=connection),
        max_jobs=max_jobs,
        logging_level="WARNING",
        with_scheduler=with_scheduler,
    )


def burst(worker, **options) -> None:
    """`worker.work(burst=True)` in this process, with the signal handlers put back afterwards: rq points
    SIGINT and SIGTERM at the worker's `request_stop` and leaves them there, so a Ctrl-C in a test run
    that had run jobs in-process was only logged as a warm shutdown request and the run went on."""
    saved = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        worker.work(burst=True, **options)
    finally:
        for sig, handler in saved.items():
            signal.signal(sig, handler)


def auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


TWO_HUMANS = {"game": "sixty-six", "options": {"first_dealer": 0}, "seats": [{"kind": "human"}, {"kind": "human"}]}
NAMES = ("Ana", "Bo", "Cy", "Di", "Eve", "Fay", "Gus", "Hal")


def start_match(client, body: dict = TWO_HUMANS, headers: dict | None = None) -> tuple[str, list[str]]:
    """A match created through the API (a Flask test client) with its human seats claimed in seat order,
    by Ana, Bo, ...: the game id and the seats' tokens. The last claim deals the first hand."""
    created = client.post("/v1/games", json=body, headers=headers or {})
    assert created.status_code == 201, created.json
    game_id = created.json["game_id"]
    humans = sum(seat["kind"] == "human" for seat in body["seats"])
    tokens = [client.post(f"/v1/games/{game_id}/players", json={"name": name}).json["token"] for name in NAMES[:humans]]
    return game_id, tokens


def random_legal(view: dict, rng: random.Random) -> dict:
    return rng.choice(view["legal_actions"])


def await_finished(talon, game_id: str, timeout_s: float, failure: Callable[[], str]) -> None:
    """Polls until the match is finished; after `timeout_s` fails with `failure()` (e.g. a worker's log)."""
    deadline = time.monotonic() + timeout_s
    while talon.table(game_id).status != "finished":
        assert time.monotonic() < deadline, failure()
        time.sleep(0.2)
