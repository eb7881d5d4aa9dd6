"""Ratings, histories and leaderboards: projections of the event logs (docs/ARCHITECTURE.md "Projections").

A worker reads the global feed from the projection's cursor; at each match end (`match_ended`,
`match_abandoned`) it reads that match's log, summarizes it (`summarize`: who played which seat, the
result, how much of each seat a stand-in bot played), rates it (app/ratings, docs/ratings.md) and writes
the match's record, the new ratings, the leaderboard entries, the players' histories and the new cursor
in one atomic step (ProjectionStore.commit). So the projection is a fold of the feed: a worker killed at
any point has written all of a match or none of it, and a rebuild (`rebuild`: a new generation folded
from the start of the feed, then made the active one) reaches the same state as the incremental one.

Participants. A bot seat is its level's participant (`bot:basic`). A human seat belongs to whoever made
most of its moves: a registered player (their id) or a guest (`guest:<game>:<seat>:<version of the
claim>`). Guests are rated as newcomers in the match, and their new rating is not kept: they are nobody
to come back. A match rates only if a registered player is among those it rates (docs/ratings.md).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypedDict

from app.ports import MatchWrite, ProjectionStore
from app.ratings.glicko2 import Rating
from app.ratings.matches import bot_participant, eligible, is_bot, match_from_standing, rate_match
from events.codec import StoredEvent
from events.store import EventStore, FeedEntry
from games.events import Side
from games.registry import game_names

TERMINAL = ("match_ended", "match_abandoned")
TABLE_EVENTS = frozenset(
    (
        "match_created",
        "seat_claimed",
        "turn_timed_out",
        "seat_taken_over",
        "seat_returned",
        "seat_reset",
        "seat_resumed",
        "match_abandoned",
        "deal_committed",
        "deal_revealed",
    )
)
GUEST_PREFIX = "guest:"
FEED_PAGE = 500
# A hook the tests use to stop a worker at a chosen point: called with ("before_commit" | "after_commit",
# game id) around each match's atomic write.
Hook = Callable[[str, str], None]


class PlayerEntry(TypedDict):
    """A seat as a match's record shows it."""

    seat: int
    kind: str
    level: str | None
    name: str | None
    player_id: str | None
    team: int | None
    taken_over_share: float


class RatingChange(TypedDict):
    before: list[float]  # [rating, deviation, volatility]
    after: list[float]


class MatchRecord(TypedDict):
    """A finished match as histories show it (`summarize`, then `rate`'s changes in `ratings`)."""

    game_id: str
    game: str
    options: dict[str, Any]
    status: str  # "finished" | "abandoned"
    winner: list[int] | None
    standing: list[Side] | None
    ended_at: str
    players: list[PlayerEntry]
    participants: list[str]
    ratings: dict[str, RatingChange]


def is_guest(participant: str | None) -> bool:
    return participant is None or participant.startswith(GUEST_PREFIX)


def is_player(participant: str | None) -> bool:
    return participant is not None and not is_guest(participant) and not is_bot(participant)


# -- one match's log -> its record ---------------------------------------------------------------------


@dataclass
class _Seat:
    kind: str
    level: str | None
    name: str | None
    holder: str | None = None  # who holds the seat now (player id or guest id); None: open
    taken_over: bool = False
    last_mover: str | None = None  # who made the seat's last move (None: the stand-in)


class _Fold:
    """Who held and who played each seat, folded over a match's log up to its end."""

    def __init__(self, game_id: str, created: dict[str, Any]):
        self.game_id = game_id
        self.seats = [_Seat(s["kind"], s.get("level"), s.get("name")) for s in created["seats"]]
        self.names: dict[str, str] = {}
        self.moves: Counter[tuple[int, str | None]] = Counter()  # (seat, mover) -> moves; mover None: the stand-in bot

    def apply(self, event: StoredEvent) -> None:
        step = _STEPS.get(event.type)
        if step is not None:
            step(self, event)
        elif event.type not in TABLE_EVENTS and isinstance(event.actor, int):
            self.moved(event.actor)

    def claimed(self, event: StoredEvent) -> None:
        seat = self.seats[event.data["seat"]]
        # A guest is told apart by the claim's version: two guests in turn on one seat are two people.
        seat.holder = (
            event.data.get("player_id") or f"{GUEST_PREFIX}{self.game_id}:{event.data['seat']}:{event.version}"
        )
        seat.taken_over = False
        self.names[seat.holder] = event.data["name"]

    def reset(self, event: StoredEvent) -> None:
        seat = self.seats[event.data["seat"]]
        seat.holder, seat.taken_over = None, False

    def taken_over(self, event: StoredEvent) -> None:
        self.seats[event.data["seat"]].taken_over = event.type == "seat_taken_over"

    def timed_out(self, event: StoredEvent) -> None:
        # The seat's move just before was the stand-in's, made when the seat's timer ran out.
        index = event.data["seat"]
        self.moves[(index, self.seats[index].last_mover)] -= 1
        self.moves[(index, None)] += 1
        self.seats[index].last_mover = None

    def moved(self, index: int) -> None:
        seat = self.seats[index]
        mover = None if seat.kind == "bot" or seat.taken_over else seat.holder
        self.moves[(index, mover)] += 1
        seat.last_mover = mover

    def participant(self, index: int) -> tuple[str, float]:
        """The seat's participant, and the share of its moves someone else made (a stand-in, another
        holder). A human seat nobody played holds a guest of its own: the stand-in made all its moves."""
        seat = self.seats[index]
        if seat.kind == "bot":
            return bot_participant(seat.level or "basic"), 0.0
        mine = {mover: n for (s, mover), n in self.moves.items() if s == index and n > 0}
        total = sum(mine.values())
        humans = {m: n for m, n in mine.items() if m is not None}
        if not humans:
            return seat.holder or f"{GUEST_PREFIX}{self.game_id}:{index}:open", (1.0 if total else 0.0)
        # Most moves; a tie is broken by the id, so that the choice never depends on the order of the log.
        chosen = max(humans, key=lambda m: (humans[m], m))
        return chosen, 1.0 - humans[chosen] / total

    def players(self, standing: list[Side] | None) -> tuple[list[PlayerEntry], list[str]]:
        """The seats as a history shows them, and each seat's participant."""
        team_of = {s: t for t, side in enumerate(standing or []) for s in side["seats"]}
        teams = bool(standing and len(standing) < len(self.seats))
        players: list[PlayerEntry] = []
        participants: list[str] = []
        for index, seat in enumerate(self.seats):
            participant, share = self.participant(index)
            participants.append(participant)
            players.append(
                {
                    "seat": index,
                    "kind": seat.kind,
                    "level": seat.level,
                    "name": self.names.get(participant, seat.name),
                    "player_id": participant if is_player(participant) else None,
                    "team": team_of.get(index) if teams else None,
                    "taken_over_share": share,
                }
            )
        return players, participants


_STEPS = {
    "seat_claimed": _Fold.claimed,
    "seat_reset": _Fold.reset,
    "seat_taken_over": _Fold.taken_over,
    "seat_returned": _Fold.taken_over,
    "turn_timed_out": _Fold.timed_out,
}


def summarize(game_id: str, events: Sequence[StoredEvent]) -> MatchRecord | None:
    """The record of a finished match from its log (StoredEvents, oldest first); None if it is not over.
    What follows the match's end (a reveal, an operator's late reset) changes nothing in it."""
    if not events or events[0].type != "match_created":
        return None
    fold = _Fold(game_id, events[0].data)
    end = next((e for e in events if e.type in TERMINAL), None)
    if end is None:
        return None
    for event in events[1 : end.version - events[0].version]:
        fold.apply(event)
    finished = end.type == "match_ended"
    standing = end.data.get("standing") if finished else None
    players, participants = fold.players(standing)
    return {
        "game_id": game_id,
        "game": events[0].data["game"],
        "options": events[0].data["options"],
        "status": "finished" if finished else "abandoned",
        "winner": end.data.get("winner") if finished else None,
        "standing": standing,
        "ended_at": end.at,
        "players": players,
        "participants": participants,
        "ratings": {},
    }


# -- one record -> its rating updates ------------------------------------------------------------------


def rate(record: MatchRecord, current: dict[str, list[float]]) -> dict[str, RatingChange]:
    """The rating changes a match's record makes: {participant: {"before": [r, d, σ], "after": [...]}},
    kept participants only (players and bots); {} when the match rates nobody (docs/ratings.md)."""
    if record["status"] != "finished":
        return {}
    assert record["standing"] is not None  # a finished match's end carries its standing (games' match_ended)
    match = match_from_standing(
        record["game"],
        record["participants"],
        record["standing"],
        record["winner"],
        [p["taken_over_share"] for p in record["players"]],
    )
    ratings = {p: Rating(*values[:3]) for p, values in current.items()}
    updated = {p: r for p, r in rate_match(match, ratings).items() if not is_guest(p)}
    if not any(is_player(p) for p in updated):
        return {}
    return {
        p: {"before": list(_values(ratings.get(p, Rating()))), "after": list(_values(r))} for p, r in updated.items()
    }


def _values(rating: Rating) -> tuple[float, float, float]:
    return rating.rating, rating.deviation, rating.volatility


# -- the use cases ---------------------------------------------------------------------------------------


class Projections:
    def __init__(self, events: EventStore, store: ProjectionStore, hook: Hook | None = None):
        self.events = events
        self.store = store
        self.hook = hook

    def catch_up(self, generation: int | None = None, max_pages: int | None = None) -> int:
        """Applies the feed past the cursor to the generation (None: the active one, as the workers do),
        up to its end or for `max_pages` pages of FEED_PAGE entries (a job's share: the next job or
        sweep goes on from the cursor); returns how many matches it recorded."""
        following = generation is None
        recorded, pages = 0, 0
        while max_pages is None or pages < max_pages:
            pages += 1
            gen = self.store.active() if generation is None else generation
            cursor = self.store.cursor(gen)
            entries = self.events.feed(after=cursor, count=FEED_PAGE)
            if not entries:
                return recorded
            # A lost race (another worker, or a rebuild, moved the cursor) ends the page early: the loop
            # reads the cursor again and goes on from wherever it is.
            recorded += self._apply_page(gen, cursor, entries, following)
        return recorded

    def behind(self) -> bool:
        """Whether the feed holds entries past the active generation's cursor (a catch-up has work)."""
        return bool(self.events.feed(after=self.store.cursor(self.store.active()), count=1))

    def _apply_page(self, gen: int, cursor: str, entries: list[FeedEntry], following: bool) -> int:
        """Applies one page of the feed: each match end in its own atomic step with the cursor, then the
        cursor to the page's end; stops at a lost race. Returns how many matches it recorded."""
        recorded = 0
        for entry in entries:
            if entry.type not in TERMINAL:
                continue
            write = self._match_write(gen, entry.game_id)
            self._at("before_commit", entry.game_id)
            if not self.store.commit(gen, cursor, entry.id, write, following):
                return recorded
            self._at("after_commit", entry.game_id)
            cursor, recorded = entry.id, recorded + (write is not None)
        if cursor != entries[-1].id:
            self.store.commit(gen, cursor, entries[-1].id, None, following)
        return recorded

    def _at(self, point: str, game_id: str) -> None:
        if self.hook is not None:
            self.hook(point, game_id)

    def _match_write(self, gen: int, game_id: str) -> MatchWrite | None:
        """What the match's end changes; None if the generation has it already or its log is gone."""
        if self.store.has_match(gen, game_id):
            return None
        record = summarize(game_id, self.events.read(game_id))
        if record is None:
            return None
        kept = [p for p in record["participants"] if p is not None and not is_guest(p)]
        current = self.store.ratings(gen, record["game"], sorted(set(kept)))
        changes = rate(record, current)
        record["ratings"] = changes
        ratings: dict[str, list[float]] = {}
        board: dict[str, float | None] = {}
        for participant, change in changes.items():
            played = int(current.get(participant, [0, 0, 0, 0])[3]) + 1
            ratings[participant] = [*change["after"], played]
            if is_player(participant):
                after = Rating(*change["after"])
                board[participant] = after.rating if eligible(after, played) else None
        history = tuple(sorted({p for p in kept if is_player(p)}))
        # A match without a registered player rates nobody and is in no history: only its marker is kept
        # (that it was applied), not its record, so matches of guests and bots cost a few bytes each.
        return MatchWrite(game_id, record["game"], record if history else {}, ratings, board, history)

    def rebuild(self) -> int:
        """Every projection again from the logs alone: a new generation folded from the start of the feed,
        made the active one once it has caught up (readers see the old one until then); the workers go
        on from its cursor. Returns how many matches it recorded."""
        generation = self.store.new_generation()
        recorded = self.catch_up(generation)
        self.store.activate(generation)
        return recorded + self.catch_up()

    # -- reading -------------------------------------------------------------------------------------

    def history(self, player_id: str, before: int | None, limit: int) -> tuple[list[dict[str, Any]], int | None, bool]:
        """A page of the player's matches, newest first: (items, the position it ends at, more follow)."""
        rows = self.store.history(self.store.active(), player_id, before, limit + 1)
        items = [history_item(record, player_id) for _, record in rows[:limit]]
        last = rows[:limit][-1][0] if rows[:limit] else before
        return items, last, len(rows) > limit

    def ratings_of(self, participant: str) -> list[dict[str, Any]]:
        gen = self.store.active()
        found = []
        for game in game_names():
            values = self.store.ratings(gen, game, [participant]).get(participant)
            if values is not None:
                found.append(rating_entry(game, values))
        return found

    def leaderboard(
        self, game: str, limit: int, player_id: str | None = None
    ) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
        """The top `limit` players (player_id, rating, deviation, matches, rank) and, for `player_id`, their
        own standing (rank None when they are not on the board)."""
        gen = self.store.active()
        top = self.store.board(gen, game, limit)
        values = self.store.ratings(gen, game, top)
        entries = [{"rank": i + 1, "player_id": p, **rating_entry(game, values[p])} for i, p in enumerate(top)]
        mine = None
        if player_id is not None:
            own = self.store.ratings(gen, game, [player_id]).get(player_id)
            rank = self.store.rank(gen, game, player_id)
            mine = {
                "player_id": player_id,
                "rank": None if rank is None else rank + 1,
                **(rating_entry(game, own) if own else {"game": game, "rating": None, "deviation": None, "matches": 0}),
            }
        return entries, mine

    def dump(self) -> dict[str, Any]:
        return self.store.dump(self.store.active())


def rating_entry(game: str, values: list[float]) -> dict[str, Any]:
    """A stored rating as people see it: whole points (docs/ratings.md §6: rounded for display only)."""
    return {"game": game, "rating": round(values[0]), "deviation": round(values[1]), "matches": int(values[3])}


def history_item(record: Mapping[str, Any], player_id: str) -> dict[str, Any]:
    """A match of a player's history: the record as everyone sees it, and the player's own result."""
    seats = [i for i, p in enumerate(record["participants"]) if p == player_id]
    change = record["ratings"].get(player_id)
    if record["status"] == "abandoned":
        outcome = "abandoned"
    else:
        outcome = "won" if set(seats) & set(record["winner"] or []) else "lost"
    score = next((side["score"] for side in record["standing"] or [] if set(seats) & set(side["seats"])), None)
    own = {
        "seats": seats,
        "outcome": outcome,
        "score": score,
        "rated": change is not None,
        "rating_before": round(change["before"][0]) if change else None,
        "rating_after": round(change["after"][0]) if change else None,
    }
    players = [{k: v for k, v in p.items() if k != "taken_over_share"} for p in record["players"]]
    result = {"status": record["status"], "winner": record["winner"], "standing": record["standing"]}
    return {
        "game_id": record["game_id"],
        "game": record["game"],
        "options": record["options"],
        "ended_at": record["ended_at"],
        "players": players,
        "result": result,
        "own": own,
    }


__all__ = ["Projections", "summarize", "rate", "history_item", "is_guest", "is_player"]
