"""The connection caps' leases in Redis (service/caps.py): renewing pushes every open lease's expiry,
however many the process holds (they go in batches), and brings back none that was released."""

from __future__ import annotations

from service.caps import LEASE_S, RENEW_BATCH, Caps


def test_renewing_pushes_every_open_lease_and_brings_back_no_released_one(r):
    caps = Caps(r, "t:caps")
    count = 2 * RENEW_BATCH + 50  # three batches
    leases = [caps.take("streams", f"10.0.{i // 250}.{i % 250}", cap=5) for i in range(count)]
    released = leases.pop()
    released.release()
    for lease in leases:  # as if their expiry were near
        r.zadd(lease.key, {lease.member: 1}, xx=True)

    caps.renew()

    seconds, micros = r.time()
    now_ms = seconds * 1000 + micros // 1000
    for lease in leases:
        assert r.zscore(lease.key, lease.member) > now_ms + (LEASE_S - 5) * 1000
        assert r.pttl(lease.key) > (LEASE_S - 5) * 1000
    assert r.zscore(released.key, released.member) is None
    assert caps.held() == count - 1
