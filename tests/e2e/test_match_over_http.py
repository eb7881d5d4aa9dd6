"""A whole Sixty-Six match over HTTP against the real processes, and `make run`'s own start and stop.

The human at seat 0 picks uniformly among its legal actions (a seeded random.Random) against a `basic`
bot at seat 1. It learns that something happened only from its Server-Sent Events stream, which it cuts
part-way through and resumes with Last-Event-ID; afterwards the stream is checked against the
operator's full log: every version exactly once, and nothing of the bot's hidden cards.
"""

from __future__ import annotations

import json
import os
import random
import re
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path

import pytest
import requests

from tests.e2e.client import bearer, event_log
from tests.e2e.conftest import Service
from tests.support.processes import BIN, REPO
from tests.support.redis_proc import free_port

pytestmark = pytest.mark.slow

MATCH_TIMEOUT_S = 60.0  # the whole match; it takes a few seconds
EVENT_TIMEOUT_S = 10.0  # the longest wait for the next event (a bot move or a deal is milliseconds)
DROP_AFTER_ACTIONS = 12  # the human's stream is cut just before its 13th action
HUMAN, BOT = 0, 1


class EventStream:
    """One seat's SSE stream, read by a thread; one connection at a time, resumable with Last-Event-ID.

    `messages` holds every message received, over all connections, in arrival order.
    """

    def __init__(self, service: Service, game_id: str, token: str):
        self.service, self.game_id, self.token = service, game_id, token
        self.messages: list[dict] = []
        self.connections: list[str | None] = []  # the Last-Event-ID each connection sent
        self.error: BaseException | None = None
        self._changed = threading.Condition()
        self._response: requests.Response | None = None
        self._thread: threading.Thread | None = None
        self._cutting = False

    @property
    def last_version(self) -> int:
        with self._changed:
            return self.messages[-1]["id"] if self.messages else 0

    def open(self, last_event_id: int | None = None) -> None:
        assert self._thread is None, "one connection at a time"
        ticket = requests.post(
            self.service.url(f"/v1/games/{self.game_id}/stream-tickets"), headers=bearer(self.token), timeout=5
        )
        assert ticket.status_code == 201, ticket.text
        headers = {"Accept": "text/event-stream"}
        if last_event_id is not None:
            headers["Last-Event-ID"] = str(last_event_id)
        response = requests.get(
            self.service.url(f"/v1/games/{self.game_id}/stream"),
            params={"ticket": ticket.json()["ticket"]},
            headers=headers,
            stream=True,
            timeout=(5, 30),
        )  # keep-alives come every 15 s
        assert response.status_code == 200, response.text
        assert response.headers["Content-Type"].startswith("text/event-stream")
        self.connections.append(headers.get("Last-Event-ID"))
        self._response, self._cutting = response, False
        self._thread = threading.Thread(target=self._read, args=(response,), name="sse-reader", daemon=True)
        self._thread.start()

    def cut(self) -> None:
        """Break the connection from the client's side, as a network failure would, and wait for the reader."""
        assert self._response is not None and self._thread is not None
        self._cutting = True
        try:
            self._response.raw.shutdown()  # unblocks the reader's recv() at once
        except (RuntimeError, ValueError):
            pass  # the server had ended the response already
        self._thread.join(5)
        assert not self._thread.is_alive(), "the SSE reader did not stop after the connection was cut"
        self._response.close()
        self._response, self._thread = None, None

    def close(self) -> None:
        if self._thread is not None:
            self.cut()

    def wait_for(self, version: int, timeout_s: float = EVENT_TIMEOUT_S) -> None:
        """Until the stream has delivered `version` (or raise)."""
        deadline = time.monotonic() + timeout_s
        with self._changed:
            while not (self.messages and self.messages[-1]["id"] >= version):
                if self.error is not None:
                    raise AssertionError(f"the SSE reader failed: {self.error!r}")
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise AssertionError(
                        f"no SSE event {version} within {timeout_s} s; "
                        f"last seen {self.messages[-1]['id'] if self.messages else None}"
                    )
                self._changed.wait(remaining)

    def _read(self, response: requests.Response) -> None:
        buffer, message = b"", {}
        try:
            for chunk in response.iter_content(chunk_size=None):
                buffer += chunk
                while b"\n" in buffer:
                    line, buffer = buffer.split(b"\n", 1)
                    message = self._line(line.decode().rstrip("\r"), message)
        except Exception as exc:  # noqa: BLE001 - a cut connection ends here too
            if not self._cutting:
                with self._changed:
                    self.error = exc
                    self._changed.notify_all()

    def _line(self, line: str, message: dict) -> dict:
        """One line of the SSE wire format; a blank line dispatches the message."""
        if line == "":
            if "data" in message:
                event = {"id": int(message["id"]), "event": message.get("event"), "data": json.loads(message["data"])}
                with self._changed:
                    self.messages.append(event)
                    self._changed.notify_all()
            return {}
        if line.startswith(":"):
            return message
        name, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if name == "data":
            message["data"] = message["data"] + "\n" + value if "data" in message else value
        elif name in ("id", "event", "retry"):
            message[name] = value
        return message


def test_a_random_human_plays_a_whole_match_against_a_basic_bot(service):
    rng = random.Random(66)
    http = requests.Session()

    created = http.post(
        service.url("/v1/games"),
        headers=bearer(service.operator_token),
        timeout=5,
        json={
            "game": "sixty-six",
            "options": {"variant": "2p24"},
            "seed": 20261130,
            "seats": [{"kind": "human"}, {"kind": "bot", "level": "basic"}],
        },
    )
    assert created.status_code == 201, created.text
    game_id = created.json()["game_id"]
    assert created.headers["Location"] == f"/v1/games/{game_id}"

    claimed = http.post(service.url(f"/v1/games/{game_id}/players"), json={"name": "Rand"}, timeout=5)
    assert claimed.status_code == 201, claimed.text
    assert claimed.json()["seat"] == HUMAN
    token = claimed.json()["token"]
    seat = bearer(token)

    def current_view() -> dict:
        response = http.get(service.url(f"/v1/games/{game_id}"), headers=seat, timeout=5)
        assert response.status_code == 200, response.text
        assert response.headers["ETag"] == f'"{response.json()["version"]}"'
        return response.json()

    stream = EventStream(service, game_id, token)
    stream.open()
    try:
        view = current_view()
        actions, cut_at, deadline = 0, None, time.monotonic() + MATCH_TIMEOUT_S
        while view["status"] != "finished":
            assert time.monotonic() < deadline, f"the match did not finish within {MATCH_TIMEOUT_S} s"
            assert view["status"] == "active", view["status"]
            if not view["legal_actions"]:
                # Not our turn: the next event will tell (a bot move, a score, a deal).
                stream.wait_for(view["version"] + 1)
                view = current_view()
                continue
            assert view["to_act"] == [HUMAN]
            action = rng.choice(view["legal_actions"])
            if actions == DROP_AFTER_ACTIONS:
                stream.cut()
                cut_at = stream.last_version
            posted = http.post(
                service.url(f"/v1/games/{game_id}/actions"),
                json=action,
                timeout=5,
                headers={**seat, "If-Match": f'"{view["version"]}"'},
            )
            assert posted.status_code == 201, (action, posted.text)
            actions += 1
            view = posted.json()
            if actions == DROP_AFTER_ACTIONS + 1:
                assert view["version"] > cut_at  # our action was appended while the stream was down
                stream.open(last_event_id=cut_at)
            stream.wait_for(view["version"])
        final = view["version"]
        stream.wait_for(final)
    finally:
        stream.close()
        http.close()

    # The stream: versions 1..final, each exactly once, across the cut, in order.
    versions = [m["id"] for m in stream.messages]
    assert versions == list(range(1, final + 1))
    assert stream.connections == [None, str(cut_at)]
    assert cut_at is not None and 1 < cut_at < final

    # The stream against the operator's full log: same events; hidden parts hidden, the rest the same.
    full = event_log(requests, service, game_id, bearer(service.operator_token), ops=True, max_pages=100)
    assert [e["version"] for e in full] == versions
    dealt = 0
    for seen, truth in zip(stream.messages, full):
        assert seen["event"] == truth["type"] == seen["data"]["type"]
        assert seen["data"]["version"] == truth["version"]
        assert seen["data"]["actor"] == truth["actor"]
        kind, shown, data = truth["type"], seen["data"]["data"], truth["data"]
        if kind == "dealt":
            dealt += 1
            assert len(data["hands"][BOT]) > 0
            assert shown["hands"][HUMAN] == data["hands"][HUMAN]
            assert shown["hands"][BOT] is None, "the stream showed the bot's hand"
            assert shown["hand_sizes"] == [len(h) for h in data["hands"]]
            assert "stock" not in shown, "the stream showed the stock's order"
            assert shown["trump_card"] == data["trump_card"]
        elif kind == "drew":
            for draw_seen, draw in zip(shown["draws"], data["draws"], strict=True):
                hidden = draw["seat"] == BOT and not draw["face_up"]
                assert draw_seen["card"] == (None if hidden else draw["card"]), (draw_seen, draw)
        elif kind == "match_created":
            assert "seed" not in shown and "decks" not in shown
            assert {k: v for k, v in data.items() if k not in ("seed", "decks")} == shown
        elif kind == "seat_claimed":
            assert "token_hash" not in shown
        else:
            assert shown == data, kind
    assert dealt >= 2, "a match to 7 game points takes several deals"
    assert "match_ended" == full[-1]["type"]

    # The end: finished, a winner, and the winner's side reached the match target.
    assert view["status"] == "finished" and view["legal_actions"] == [] and view["to_act"] == []
    again = current_view()
    assert (again["version"], again["status"], again["winner"]) == (final, "finished", view["winner"])
    winner = view["winner"]
    assert winner in ([HUMAN], [BOT])
    target = view["options"]["match_target"]
    standing = {tuple(side["seats"]): side["score"] for side in view["standing"]}
    assert standing[tuple(winner)] >= target
    loser = [HUMAN] if winner == [BOT] else [BOT]
    assert standing[tuple(loser)] < target
    assert full[-1]["data"]["winner"] == winner


# --- `make run` ---------------------------------------------------------------------------------------

RUN_STOP_TIMEOUT_S = 15.0


def _isolated_checkout(tmp_path: Path) -> Path:
    """The repository seen through symlinks, so that scripts/run keeps its data in tmp_path/.run.

    scripts/run `cd`s to the directory above itself and writes Redis's files to ./.run: run in the
    real checkout, it would share them with a developer's own `make run`.
    """
    root = tmp_path / "checkout"
    (root / "scripts").mkdir(parents=True)
    for name in ("run", "redis-server-path"):
        (root / "scripts" / name).symlink_to(REPO / "scripts" / name)
    for name in (".venv", "deploy", "service", "workers", "games", "events"):
        (root / name).symlink_to(REPO / name)
    return root


def _group_members(pgid: int) -> list[str]:
    """Live (not zombie) processes in the process group, as "pid state command" lines, from /proc."""
    members = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
            cmdline = (stat.parent / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        fields = text[text.rindex(")") + 2 :].split()  # after "pid (comm) "
        state, group = fields[0], int(fields[2])
        if group == pgid and state != "Z":
            members.append(f"{stat.parent.name} {state} {cmdline}")
    return members


def _group_alive(pgid: int) -> bool:
    return bool(_group_members(pgid))


def _port_open(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(0.5)
        return s.connect_ex(("127.0.0.1", port)) == 0


def _as_from_a_terminal() -> None:
    """The child starts as from a user's terminal: SIGINT neither ignored nor blocked. A shell that
    starts with SIGINT ignored cannot trap it, and the suite's own process may have it ignored by then
    (seen: SigIgn with SIGINT in /proc of a scripts/run that never saw its Ctrl-C)."""
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGQUIT, signal.SIG_DFL)


def test_make_run_serves_and_stops_everything_on_ctrl_c(tmp_path):
    root = _isolated_checkout(tmp_path)
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "REDIS_PORT", "OPERATOR_TOKEN")}
    env.update(PORT=str(port), VENV=str(BIN.parent), PYTHONUNBUFFERED="1")
    if os.environ.get("TALON_REDIS_SERVER"):
        env["TALON_REDIS_SERVER"] = os.environ["TALON_REDIS_SERVER"]
    log_path = tmp_path / "run.log"
    with open(log_path, "wb") as log:
        script = subprocess.Popen(
            [str(root / "scripts" / "run")],
            cwd=root,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
            preexec_fn=_as_from_a_terminal,
        )
    pgid = script.pid
    redis_port = None
    try:
        # Bounded polling while the processes start, until the script says it is running (a Ctrl-C
        # before that point is another case: scripts/run then goes on starting things after its trap).
        deadline = time.monotonic() + 30
        while True:
            assert script.poll() is None, f"scripts/run exited with {script.returncode}:\n{log_path.read_text()}"
            if "Talon is running" in log_path.read_text(errors="replace"):
                break
            assert time.monotonic() < deadline, f"scripts/run did not start:\n{log_path.read_text()}"
            time.sleep(0.1)
        # `Connection: close`: the server closes each connection itself, so no client hang-up reaches a
        # gunicorn worker just as SIGINT does. gunicorn 27.0.1's gthread worker can deadlock when SIGINT
        # lands while it hands a ready connection to its thread pool (handle_quit calls
        # ThreadPoolExecutor.shutdown inside the signal handler, whose lock submit() holds): the master
        # then waits graceful_timeout (20 s) and kills it. That is gunicorn's race, not scripts/run's.
        close = {"Connection": "close"}
        assert requests.get(f"http://127.0.0.1:{port}/readyz", headers=close, timeout=5).status_code == 200
        created = requests.post(
            f"http://127.0.0.1:{port}/v1/games",
            headers=close,
            timeout=5,
            json={"game": "sixty-six", "options": {"variant": "2p24"}, "seats": [{"kind": "human"}, {"kind": "bot"}]},
        )
        assert created.status_code == 201, created.text
        found = re.search(r"Redis: redis://127\.0\.0\.1:(\d+)/", log_path.read_text())
        assert found, log_path.read_text()
        redis_port = int(found.group(1))
        assert (root / ".run").is_dir()

        # Ctrl-C: the terminal sends SIGINT to the whole foreground process group.
        started = time.monotonic()
        os.killpg(pgid, signal.SIGINT)
        try:
            script.wait(RUN_STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            still = "\n".join(_group_members(pgid))
            pytest.fail(
                f"scripts/run still running {RUN_STOP_TIMEOUT_S} s after SIGINT; processes:\n{still}\n"
                f"its output:\n{log_path.read_text()}"
            )
        while _group_alive(pgid) and time.monotonic() - started < RUN_STOP_TIMEOUT_S:
            time.sleep(0.1)
        leftovers = "\n".join(_group_members(pgid))
        assert not leftovers, f"processes left behind after SIGINT:\n{leftovers}\n{log_path.read_text()}"
        assert not _port_open(port), "the API port still answers"
        assert not _port_open(redis_port), "the Redis port still answers"
        assert "stopped." in log_path.read_text()
    finally:
        if _group_alive(pgid):
            os.killpg(pgid, signal.SIGKILL)
        script.wait(5)
