"""Caps on the connections one client address may hold open at a time: event streams and long-polls.

A connection that waits costs the server little (a greenlet), but not nothing, and a single address
must not be able to take a node's capacity: each address may hold at most `max_streams_per_address`
event streams and `max_long_polls_per_address` waiting long-polls (Settings). One more is refused with
429 problem+json and Retry-After.

The counts are shared by every API process and instance through Redis (REDIS_URL): each open connection
holds a lease, a member of the sorted set `<prefix>:conns:<kind>:<address>` scored by its expiry time.
Opening one runs LEASE: expired leases go, the rest are counted, and a new one is added only under the
cap, in one atomic script. Closing removes the lease. A process renews the leases of its open
connections every RENEW_S (one pipeline), so a lease outlives its connection only if the process died
with it, and then by at most LEASE_S. If Redis cannot be reached the cap is not checked (the request
itself will meet the outage), as with the rate limits.
"""

from __future__ import annotations

import logging
import os
import threading
import time

import redis

log = logging.getLogger("talon.caps")

LEASE_S = 60
RENEW_S = 20
# Leases renewed by one script. Redis runs a script alone, and every move and fan-out read waits behind
# it: 500 leases (1,000 commands) held it 4.7 ms (up to 13.7 ms under bench.streams' load), 100 hold it 0.9.
RENEW_BATCH = 100

# KEYS[1] the address's lease set   ARGV[1] new lease's member   ARGV[2] the cap   ARGV[3] lease ms
# Returns 1 if the lease was taken, 0 if the address is at its cap. The time is Redis's own (TIME).
LEASE = """
local now = redis.call('TIME')
now = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[3]))
return 1
"""

# KEYS the lease sets   ARGV[1] lease ms   ARGV[2..] the member in each set (the same order as KEYS)
RENEW = """
local now = redis.call('TIME')
now = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
for i, key in ipairs(KEYS) do
  redis.call('ZADD', key, 'XX', now + tonumber(ARGV[1]), ARGV[i + 1])
  redis.call('PEXPIRE', key, tonumber(ARGV[1]))
end
return #KEYS
"""


class AtCapacity(Exception):
    """The address holds as many connections of this kind as it may."""

    def __init__(self, kind: str, cap: int):
        super().__init__(f"at most {cap} open {kind} per address")
        self.kind, self.cap = kind, cap


class Lease:
    def __init__(self, caps: Caps, key: str, member: str):
        self.caps, self.key, self.member = caps, key, member

    def release(self) -> None:
        self.caps._release(self)

    def __enter__(self) -> Lease:
        return self

    def __exit__(self, *exc) -> None:
        self.release()


class Caps:
    def __init__(self, client: redis.Redis, prefix: str):
        self.client = client
        self.prefix = prefix
        self._lease = client.register_script(LEASE)
        self._renew = client.register_script(RENEW)
        self._open: dict[str, Lease] = {}
        self._lock = threading.Lock()
        self._renewer: threading.Thread | None = None
        self._process = os.urandom(6).hex()  # lease members unique across processes and hosts
        self._count = 0

    def take(self, kind: str, address: str, cap: int) -> Lease | None:
        """A lease for one more connection of `kind` from `address`; AtCapacity at the cap. None when
        Redis could not be asked (the connection goes ahead uncounted)."""
        key = f"{self.prefix}:conns:{kind}:{address}"
        with self._lock:
            self._count += 1
            member = f"{self._process}:{self._count}"
        try:
            taken = self._lease(keys=[key], args=[member, cap, LEASE_S * 1000])
        except redis.RedisError as exc:
            log.warning("connection cap not checked: %s", exc)
            return None
        if not taken:
            raise AtCapacity(kind, cap)
        lease = Lease(self, key, member)
        with self._lock:
            self._open[member] = lease
            if self._renewer is None:
                self._renewer = threading.Thread(target=self._renew_loop, name="caps-renew", daemon=True)
                self._renewer.start()
        return lease

    def held(self) -> int:
        """Leases this process holds."""
        with self._lock:
            return len(self._open)

    def _release(self, lease: Lease) -> None:
        with self._lock:
            if self._open.pop(lease.member, None) is None:
                return
        try:
            self.client.zrem(lease.key, lease.member)
        except redis.RedisError as exc:  # it expires by itself within LEASE_S
            log.warning("connection lease not released: %s", exc)

    def _renew_loop(self) -> None:
        while True:
            time.sleep(RENEW_S)
            self.renew()

    def renew(self) -> None:
        """Pushes the expiry of every lease this process holds LEASE_S from now, RENEW_BATCH at a time."""
        with self._lock:
            leases = list(self._open.values())
        for start in range(0, len(leases), RENEW_BATCH):
            batch = leases[start : start + RENEW_BATCH]
            try:
                self._renew(
                    keys=[lease.key for lease in batch], args=[LEASE_S * 1000, *(lease.member for lease in batch)]
                )
            except redis.RedisError as exc:
                log.warning("connection leases not renewed: %s", exc)
