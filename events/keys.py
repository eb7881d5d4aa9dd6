"""The event store's key names: the only place they are built (docs/ARCHITECTURE.md §3).

Keys of one game share the hash tag `{g:<id>}`, so a game lives in one Redis Cluster slot; the feed,
the lobby sets and the cross-slot writes' pending set live outside it.
"""

from __future__ import annotations

import re

LOBBY_STATUSES = ("waiting", "active", "finished")
_GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
_PREFIX = re.compile(r"[A-Za-z0-9_.:-]{1,64}")


def check_game_id(game_id: str) -> str:
    """Game ids go into key names: only a safe alphabet, so no id can reach another key."""
    if not isinstance(game_id, str) or not _GAME_ID.fullmatch(game_id):
        raise ValueError(f"invalid game id: {game_id!r}")
    return game_id


class Keys:
    def __init__(self, prefix: str):
        if not _PREFIX.fullmatch(prefix):
            raise ValueError(f"invalid key prefix: {prefix!r}")
        self.prefix = prefix
        self.feed = f"{prefix}:feed"
        # The pending set's hash tag is the feed's whole key name: both in one slot (events/crossslot.py).
        self.pending = f"{prefix}:{{{prefix}:feed}}:pending"

    def game(self, game_id: str, *parts: str) -> list[str]:
        """Keys of one game, its id checked once (the hot paths build four or five)."""
        base = f"{self.prefix}:{{g:{check_game_id(game_id)}}}:"
        return [base + part for part in parts]

    def one(self, game_id: str, part: str) -> str:
        return self.game(game_id, part)[0]

    def lobby(self, status: str) -> str:
        if status not in LOBBY_STATUSES:
            raise ValueError(f"unknown lobby status: {status!r}")
        return f"{self.prefix}:lobby:{status}"
