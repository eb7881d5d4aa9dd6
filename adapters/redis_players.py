"""Registered players on Redis (app/ports.py PlayerStore): one hash per player, the hash of each key
pointing at its player, and the set of seats each player claimed.

    {prefix}:{players}:player:<id>     hash: name, created_ms
    {prefix}:{players}:key:<sha256>    string: the player id of the key with that hash (the key itself is
                                       never stored)
    {prefix}:{players}:seats:<id>      set of `<game id>:<seat>`

Every key carries the hash tag `{players}`, as the projections' do (adapters/redis_projections.py), so
they share one slot.
"""

from __future__ import annotations

from collections.abc import Sequence

import redis


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


class RedisPlayerStore:
    """The PlayerStore port (app/ports.py)."""

    def __init__(self, client: redis.Redis, prefix: str = "talon"):
        self.client = client
        self.base = f"{prefix}:{{players}}"

    def _player(self, player_id: str) -> str:
        return f"{self.base}:player:{player_id}"

    def add(self, player_id: str, name: str, created_ms: int, key_hash: str) -> None:
        pipe = self.client.pipeline(transaction=True)
        pipe.hset(self._player(player_id), mapping={"name": name, "created_ms": created_ms})
        pipe.set(f"{self.base}:key:{key_hash}", player_id)
        pipe.execute()

    def by_key_hash(self, key_hash: str) -> str | None:
        player_id = self.client.get(f"{self.base}:key:{key_hash}")
        return None if player_id is None else _text(player_id)

    def get(self, player_id: str) -> tuple[str, int] | None:
        fields = {_text(k): _text(v) for k, v in self.client.hgetall(self._player(player_id)).items()}
        if "name" not in fields:
            return None
        return fields["name"], int(fields.get("created_ms", 0))

    def names(self, player_ids: Sequence[str]) -> dict[str, str]:
        if not player_ids:
            return {}
        pipe = self.client.pipeline(transaction=False)
        for player_id in player_ids:
            pipe.hget(self._player(player_id), "name")
        return {p: _text(n) for p, n in zip(player_ids, pipe.execute()) if n is not None}

    def add_seat(self, player_id: str, game_id: str, seat: int) -> None:
        self.client.sadd(f"{self.base}:seats:{player_id}", f"{game_id}:{seat}")

    def seats(self, player_id: str) -> list[tuple[str, int]]:
        found = []
        for member in self.client.smembers(f"{self.base}:seats:{player_id}"):
            game_id, _, seat = _text(member).rpartition(":")
            found.append((game_id, int(seat)))
        return sorted(found)

    def drop_seats(self, player_id: str, seats: Sequence[tuple[str, int]]) -> None:
        if seats:
            self.client.srem(f"{self.base}:seats:{player_id}", *(f"{g}:{s}" for g, s in seats))
