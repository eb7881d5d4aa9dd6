"""The replay of a finished match: the table as it stood at any version, every hand shown
(games/replay.py says what is shown). A running match has none: its hands are still secret."""

from __future__ import annotations

from typing import cast

from app.matches import Matches
from games.errors import NotFinished
from games.events import Event
from games.replay import ReplayStep, fold, replay_step


class VersionOutOfRange(Exception):
    """The match has no such version: its versions are 1 to `last`."""

    def __init__(self, last: int):
        super().__init__(last)
        self.last = last


class Replays:
    def __init__(self, matches: Matches):
        self.matches = matches

    def step(self, game_id: str, version: int | None = None) -> ReplayStep:
        """The finished match `game_id` at `version` (None: its last). Raises UnknownGame, NotFinished,
        VersionOutOfRange."""
        table = self.matches.table(game_id)
        if not table.finished:
            raise NotFinished(f"the match is {table.status}: a replay shows a finished match")
        last = table.version
        if version is None or version == last:
            return replay_step(table, last)
        if not 1 <= version <= last:
            raise VersionOutOfRange(last)
        # The log up to the version, folded from the start: a finished match's log is read once per step,
        # and a match is a few hundred events (a snapshot would save the fold of earlier deals only).
        events = self.matches.store.read(game_id, after=0, limit=version)
        # The table's own events read back (the repository folds them the same way, events/repository.py
        # `_event`): a game's actor is a seat or None; the store's type also allows other aggregates' text.
        return replay_step(
            fold([cast(Event, {"type": e.type, "actor": e.actor, "data": e.data}) for e in events]), last
        )
