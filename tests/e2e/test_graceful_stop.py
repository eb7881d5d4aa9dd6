"""Stopping the API (SIGTERM, as a deploy does) with players connected: their long-poll answers with the
game as it is and their event stream ends cleanly within seconds, and gunicorn exits, instead of its
graceful stop waiting out graceful_timeout (20 s) for them and then cutting them off."""

from __future__ import annotations

import signal
import threading
import time

import requests

from tests.e2e.conftest import lone_api

STOPPED_WITHIN_S = 10.0  # half of gunicorn's graceful_timeout


def test_sigterm_ends_open_long_polls_and_streams_and_the_process(tmp_path):
    answers: dict[str, object] = {}
    with lone_api(tmp_path) as (base, api):
        game_id = requests.post(
            base + "/v1/games", timeout=5, json={"game": "sixty-six", "seats": [{"kind": "human"}, {"kind": "human"}]}
        ).json()["game_id"]

        def long_poll():
            answers["poll"] = requests.get(
                f"{base}/v1/games/{game_id}?wait=30", headers={"If-None-Match": '"1"'}, timeout=40
            ).status_code

        def stream():
            with requests.get(f"{base}/v1/games/{game_id}/stream", stream=True, timeout=40) as response:
                answers["stream"] = [line for line in response.iter_lines() if line]

        clients = [threading.Thread(target=long_poll), threading.Thread(target=stream)]
        for client in clients:
            client.start()
        time.sleep(1.0)  # both are waiting in the server
        started = time.monotonic()
        api.popen.send_signal(signal.SIGTERM)
        api.popen.wait(STOPPED_WITHIN_S)
        stopped_after = time.monotonic() - started
        for client in clients:
            client.join(5)
    assert api.popen.returncode == 0, api.log()
    assert stopped_after < STOPPED_WITHIN_S
    assert answers["poll"] == 304  # nothing moved: "not modified"
    assert [line for line in answers["stream"] if line.startswith(b"id:")] == [b"id: 1"]  # then a clean end
