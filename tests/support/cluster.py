"""A throwaway 3-primary Redis Cluster on loopback, for the scale-out e2e test and bench/cluster.py
(never the Redis on 6379). It lives here rather than in the test module so that the bench can use it
without importing a test module (and pytest's fixtures with it)."""

from __future__ import annotations

import random
import socket
import subprocess
import time
from pathlib import Path

import redis
from redis.cluster import RedisCluster

from tests.support.processes import stop_process
from tests.support.redis_proc import redis_binary

CLUSTER_START_S = 20.0


def cluster_port() -> int:
    """A free port whose cluster bus port (port + 10000) is free and valid too."""
    rng = random.Random()
    for _ in range(200):
        port = rng.randrange(20000, 50000)
        if all(_free(p) for p in (port, port + 10000)):
            return port
    raise RuntimeError("no free port pair for a cluster node")


def _free(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
            return True
        except OSError:
            return False


class Cluster:
    """Three cluster-enabled redis-servers joined by `redis-cli --cluster create` (no replicas)."""

    def __init__(self, workdir: Path):
        self.workdir = workdir
        self.ports = [cluster_port() for _ in range(3)]
        self.procs: list[subprocess.Popen] = []

    @property
    def url(self) -> str:
        return "redis+cluster://" + ",".join(f"127.0.0.1:{p}" for p in self.ports)

    def start(self) -> Cluster:
        for port in self.ports:
            node_dir = self.workdir / f"node-{port}"
            node_dir.mkdir()
            self.procs.append(
                subprocess.Popen(
                    [
                        redis_binary(),
                        "--port",
                        str(port),
                        "--bind",
                        "127.0.0.1",
                        "--dir",
                        str(node_dir),
                        "--cluster-enabled",
                        "yes",
                        "--cluster-config-file",
                        "nodes.conf",
                        "--save",
                        "",
                        "--appendonly",
                        "no",
                        "--maxmemory-policy",
                        "noeviction",
                        "--logfile",
                        "redis.log",
                    ],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            )
        for port in self.ports:
            self._await(lambda port=port: redis.Redis(port=port).ping(), f"node {port}")
        subprocess.run(
            ["redis-cli", "--cluster", "create", *(f"127.0.0.1:{p}" for p in self.ports), "--cluster-yes"],
            check=True,
            capture_output=True,
            timeout=CLUSTER_START_S,
        )
        for port in self.ports:
            self._await(
                lambda port=port: redis.Redis(port=port).cluster("info").get("cluster_state") == "ok",
                f"cluster state on {port}",
            )
        return self

    def client(self) -> RedisCluster:
        return RedisCluster(host="127.0.0.1", port=self.ports[0])

    def stop(self) -> None:
        for proc in self.procs:
            stop_process(proc)

    @staticmethod
    def _await(check, what: str) -> None:
        deadline = time.monotonic() + CLUSTER_START_S
        while True:
            try:
                if check():
                    return
            except redis.RedisError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"{what} not ready within {CLUSTER_START_S} s")
            time.sleep(0.05)
