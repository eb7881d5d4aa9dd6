"""Many event-stream clients in one process: an asyncio loop in a thread of its own, each stream one
plain socket, for the tests and the bench that hold hundreds or thousands of connections.

Each client speaks HTTP/1.0 (the server then sends the body as it comes and closes at its end: no chunked
encoding to undo) from a loopback source address of its own choosing (127.0.0.0/8 is all loopback), as
distinct users would come from distinct addresses. What a stream receives is kept as (version, type,
monotonic time of arrival); times are comparable across processes on one machine (CLOCK_MONOTONIC).
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass, field

import orjson


@dataclass
class Stream:
    path: str
    source: str
    status: int | None = None
    events: list[tuple[int, str, float]] = field(default_factory=list)
    ended: bool = False  # the server closed the stream
    heartbeats: int = 0
    error: str | None = None

    @property
    def versions(self) -> list[int]:
        return [version for version, _, _ in self.events]


@dataclass
class LongPoll:
    """A client that long-polls a view again and again (`?wait=` with If-None-Match), as a mobile client
    does; `answers` are (version, monotonic time) of each 200."""

    path: str
    source: str
    version: int
    headers: dict = field(default_factory=dict)
    answers: list[tuple[int, float]] = field(default_factory=list)
    unchanged: int = 0  # 304s: the wait ran out with nothing new
    errors: list[str] = field(default_factory=list)
    stopped: bool = False


class Crowd:
    """Streams opened and read on a loop in a background thread. Use as a context manager."""

    def __init__(self, host: str, port: int):
        self.host, self.port = host, port
        self.streams: list[Stream] = []
        self._writers: list[asyncio.StreamWriter] = []
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="sse-crowd", daemon=True)

    def __enter__(self) -> Crowd:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.close_all()
        asyncio.run_coroutine_threadsafe(self._cancel_all(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)

    @staticmethod
    async def _cancel_all() -> None:
        tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def open(
        self,
        paths: Iterable[tuple[str, str]],
        headers: dict | None = None,
        timeout_s: float = 120,
        wait_head: bool = True,
    ) -> list[Stream]:
        """Opens a stream for each (path, source address) and waits until each has its status line (or,
        with `wait_head=False` for requests that answer late such as long-polls, until each is sent)."""
        streams = [Stream(path, source) for path, source in paths]
        future = asyncio.run_coroutine_threadsafe(self._open_all(streams, headers or {}, wait_head), self._loop)
        future.result(timeout_s)
        self.streams.extend(streams)
        return streams

    def poll(self, polls: Iterable[LongPoll]) -> list[LongPoll]:
        """Starts each long-poll loop (they run until `close_all`)."""
        polls = list(polls)
        self._polls = getattr(self, "_polls", []) + polls
        for one in polls:
            asyncio.run_coroutine_threadsafe(self._poll(one), self._loop)
        return polls

    def close_all(self) -> None:
        """Closes every client socket (abruptly, as a client that goes away)."""
        for one in getattr(self, "_polls", []):
            one.stopped = True

        def close() -> None:
            for writer in self._writers:
                writer.transport.abort()
            self._writers.clear()

        self._loop.call_soon_threadsafe(close)

    async def _open_all(self, streams: list[Stream], headers: dict, wait_head: bool) -> None:
        sent = [asyncio.Event() for _ in streams]
        opened = [
            asyncio.ensure_future(self._open(stream, headers, was_sent)) for stream, was_sent in zip(streams, sent)
        ]
        if wait_head:
            await asyncio.gather(*opened)
        else:
            await asyncio.gather(*(event.wait() for event in sent))

    async def _open(self, stream: Stream, headers: dict, sent: asyncio.Event) -> None:
        try:
            reader, writer = await asyncio.open_connection(
                self.host, self.port, local_addr=(stream.source, 0), limit=1 << 20
            )
        except OSError as exc:
            stream.error, stream.ended = str(exc), True
            sent.set()
            return
        self._writers.append(writer)
        lines = [
            f"GET {stream.path} HTTP/1.0",
            f"Host: {self.host}:{self.port}",
            "Accept: text/event-stream",
            *(f"{name}: {value}" for name, value in headers.items()),
        ]
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
        await writer.drain()
        sent.set()
        try:
            head = await reader.readuntil(b"\r\n\r\n")
        except (asyncio.IncompleteReadError, ConnectionError) as exc:
            stream.error, stream.ended = f"no response head: {exc}", True
            return
        stream.status = int(head.split(b" ", 2)[1])
        asyncio.ensure_future(self._read(stream, reader))

    async def _read(self, stream: Stream, reader: asyncio.StreamReader) -> None:
        buffer = b""
        try:
            while chunk := await reader.read(65536):
                now = time.monotonic()
                buffer += chunk
                *frames, buffer = buffer.split(b"\n\n")
                for frame in frames:
                    self._frame(stream, frame.decode(), now)
        except (ConnectionError, OSError) as exc:
            stream.error = str(exc)
        stream.ended = True

    async def _poll(self, one: LongPoll) -> None:
        while not one.stopped:
            try:
                reader, writer = await asyncio.open_connection(self.host, self.port, local_addr=(one.source, 0))
            except OSError as exc:
                one.errors.append(str(exc))
                await asyncio.sleep(1)
                continue
            self._writers.append(writer)
            lines = [
                f"GET {one.path} HTTP/1.0",
                f"Host: {self.host}:{self.port}",
                f'If-None-Match: "{one.version}"',
                *(f"{name}: {value}" for name, value in one.headers.items()),
            ]
            writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
            try:
                answer = await reader.read()
            except (ConnectionError, OSError) as exc:
                answer = b""
                one.errors.append(str(exc))
            now = time.monotonic()
            if writer in self._writers:
                self._writers.remove(writer)
            writer.close()
            head, _, body = answer.partition(b"\r\n\r\n")
            status = int(head.split(b" ", 2)[1]) if head.startswith(b"HTTP/") else 0
            if status == 200:
                one.version = orjson.loads(body)["version"]
                one.answers.append((one.version, now))
            elif status == 304:
                one.unchanged += 1
            elif not one.stopped:
                one.errors.append(f"status {status}")
                await asyncio.sleep(1)

    @staticmethod
    def _frame(stream: Stream, frame: str, now: float) -> None:
        fields = {}
        for line in frame.splitlines():
            if line.startswith(":"):
                stream.heartbeats += 1
            elif ": " in line:
                name, value = line.split(": ", 1)
                fields[name] = value
        if "id" in fields:
            stream.events.append((int(fields["id"]), fields.get("event", "message"), now))


def sources(count: int, per_source: int) -> list[str]:
    """A source address for each of `count` connections, `per_source` in a row from each address (to
    stay under the per-address caps): 127.0.10.1, 127.0.10.2, ..."""
    return [address(i // per_source) for i in range(count)]


def address(i: int) -> str:
    return f"127.0.{10 + i // 250}.{i % 250 + 1}"
