"""The two hashes of the chain (events/audit.py says what it is for): the one before version 1, and each
entry's. The APPEND script (events/scripts.py) computes the same in Lua."""

from __future__ import annotations

import hashlib


def genesis_hash(game_id: str) -> str:
    return hashlib.sha1(f"talon-genesis\n{game_id}".encode()).hexdigest()


def entry_hash(prev_hash: str, version: int, payload: str) -> str:
    return hashlib.sha1(f"{prev_hash}\n{version}\n{payload}".encode()).hexdigest()
