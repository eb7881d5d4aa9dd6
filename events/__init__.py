"""Event codec and the Redis event store. Knows no particular game."""
from events.codec import Codec, StoredEvent
from events.store import (AppendResult, EventStore, FeedEntry, GameExists, IdempotencyMismatch, RawEntry, Snapshot,
                          VersionConflict, check_game_id)

__all__ = ["AppendResult", "Codec", "EventStore", "FeedEntry", "GameExists", "IdempotencyMismatch", "RawEntry", "Snapshot",
           "StoredEvent", "VersionConflict", "check_game_id"]
