"""A throwaway Redis server for one test session (never the one on 6379)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time

import redis


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def redis_binary() -> str:
    path = os.environ.get("TALON_REDIS_SERVER") or shutil.which("redis-server")
    if not path:
        raise RuntimeError("no redis-server: run the suite with `make test`, which installs one")
    return path


class RedisProcess:
    """Starts redis-server on a free loopback port in its own temporary directory."""

    def __init__(
        self,
        appendonly: bool = False,
        port: int | None = None,
        workdir: str | None = None,
        wrapper: list[str] | None = None,
        start_timeout_s: float = 10,
    ):
        """`wrapper`: a command the server runs under (bench.instructions counts Redis with valgrind)."""
        self.port = port or free_port()
        self.dir = workdir or tempfile.mkdtemp(prefix="talon-redis-")
        self.appendonly = appendonly
        self.wrapper = wrapper or []
        self.start_timeout_s = start_timeout_s
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> RedisProcess:
        args = [
            *self.wrapper,
            redis_binary(),
            "--port",
            str(self.port),
            "--bind",
            "127.0.0.1",
            "--dir",
            self.dir,
            "--save",
            "",
            "--maxmemory-policy",
            "noeviction",
            "--appendonly",
            "yes" if self.appendonly else "no",
            "--logfile",
            "redis.log",
        ]
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        client = redis.Redis.from_url(self.url)
        deadline = time.monotonic() + self.start_timeout_s
        while True:
            try:
                client.ping()
                break
            except redis.ConnectionError as exc:
                if time.monotonic() > deadline or self.proc.poll() is not None:
                    raise RuntimeError(f"redis-server did not start on port {self.port}") from exc
                time.sleep(0.05)
        client.close()
        return self

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None
