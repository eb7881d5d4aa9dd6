"""The event store's connection: one Redis, or a Redis Cluster (EVENTS_REDIS_URL).

Accepted forms:

    redis://host:port/0                      one Redis (as REDIS_URL)
    redis+cluster://host:port                a Cluster, found from this node
    redis+cluster://host:port,host:port      a Cluster, from any of these nodes
    host:port,host:port                      the same, as a bare list of nodes

A Cluster has no databases, so a path (`/0`) is refused there rather than silently ignored.
"""
from __future__ import annotations

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


class DirectScript:
    """A Lua script run with EVALSHA on a connection taken from the client's pool, without redis-py's
    per-command machinery (a closure and a retry wrapper, observability records, argument checks for
    deprecations, a scan for one special command): on this machine that machinery cost as much CPU as
    the rest of a call, and the event store runs a script for every read and every write of a game.

    What it keeps of redis-py: the pool, which checks a connection before it hands it out (a connection
    the server closed meanwhile is replaced) and after a fork; the connection's health check; the wire
    format and the reply parser; SCRIPT LOAD on NOSCRIPT. What it leaves out: redis-py's retries of a
    call whose connection broke while it ran; such a call raises ConnectionError (the API answers 503,
    a job fails and is retried), as when Redis is down. A connection that failed in any other way than
    with a complete error reply is closed, not reused: part of its reply may be unread. A Cluster client
    (which picks the node by key) and a single-connection client keep redis-py's own path."""

    def __init__(self, client, source: str):
        self.script = client.register_script(source)
        direct = isinstance(client, redis.Redis) and getattr(client, "connection", None) is None
        self._pool = client.connection_pool if direct else None

    def __call__(self, keys: list, args: list):
        if self._pool is None:
            return self.script(keys=keys, args=args)
        conn = self._pool.get_connection()
        try:
            try:
                return self._evalsha(conn, keys, args)
            except NoScriptError:          # Redis restarted or its scripts were flushed
                self.script.sha = self.script.registered_client.script_load(self.script.script)
                return self._evalsha(conn, keys, args)
        except ResponseError:
            raise                          # a whole error reply was read: the connection is fine
        except BaseException:
            conn.disconnect()
            raise
        finally:
            self._pool.release(conn)

    def _evalsha(self, conn, keys: list, args: list):
        conn.send_command("EVALSHA", self.script.sha, len(keys), *keys, *args)
        return conn.read_response()
