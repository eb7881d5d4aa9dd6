"""The API's gunicorn worker (service/gworker.py): gunicorn's gevent worker whose servers accept
TALON_ACCEPT_PER_TURN connections per turn of the loop, each handed to gunicorn's own handler."""

from __future__ import annotations

import gevent
import gevent.socket
from gevent.pool import Pool
from gunicorn.config import Config

from service.gworker import TalonGeventWorker


class Recording(TalonGeventWorker):
    """The worker with gunicorn's connection handler replaced by a record of its calls."""

    def __init__(self):
        super().__init__(age=1, ppid=0, sockets=[], app=None, timeout=30, cfg=Config(), log=None)
        self.handled = []

    def handle(self, listener, client, addr):
        self.handled.append(listener)
        client.close()


def test_the_server_accepts_several_connections_a_turn_and_hands_each_to_gunicorns_handler(monkeypatch):
    monkeypatch.setenv("TALON_ACCEPT_PER_TURN", "5")
    worker = Recording()
    listener = gevent.socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    server = worker.server_class(listener, application=None, spawn=Pool(10), log=None, handler_class=None, environ={})
    assert server.max_accept == 5  # gunicorn's gevent worker: 1 when it runs more than one process
    server.start()
    try:
        clients = [gevent.socket.create_connection(listener.getsockname()) for _ in range(3)]
        with gevent.Timeout(5):
            while len(worker.handled) < 3:
                gevent.sleep(0.01)
        assert worker.handled == [listener] * 3
        for client in clients:
            client.close()
    finally:
        server.stop()
        worker.tmp.close()
