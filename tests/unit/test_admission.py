"""service/admission.py: requests beyond the slots wait their turn without running; the requests of
waiting connections (streams opened, long-polls, their answers) have slots of their own, so that a crowd
of them never makes a move wait; the probes never wait."""

from __future__ import annotations

import threading

from service.admission import Admission
from service.parking import AGAIN, opens_a_wait


class Gate:
    """A WSGI app that records who entered it and holds each request until let go."""

    def __init__(self) -> None:
        self.entered: list[str] = []
        self.release = threading.Event()
        self.changed = threading.Condition()

    def __call__(self, environ, start_response):
        with self.changed:
            self.entered.append(environ["PATH_INFO"] + "?" + environ["QUERY_STRING"])
            self.changed.notify_all()
        self.release.wait(10)
        return [b""]

    def wait_for(self, count: int) -> list[str]:
        with self.changed:
            assert self.changed.wait_for(lambda: len(self.entered) >= count, 10), self.entered
            return list(self.entered)


def request(app, path: str, query: str = "") -> threading.Thread:
    environ = {"PATH_INFO": path, "QUERY_STRING": query}
    thread = threading.Thread(target=app, args=(environ, lambda *args: None), daemon=True)
    thread.start()
    return thread


def test_long_polls_holding_their_slots_leave_the_moves_theirs():
    gate = Gate()
    admission = Admission(gate, slots=2)  # and 1 for waiting connections
    polls = [request(admission, "/v1/games/g", "wait=30") for _ in range(3)]
    assert gate.wait_for(1) == ["/v1/games/g?wait=30"]  # one in; the other two wait for its slot
    request(admission, "/v1/games/g/actions")
    request(admission, "/v1/games/g")
    assert sorted(gate.wait_for(3)[1:]) == ["/v1/games/g/actions?", "/v1/games/g?"]
    request(admission, "/v1/games/g/actions")  # a third ordinary request waits: 2 slots
    request(admission, "/livez")  # a probe never waits
    assert gate.wait_for(4)[3] == "/livez?"
    gate.release.set()
    for poll in polls:
        poll.join(10)
    assert len(gate.wait_for(7)) == 7


def test_the_requests_of_waiting_connections():
    assert opens_a_wait({"PATH_INFO": "/v1/games/g/stream", "QUERY_STRING": ""})
    assert opens_a_wait({"PATH_INFO": "/v1/games/g", "QUERY_STRING": "wait=30"})
    assert opens_a_wait({"PATH_INFO": "/v1/games/g", "QUERY_STRING": "", AGAIN: True})
    assert not opens_a_wait({"PATH_INFO": "/v1/games/g", "QUERY_STRING": ""})
    assert not opens_a_wait({"PATH_INFO": "/v1/games/g/actions", "QUERY_STRING": ""})
