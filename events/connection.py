"""The event store's connection: one Redis, or a Redis Cluster (EVENTS_REDIS_URL).

Accepted forms:

    redis://host:port/0                      one Redis (as REDIS_URL)
    redis+cluster://host:port                a Cluster, found from this node
    redis+cluster://host:port,host:port      a Cluster, from any of these nodes
    host:port,host:port                      the same, as a bare list of nodes

A Cluster has no databases, so a path (`/0`) is refused there rather than silently ignored.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote, urlsplit

import redis
from redis.cluster import ClusterNode, RedisCluster

CLUSTER_SCHEME = "redis+cluster://"


def is_cluster(client: object) -> bool:
    return isinstance(client, RedisCluster)


def is_cluster_url(url: str) -> bool:
    return url.startswith(CLUSTER_SCHEME) or "," in url


# How long a caller waits for a free connection of a bounded pool before it fails as if Redis were away.
POOL_WAIT_S = 5.0


def connect(url: str, pool_size: int | None = None, **options: Any) -> redis.Redis | RedisCluster:
    """A client for `url`; `options` go to the client (e.g. health_check_interval).

    `pool_size`: at most this many connections at once (per node of a Cluster); on one Redis a caller
    beyond them waits for a free one (up to POOL_WAIT_S). The API serves thousands of connections as
    greenlets: without a bound, a burst of them would open as many Redis connections (redis-py's
    default pool refuses past 100)."""
    if not is_cluster_url(url):
        if pool_size is None:
            return redis.Redis.from_url(url, **options)
        pool = redis.BlockingConnectionPool.from_url(url, max_connections=pool_size, timeout=POOL_WAIT_S, **options)
        return redis.Redis(connection_pool=pool)
    nodes, password, username = _cluster_nodes(url)
    if pool_size is not None:
        options["max_connections"] = pool_size
    return RedisCluster(startup_nodes=nodes, password=password, username=username, **options)


def _cluster_nodes(url: str) -> tuple[list[ClusterNode], str | None, str | None]:
    body = url[len(CLUSTER_SCHEME) :] if url.startswith(CLUSTER_SCHEME) else url
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
