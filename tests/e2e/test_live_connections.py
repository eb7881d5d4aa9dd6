"""Live connections against the real processes (Redis, gunicorn's gevent workers as deployed, the rq
worker): many open streams and long-polls hold no thread, every stream gets every event of its match in
order, a client that goes away is released within 5 s, and slow clients are cut off.

The connections come from many loopback source addresses (127.0.10.1, ...), as distinct users would, and
stay within the per-address caps that `make run` starts with."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlsplit

import pytest
import requests

from tests.e2e.client import bearer
from tests.e2e.conftest import running_service
from tests.support.sse import Crowd, address, sources

pytestmark = pytest.mark.slow
CAP = 50  # Settings.max_streams_per_address, max_long_polls_per_address: the defaults
# The tests create matches and claim seats far faster than people do: those two limits are raised.
FAST = {"TALON_RATE_LIMIT_CREATE": "10000/minute", "TALON_RATE_LIMIT_JOIN": "10000/minute"}
TWO_HUMANS = {"game": "sixty-six", "options": {"match_target": 3}, "seats": [{"kind": "human"}, {"kind": "human"}]}


def host_port(service) -> tuple[str, int]:
    parts = urlsplit(service.base_url)
    return parts.hostname, parts.port


def new_match(http: requests.Session, service) -> tuple[str, list[str]]:
    """A match of two humans, both seats claimed; the first deal follows by itself (the worker)."""
    game_id = http.post(service.url("/v1/games"), json=TWO_HUMANS, timeout=10).json()["game_id"]
    tokens = [
        http.post(service.url(f"/v1/games/{game_id}/players"), json={"name": name}, timeout=10).json()["token"]
        for name in ("Ana", "Bo")
    ]
    return game_id, tokens


def dealt_view(http: requests.Session, service, game_id: str, token: str) -> dict:
    for _ in range(100):
        view = http.get(service.url(f"/v1/games/{game_id}"), headers=bearer(token), timeout=10).json()
        if view["status"] == "active":
            return view
        time.sleep(0.05)
    raise AssertionError("the first deal did not come")


def move(http: requests.Session, service, game_id: str, tokens: list[str]) -> requests.Response:
    """Plays the first legal action of the seat to act (once the workers have done what they owe); the answer."""
    for _ in range(200):
        for token in tokens:
            view = dealt_view(http, service, game_id, token)
            if view["legal_actions"]:
                return http.post(
                    service.url(f"/v1/games/{game_id}/actions"),
                    headers=bearer(token),
                    json=view["legal_actions"][0],
                    timeout=10,
                )
            if view["status"] == "finished":
                raise AssertionError("the match is over")
        time.sleep(0.05)
    raise AssertionError("no seat may act")


def timed(call) -> float:
    started = time.monotonic()
    call()
    return time.monotonic() - started


def live_connections(http: requests.Session, service) -> float:
    text = http.get(service.url("/metrics"), headers=bearer(service.operator_token), timeout=10).text
    return sum(
        float(line.rsplit(" ", 1)[1]) for line in text.splitlines() if line.startswith("talon_live_connections{")
    )


def test_open_spectator_streams_leave_the_api_answering_within_a_second():
    """The attack the review made: 70 spectator streams from one address (and then 500 from ten) used
    to take every thread of the API. Now the first 50 of one address are held, the rest refused with
    429, and a view GET and an action POST each answer within a second while they are open."""
    with running_service(**FAST) as service, requests.Session() as http, Crowd(*host_port(service)) as crowd:
        game_id, tokens = new_match(http, service)
        dealt_view(http, service, game_id, tokens[0])
        path = f"/v1/games/{game_id}/stream"
        one_address = crowd.open([(path, address(0))] * 70)
        assert sorted(s.status for s in one_address) == [200] * CAP + [429] * (70 - CAP)
        assert timed(lambda: http.get(service.url(f"/v1/games/{game_id}"), timeout=5)) < 1
        assert timed(lambda: move(http, service, game_id, tokens).raise_for_status()) < 1
        ten_addresses = crowd.open([(path, source) for source in sources(500, CAP)[CAP:] + [address(10)] * CAP])
        assert all(s.status == 200 for s in ten_addresses), {(s.status, s.error) for s in ten_addresses}
        for _ in range(3):
            assert timed(lambda: http.get(service.url(f"/v1/games/{game_id}"), timeout=5)) < 1
            assert timed(lambda: move(http, service, game_id, tokens).raise_for_status()) < 1


def test_a_thousand_streams_each_get_every_event_of_their_match_in_order():
    matches, per_match = 100, 10
    with running_service(**FAST) as service, requests.Session() as http, Crowd(*host_port(service)) as crowd:
        games = [new_match(http, service) for _ in range(matches)]
        for game_id, tokens in games:
            dealt_view(http, service, game_id, tokens[0])
        paths = [f"/v1/games/{game_id}/stream" for game_id, _ in games for _ in range(per_match)]
        streams = crowd.open(zip(paths, sources(len(paths), CAP)))
        assert all(s.status == 200 for s in streams)
        livez = []
        for _ in range(3):
            for game_id, tokens in games:
                move(http, service, game_id, tokens).raise_for_status()
            livez.append(timed(lambda: http.get(service.url("/livez"), timeout=5).raise_for_status()))
        finals = {game_id: dealt_view(http, service, game_id, tokens[0])["version"] for game_id, tokens in games}
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and any(
            not s.versions or s.versions[-1] < finals[s.path.split("/")[3]] for s in streams
        ):
            time.sleep(0.1)
        for stream in streams:
            assert stream.versions == list(range(1, finals[stream.path.split("/")[3]] + 1)), stream.path
        assert max(livez) < 1.0, livez


def test_clients_that_go_away_are_released_within_five_seconds():
    with running_service(**FAST) as service, requests.Session() as http, Crowd(*host_port(service)) as crowd:
        game_id, tokens = new_match(http, service)
        version = dealt_view(http, service, game_id, tokens[0])["version"]
        crowd.open([(f"/v1/games/{game_id}/stream", source) for source in sources(100, CAP)])
        waits = [(f"/v1/games/{game_id}?wait=30", source) for source in sources(40, 20)]
        polls = crowd.open(waits, headers={"If-None-Match": f'"{version}"'}, wait_head=False)
        deadline = time.monotonic() + 10
        while live_connections(http, service) < 140:
            assert time.monotonic() < deadline, (live_connections(http, service), [(p.status, p.error) for p in polls])
            time.sleep(0.05)
        crowd.close_all()
        gone_at = time.monotonic()
        while live_connections(http, service) > 0:
            assert time.monotonic() - gone_at < 5, "connections of clients that went away were still held"
            time.sleep(0.1)


def test_long_polls_and_unfinished_requests_leave_the_api_answering():
    """64 long-polls and 40 requests whose headers never end used to hold the API for minutes."""
    with (
        running_service(TALON_BODY_TIMEOUT_S="2", **FAST) as service,
        requests.Session() as http,
        Crowd(*host_port(service)) as crowd,
    ):
        game_id, tokens = new_match(http, service)
        version = dealt_view(http, service, game_id, tokens[0])["version"]
        crowd.open(
            [(f"/v1/games/{game_id}?wait=30", source) for source in sources(64, 32)],
            headers={"If-None-Match": f'"{version}"'},
            wait_head=False,
        )
        host, port = host_port(service)
        stalled = []
        for _i in range(40):
            sock = socket.create_connection((host, port))
            sock.sendall(b"GET /v1/games HTTP/1.1\r\nHost: x\r\n")  # the headers never end
            stalled.append(sock)
        trickle = socket.create_connection((host, port))
        trickle.sendall(
            b"POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"
        )  # the body never comes
        for _ in range(5):
            assert timed(lambda: http.get(service.url(f"/v1/games/{game_id}"), timeout=5).raise_for_status()) < 1
        with ThreadPoolExecutor(8) as pool:
            closed = list(pool.map(closed_by_server, stalled, [15] * len(stalled)))
        assert all(closed), "a client that never finished its headers kept its connection"
        trickle.settimeout(10)
        answer = trickle.recv(4096)
        assert answer.startswith(b"HTTP/1.1 408"), answer[:80]
        assert move(http, service, game_id, tokens).status_code == 201


def closed_by_server(sock: socket.socket, timeout_s: float) -> bool:
    """True once the server closes the connection (within `timeout_s`)."""
    sock.settimeout(timeout_s)
    try:
        return sock.recv(1024) == b""
    except TimeoutError:
        return False
    except OSError:
        return True
    finally:
        sock.close()


def test_parked_streams_end_on_a_seat_reset_and_after_the_match_and_send_heartbeats():
    """The streams as gunicorn's gevent worker serves them (parked once caught up): the reset of a seat
    ends that seat's stream with nothing after the reset; a spectator's stream ends after match_ended,
    having had every event in order; while quiet, they carry heartbeats."""
    with (
        running_service(TALON_STREAM_KEEPALIVE_S="1", **FAST) as service,
        requests.Session() as http,
        Crowd(*host_port(service)) as crowd,
    ):
        game_id, tokens = new_match(http, service)
        dealt_view(http, service, game_id, tokens[0])
        ticket = http.post(
            service.url(f"/v1/games/{game_id}/stream-tickets"), headers=bearer(tokens[1]), timeout=5
        ).json()["ticket"]
        seat, spectator = crowd.open(
            [(f"/v1/games/{game_id}/stream?ticket={ticket}", address(0)), (f"/v1/games/{game_id}/stream", address(1))]
        )
        time.sleep(2.5)
        assert seat.heartbeats >= 1 and spectator.heartbeats >= 1
        reset = http.post(
            service.url(f"/v1/ops/games/{game_id}/seats/1/reset"), headers=bearer(service.operator_token), timeout=5
        )
        assert reset.status_code == 200
        reset_at = reset.json()["version"]
        new_token = http.post(
            service.url(f"/v1/games/{game_id}/players"), json={"name": "Nia", "seat": 1}, timeout=5
        ).json()["token"]
        tokens[1] = new_token
        deadline = time.monotonic() + 5
        while not seat.ended:
            assert time.monotonic() < deadline, "the reset seat's stream stayed open"
            time.sleep(0.05)
        assert seat.versions and max(seat.versions) <= reset_at
        for _ in range(2000):
            view = http.get(service.url(f"/v1/games/{game_id}"), timeout=5).json()
            if view["status"] == "finished" or view["winner"] is not None:
                break
            if view["to_act"]:
                move(http, service, game_id, tokens)
            else:
                time.sleep(0.02)
        final = http.get(service.url(f"/v1/games/{game_id}"), timeout=5).json()
        assert final["status"] == "finished"
        deadline = time.monotonic() + 5
        while not spectator.ended:
            assert time.monotonic() < deadline, "the spectator's stream stayed open after match_ended"
            time.sleep(0.05)
        assert spectator.versions == list(range(1, final["version"] + 1))
        assert spectator.events[-1][1] == "match_ended"


def test_parked_long_polls_answer_when_the_match_moves_and_when_the_wait_is_over():
    with running_service(**FAST) as service, requests.Session() as http:
        game_id, tokens = new_match(http, service)
        version = dealt_view(http, service, game_id, tokens[0])["version"]
        unchanged = {"If-None-Match": f'"{version}"'}
        started = time.monotonic()
        idle = http.get(service.url(f"/v1/games/{game_id}?wait=1"), headers=unchanged, timeout=10)
        assert idle.status_code == 304 and idle.headers["ETag"] == f'"{version}"'
        assert 0.9 <= time.monotonic() - started < 5
        # The 304 made when the poll was parked, sent as the wait ends: a response like any other.
        assert idle.headers["X-Request-ID"] and idle.headers["X-Content-Type-Options"] == "nosniff"
        assert idle.headers["Connection"] == "close" and not idle.content
        with ThreadPoolExecutor(1) as pool:
            waiting = pool.submit(
                lambda: http.get(
                    service.url(f"/v1/games/{game_id}?wait=20"), headers={**unchanged, **bearer(tokens[1])}, timeout=30
                )
            )
            time.sleep(0.5)
            moved = move(requests.Session(), service, game_id, tokens)
            assert moved.status_code == 201
            woken = waiting.result(10)
        assert woken.status_code == 200 and woken.json()["version"] >= moved.json()["version"]
        assert woken.json()["seat"] == 1 and woken.headers["ETag"] == f'"{woken.json()["version"]}"'
        assert woken.headers["X-Request-ID"]


def api_sockets(service) -> int:
    """Sockets the API's worker processes hold: listening, Redis connections, clients' connections."""
    master = service.procs[0].popen.pid
    workers = subprocess.run(["pgrep", "-P", str(master)], capture_output=True, text=True).stdout.split()
    total = 0
    for pid in workers:
        for fd in os.listdir(f"/proc/{pid}/fd"):
            with contextlib.suppress(OSError):
                total += os.readlink(f"/proc/{pid}/fd/{fd}").startswith("socket:")
    return total


def open_http11_stream(service, path: str, source: str) -> socket.socket:
    """An event stream as a browser's EventSource opens it: HTTP/1.1, the connection kept alive."""
    host, port = host_port(service)
    sock = socket.create_connection((host, port), timeout=10, source_address=(source, 0))
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nAccept: text/event-stream\r\n\r\n".encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += sock.recv(65536) or b"(closed)"
        assert not head.endswith(b"(closed)"), head
    assert head.startswith(b"HTTP/1.1 200"), head[:200]
    return sock


def test_a_parked_stream_holds_one_socket_of_the_api_and_gunicorn_lets_go_of_it_at_once():
    """Once a stream is parked, gunicorn ends its handling of the connection (service/parking.py
    `hand_over`): the parked duplicate is the stream's only socket in the API, with no greenlet left
    reading an HTTP/1.1 connection for a next request until the keep-alive time (5 s) runs out."""
    streams_opened, slack = 100, 30  # slack: Redis connections the requests may open meanwhile
    with running_service(**FAST) as service, requests.Session() as http:
        game_id, tokens = new_match(http, service)
        dealt_view(http, service, game_id, tokens[0])
        before = api_sockets(service)
        path = f"/v1/games/{game_id}/stream"
        socks = [open_http11_stream(service, path, source) for source in sources(streams_opened, CAP)]
        try:
            deadline = time.monotonic() + 2  # well within the keep-alive time
            while (held := api_sockets(service) - before) > streams_opened + slack:
                assert time.monotonic() < deadline, f"{held} sockets for {streams_opened} streams"
                time.sleep(0.05)
            assert held >= streams_opened
            move(http, service, game_id, tokens).raise_for_status()
            final = dealt_view(http, service, game_id, tokens[0])["version"]
            for sock in socks:  # the streams go on, undisturbed, up to the move's last event
                received = b""
                while f"id: {final}\n".encode() not in received:
                    chunk = sock.recv(65536)
                    assert chunk, received[-300:]
                    received += chunk
        finally:
            for sock in socks:
                sock.close()
