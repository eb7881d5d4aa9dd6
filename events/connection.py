"""The event store's connection: one Redis, or a Redis Cluster (EVENTS_REDIS_URL).

Accepted forms:

    redis://host:port/0                      one Redis (as REDIS_URL)
    redis+cluster://host:port                a Cluster, found from this node
    redis+cluster://host:port,host:port      a Cluster, from any of these nodes
    host:port,host:port                      the same, as a bare list of nodes

A Cluster has no databases, so a path (`/0`) is refused there rather than silently ignored.
"""
from __future__ import annotations

import os
import select
import threading
from urllib.parse import unquote, urlsplit

import redis
from redis.cluster import ClusterNode, RedisCluster
from redis.exceptions import NoScriptError, ResponseError

CLUSTER_SCHEME = "redis+cluster://"


def is_cluster(client) -> bool:
    return isinstance(client, RedisCluster)


def is_cluster_url(url: str) -> bool:
    return url.startswith(CLUSTER_SCHEME) or "," in url


def connect(url: str, **options) -> redis.Redis | RedisCluster:
    """A client for `url`; `options` go to the client (e.g. health_check_interval)."""
    if not is_cluster_url(url):
        return redis.Redis.from_url(url, **options)
    nodes, password, username = _cluster_nodes(url)
    return RedisCluster(startup_nodes=nodes, password=password, username=username, **options)


def _cluster_nodes(url: str) -> tuple[list[ClusterNode], str | None, str | None]:
    body = url[len(CLUSTER_SCHEME):] if url.startswith(CLUSTER_SCHEME) else url
    nodes, password, username = [], None, None
    for part in body.split(","):
        part = part.strip()
        parsed = urlsplit(part if "://" in part else "//" + part)
        if parsed.path not in ("", "/"):
            raise ValueError(f"a Redis Cluster has no databases: {part!r}")
        if not parsed.hostname or not parsed.port:
            raise ValueError(f"a cluster node needs host:port: {part!r}")
        nodes.append(ClusterNode(parsed.hostname, parsed.port))
        password = unquote(parsed.password) if parsed.password else password
        username = unquote(parsed.username) if parsed.username else username
    return nodes, password, username


class DirectScripts:
    """Lua scripts run with EVALSHA on a connection of the calling thread's own, without redis-py's
    per-command machinery. The event store runs a script for every read and every write of a game, and
    redis-py 8 wraps each call in a closure and a retry wrapper, observability records, deprecation checks
    of its arguments and a scan for one special command, and takes the connection from its pool and puts
    it back under a lock with a fork check each way and a readiness probe: on this machine all that cost
    more CPU than the rest of the call (encoding, the round trip, decoding).

    Each thread keeps one connection, made with the pool's settings but outside its bookkeeping (it goes
    with its thread). What stays of redis-py: the connection (its health check included), the wire format
    and the reply parser, SCRIPT LOAD on NOSCRIPT. Before each call the connection is checked as the pool
    checks it, with one poll of its socket: a connection the server closed meanwhile (a restart, a client
    kill) or with bytes left to read is replaced. A connection that failed in any other way than with a
    complete error reply is closed, not reused: part of its reply may be unread. redis-py's retries of a
    call whose connection broke while it ran are left out: such a call raises ConnectionError (the API
    answers 503, a job fails and is retried), as when Redis is down. A fork leaves the parent's connections
    to the parent. A Cluster client (which picks the node by key), a single-connection client, one with
    client-side caching and one over TLS keep redis-py's own path."""

    def __init__(self, client):
        self.client = client
        pool = getattr(client, "connection_pool", None)
        direct = isinstance(client, redis.Redis) and getattr(client, "connection", None) is None \
            and getattr(pool, "cache", None) is None \
            and pool.connection_class in (redis.Connection, redis.UnixDomainSocketConnection)  # TLS buffers
        self._pool = pool if direct else None
        self._local = threading.local()

    def script(self, source: str) -> "DirectScript":
        return DirectScript(self, self.client.register_script(source))

    @property
    def direct(self) -> bool:
        return self._pool is not None

    def connection(self):
        """The calling thread's connection, ready for a command."""
        local = self._local
        conn = getattr(local, "conn", None)
        if conn is None or local.forks != _forks:
            conn = local.conn = self._pool.connection_class(**self._pool.connection_kwargs)
            local.forks = _forks
        elif not _ready(conn):
            conn.disconnect()              # the next command connects anew
        return conn


class DirectScript:
    """One script of `DirectScripts`: called as redis-py's Script is, with keys and args."""

    def __init__(self, scripts: DirectScripts, script):
        self.scripts, self.script = scripts, script

    def __call__(self, keys: list, args: list):
        if not self.scripts.direct:
            return self.script(keys=keys, args=args)
        conn = self.scripts.connection()
        try:
            try:
                return self._evalsha(conn, keys, args)
            except NoScriptError:          # Redis restarted or its scripts were flushed
                self.script.sha = self.scripts.client.script_load(self.script.script)
                return self._evalsha(conn, keys, args)
        except ResponseError:
            raise                          # a whole error reply was read: the connection is fine
        except BaseException:
            conn.disconnect()
            raise

    def _evalsha(self, conn, keys: list, args: list):
        conn.send_command("EVALSHA", self.script.sha, len(keys), *keys, *args)
        return conn.read_response()


def _ready(conn) -> bool:
    """Not connected yet (it will connect), or connected with nothing to read: a closed socket reads
    as end of file, and a reply nobody read would be taken for the next one's."""
    sock = getattr(conn, "_sock", None)
    if sock is None:
        return True
    poll = select.poll()                   # not the socket's own recv: with a timeout set, it would wait
    poll.register(sock, select.POLLIN)
    return not poll.poll(0)


# How many forks this process descends from: a thread's connection belongs to the process that made it.
_forks = 0


def _count_fork() -> None:
    global _forks
    _forks += 1


os.register_at_fork(after_in_child=_count_fork)
