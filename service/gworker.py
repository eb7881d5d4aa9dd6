"""gunicorn's gevent worker, accepting up to `accept_per_turn` new connections at each turn of its loop.

With more than one worker process, gunicorn's gevent worker accepts one connection per turn of the loop
(it sets gevent's `StreamServer.max_accept` to 1, so that one process does not take every connection
waiting on the shared socket). A turn of a busy process's loop lasts tens of milliseconds, and clients
open connections all the time: every parked long-poll's answer closes its connection (service/parking.py),
so thousands of long-polls reconnect dozens of times a second. One accept per turn left new connections
waiting in the listen queue for up to seconds while the process had time for them (bench.streams: 28 of
385 moves sent on a new connection took 0.2-2.7 s with 10,000 connections open, none of 441 with none).

gunicorn picks the gevent server a worker runs through the worker's `server_class` attribute (its
pywsgi worker sets it to gevent's WSGI server); this worker gives it gevent's `StreamServer` with
gunicorn's own connection handler, as gunicorn's gevent worker builds it, and its own `max_accept`.
A process that is busy is woken later than an idle one and so still takes fewer connections.
"""

from __future__ import annotations

from functools import partial

from gevent.server import StreamServer
from gunicorn.workers.ggevent import GeventWorker

from app.settings import Settings


class TalonGeventWorker(GeventWorker):
    @property
    def server_class(self):
        return self.stream_server

    def stream_server(self, listener, *, spawn, application, log, handler_class, environ, **ssl_args) -> StreamServer:
        """The server of one listening socket. `application`, `log`, `handler_class` and `environ` are for
        a WSGI server: gunicorn's handler (`handle`) parses the requests and calls the application itself."""
        server = StreamServer(listener, handle=partial(self.handle, listener), spawn=spawn, **ssl_args)
        server.max_accept = Settings.from_env().accept_per_turn
        return server
