"""Event streams and long-polls on the fan-out hub: when a stream ends, who may open one, how many one
address may hold, and that one Redis reader per match feeds them all (Flask test client, real Redis)."""

from __future__ import annotations

import threading

import pytest

from tests.support.talon import OPERATOR, TWO_HUMANS, auth, make_app, run_jobs, start_match

VS_BOT = {
    "game": "sixty-six",
    "options": {"first_dealer": 0, "match_target": 1},
    "seats": [{"kind": "human"}, {"kind": "bot", "level": "basic"}],
}
BOTS = {**VS_BOT, "seats": [{"kind": "bot", "level": "basic"}, {"kind": "bot", "level": "random"}]}


@pytest.fixture
def app(r, redis_url):
    return make_app(redis_url, stream_keepalive_s=0.2)  # a closed Reader stops at the next heartbeat


@pytest.fixture
def client(app):
    return app.test_client()


class Reader:
    """Opens an event stream and reads it to its end in a thread of its own (a Flask request lives in
    one thread); `frames` are (id, type) as they arrive."""

    def __init__(self, open_response, expect: int = 200):
        self.frames, self.text, self.status = [], "", None
        self.opened, self.ended, self.stop = threading.Event(), threading.Event(), threading.Event()
        self.thread = threading.Thread(target=self._read, args=(open_response,), daemon=True)
        self.thread.start()
        assert self.opened.wait(10) and self.status == expect, self.status

    def _read(self, open_response):
        parsed = 0
        try:
            response = open_response()
            self.status = response.status_code
            self.opened.set()
            with response:
                for chunk in response.response:
                    self.text += chunk.decode()
                    frames = self.text.split("\n\n")[:-1]
                    for frame in frames[parsed:]:
                        fields = dict(line.split(": ", 1) for line in frame.splitlines() if ": " in line)
                        if "id" in fields:
                            self.frames.append((int(fields["id"]), fields["event"]))
                    parsed = len(frames)
                    if self.stop.is_set():
                        return
        finally:
            self.opened.set()
            self.ended.set()

    def wait_for(self, version: int, timeout_s: float = 10) -> None:
        for _ in range(int(timeout_s * 100)):
            if any(v >= version for v, _ in self.frames) or self.ended.is_set():
                return
            self.ended.wait(0.01)

    def close(self):
        """Stops reading at the next message (the tests' heartbeats come every 0.2 s), and waits for it."""
        self.stop.set()
        assert self.ended.wait(5)


def open_stream(client, game_id: str, query: str = "", headers: dict | None = None, address: str = "127.0.0.1"):
    """The stream's response, unread (read it in this thread, or pass `lambda: open_stream(...)` to Reader)."""
    return client.get(
        f"/v1/games/{game_id}/stream{query}",
        headers=headers or {},
        buffered=False,
        environ_base={"REMOTE_ADDR": address},
    )


def ticket(client, game_id: str, token: str) -> str:
    return client.post(f"/v1/games/{game_id}/stream-tickets", headers=auth(token)).json["ticket"]


def dealt(client, redis_url: str, body: dict = TWO_HUMANS) -> tuple[str, list[str]]:
    """A match of humans with its seats claimed and its first deal made."""
    game_id, tokens = start_match(client, body)
    run_jobs(redis_url)
    return game_id, tokens


def move(client, game_id: str, tokens: list[str]) -> dict:
    """The first legal action of whichever seat is to act; its answer."""
    for token in tokens:
        view = client.get(f"/v1/games/{game_id}", headers=auth(token)).json
        if view["legal_actions"]:
            answer = client.post(f"/v1/games/{game_id}/actions", headers=auth(token), json=view["legal_actions"][0])
            assert answer.status_code == 201, answer.json
            return answer.json
    raise AssertionError("no seat may act")


def versions(client, game_id: str) -> list[tuple[int, str]]:
    events = client.get(f"/v1/ops/games/{game_id}/events?limit=500", headers=auth(OPERATOR)).json["events"]
    return [(e["version"], e["type"]) for e in events]


def test_a_stream_of_a_finished_match_sends_its_events_and_ends(client, redis_url):
    game_id = client.post("/v1/games", json=BOTS).json["game_id"]
    run_jobs(redis_url)
    assert client.get(f"/v1/games/{game_id}").json["status"] == "finished"
    reader = Reader(lambda: open_stream(client, game_id))
    assert reader.ended.wait(5), "the stream of a finished match stayed open"
    assert reader.frames == versions(client, game_id)
    assert reader.frames[-1][1] == "match_ended"


def test_a_live_stream_ends_after_match_ended(app, client, redis_url):
    game_id, tokens = start_match(client, VS_BOT)
    first = ticket(client, game_id, tokens[0])
    reader = Reader(lambda: open_stream(client, game_id, f"?ticket={first}"))
    reader.wait_for(client.get(f"/v1/games/{game_id}").json["version"])
    assert app.extensions["talon_hub"].subscribers(game_id) == 1  # caught up: it waits on the hub now
    rng_moves = 0
    while client.get(f"/v1/games/{game_id}").json["status"] != "finished" and rng_moves < 500:
        view = client.get(f"/v1/games/{game_id}", headers=auth(tokens[0])).json
        if view["legal_actions"]:
            client.post(f"/v1/games/{game_id}/actions", headers=auth(tokens[0]), json=view["legal_actions"][0])
            rng_moves += 1
        run_jobs(redis_url)
    assert reader.ended.wait(10), "the stream stayed open after match_ended"
    assert [v for v, _ in reader.frames] == [v for v, _ in versions(client, game_id)]
    assert reader.frames[-1][1] == "match_ended"


def test_a_seat_reset_ends_that_seats_streams_at_once_and_spectators_go_on(client):
    game_id, tokens = start_match(client, TWO_HUMANS)
    seat = Reader(lambda: open_stream(client, game_id, headers=auth(tokens[1])))
    second = ticket(client, game_id, tokens[1])
    by_ticket = Reader(lambda: open_stream(client, game_id, f"?ticket={second}"))
    spectator = Reader(lambda: open_stream(client, game_id))
    version = client.get(f"/v1/games/{game_id}").json["version"]
    for reader in (seat, by_ticket, spectator):
        reader.wait_for(version)
    reset = client.post(f"/v1/ops/games/{game_id}/seats/1/reset", headers=auth(OPERATOR))
    assert reset.status_code == 200
    new_token = client.post(f"/v1/games/{game_id}/players", json={"name": "Nia", "seat": 1}).json["token"]
    assert seat.ended.wait(5) and by_ticket.ended.wait(5), "the old player's streams stayed open"
    reset_at = max(v for v, t in versions(client, game_id) if t == "seat_reset")
    for reader in (seat, by_ticket):
        assert max(v for v, _ in reader.frames) <= reset_at  # nothing after the reset reached the old player
    assert not spectator.ended.is_set()
    spectator.wait_for(reset_at + 1)
    assert any(t == "seat_claimed" and v > reset_at for v, t in spectator.frames)
    spectator.close()
    assert client.get(f"/v1/games/{game_id}", headers=auth(new_token)).json["seat"] == 1


def test_a_ticket_opens_one_stream_and_none_after_a_reset(client):
    game_id, tokens = start_match(client, TWO_HUMANS)
    once = ticket(client, game_id, tokens[0])
    first = open_stream(client, game_id, f"?ticket={once}")
    assert first.status_code == 200
    first.close()
    again = open_stream(client, game_id, f"?ticket={once}")
    assert again.status_code == 401 and again.json["type"].endswith("/ticket-used")
    before_reset = ticket(client, game_id, tokens[1])
    client.post(f"/v1/ops/games/{game_id}/seats/1/reset", headers=auth(OPERATOR))
    revoked = open_stream(client, game_id, f"?ticket={before_reset}")
    assert revoked.status_code == 401 and revoked.json["type"].endswith("/ticket-revoked")
    client.post(f"/v1/games/{game_id}/players", json={"name": "Nia", "seat": 1})
    still = open_stream(client, game_id, f"?ticket={before_reset}")  # the seat's new player has another token
    assert still.status_code == 401 and still.json["type"].endswith("/ticket-revoked")


def test_one_address_holds_at_most_its_cap_of_streams(r, redis_url):
    client = make_app(redis_url, max_streams_per_address=2, stream_keepalive_s=0.2).test_client()
    game_id, _ = start_match(client, TWO_HUMANS)
    held = [Reader(lambda: open_stream(client, game_id, address="10.0.0.7")) for _ in range(2)]
    refused = open_stream(client, game_id, address="10.0.0.7")
    assert refused.status_code == 429 and refused.headers["Retry-After"] == "10"
    assert refused.json["type"].endswith("/too-many-connections")
    other = Reader(lambda: open_stream(client, game_id, address="10.0.0.8"))  # another address: its own cap
    held[0].close()
    again = Reader(lambda: open_stream(client, game_id, address="10.0.0.7"))
    for reader in (held[1], other, again):
        reader.close()


def test_one_address_holds_at_most_its_cap_of_waiting_long_polls(r, redis_url):
    app = make_app(redis_url, max_long_polls_per_address=1)
    client = app.test_client()
    game_id, tokens = dealt(client, redis_url)
    version = client.get(f"/v1/games/{game_id}").json["version"]
    wait = {"If-None-Match": f'"{version}"'}
    answers = []
    waiter = threading.Thread(
        target=lambda: answers.append(
            client.get(f"/v1/games/{game_id}?wait=10", headers=wait, environ_base={"REMOTE_ADDR": "10.0.0.9"})
        )
    )
    waiter.start()
    for _ in range(500):
        if app.extensions["talon_hub"].subscribers(game_id):
            break
        threading.Event().wait(0.01)
    refused = client.get(f"/v1/games/{game_id}?wait=10", headers=wait, environ_base={"REMOTE_ADDR": "10.0.0.9"})
    assert refused.status_code == 429 and refused.json["type"].endswith("/too-many-connections")
    assert client.get(f"/v1/games/{game_id}", headers=wait).status_code == 304  # no wait: not counted
    move(client, game_id, tokens)
    waiter.join(10)
    assert answers[0].status_code == 200 and answers[0].json["version"] > version


def test_one_reader_per_match_feeds_all_its_streams(app, client, redis_url):
    game_id, tokens = dealt(client, redis_url)
    version = client.get(f"/v1/games/{game_id}").json["version"]
    readers = [Reader(lambda i=i: open_stream(client, game_id, address=f"10.0.1.{i}")) for i in range(6)]
    for reader in readers:
        reader.wait_for(version)
    hub = app.extensions["talon_hub"]
    for _ in range(500):
        if hub.subscribers(game_id) == 6:
            break
        threading.Event().wait(0.01)
    assert hub.subscribers(game_id) == 6 and hub.readers() == 1
    moved = move(client, game_id, tokens)
    for reader in readers:
        reader.wait_for(moved["version"])
        assert [v for v, _ in reader.frames] == list(range(1, moved["version"] + 1))
        reader.close()
