"""The projections of the event logs on Redis (app/ports.py ProjectionStore): ratings, leaderboards,
match records and histories, in generations (docs/ARCHITECTURE.md "Projections").

    {prefix}:{players}:active               the generation readers and workers use (absent: 0)
    {prefix}:{players}:generations          counter of the generations made (a rebuild makes one)
    {prefix}:{players}:g<n>:cursor          the global feed id the generation has applied up to
    {prefix}:{players}:g<n>:seq             how many matches it has recorded (a match's position)
    {prefix}:{players}:g<n>:match:<game>    hash: seq, record (JSON): one finished match
    {prefix}:{players}:g<n>:ratings:<game>  hash: participant -> [rating, deviation, volatility, matches]
    {prefix}:{players}:g<n>:board:<game>    sorted set: eligible players by rating
    {prefix}:{players}:g<n>:history:<id>    sorted set: the player's matches by seq

Every key has the hash tag `{players}`, so one script can write a match's keys and the cursor at once,
on one Redis or in one slot of a Cluster. The script (COMMIT) checks the cursor first: a worker that lost
the race, or one whose generation a rebuild replaced, writes nothing; a worker killed before the script
ran wrote nothing, and one killed after it finds the cursor moved on (and the match recorded), so no
match counts twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

import orjson
import redis

if TYPE_CHECKING:
    from app.ports import MatchWrite  # the port is app/ports.py ProjectionStore

COMMIT = """
-- KEYS: active, cursor [, seq, match, ratings, board, history...]
-- ARGV: generation, only_if_active, expected cursor, new cursor [, record, n ratings, (participant, json)...,
--       n board, (player, score or ''), ..., game id]
if ARGV[2] == '1' and (redis.call('GET', KEYS[1]) or '0') ~= ARGV[1] then return 0 end
if (redis.call('GET', KEYS[2]) or '0') ~= ARGV[3] then return 0 end
redis.call('SET', KEYS[2], ARGV[4])
if #KEYS == 2 or redis.call('EXISTS', KEYS[4]) == 1 then return 1 end
local seq = redis.call('INCR', KEYS[3])
redis.call('HSET', KEYS[4], 'seq', seq, 'record', ARGV[5])
local i = 6
local n = tonumber(ARGV[i])
for k = 1, n do
  redis.call('HSET', KEYS[5], ARGV[i + 2 * k - 1], ARGV[i + 2 * k])
end
i = i + 2 * n + 1
n = tonumber(ARGV[i])
for k = 1, n do
  local member, score = ARGV[i + 2 * k - 1], ARGV[i + 2 * k]
  if score == '' then redis.call('ZREM', KEYS[6], member) else redis.call('ZADD', KEYS[6], score, member) end
end
i = i + 2 * n + 1
for k = 7, #KEYS do
  redis.call('ZADD', KEYS[k], seq, ARGV[i])
end
return 1
"""


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


class RedisProjectionStore:
    """The ProjectionStore port (app/ports.py)."""

    def __init__(self, client: redis.Redis, prefix: str = "talon"):
        self.client = client
        self.base = f"{prefix}:{{players}}"
        self._commit = client.register_script(COMMIT)

    def _key(self, generation: int, *parts: str) -> str:
        return ":".join((self.base, f"g{generation}", *parts))

    # -- generations ------------------------------------------------------------------------------

    def active(self) -> int:
        return int(self.client.get(f"{self.base}:active") or 0)

    def new_generation(self) -> int:
        made = self.client.incr(f"{self.base}:generations")
        return max(made, self.active() + 1)

    def activate(self, generation: int) -> None:
        """Makes `generation` the active one and drops every other: the one before, and what a rebuild
        that died half-way left (one rebuild runs at a time)."""
        self.client.set(f"{self.base}:active", generation)
        for made in self._generations() - {generation}:
            self._drop(made)

    def _generations(self) -> set[int]:
        found = set()
        for key in self.client.scan_iter(match=f"{self.base}:g*:cursor", count=1000):
            number = _text(key)[len(self.base) + 2 :].partition(":")[0]
            if number.isdigit():
                found.add(int(number))
        return found

    def _drop(self, generation: int) -> None:
        keys = list(self.client.scan_iter(match=self._key(generation, "*"), count=1000))
        for start in range(0, len(keys), 500):
            self.client.delete(*keys[start : start + 500])

    # -- the feed cursor and the writes -------------------------------------------------------------

    def cursor(self, generation: int) -> str:
        return _text(self.client.get(self._key(generation, "cursor")) or b"0")

    def has_match(self, generation: int, game_id: str) -> bool:
        return bool(self.client.exists(self._key(generation, "match", game_id)))

    def ratings(self, generation: int, game: str, participants: Sequence[str]) -> dict[str, list[float]]:
        if not participants:
            return {}
        values = self.client.hmget(self._key(generation, "ratings", game), list(participants))
        return {p: orjson.loads(v) for p, v in zip(participants, values) if v is not None}

    def commit(
        self, generation: int, expected_cursor: str, new_cursor: str, match: MatchWrite | None, only_if_active: bool
    ) -> bool:
        keys = [f"{self.base}:active", self._key(generation, "cursor")]
        args: list[int | str | bytes] = [generation, int(only_if_active), expected_cursor, new_cursor]
        if match is not None:
            keys += [
                self._key(generation, "seq"),
                self._key(generation, "match", match.game_id),
                self._key(generation, "ratings", match.game),
                self._key(generation, "board", match.game),
            ]
            keys += [self._key(generation, "history", player) for player in match.history]
            args.append(orjson.dumps(match.record, option=orjson.OPT_SORT_KEYS))
            args.append(len(match.ratings))
            for participant, values in sorted(match.ratings.items()):
                args += [participant, orjson.dumps(values)]
            args.append(len(match.board))
            for player, score in sorted(match.board.items()):
                args += [player, "" if score is None else repr(score)]
            args.append(match.game_id)
        committed: int = self._commit(keys=keys, args=args)  # the script returns 0 or 1
        return committed == 1

    # -- reading ------------------------------------------------------------------------------------

    def match(self, generation: int, game_id: str) -> dict[str, Any] | None:
        record = self.client.hget(self._key(generation, "match", game_id), "record")
        if record is None:
            return None
        loaded: dict[str, Any] = orjson.loads(record)  # a record is written as a JSON object (commit)
        return loaded

    def history(
        self, generation: int, player_id: str, before: int | None, limit: int
    ) -> list[tuple[int, dict[str, Any]]]:
        top = "+inf" if before is None else f"({before}"
        # With scores: (member, score) pairs (redis-py's type is that of every form of the reply).
        rows = cast(
            list[tuple[bytes | str, float]],
            self.client.zrevrangebyscore(
                self._key(generation, "history", player_id), top, "-inf", start=0, num=limit, withscores=True
            ),
        )
        pipe = self.client.pipeline(transaction=False)
        for game_id, _ in rows:
            pipe.hget(self._key(generation, "match", _text(game_id)), "record")
        records = pipe.execute() if rows else []
        return [(int(seq), orjson.loads(record)) for (_, seq), record in zip(rows, records) if record is not None]

    def all_ratings(self, generation: int, game: str) -> dict[str, list[float]]:
        stored = self.client.hgetall(self._key(generation, "ratings", game))
        return {_text(p): orjson.loads(v) for p, v in stored.items()}

    def board(self, generation: int, game: str, limit: int) -> list[str]:
        # Without `withscores`, members only (redis-py gives one type to the answers with and without).
        members = cast(list[bytes | str], self.client.zrevrange(self._key(generation, "board", game), 0, limit - 1))
        return [_text(m) for m in members]

    def rank(self, generation: int, game: str, player_id: str) -> int | None:
        # Without `withscore`, the rank alone (redis-py's type also allows the [rank, score] answer).
        return cast(int | None, self.client.zrevrank(self._key(generation, "board", game), player_id))

    def dump(self, generation: int) -> dict[str, Any]:
        """Every key of the generation but the cursor, decoded, by its name after the generation."""
        prefix = self._key(generation, "")
        found: dict[str, Any] = {}
        for key in sorted(map(_text, self.client.scan_iter(match=self._key(generation, "*"), count=1000))):
            name = key[len(prefix) :]
            kind = _text(self.client.type(key))
            if kind == "hash":
                found[name] = {_text(k): _text(v) for k, v in self.client.hgetall(key).items()}
            elif kind == "zset":
                # With scores: (member, score) pairs (redis-py's type is that of every form of the reply).
                pairs = cast(list[tuple[bytes | str, float]], self.client.zrange(key, 0, -1, withscores=True))
                found[name] = [(_text(m), s) for m, s in pairs]
            elif name != "cursor":
                value = self.client.get(key)
                found[name] = None if value is None else _text(value)  # None: the key went since the scan
        return found
