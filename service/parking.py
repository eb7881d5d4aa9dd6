"""Parked event streams: an open stream that waits costs a socket and a small record, not a request.

An event stream lasts minutes and mostly waits. Served as an ordinary response, each open stream keeps
its whole request alive for that long: gunicorn's request, parser and response, the WSGI environ,
Flask's response and the generator that produces it, a greenlet: about a hundred objects that CPython's
garbage collector walks at every full collection. With thousands of streams per process those walks
took 0.2-1 s, a pause of every connection of the process (health probes included).

So under gunicorn's gevent worker a stream, once authorized and caught up, is *parked*: the response's
status line, headers and the events it caught up with are written to a duplicate of the client's
socket, and gunicorn's handling of the connection ends at once (`hand_over`: gunicorn writes nothing
more and closes its own socket; the duplicate keeps the connection). From then on the stream is a `Parked` record and its socket, non-blocking:
- per match with parked streams, a watch on the fan-out hub (service/hub.py): its reader writes each new
  event to every stream of the match, as its caller may see it (rendered once per seat), and answers its
  parked long-polls;
- one greenlet per process, every TICK_S: one `poll(2)` of all the parked sockets notices the clients that
  closed theirs and the sockets that can take what waited; it also sends the heartbeats and ends the
  streams that reached their time limit. (Not a libev watcher per socket: with thousands of duplicated
  sockets, libev re-registered them with epoll on every turn of the loop, 30,000 calls a second.)
- what a socket cannot take at once waits in the record; a client that lets MAX_PENDING bytes pile up
  is too slow and is dropped.
The body is sent as it was unparked: in chunks to an HTTP/1.1 client, ending with the last chunk, and
delimited by closing the connection for HTTP/1.0; either way the connection closes with the stream
(`Connection: close`: parking ends its keep-alive, which an event stream never uses).

A stream ends as it does unparked (service/stream.py): after the events of a finished match, at once on
a reset of its seat, at its time limit, when its client goes away, or when the process stops.
"""

from __future__ import annotations

import errno
import logging
import os
import select
import socket
import time
from collections.abc import Callable, Iterable, Iterator
from typing import NoReturn, TypeVar

from events.store import EventStore, StoredEvent
from service import wire

log = logging.getLogger("talon.parking")
T = TypeVar("T")

MAX_PENDING = 256 * 1024  # bytes a client may leave unread before it is dropped as too slow
TICK_S = 1.0  # how often heartbeats and time limits are looked at
CATCH_UP_PAGE = 500
YIELD_EVERY = 64  # streams served in one go before a fan-out or a tick lets other greenlets run
_GONE = (errno.EPIPE, errno.ECONNRESET, errno.ENOTCONN, errno.EBADF)


def gevent_loop():
    """gevent, when this process runs on its loop (the only place streams can be parked), else None."""
    try:
        from gevent import monkey
    except ImportError:
        return None
    if not monkey.is_module_patched("socket"):
        return None
    import gevent

    return gevent


def in_turns(items: Iterable[T]) -> Iterator[T]:
    """The items, letting other greenlets run after every YIELD_EVERY of them: a loop over thousands of
    parked streams must not hold the process (a probe, a move) for the whole of it."""
    for done, item in enumerate(items, 1):
        yield item
        if done % YIELD_EVERY == 0:
            gevent_loop().sleep(0)


class Parked:
    """One parked stream."""

    __slots__ = (
        "sock",
        "fd",
        "chunked",
        "lot",
        "seat",
        "operator",
        "authorized_at",
        "cursor",
        "deadline",
        "quiet_since",
        "pending",
        "closed",
        "on_close",
        "is_poll",
        "answer",
        "unchanged",
        "then_close",
    )

    def __init__(
        self,
        sock,
        chunked: bool,
        seat: int | None,
        operator: bool,
        authorized_at: int,
        cursor: int,
        deadline: float,
        on_close: Callable[[], None] | None,
    ):
        self.sock, self.fd, self.chunked = sock, sock.fileno(), chunked
        self.lot: _Lot | None = None
        self.seat, self.operator, self.authorized_at = seat, operator, authorized_at
        self.cursor, self.deadline = cursor, deadline
        self.quiet_since = time.monotonic()
        self.pending = b""
        self.closed = False
        self.on_close = on_close
        self.is_poll = False  # a parked long-poll, not an event stream: it gets one answer, never a heartbeat
        self.answer: Callable[[], bytes] | None = None  # a long-poll's answer, made when due; None once it is
        self.unchanged: bytes | None = None  # ... and its answer when its wait ends with nothing new
        self.then_close = False  # close once what is pending has been sent


class _Lot:
    """The parked streams and long-polls of one match in this process, fed by a watch on the hub."""

    __slots__ = ("game_id", "game", "streams", "cursor", "watch")

    def __init__(self, game_id: str, game: str, cursor: int):
        self.game_id, self.game, self.streams, self.cursor = game_id, game, set(), cursor
        self.watch = None


def _unwatch(lot: _Lot) -> None:
    """Ends the lot's watch and lets go of it: the watch's callbacks hold the lot, so a lot still holding
    its watch would be a reference cycle, freed only by a full garbage collection (service/collector.py)."""
    watch, lot.watch = lot.watch, None
    if watch is not None:
        watch.close()


class Parking:
    def __init__(
        self,
        hub,
        store: EventStore,
        render: Callable[[str, StoredEvent, int | None, bool], bytes],
        revoked: Callable[[StoredEvent, int | None, int], bool],
        terminal: frozenset[str],
        keepalive_s: float,
    ):
        """`render(game, event, seat, operator)` is an event's message as that caller may see it;
        `revoked(event, seat, authorized_at)` says when an event ends a seat's stream; `terminal` are the
        event types after which a match writes nothing more."""
        self.hub, self.store = hub, store
        self.render, self.revoked, self.terminal = render, revoked, terminal
        self.keepalive_s = keepalive_s
        self._lots: dict[str, _Lot] = {}
        self._all: set[Parked] = set()
        self._ticker = None
        self._raw_socket = None
        self._poller = None  # select.poll of every parked socket (the unpatched one)
        self._by_fd: dict[int, Parked] = {}

    @property
    def streams(self) -> int:
        return len(self._all)

    def park(
        self,
        client_sock,
        chunked: bool,
        game_id: str,
        game: str,
        seat: int | None,
        operator: bool,
        authorized_at: int,
        cursor: int,
        max_s: float,
        head: bytes,
        body: bytes,
        on_close: Callable[[], None],
    ) -> None:
        """Takes over the stream: writes `head` (the response's status line and headers) and `body` (what
        the client caught up with, up to version `cursor`) to a duplicate of `client_sock`, and keeps
        feeding it, in chunks if `chunked`."""
        stream = Parked(
            self._duplicate(client_sock),
            chunked,
            seat,
            operator,
            authorized_at,
            cursor,
            time.monotonic() + max_s,
            on_close,
        )
        self._add(stream)
        self._send(stream, head)
        self._write(stream, body)
        self._join(stream, game_id, game)

    def park_poll(
        self,
        client_sock,
        game_id: str,
        game: str,
        version: int,
        wait_s: float,
        answer: Callable[[], bytes],
        on_close: Callable[[], None],
        unchanged: bytes | None = None,
    ) -> None:
        """Takes over a long-poll that waits past `version`: once the match has moved on or the process
        stops, `answer()` (the whole HTTP response, made by running the request again without its wait)
        is sent and the connection closed; when the wait is over with nothing new, `unchanged` (the whole
        response the request made when it was parked: a 304), or else `answer()`."""
        poll = Parked(self._duplicate(client_sock), False, None, False, 0, version, time.monotonic() + wait_s, on_close)
        poll.is_poll, poll.answer, poll.unchanged = True, answer, unchanged
        self._add(poll)
        self._join(poll, game_id, game)

    def _add(self, stream: Parked) -> None:
        if self._poller is None:
            from gevent import monkey

            self._poller = monkey.get_original("select", "poll")()
            self._ticker = gevent_loop().spawn(self._tick)
        self._all.add(stream)
        self._by_fd[stream.fd] = stream
        self._poller.register(stream.fd, select.POLLIN | select.POLLRDHUP)

    # -- joining a match -----------------------------------------------------------------------------

    def _join(self, stream: Parked, game_id: str, game: str) -> None:
        """Adds the stream to its match's lot, after sending it what the lot has delivered since the
        stream's cursor (read from the store: the check and the add are then done without a switch)."""
        while not stream.closed:
            lot = self._lots.get(game_id)
            if lot is not None and lot.cursor > stream.cursor and stream.is_poll:
                self._respond(stream)  # the match moved on while the poll was being parked
                return
            if lot is not None and lot.cursor > stream.cursor:
                events = self.store.read(
                    game_id, after=stream.cursor, limit=min(CATCH_UP_PAGE, lot.cursor - stream.cursor)
                )
                if not self._deliver(stream, game, events):
                    return
                continue
            stream.lot = lot
            if lot is None:
                # The stream is in its lot before the watch begins: the watch pushes at once what the
                # hub read of the match past the stream's cursor.
                lot = stream.lot = self._lots[game_id] = _Lot(game_id, game, stream.cursor)
                lot.streams.add(stream)
                lot.watch = self.hub.watch(
                    game_id,
                    stream.cursor,
                    lambda events, lot=lot: self._arrived(lot, events),
                    lambda lot=lot: self._stopped(lot),
                )
                if self._lots.get(game_id) is not lot:  # what the watch pushed at once ended the lot
                    _unwatch(lot)
                return
            lot.streams.add(stream)
            return

    def _arrived(self, lot: _Lot, events: list[StoredEvent]) -> None:
        """From the hub's reader: new events of the lot's match. Each event is rendered once per audience
        (a seat, the spectators, the operator), not once per stream: 5,000 spectators of a match share
        one rendering. Every YIELD_EVERY streams the loop lets other greenlets run (a probe, a move), so
        that a crowd's fan-out does not hold the process for the whole of it; a stream that joins the
        lot meanwhile catches up from the store (`_join`), and a stream's cursor skips what it has."""
        lot.cursor = max(lot.cursor, events[-1].version)
        rendered: dict = {}
        for stream in in_turns(list(lot.streams)):
            if stream.is_poll:
                lot.streams.discard(stream)
                gevent_loop().spawn(self._respond, stream)
            else:
                self._deliver(stream, lot.game, events, rendered)

    def _stopped(self, lot: _Lot) -> None:
        """From the hub: the process stops; its streams end and its long-polls are answered now."""
        for stream in list(lot.streams):
            gevent_loop().spawn(self._end, stream)

    def _leave(self, stream: Parked) -> None:
        lot = stream.lot
        if lot is None:
            return
        lot.streams.discard(stream)
        if not lot.streams and self._lots.get(lot.game_id) is lot:
            del self._lots[lot.game_id]
            _unwatch(lot)

    def _deliver(self, stream: Parked, game: str, events: list[StoredEvent], rendered: dict | None = None) -> bool:
        """Writes the events after the stream's cursor; False once the stream has ended. `rendered`: the
        renderings already made of these events, by (version, seat, operator), shared across streams."""
        rendered = {} if rendered is None else rendered
        for event in events:
            if stream.closed:
                return False
            if event.version <= stream.cursor:
                continue
            if self.revoked(event, stream.seat, stream.authorized_at):
                self._end_soon(stream)
                return False
            key = (event.version, stream.seat, stream.operator)
            if key not in rendered:
                rendered[key] = self.render(game, event, stream.seat, stream.operator)
            self._write(stream, rendered[key])
            stream.cursor = event.version
        if any(e.type in self.terminal for e in events) and not stream.closed:
            self._end_soon(stream)
            return False
        return not stream.closed

    # -- the socket ------------------------------------------------------------------------------------

    def _duplicate(self, client_sock):
        if self._raw_socket is None:
            from gevent import monkey

            self._raw_socket = monkey.get_original("socket", "socket")
        sock = self._raw_socket(fileno=os.dup(client_sock.fileno()))
        sock.setblocking(False)
        return sock

    def _write(self, stream: Parked, data: bytes) -> None:
        """One piece of the body (a chunk of its own when the body is chunked)."""
        if stream.chunked and data:
            data = b"%x\r\n%s\r\n" % (len(data), data)
        self._send(stream, data)

    def _send(self, stream: Parked, data: bytes) -> None:
        if stream.closed or stream.pending is None:
            return
        stream.quiet_since = time.monotonic()
        if stream.pending:
            stream.pending += data
        else:
            stream.pending = data
            self._flush(stream)
        if stream.pending is None:
            return
        if len(stream.pending) > MAX_PENDING:
            log.info("an event stream's client reads too slowly; dropped")
            self._close(stream)
        elif stream.pending and not stream.closed:
            self._poller.modify(stream.fd, select.POLLIN | select.POLLRDHUP | select.POLLOUT)

    def _flush(self, stream: Parked) -> None:
        if not stream.pending:
            return
        try:
            sent = stream.sock.send(stream.pending)
        except BlockingIOError:
            return
        except OSError as exc:
            if exc.errno not in _GONE:
                log.warning("event stream write failed: %s", exc)
            self._close_soon(stream)
            return
        stream.pending = stream.pending[sent:]

    def _writable(self, stream: Parked) -> None:
        """The socket can take more (the tick's poll says so)."""
        self._flush(stream)
        if stream.pending == b"" and not stream.closed:
            self._poller.modify(stream.fd, select.POLLIN | select.POLLRDHUP)
            if stream.then_close:
                self._close(stream)

    def _readable(self, stream: Parked) -> None:
        """The client sent something, or closed its end (then it reads as end of file)."""
        try:
            gone = stream.sock.recv(1, socket.MSG_PEEK) == b""
        except BlockingIOError:
            return
        except OSError:
            gone = True
        if gone:
            self._close_soon(stream)
        else:  # a client that sends more on an event stream: not watched any more, left to its time limit
            self._poller.modify(stream.fd, select.POLLOUT if stream.pending else 0)

    # -- ending -------------------------------------------------------------------------------------------

    def _end_soon(self, stream: Parked) -> None:
        """The server ends it, from the hub's reader (which must not wait on Redis): the last chunk is
        queued now, so nothing after it goes out, and the close runs in a greenlet."""
        self._leave(stream)
        if stream.chunked:
            self._send(stream, b"0\r\n\r\n")
            stream.chunked = False  # the last chunk is out: _close adds none
        stream.deadline = 0.0
        gevent_loop().spawn(self._close, stream)

    def _end(self, stream: Parked) -> None:
        """The server ends it: a stream gets its last chunk, a long-poll its answer."""
        if stream.is_poll:
            self._respond(stream)  # nothing if its answer is being made already
        else:
            self._close(stream, ended=True)

    def _respond(self, poll: Parked, wait_over: bool = False) -> None:
        """A parked long-poll's answer, sent; the connection closes once it is out. `wait_over`: its wait
        ended, and nothing new reached its lot meanwhile (else it would have been answered then)."""
        answer, poll.answer = poll.answer, None
        if answer is None or poll.closed:
            return
        self._leave(poll)
        try:
            # Most waits end with nothing new: their 304 was made when they were parked, and sending it
            # costs no request run again (a Redis read, the whole Flask request) at every wait's end.
            response = poll.unchanged if wait_over and poll.unchanged is not None else answer()
        except Exception:  # noqa: BLE001 - the request's own errors are answered by the app; this is worse
            log.warning("a parked long-poll could not be answered", exc_info=True)
            self._close(poll)
            return
        self._release(poll)  # before the answer goes out: the client's next long-poll may come at once
        self._send(poll, response)
        if poll.pending:
            poll.then_close = True
        else:
            self._close(poll)

    def _close_soon(self, stream: Parked) -> None:
        """The socket failed or its client left: nothing more is sent to it, and the close (which
        releases the lease in Redis) runs in a greenlet of its own (this may be the hub's reader)."""
        if stream.closed or stream.pending is None:
            return
        stream.pending = None
        gevent_loop().spawn(self._close, stream)

    def _close(self, stream: Parked, ended: bool = False) -> None:
        """Ends the stream; `ended`: the server ends it (the body's last chunk is sent), rather than the
        client having gone or being too slow."""
        if stream.closed:
            return
        self._release(stream)  # before the client can see the end: it may reconnect at once
        if ended and stream.chunked:
            self._send(stream, b"0\r\n\r\n")
        stream.closed = True
        self._all.discard(stream)
        self._leave(stream)
        if self._by_fd.get(stream.fd) is stream:
            del self._by_fd[stream.fd]
            self._poller.unregister(stream.fd)
        self._flush(stream)  # the last events (a match's end) go out if the socket takes them now
        try:
            stream.sock.close()
        except OSError:
            pass

    @staticmethod
    def _release(stream: Parked) -> None:
        """Its lease on the address's cap and its place in the gauge, given back once."""
        on_close, stream.on_close = stream.on_close, None
        if on_close is None:
            return
        try:
            on_close()
        except Exception:  # noqa: BLE001 - a failed release must not keep the stream open
            log.warning("releasing a parked stream's lease failed", exc_info=True)

    def _tick(self) -> None:
        gevent = gevent_loop()
        while True:
            gevent.sleep(TICK_S)
            try:
                self._look()
            except Exception:  # noqa: BLE001 - the next tick tries again; a dead ticker would strand them all
                log.warning("parked streams: a tick failed", exc_info=True)

    def _look(self) -> None:
        """One tick: who left, who can take what waited, who needs a heartbeat, who is out of time. Every
        YIELD_EVERY streams it lets other greenlets run: a tick over 5,000 streams took 10-70 ms of CPU
        on the development machine, and held the loop (a probe, a move) for all of it."""
        for fd, events in in_turns(self._poller.poll(0)):
            stream = self._by_fd.get(fd)  # None if it closed meanwhile (a reused fd only peeks, harmlessly)
            if stream is None:
                continue
            if events & (select.POLLIN | select.POLLRDHUP | select.POLLHUP | select.POLLERR):
                self._readable(stream)
            if events & select.POLLOUT:
                self._writable(stream)
        now = time.monotonic()
        for stream in in_turns(list(self._all)):
            if stream.closed:
                continue
            if stream.is_poll:
                # A long-poll whose answer is being made (`answer` is None: a request run again, which
                # may wait for a slot and Redis) is left to it: neither a heartbeat nor its time limit
                # may come before the answer's status line.
                if now >= stream.deadline and stream.answer is not None:
                    gevent_loop().spawn(self._respond, stream, True)
            elif now >= stream.deadline:
                if not stream.then_close:
                    self._close(stream, ended=True)
            elif now - stream.quiet_since >= self.keepalive_s:
                self._write(stream, b": keep-alive\n\n")


# -- the hand-over from the request -----------------------------------------------------------------

PLAN = "talon.park"  # the environ key a route sets to have its response parked
POLL = "talon.park-poll"  # ... to have its long-poll parked (and answered by running it again later)
AGAIN = "talon.again"  # set on the request run again for a parked long-poll: answer, do not wait


class Plan:
    """What a route asks to park: set as environ[PLAN]; the response it returns is the stream's head."""

    __slots__ = ("game_id", "game", "seat", "operator", "authorized_at", "cursor", "max_s", "on_close")

    def __init__(
        self,
        game_id: str,
        game: str,
        seat: int | None,
        operator: bool,
        authorized_at: int,
        cursor: int,
        max_s: float,
        on_close: Callable[[], None],
    ):
        self.game_id, self.game, self.seat, self.operator = game_id, game, seat, operator
        self.authorized_at, self.cursor, self.max_s, self.on_close = authorized_at, cursor, max_s, on_close


class PollPlan:
    """What a route asks to park for a long-poll: set as environ[POLL]; the response it returns is dropped."""

    __slots__ = ("game_id", "game", "version", "wait_s", "on_close")

    def __init__(self, game_id: str, game: str, version: int, wait_s: float, on_close: Callable[[], None]):
        self.game_id, self.game, self.version, self.wait_s, self.on_close = game_id, game, version, wait_s, on_close


# What a long-poll is run again with: the request's line and headers, not its body or connection.
_AGAIN_KEYS = (
    "REQUEST_METHOD",
    "SCRIPT_NAME",
    "PATH_INFO",
    "QUERY_STRING",
    "SERVER_NAME",
    "SERVER_PORT",
    "SERVER_PROTOCOL",
    "REMOTE_ADDR",
    "REMOTE_PORT",
    "CONTENT_TYPE",
    "wsgi.url_scheme",
    "wsgi.version",
    "wsgi.multithread",
    "wsgi.multiprocess",
    "wsgi.run_once",
    "wsgi.errors",
)


def opens_a_wait(environ: dict) -> bool:
    """An event stream opened, a long-poll (`?wait=`), or a parked long-poll run again to be answered:
    the only requests whose routes set PLAN or POLL."""
    return (
        environ.get("PATH_INFO", "").endswith("/stream")
        or "wait=" in environ.get("QUERY_STRING", "")
        or AGAIN in environ
    )


def can_park(environ: dict) -> bool:
    """Whether this request may be parked: under gunicorn's gevent worker, not already run again."""
    return AGAIN not in environ and environ.get("gunicorn.socket") is not None and gevent_loop() is not None


def hand_over() -> NoReturn:
    """Ends gunicorn's handling of a connection whose socket parking now holds a duplicate of.

    gunicorn's async workers read a kept-alive connection's next request until the keep-alive time runs
    out, and end the connection on a StopIteration from a request's handling (what they do after a
    response with `Connection: close`). Returning its ALREADY_HANDLED instead left, for every stream an
    HTTP/1.1 client (a browser's EventSource) opened, a greenlet reading for a next request that never
    comes, with the request's parser, buffers, timer and a second socket, for the keep-alive time (5 s).
    tests/e2e/test_live_connections.py checks that gunicorn lets go of the connection at once and that
    the stream goes on."""
    raise StopIteration("handed over to parking")


class ParkingMiddleware:
    """WSGI middleware: a response whose route set environ[PLAN] is written to the client here and its
    stream parked; gunicorn is told it has been handled. Anything else passes through untouched."""

    def __init__(self, app, parking: Parking):
        self.app, self.parking = app, parking

    def __call__(self, environ, start_response):
        if not opens_a_wait(environ):  # the moves and views pass straight through
            return self.app(environ, start_response)
        captured: list = []

        def start(status, headers, exc_info=None):
            if PLAN in environ or POLL in environ:
                captured[:] = [status, headers]
                return lambda data: None
            return start_response(status, headers, exc_info)

        body = self.app(environ, start)
        if POLL in environ:
            return self._park_poll(environ, body, environ[POLL], captured) if captured else body
        plan = environ.get(PLAN)
        if plan is None or not captured:
            return body
        payload = wire.read_whole(body)
        status, headers = captured
        chunked = environ.get("SERVER_PROTOCOL") == "HTTP/1.1"
        head = wire.head(status, headers, *(["Transfer-Encoding: chunked"] if chunked else []))
        try:
            self.parking.park(
                environ["gunicorn.socket"],
                chunked,
                plan.game_id,
                plan.game,
                plan.seat,
                plan.operator,
                plan.authorized_at,
                plan.cursor,
                plan.max_s,
                head,
                payload,
                plan.on_close,
            )
        except BaseException:
            plan.on_close()
            raise
        hand_over()

    def _park_poll(self, environ: dict, body, plan: PollPlan, captured: list):
        """The route's response (its answer should the wait end with nothing new) is kept, whole."""
        unchanged = wire.whole_response(*captured, wire.read_whole(body))
        again = {key: environ[key] for key in _AGAIN_KEYS if key in environ}
        again.update((key, value) for key, value in environ.items() if key.startswith("HTTP_"))
        try:
            self.parking.park_poll(
                environ["gunicorn.socket"],
                plan.game_id,
                plan.game,
                plan.version,
                plan.wait_s,
                lambda: self._run_again(again),
                plan.on_close,
                unchanged,
            )
        except BaseException:
            plan.on_close()
            raise
        hand_over()

    def _run_again(self, environ: dict) -> bytes:
        """The long-poll's request run again, to answer now: the whole HTTP response, to close after."""
        import io

        environ = {**environ, AGAIN: True, "wsgi.input": io.BytesIO()}
        captured: list = []
        body = self.app(environ, lambda status, headers, exc_info=None: captured.extend((status, headers)))
        return wire.whole_response(*captured, wire.read_whole(body))
