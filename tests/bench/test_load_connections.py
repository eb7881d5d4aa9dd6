"""bench/load.py's clients open a new connection after RENEW_AFTER actions on one, so a run's connections
are not left where a race at its start put them."""

from __future__ import annotations

import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from itertools import groupby

import pytest

from bench import load


class _Floor(BaseHTTPRequestHandler):
    """The bare endpoints' answers, noting the client port each request came from."""

    protocol_version = "HTTP/1.1"  # keep-alive, as gunicorn serves
    disable_nagle_algorithm = True  # as gunicorn: the body, written after the head, is not held back
    ports: list[int] = []

    def _answer(self, status: int, body: bytes) -> None:
        _Floor.ports.append(self.client_address[1])
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        self._answer(200, b'{"entries": []}')

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers["Content-Length"]))
        self._answer(201, b'{"id": "1-0"}')

    def log_message(self, *args) -> None:
        pass


@pytest.fixture
def floor():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Floor)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    _Floor.ports = []
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def test_a_client_renews_its_connection_after_every_renew_after_actions(floor):
    client = load.BareClient(floor, 0, seed=7)
    stats = load.LoadStats("bare", 1)
    try:
        while stats.actions < 3 * load.RENEW_AFTER + 1:
            client.play_until(time.time() + 0.001, stats)
    finally:
        client.close()
    ports = _Floor.ports
    assert len(ports) == 2 * stats.actions  # a GET and a POST per action, none refused
    per_connection = [len(list(group)) for _, group in groupby(ports)]  # a connection's client port is its own
    assert all(n == 2 * load.RENEW_AFTER for n in per_connection[:-1])
    assert len(per_connection) == (stats.actions + load.RENEW_AFTER - 1) // load.RENEW_AFTER
