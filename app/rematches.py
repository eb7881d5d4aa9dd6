"""The rematch of a finished match: one call by any of its seats makes it, the same call by the others
seats them in it.

The first call appends `rematch_offered` (the new match's id) to the finished match, with the version
it decided on, so of two seats asking at once one makes the offer and the other finds it; then it creates
the new match (games.table `rematch_spec`: the same options and seats, the first dealer moved on, the
human seats reserved for their players) with the caller seated, in one append. Each later call by a seat
of the finished match takes that seat's reserved place in the new match. A crash between the two appends
leaves an offer of a match that does not exist yet: the next call creates it (the create's append
expects an empty stream, so two such calls make it once).

The token of a rematch seat is derived from the caller's token of the finished match and the new match's
id (sha256), not drawn at random: a call repeated after its answer was lost gets the same token, so no
player is shut out of their own seat by a retry. It proves no more than the old token does, which its
holder keeps; only its hash is stored, as for every seat token.
"""

from __future__ import annotations

import base64
import hashlib
import secrets
import uuid
from dataclasses import dataclass

from app.matches import RACE_RETRIES, SEED_BITS, Matches, NotASeat, UnknownGame, token_hash
from events.store import VersionConflict
from games import table as tables
from games.errors import NotFinished, SeatUnavailable
from games.replay import fold


@dataclass(frozen=True)
class RematchSeat:
    table: tables.Table  # the new match, as the call left it
    seat: int
    token: str
    created: bool  # this call made the new match (else it was there already)


class Rematches:
    def __init__(self, matches: Matches):
        self.matches = matches

    def rematch(self, game_id: str, token: str) -> RematchSeat:
        """The caller's seat in the rematch of the finished match `game_id` (which the caller holds a
        seat of, by `token`): made now if no seat made it before. Raises NotASeat, NotFinished,
        UnknownGame, SeatUnavailable (the seat was reset and someone else took it) or VersionConflict."""
        old = self.matches.table(game_id)
        seat = tables.seat_of_token(old, token_hash(token))
        if seat is None:
            raise NotASeat(old)
        if not old.finished:
            raise NotFinished(f"the match is {old.status}: a rematch follows a finished match")
        for _ in range(RACE_RETRIES + 1):
            offered_now = False
            if old.rematch is None:
                try:
                    old = self.matches.commit(game_id, old, tables.offer_rematch(old, uuid.uuid4().hex[:16]))
                except VersionConflict:
                    old = self.matches.table(game_id)  # another seat offered it first: join theirs
                    continue
                offered_now = True
            assert old.rematch is not None
            new_token = rematch_token(old.rematch, token)
            try:
                if offered_now:
                    return self._create(old, seat, new_token)
                return self._join(old, seat, new_token)
            except VersionConflict:
                continue  # another seat's call wrote first: decide again on what it wrote
        raise VersionConflict(old.version)

    def _create(self, old: tables.Table, seat: int, token: str) -> RematchSeat:
        """The rematch with the caller seated, in one append; VersionConflict if it exists already."""
        assert old.rematch is not None
        options, seats = tables.rematch_spec(old)
        events = tables.create(
            old.rematch,
            old.game,
            options,
            seats,
            secrets.randbits(SEED_BITS),
            rematch_of=old.game_id,
            join_code_hash=old.join_code_hash,
        )
        claim = tables.claim_seat(
            fold(events),
            seat,
            _name(old, seat),
            token_hash(token),
            reserved_ok=True,
            player_id=old.seats[seat].player_id,
        )
        return RematchSeat(self.matches.commit(old.rematch, None, events + claim), seat, token, created=True)

    def _join(self, old: tables.Table, seat: int, token: str) -> RematchSeat:
        """The caller's seat in the rematch `old` offered; VersionConflict if another call wrote first."""
        assert old.rematch is not None
        try:
            new = self.matches.table(old.rematch)
        except UnknownGame:  # offered, but the call that offered it did not create it (it crashed)
            return self._create(old, seat, token)
        digest = token_hash(token)
        if new.seats[seat].token_hash == digest:  # this caller sat down before (a repeated call)
            return RematchSeat(new, seat, token, created=False)
        if not new.seats[seat].open:
            raise SeatUnavailable(f"seat {seat} of the rematch {old.rematch} is taken")
        events = tables.claim_seat(
            new, seat, _name(old, seat), digest, reserved_ok=True, player_id=old.seats[seat].player_id
        )
        return RematchSeat(self.matches.commit(old.rematch, new, events), seat, token, created=False)


def _name(table: tables.Table, seat: int) -> str:
    """The player's name at `seat` (a seat whose token was shown has one)."""
    return table.seats[seat].name or ""


def rematch_token(new_id: str, old_token: str) -> str:
    """The seat token of the rematch `new_id` for the holder of `old_token` (the module says why derived)."""
    digest = hashlib.sha256(f"talon-rematch:{new_id}:{old_token}".encode()).digest()
    return f"{new_id}.{base64.urlsafe_b64encode(digest).rstrip(b'=').decode()}"
