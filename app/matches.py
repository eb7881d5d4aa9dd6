"""The use cases of a match: what the HTTP routes and the jobs do, each one straight line.

load the table (snapshot + later events, folded) -> the pure table/engine decides (a move with the system's
steps it leaves owing: games.table.settle) -> the store appends atomically with the expected version ->
the jobs the table is owed are enqueued (app/ports.py JobQueue).

No Flask and no rq here: the routes translate requests into these calls and exceptions into problems,
and the jobs call the same functions, so a bot move and a human move walk the same path.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
import time
import uuid
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any, TypedDict

import orjson

from app import telemetry
from app.ports import EventStore, Job, JobQueue
from events.codec import StoredEvent, normalize_at
from events.repository import Folding, Repository, UnknownAggregate
from events.store import IdempotencyMismatch, Throttle, VersionConflict
from games import table as tables
from games.engine import Action, OptionDict
from games.errors import GameError
from games.events import Event
from games.registry import engines_version
from games.table_events import SEAT_CLAIMED

log = logging.getLogger("talon.matches")

TABLE_FOLDING = Folding(
    evolve=tables.evolve,
    dump=tables.dump,
    load=tables.load,
    version_of=lambda t: t.version,
    is_snapshot_point=tables.is_snapshot_point,
    engine_version=engines_version(),
)

# Without If-Match, a request that lost a race is decided again on the new state this many times.
RACE_RETRIES = 3
LOBBY_SCAN = 5000
SEED_BITS = 128  # a match's shuffle seed (secret until its deals are revealed)
JOIN_CODE_BYTES = 16  # a private match's join code: 128 random bits
SWEEP_LIMIT = 10_000
# A job goes on with what a game owes next (a deal, a scoring, a bot's move) for at most this many appends
# and this long, then enqueues the rest behind other games' jobs: a long all-bot stretch, or an expert bot
# that thinks for a few hundred ms a move, does not keep the worker from the other games.
JOB_STEPS = 32
JOB_BUDGET_S = 0.1


class UnknownGame(Exception):
    pass


class VersionMismatch(Exception):
    """If-Match named another version than the current one."""

    def __init__(self, current_version: int):
        super().__init__(current_version)
        self.current_version = current_version


class IdempotencyKeyReused(Exception):
    """The Idempotency-Key was used before with another request body."""


class NotASeat(Exception):
    """The caller holds no seat at the table (as it is stored): `table` says who the caller is not."""

    def __init__(self, table: tables.Table):
        super().__init__(table.game_id)
        self.table = table


@dataclass
class Outcome:
    table: tables.Table
    replayed: bool = False
    # With `enqueue_later`: enqueues the jobs the move calls for (a bot's turn, a round's scoring), for
    # the caller to run once it has answered; None when there is nothing to enqueue.
    enqueue: Callable[[], None] | None = None


class LobbyEntry(TypedDict):
    game_id: str
    game: str
    variant: str
    status: str
    players: int
    open_seats: int
    created_ms: int


class Matches:
    """The matches: one event store, one repository of tables, one job queue."""

    def __init__(
        self,
        store: EventStore,
        jobs: JobQueue,
        bot_delay_s: float = 0.0,
        *,
        bot_think_s: float = 0.0,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ):
        """`bot_think_s`: a bot's move at a table with a human seat is appended no sooner than this long
        after its decision started (`clock`, waiting with `sleep`), whatever the decision took."""
        self.store = store
        self.tables = Repository(store, TABLE_FOLDING)
        self.jobs = jobs
        self.bot_delay_s = bot_delay_s
        self.bot_think_s = bot_think_s
        self.clock = clock
        self.sleep = sleep

    # -- reading ----------------------------------------------------------------------------------

    def table(self, game_id: str) -> tables.Table:
        try:
            return self.tables.get(game_id)
        except (UnknownAggregate, ValueError):  # ValueError: an id the store refuses as a key
            raise UnknownGame(game_id) from None

    def events_page(self, game_id: str, after: int, limit: int) -> tuple[list[StoredEvent], bool]:
        events = self.store.read(game_id, after=after, limit=limit + 1)
        return events[:limit], len(events) > limit

    def lobby_page(
        self, status: str, game: str | None, after: tuple[int, str] | None, limit: int
    ) -> tuple[list[LobbyEntry], tuple[int, str] | None, bool]:
        """One page of the lobby after the match at `after` (creation ms, id; None: the newest): its
        entries, where it ends, and whether more follow. Private matches are not listed. The ids of
        that status are read in chunks until the page is full; a page scans at most LOBBY_SCAN ids
        (filtering by game, or many private matches), and one that stops there ends at the last id
        scanned."""
        chunk = limit + 1 if game is None else LOBBY_SCAN
        entries: list[LobbyEntry] = []
        last, cursor, scanned_all = after, after, 0
        while True:
            want = min(chunk, LOBBY_SCAN - scanned_all)
            scanned = self.store.lobby_after(status, cursor, want)
            for (game_id, created), meta in zip(scanned, self.store.metas(i for i, _ in scanned)):
                listed = meta.get("private") != "1" and (game is None or meta.get("game") == game)
                if len(entries) == limit:
                    if listed:
                        return entries, last, True
                    continue
                last = (created, game_id)
                if listed:
                    entries.append(_lobby_entry(game_id, meta))
            scanned_all += len(scanned)
            if len(scanned) < want:
                return entries, last, False
            if scanned_all >= LOBBY_SCAN:
                return entries, last, True
            cursor = (scanned[-1][1], scanned[-1][0])

    # -- players' requests ------------------------------------------------------------------------

    def create_match(
        self,
        game: str,
        options: OptionDict,
        seats: list[dict[str, Any]],
        seed: int | None = None,
        decks: list[list[str]] | None = None,
        join_code: str | None = None,
    ) -> tables.Table:
        """A new match. With `join_code` (`new_join_code`) it is private: not listed in the lobby, and
        its seats are claimed with that code only. A generated seed has 128 bits."""
        game_id = uuid.uuid4().hex[:16]
        if seed is None:
            seed = secrets.randbits(SEED_BITS)
        code_hash = token_hash(join_code) if join_code is not None else None
        events = tables.create(game_id, game, options, seats, seed, decks, join_code_hash=code_hash)
        table, _ = self.tables.save(game_id, None, events, meta=partial(self._meta, None, game=game))
        self._enqueue_after_answer(table)
        return table

    @staticmethod
    def new_join_code() -> str:
        return secrets.token_urlsafe(JOIN_CODE_BYTES)

    def claim_seat(
        self, game_id: str, seat: int | None, name: str, player_id: str | None = None, join_code: str | None = None
    ) -> tuple[tables.Table, int, str]:
        """A player takes a seat (a private match's with its `join_code` only: JoinCodeRefused).
        `player_id`: a registered player's (app/players.py), None for a guest. As with `act`, the first
        attempt is decided on the table this process holds, if it holds one (a claim usually follows the
        creation or the view this process answered); a refusal or a stale version decides it again on
        the table as stored."""
        token = seat_token(game_id)
        token_digest = token_hash(token)
        code_hash = token_hash(join_code) if join_code is not None else None
        table = self.tables.held(game_id)
        held = table is not None
        attempt = 0
        while True:
            if table is None:
                table = self.table(game_id)
            try:
                tables.check_join_code(table, code_hash)
                events = tables.claim_seat(table, seat, name, token_digest, player_id=player_id)
                after, _ = self.tables.save(game_id, table, events, meta=partial(self._meta, table))
            except (GameError, VersionConflict) as refused:
                if held:
                    table, held = None, False
                    continue
                if isinstance(refused, GameError) or attempt == RACE_RETRIES:
                    raise
                table, attempt = None, attempt + 1
                continue
            self._enqueue_after_answer(after)
            return after, SEAT_CLAIMED.data_of(events[0])["seat"], token

    def resume_seat(self, game_id: str, seat: int, player_id: str) -> tuple[tables.Table, str]:
        """A fresh token for the seat its registered player holds (the earlier ones keep working)."""
        token = seat_token(game_id)
        for attempt in range(RACE_RETRIES + 1):
            table = self.table(game_id)
            events = tables.resume_seat(table, seat, player_id, token_hash(token))
            try:
                after, _ = self.tables.save(game_id, table, events, meta=partial(self._meta, table))
            except VersionConflict:
                if attempt == RACE_RETRIES:
                    raise
                continue
            self._enqueue_owed(after)  # the jobs owed at the version before are stale now
            return after, token
        raise AssertionError("unreachable")

    def held_table(self, game_id: str) -> tables.Table | None:
        """The table this process holds for the game, without a round trip: it may be behind."""
        return self.tables.held(game_id)

    def act(
        self,
        game_id: str,
        action: Action,
        seat_of: Callable[[tables.Table], int | None],
        *,
        if_match: Collection[int] | None = None,
        idempotency_key: str | None = None,
        rate: tuple[int, float] | None = None,
        enqueue_later: bool = False,
    ) -> Outcome:
        """The action of the caller's seat: `seat_of(table)` says which seat the caller holds at a table
        (None: none). The first attempt is decided on the table this process holds, if it holds one (no
        round trip: the append's version check proves it current); whatever that table cannot decide (it
        may be behind: a refusal, a caller it does not know, a newer version) is decided again on the
        table as stored, who may act included. `rate` = (count, seconds): the seat's moves are limited to
        that many in that time, checked in the append itself (Throttled). With `enqueue_later`, the jobs
        the move calls for are left to the caller (`Outcome.enqueue`). Raises NotASeat, VersionMismatch,
        IdempotencyKeyReused, Throttled, or the game's refusal (GameError)."""
        held_table = self.tables.held(game_id)
        held = held_table is not None
        table = held_table if held_table is not None else self.table(game_id)
        for attempt in range(RACE_RETRIES + 2):
            seat = seat_of(table)
            fingerprint = _fingerprint(seat, action) if idempotency_key and seat is not None else None
            # Each seat has keys of its own: another seat sending the same key sends a new request.
            key = f"seat:{seat}:{idempotency_key}" if fingerprint else None
            try:
                if seat is None:
                    raise NotASeat(table)
                if if_match is not None and table.version not in if_match:
                    raise VersionMismatch(table.version)
                settled = tables.settle(table, tables.act(table, seat, action))
            except (GameError, VersionMismatch, NotASeat):
                if held:
                    table, held = self.table(game_id), False
                    continue
                # A retry of an accepted action may be stale or illegal by now: its record answers it.
                # Otherwise the append script looks the key up itself, so the common case saves a trip.
                if key and fingerprint and (done := self._replay(game_id, key, fingerprint)):
                    return done
                raise
            throttle = Throttle(f"seat:{seat}", *rate) if rate is not None else None
            try:
                return self._commit_action(game_id, table, settled, key, fingerprint, throttle, enqueue_later)
            except VersionConflict as conflict:
                if held:
                    table, held = self.table(game_id), False
                    continue
                if if_match is not None:
                    raise VersionMismatch(conflict.current_version) from None
                if attempt >= RACE_RETRIES:
                    raise
                table = self.table(game_id)
        raise AssertionError("unreachable")

    def _commit_action(
        self,
        game_id: str,
        table: tables.Table,
        settled: tables.Settled,
        idempotency_key: str | None,
        fingerprint: str | None,
        throttle: Throttle | None,
        enqueue_later: bool = False,
    ) -> Outcome:
        """Appends a seat's action decided on `table` (VersionConflict if the table is no longer current)
        and enqueues what the game is owed next, or leaves that to the caller; a retry is answered from
        its idempotency record."""
        try:
            after, result = self.tables.save(
                game_id,
                table,
                settled.events,
                idempotency_key=idempotency_key,
                fingerprint=fingerprint,
                meta=partial(self._meta, table),
                throttle=throttle,
                folded=settled.table,
            )
        except IdempotencyMismatch:
            raise IdempotencyKeyReused() from None
        if result.replayed:
            return Outcome(after, replayed=True)
        if enqueue_later:
            return Outcome(after, enqueue=partial(self._enqueue_after_answer, after))
        self._enqueue_owed(after)
        return Outcome(after)

    def _enqueue_after_answer(self, table: tables.Table) -> None:
        """Enqueues what `table` is owed after a stored write (a move, a creation, a claim, a reset). A
        failure is logged, not raised: the write is stored, so the request is answered with success (an
        error would say that nothing changed); the sweeper enqueues what is missing (its next run,
        within TALON_SWEEP_INTERVAL_S), as after a crash between an append and its enqueue."""
        try:
            self._enqueue_owed(table)
        except ConnectionError:  # the queue's (app/ports.py)
            log.warning(
                "the jobs owed to %s at version %s were not enqueued; the sweeper will enqueue them",
                table.game_id,
                table.version,
                exc_info=True,
            )

    # -- the workers' jobs ------------------------------------------------------------------------

    def advance(self, game_id: str, version: int) -> bool:
        """Deal, score the round, end the match: whatever the system owes at `version`. Stale: no-op."""
        started = time.monotonic()
        table = self.table(game_id)
        if table.version != version:
            return False
        settled = tables.settle(table, [])
        return bool(settled.events) and self._commit_job(game_id, table, settled, started)

    def bot_turn(self, game_id: str, version: int, seat: int) -> bool:
        """The bot at `seat` acts if the game is still where the job found it. Stale: no-op."""
        started = time.monotonic()
        table = self.table(game_id)
        if table.version != version or ("bot", seat) not in tables.owed_work(table):
            return False
        return self._commit_job(game_id, table, self._bot_move(table, seat), started)

    def turn_timeout(self, game_id: str, version: int, seat: int) -> bool:
        """The human at `seat` did not act in time: a bot moves for them. Stale (they acted): no-op."""
        started = time.monotonic()
        table = self.table(game_id)
        if table.version != version or ("timeout", seat) not in tables.owed_work(table):
            return False
        moved = self._thought(table, lambda: tables.time_out(table, seat))
        return self._commit_job(game_id, table, tables.settle(table, moved), started)

    def commit(self, game_id: str, before: tables.Table | None, events: list[Event]) -> tables.Table:
        """Appends events decided on `before` (None: they create the match) with the lobby's fields, and
        enqueues what the table is owed then: for use cases of their own (app/rematches.py). Raises
        VersionConflict when the match is no longer at `before`'s version (or exists, for a creation)."""
        after, _ = self.tables.save(game_id, before, events, meta=partial(self._meta, before))
        self._enqueue_owed(after)
        return after

    def reset_seat(self, game_id: str, seat: int) -> tables.Table:
        """Operator: revoke a seat's token; the seat reopens for claiming and a bot plays it meanwhile."""
        table = self.table(game_id)
        events = tables.reset_seat(table, seat)
        after, _ = self.tables.save(game_id, table, events, meta=partial(self._meta, table))
        self._enqueue_after_answer(after)
        return after

    def abandon(self, game_id: str, now_ms: int) -> tables.Table:
        """Operator: end a running or waiting match at once (match_abandoned, by "operator"); its jobs
        find the match finished and do nothing. NotActive when it is finished already."""
        for attempt in range(RACE_RETRIES + 1):
            table = self.table(game_id)
            events = tables.abandon(table, self._idle_s(game_id, table, now_ms), by="operator")
            try:
                after, _ = self.tables.save(game_id, table, events, meta=partial(self._meta, table))
            except VersionConflict:
                if attempt == RACE_RETRIES:
                    raise
                continue
            return after
        raise AssertionError("unreachable")

    def _idle_s(self, game_id: str, table: tables.Table, now_ms: int) -> int:
        """Seconds since the table's last event."""
        last = self.store.read(game_id, after=table.version - 1)
        return max(0, (now_ms - normalize_at(last[0].at)[1]) // 1000) if last else 0

    def sweep(self, now_ms: int, idle_expiry_s: int, limit: int = SWEEP_LIMIT) -> int:
        """Close matches idle longer than `idle_expiry_s`, and re-enqueue what a crash between an
        append and its enqueue left undone. Returns the number of games touched."""
        touched = 0
        for status in ("waiting", "active"):
            ids, _ = self.store.lobby(status, 0, limit)
            for game_id in ids:
                touched += self._sweep_one(game_id, now_ms, idle_expiry_s)
        return touched

    def _sweep_one(self, game_id: str, now_ms: int, idle_expiry_s: int) -> int:
        try:
            table = self.table(game_id)
        except UnknownGame:
            return 0
        idle_s = self._idle_s(game_id, table, now_ms)
        if idle_s >= idle_expiry_s:
            events = tables.abandon(table, int(idle_s))
            ended = tables.Settled(events, tables.applied(table, events))  # the match is over: no step follows
            return int(self._commit_job(game_id, table, ended, time.monotonic()))
        return int(self.jobs.repair(self._owed_jobs(table)) > 0)

    # -- helpers ----------------------------------------------------------------------------------

    def _commit_job(self, game_id: str, table: tables.Table, settled: tables.Settled, started: float) -> bool:
        """Appends a job's events, then goes on in the same job with what the game owes next without a
        human (`_owed_now`), each step its own append, for up to JOB_STEPS appends and JOB_BUDGET_S
        after the job `started` (time.monotonic); then enqueues what the table waits for. An rq job
        costs the worker more than a basic bot's move, so the bots' moves up to the next human turn (each
        with the system's steps after it: `tables.settle`) take one job, not one each.
        False if the game had moved on before the first append (then nothing was written)."""
        for step in range(JOB_STEPS):
            try:
                table, _ = self.tables.save(
                    game_id, table, settled.events, meta=partial(self._meta, table), folded=settled.table
                )
            except VersionConflict:
                return step > 0  # someone else moved the game on; the job that sees the new version acts
            if time.monotonic() - started >= JOB_BUDGET_S:
                break
            settled = self._owed_now(table)
            if not settled.events:
                break
        self._enqueue_owed(table)
        return True

    def _owed_jobs(self, table: tables.Table) -> list[Job]:
        """The jobs the table is owed now (games.table.owed_work): a bot waits `bot_delay_s` before it
        moves, a human's turn timer runs out after the table's `turn_timeout_s`."""
        delays = {"bot": self.bot_delay_s, "timeout": float(table.turn_timeout_s or 0)}
        if table.finished:
            # A registered player's history, ratings and leaderboards (app/projections.py) show the end at
            # once. The end of a match nobody registered plays changes none of them: the workers' catch-up
            # of the feed, each second while it moves (workers/__main__.py), records it without a job.
            return [Job("project", table.game_id, table.version)] if _registered_player_at_table(table) else []
        background = not _human_at_table(table)
        return [
            Job(kind, table.game_id, table.version, seat, delays.get(kind, 0.0), background)
            for kind, seat in tables.owed_work(table)
        ]

    def _enqueue_owed(self, table: tables.Table) -> None:
        jobs = self._owed_jobs(table)
        if jobs:
            self.jobs.enqueue(jobs)

    def _owed_now(self, table: tables.Table) -> tables.Settled:
        """The next step a job may take on by itself: the system's step, or the move of the bot seat whose
        turn it is (unless bots wait TALON_BOT_DELAY_S before each move). No events otherwise: a human
        seat a bot stands in for keeps one job per move, and its human may come back between two."""
        work = tables.owed_work(table)
        if work == [("advance", None)]:
            return tables.settle(table, [])
        if len(work) == 1:
            kind, seat = work[0]
            if kind == "bot" and seat is not None and self.bot_delay_s <= 0 and table.seats[seat].kind == "bot":
                return self._bot_move(table, seat)
        return tables.Settled([], table)

    def _bot_move(self, table: tables.Table, seat: int) -> tables.Settled:
        return tables.settle(table, self._thought(table, lambda: _timed_bot_move(table, seat)))

    def _thought(self, table: tables.Table, decide: Callable[[], list[Event]]) -> list[Event]:
        """A bot's decision, held until `bot_think_s` after it started when a human plays at the table:
        the expert answers a lone legal move at once, and a reply that quick told the other players
        that its hand held one card of the suit led. The hold costs the worker that long; tables the
        bots play alone (`_human_at_table`) are not held, and wait behind the human ones."""
        started = self.clock()
        events = decide()
        if self.bot_think_s > 0 and _human_at_table(table):
            remaining = started + self.bot_think_s - self.clock()
            if remaining > 0:
                self.sleep(remaining)
        return events

    def _replay(self, game_id: str, key: str, fingerprint: str) -> Outcome | None:
        recorded = self.store.idempotent_result(game_id, key)
        if recorded is None:
            return None
        if recorded.fingerprint != fingerprint:
            raise IdempotencyKeyReused()
        telemetry.IDEMPOTENT_REPLAYS.inc()  # the store counts the replays its script answers
        return Outcome(self.table(game_id), replayed=True)

    @staticmethod
    def _meta(before: tables.Table | None, after: tables.Table, game: str | None = None) -> dict[str, str] | None:
        """Lobby fields, written only when they change (creation, seats taken, status moves)."""
        if before is not None and before.status == after.status and before.seats == after.seats:
            return None
        open_seats = sum(1 for s in after.seats if s.open and not s.reserved)  # a rematch's are its players'
        return {
            "status": after.status,
            "game": after.game,
            "players": str(len(after.seats)),
            "open_seats": str(open_seats),
            "variant": str(after.options.get("variant", "")),
            "private": "1" if after.private else "0",
        }


def _human_at_table(table: tables.Table) -> bool:
    """A human plays at this table (holds a seat a bot has not taken over): its jobs go before those of
    the tables bots play alone (no human seat, or every one open or taken over), and its bots' replies
    are held for their think time. A match whose humans left plays on after the human ones, at once."""
    return any(s.kind == "human" and s.token_hash is not None and not s.taken_over for s in table.seats)


def _registered_player_at_table(table: tables.Table) -> bool:
    return any(s.player_id is not None for s in table.seats)


def _timed_bot_move(table: tables.Table, seat: int) -> list[Event]:
    """The bot's move at `seat`, its decision time observed (talon_bot_decision_seconds)."""
    with telemetry.bot_decision(table.game):
        return tables.bot_move(table, seat)


def _lobby_entry(game_id: str, meta: Mapping[str, str]) -> LobbyEntry:
    return {
        "game_id": game_id,
        "game": meta.get("game", ""),
        "variant": meta.get("variant", ""),
        "status": meta.get("status", ""),
        "players": int(meta.get("players", 0)),
        "open_seats": int(meta.get("open_seats", 0)),
        "created_ms": int(meta.get("created_ms", 0)),
    }


def seat_token(game_id: str) -> str:
    # The game id in front lets a token for another game be told apart from an unknown one (403/401).
    return f"{game_id}.{secrets.token_urlsafe(32)}"


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _fingerprint(seat: int, action: Action) -> str:
    return hashlib.sha256(orjson.dumps([seat, action], option=orjson.OPT_SORT_KEYS)).hexdigest()
