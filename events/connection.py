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
