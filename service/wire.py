"""HTTP/1.1 responses the service writes on a connection's socket itself, to close the connection after:
a parked stream's head and a parked long-poll's answer (service/parking.py), a 413 whose body is still on
its way (service/too_large.py). The WSGI side's hop-by-hop headers are dropped: the connection closes
after the response, and its length or chunking is the writer's to say."""

from __future__ import annotations

from collections.abc import Iterable

HOP_BY_HOP = frozenset({"connection", "content-length", "transfer-encoding", "keep-alive"})


def head(status: str, headers: Iterable[tuple[str, str]], *more: str) -> bytes:
    """The status line and the headers, `Connection: close` and the `more` header lines, to the blank line."""
    lines = [
        f"HTTP/1.1 {status}",
        *(f"{name}: {value}" for name, value in headers if name.lower() not in HOP_BY_HOP),
        "Connection: close",
        *more,
    ]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


def whole_response(status: str, headers: Iterable[tuple[str, str]], payload: bytes) -> bytes:
    """A response with its body, as bytes on the wire."""
    return head(status, headers, f"Content-Length: {len(payload)}") + payload


def read_whole(body: Iterable[bytes]) -> bytes:
    """A WSGI app's answer body, joined, and closed as WSGI asks of whoever consumes it."""
    try:
        return b"".join(body)
    finally:
        close = getattr(body, "close", None)
        if close is not None:
            close()
