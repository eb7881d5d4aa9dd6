"""Players who come back: identities without passwords, their seats from any device, their profiles.

`register` gives a player an id and a key. The key is shown once and stored only as its hash, like a
seat token (app/matches.py token_hash): whoever holds it is the player. A seat claimed with the key is
the player's (its `seat_claimed` event carries the player id, never the key), so the match joins their
history (app/projections.py), and the player can list their active seats and take a fresh token for
any of them from another device (`resume`), the seat's earlier tokens still working.
"""

from __future__ import annotations

import secrets
import time
import uuid
from typing import Any, TypedDict

from app.matches import Matches, UnknownGame, token_hash
from app.ports import PlayerRecord, PlayerStore
from app.projections import Projections
from games import table as tables

KEY_PREFIX = "pk_"  # tells a player key from a seat token (`<game id>.<secret>`) at a glance
MAX_ACTIVE_SEATS = 100


class UnknownPlayer(Exception):
    pass


class ActiveSeat(TypedDict):
    """A seat of the player's in a match not over yet (`Players.active_seats`)."""

    game_id: str
    game: str
    seat: int
    status: str
    version: int
    name: str | None
    to_act: bool


class Profile(TypedDict):
    player_id: str
    name: str
    created_ms: int
    ratings: list[dict[str, Any]]  # app/projections.py rating_entry, one per game the player is rated in


class Players:
    def __init__(self, store: PlayerStore, matches: Matches, projections: Projections):
        self.store = store
        self.matches = matches
        self.projections = projections

    def register(self, name: str) -> tuple[PlayerRecord, str]:
        """A new player and their key (the only time the key is seen)."""
        player = PlayerRecord(uuid.uuid4().hex[:16], name, int(time.time() * 1000))
        key = KEY_PREFIX + secrets.token_urlsafe(32)
        self.store.add(player.player_id, player.name, player.created_ms, token_hash(key))
        return player, key

    def identify(self, key: str) -> PlayerRecord | None:
        """The player holding this key, or None."""
        player_id = self.store.by_key_hash(token_hash(key)) if key.startswith(KEY_PREFIX) else None
        return None if player_id is None else self._record(player_id)

    def get(self, player_id: str) -> PlayerRecord:
        player = self._record(player_id) if _plausible_id(player_id) else None
        if player is None:
            raise UnknownPlayer(player_id)
        return player

    def _record(self, player_id: str) -> PlayerRecord | None:
        found = self.store.get(player_id)
        return None if found is None else PlayerRecord(player_id, *found)

    def claim_seat(
        self,
        game_id: str,
        seat: int | None,
        name: str | None,
        player: PlayerRecord | None,
        join_code: str | None = None,
    ) -> tuple[tables.Table, int, str]:
        """A seat for a guest (player None) or for a registered player, under their name unless given (a
        private match's with its `join_code` only)."""
        if player is None:
            return self.matches.claim_seat(game_id, seat, name or "", join_code=join_code)
        table, claimed, token = self.matches.claim_seat(
            game_id, seat, name or player.name, player.player_id, join_code=join_code
        )
        self.store.add_seat(player.player_id, game_id, claimed)
        return table, claimed, token

    def active_seats(self, player: PlayerRecord) -> list[ActiveSeat]:
        """The player's seats in matches not over yet, still theirs (a reset seat is not); the others are
        dropped from the list as they are found."""
        active: list[ActiveSeat] = []
        gone: list[tuple[str, int]] = []
        for game_id, seat in self.store.seats(player.player_id):
            try:
                table = self.matches.table(game_id)
            except UnknownGame:
                table = None
            if table is None or table.finished or table.seats[seat].player_id != player.player_id:
                gone.append((game_id, seat))
            elif len(active) < MAX_ACTIVE_SEATS:
                active.append(
                    {
                        "game_id": game_id,
                        "game": table.game,
                        "seat": seat,
                        "status": table.status,
                        "version": table.version,
                        "name": table.seats[seat].name,
                        "to_act": table.status == "active" and seat in table.rules.to_act(table.state),
                    }
                )
        self.store.drop_seats(player.player_id, gone)
        return active

    def resume(self, game_id: str, seat: int, player: PlayerRecord) -> tuple[tables.Table, str]:
        """A fresh token for a seat the player holds (SeatUnavailable if they do not, or it is over)."""
        return self.matches.resume_seat(game_id, seat, player.player_id)

    def profile(self, player_id: str) -> Profile:
        player = self.get(player_id)
        return {
            "player_id": player.player_id,
            "name": player.name,
            "created_ms": player.created_ms,
            "ratings": self.projections.ratings_of(player.player_id),
        }

    def names(self, player_ids: list[str]) -> dict[str, str]:
        return self.store.names(player_ids)


def _plausible_id(player_id: str) -> bool:
    return len(player_id) == 16 and all(c in "0123456789abcdef" for c in player_id)
