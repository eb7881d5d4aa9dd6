"""A request whose body is too large (413) ends its connection.

The 413 is decided from Content-Length before the body is read, so the body is still on its way when
the answer goes out. Kept alive, the connection would have gunicorn read the rest of that body before
the next request, under its keep-alive timeout: a client that stopped sending the body on the 413, or
sends it slowly, had its next request on the connection read as body and then the connection dropped
without an answer. Under gunicorn the 413 is written here whole, with `Connection: close`, the sending
side of the socket is shut (the client reads the answer, then the end of the connection), and gunicorn
is told the request is handled: it discards whatever still arrives until its keep-alive wait ends, then
closes the socket. Outside gunicorn (the test client) the response passes through untouched.
"""

from __future__ import annotations

import socket

from service import wire


class CloseAfterTooLarge:
    """WSGI middleware around the Flask app."""

    def __init__(self, app, max_bytes: int):
        self.app, self.max_bytes = app, max_bytes

    def __call__(self, environ, start_response):
        sock = environ.get("gunicorn.socket")
        if sock is None or not body_may_exceed(environ, self.max_bytes):
            return self.app(environ, start_response)
        captured: list = []

        def start(status, headers, exc_info=None):
            if status.startswith("413"):
                captured[:] = [status, headers]
                return lambda data: None
            return start_response(status, headers, exc_info)

        body = self.app(environ, start)
        if not captured:
            return body
        _send_and_close(sock, wire.whole_response(*captured, wire.read_whole(body)))
        from gunicorn.workers.base_async import ALREADY_HANDLED  # gunicorn only: imported when serving under it

        return ALREADY_HANDLED


def body_may_exceed(environ: dict, max_bytes: int) -> bool:
    """Whether a request's body is announced as larger than `max_bytes`, or is one whose size is known only
    once read (chunked). With 0: whether the request sends a body at all."""
    if "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower():
        return True
    try:
        return int(environ.get("CONTENT_LENGTH") or 0) > max_bytes
    except ValueError:
        return True


def _send_and_close(sock: socket.socket, response: bytes) -> None:
    try:
        sock.sendall(response)
        sock.shutdown(socket.SHUT_WR)
    except OSError:  # the client is gone: nothing to tell it
        pass
