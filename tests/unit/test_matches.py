"""The use cases (app/matches.py) on the in-memory event store and job queue: no Redis, no rq, no clock
but the test's. tests/integration/test_port_contracts.py proves the fakes behave as the Redis ones do."""

from __future__ import annotations

import logging

import pytest

from adapters.memory_queue import InMemoryJobQueue
from app.matches import IdempotencyKeyReused, Matches, NotASeat, UnknownGame, VersionMismatch, token_hash
from app.ports import Job
from events.memory import InMemoryEventStore
from events.store import Throttled
from games import table as tables
from games.errors import GameError, NotYourTurn, OptionError, SeatUnavailable

START_S = 1_796_000_000.0  # the fake clock's start (seconds since the epoch)
HUMAN, BOT = {"kind": "human"}, {"kind": "bot"}


class Clock:
    def __init__(self) -> None:
        self.now = START_S

    def __call__(self) -> float:
        return self.now


class World:
    """The use cases on fakes; `matches` and `jobs` may be replaced to model another process."""

    def __init__(self, bot_delay_s: float = 0.0, store: type[InMemoryEventStore] = InMemoryEventStore) -> None:
        self.clock = Clock()
        self.store = store(clock=self.clock)
        self.jobs = InMemoryJobQueue()
        self.matches = Matches(self.store, self.jobs, bot_delay_s)

    def other_process(self) -> Matches:
        """Another API or worker process: the same store and queue, a repository of its own."""
        return Matches(self.store, self.jobs, self.matches.bot_delay_s)

    def run(self, job: Job, matches: Matches | None = None) -> bool:
        m = matches or self.matches
        if job.kind == "advance":
            return m.advance(job.game_id, job.version)
        runner = m.bot_turn if job.kind == "bot" else m.turn_timeout
        return runner(job.game_id, job.version, job.seat)

    def run_due(self, matches: Matches | None = None) -> int:
        return self.jobs.run_due(lambda job: self.run(job, matches))


@pytest.fixture
def world() -> World:
    return World()


def seat_of(token: str):
    digest = token_hash(token)
    return lambda table: tables.seat_of_token(table, digest)


def legal(table, seat=0):
    return tables.seat_view(table, seat)["legal_actions"][0]


def human_vs_bot(world: World, **options):
    """Sixty-Six: a human (claimed, seat 0, to act) against a bot. Returns (table, token)."""
    created = world.matches.create_match("sixty-six", options, [HUMAN, BOT], seed=7)
    table, seat, token = world.matches.claim_seat(created.game_id, None, "Ann")
    assert seat == 0 and tables.seat_view(table, 0)["to_act"] == [0]
    return table, token


def event_types(world: World, game_id: str, after: int = 0) -> list[str]:
    return [e.type for e in world.store.read(game_id, after=after)]


# Creating and reading.


def test_a_match_of_bots_is_dealt_and_owes_its_first_bot_move(world):
    table = world.matches.create_match("sixty-six", {}, [BOT, BOT], seed=7)
    assert (table.status, table.version) == ("active", 3)
    assert event_types(world, table.game_id) == ["match_created", "deal_committed", "dealt"]
    (first,) = tables.seat_view(table, None)["to_act"]
    assert world.jobs.waiting() == [Job("bot", table.game_id, 3, first, background=True)]
    assert world.store.lobby("active", 0, 10) == ([table.game_id], 1)


def test_a_match_of_bots_plays_to_its_end_through_its_jobs(world):
    table = world.matches.create_match("smear", {}, [BOT] * 4, seed=3)
    assert world.jobs.run_all(world.run) >= 1
    table = world.matches.table(table.game_id)
    assert table.status == "finished" and event_types(world, table.game_id)[-1] == "match_ended"
    assert world.store.lobby("finished", 0, 10) == ([table.game_id], 1)
    assert world.store.lobby("active", 0, 10) == ([], 0)
    assert world.jobs.waiting() == []


@pytest.mark.parametrize("player_id", ["p-ana", None])
def test_only_a_match_a_registered_player_plays_owes_the_projections_a_job_at_its_end(world, player_id):
    """A registered player's history and ratings show the match at once; the end of a match of guests and
    bots changes neither, and the workers' catch-up of the feed records it without a job of its own."""
    created = world.matches.create_match("smear", {"turn_timeout_s": 1}, [HUMAN, BOT, BOT, BOT], seed=3)
    world.matches.claim_seat(created.game_id, 0, "Ana", player_id=player_id)
    world.jobs.run_all(world.run)  # the human's turns time out, then a bot plays the seat for good
    table = world.matches.table(created.game_id)
    assert table.status == "finished" and table.seats[0].player_id == player_id
    projection_jobs = [job for job in world.jobs.enqueued if job.kind == "project"]
    assert projection_jobs == ([Job("project", table.game_id, table.version)] if player_id else [])


def test_a_match_with_an_open_seat_waits_in_the_lobby_and_owes_nothing(world):
    table = world.matches.create_match("sixty-six", {"variant": "2p24"}, [HUMAN, BOT], seed=7)
    assert table.status == "waiting" and world.jobs.enqueued == []
    entries, _, more = world.matches.lobby_page("waiting", None, None, 10)
    assert entries == [
        {
            "game_id": table.game_id,
            "game": "sixty-six",
            "variant": "2p24",
            "status": "waiting",
            "players": 2,
            "open_seats": 1,
            "created_ms": int(START_S * 1000),
        }
    ]
    assert not more


def test_bad_options_store_nothing(world):
    with pytest.raises(OptionError):
        world.matches.create_match("sixty-six", {}, [HUMAN] + [BOT] * 4, seed=7)
    with pytest.raises(OptionError):
        world.matches.create_match("chess", {}, [HUMAN, BOT], seed=7)
    assert all(world.store.lobby(s, 0, 10) == ([], 0) for s in ("waiting", "active", "finished"))


def test_the_seed_decides_the_deal(world):
    one, two, other = (
        world.matches.create_match("sixty-six", {"first_dealer": 0}, [BOT, BOT], seed=seed) for seed in (5, 5, 6)
    )
    dealt = [world.store.read(t.game_id)[-1] for t in (one, two, other)]
    assert dealt[0].type == "dealt" and dealt[0].data == dealt[1].data != dealt[2].data


@pytest.mark.parametrize("game_id", ["0123456789abcdef", "not an id!"])
def test_an_unknown_game_is_unknown(world, game_id):
    with pytest.raises(UnknownGame):
        world.matches.table(game_id)
    with pytest.raises(UnknownGame):
        world.matches.claim_seat(game_id, None, "Ann")


def test_events_come_in_pages(world):
    table, _ = human_vs_bot(world)
    first, more = world.matches.events_page(table.game_id, after=0, limit=3)
    assert [e.version for e in first] == [1, 2, 3] and more
    rest, more = world.matches.events_page(table.game_id, after=3, limit=10)
    assert [e.version for e in rest] == list(range(4, table.version + 1)) and not more


def test_the_lobby_pages_newest_first_and_filters_by_game(world):
    ids = []
    for game, seats in [("sixty-six", [HUMAN, BOT]), ("smear", [HUMAN, BOT, BOT, BOT])] * 3:
        world.clock.now += 1
        ids.append(world.matches.create_match(game, {}, seats, seed=1).game_id)
    newest_first = ids[::-1]
    page, last, more = world.matches.lobby_page("waiting", None, None, 4)
    assert [e["game_id"] for e in page] == newest_first[:4] and more
    page, last, more = world.matches.lobby_page("waiting", None, last, 4)
    assert [e["game_id"] for e in page] == newest_first[4:] and not more
    page, last, more = world.matches.lobby_page("waiting", "smear", None, 2)
    assert [e["game_id"] for e in page] == [ids[5], ids[3]] and more
    page, _, more = world.matches.lobby_page("waiting", "smear", last, 2)
    assert [e["game_id"] for e in page] == [ids[1]] and not more


# Claiming a seat.


def test_the_last_claim_starts_the_match_and_the_token_holds_the_seat(world):
    created = world.matches.create_match("sixty-six", {"turn_timeout_s": 30}, [HUMAN, BOT], seed=7)
    table, seat, token = world.matches.claim_seat(created.game_id, None, "Ann")
    assert seat == 0 and token.startswith(created.game_id + ".") and table.status == "active"
    assert seat_of(token)(world.matches.table(created.game_id)) == 0
    assert world.jobs.waiting() == [Job("timeout", created.game_id, table.version, 0, 30.0)]
    assert world.matches.lobby_page("active", None, None, 5)[0][0]["open_seats"] == 0
    with pytest.raises(SeatUnavailable):
        world.matches.claim_seat(created.game_id, None, "Bob")


class RacingStore(InMemoryEventStore):
    """Runs `before` once, right before the next append: another writer gets in first."""

    before = None

    def append(self, *args, **kwargs):
        before, self.before = self.before, None
        if before is not None:
            before()
        return super().append(*args, **kwargs)


def test_a_claim_that_lost_a_race_is_decided_again():
    world = World(store=RacingStore)
    created = world.matches.create_match("fifty-six", {}, [HUMAN, HUMAN, BOT, BOT], seed=7)
    rival = world.other_process()
    world.store.before = lambda: rival.claim_seat(created.game_id, None, "Bob")
    table, seat, token = world.matches.claim_seat(created.game_id, None, "Ann")
    assert seat == 1 and table.seats[0].name == "Bob" and table.seats[1].name == "Ann"
    assert table.status == "active" and seat_of(token)(table) == 1


class CountingStore(InMemoryEventStore):
    """Counts the loads (one round trip each on Redis)."""

    loads = 0

    def load_since(self, *args, **kwargs):
        self.loads += 1
        return super().load_since(*args, **kwargs)


def test_a_claim_is_decided_on_the_table_this_process_holds_and_again_when_that_is_behind():
    world = World(store=CountingStore)
    created = world.matches.create_match("fifty-six", {}, [HUMAN, HUMAN, HUMAN, BOT], seed=7)
    world.matches.claim_seat(created.game_id, None, "Ann")  # right after the creation: no load
    assert world.store.loads == 0
    world.other_process().claim_seat(created.game_id, None, "Bob")  # seat 1, unseen here
    table, seat, _ = world.matches.claim_seat(created.game_id, None, "Cid")  # seat 1 on the held table
    assert seat == 2 and [s.name for s in table.seats[:3]] == ["Ann", "Bob", "Cid"]
    world.other_process().reset_seat(created.game_id, 0)  # Ann's seat reopens, unseen here
    table, seat, _ = world.matches.claim_seat(created.game_id, 0, "Dee")  # refused on the held table only
    assert seat == 0 and table.seats[0].name == "Dee"


# Acting.


def test_a_move_is_stored_and_owes_the_bot_its_turn(world):
    table, token = human_vs_bot(world)
    outcome = world.matches.act(table.game_id, legal(table), seat_of(token))
    assert not outcome.replayed and outcome.enqueue is None
    assert outcome.table.version == table.version + 1 == world.matches.table(table.game_id).version
    assert world.jobs.waiting() == [Job("bot", table.game_id, outcome.table.version, 1)]


def test_a_move_out_of_turn_changes_nothing(world):
    table, token = human_vs_bot(world)
    after = world.matches.act(table.game_id, legal(table), seat_of(token)).table
    with pytest.raises(NotYourTurn):
        world.matches.act(table.game_id, legal(table), seat_of(token))
    assert world.matches.table(table.game_id).version == after.version


def test_a_caller_without_a_seat_is_told_so(world):
    table, _ = human_vs_bot(world)
    with pytest.raises(NotASeat) as refused:
        world.matches.act(table.game_id, legal(table), seat_of("someone-else"))
    assert refused.value.table.version == table.version


def test_if_match_must_name_the_current_version(world):
    table, token = human_vs_bot(world)
    with pytest.raises(VersionMismatch) as stale:
        world.matches.act(table.game_id, legal(table), seat_of(token), if_match={table.version - 1})
    assert stale.value.current_version == table.version
    assert world.matches.table(table.game_id).version == table.version
    outcome = world.matches.act(
        table.game_id, legal(table), seat_of(token), if_match={table.version - 1, table.version}
    )
    assert outcome.table.version == table.version + 1


def test_a_retry_with_its_idempotency_key_is_answered_not_applied_again(world):
    table, token = human_vs_bot(world)
    first = world.matches.act(table.game_id, legal(table), seat_of(token), idempotency_key="move-1")
    again = world.matches.act(table.game_id, legal(table), seat_of(token), idempotency_key="move-1")
    assert again.replayed and again.table.version == first.table.version
    assert len(world.jobs.enqueued) == 1  # the retry owes nothing new
    # The bot moves; the retry is out of turn by now, and its record still answers it (another process too).
    world.run_due()
    later = world.other_process().act(table.game_id, legal(table), seat_of(token), idempotency_key="move-1")
    assert later.replayed and later.table.version == world.matches.table(table.game_id).version > first.table.version


def test_an_idempotency_key_reused_for_another_move_is_refused(world):
    table, token = human_vs_bot(world)
    actions = tables.seat_view(table, 0)["legal_actions"]
    world.matches.act(table.game_id, actions[0], seat_of(token), idempotency_key="k")
    with pytest.raises(IdempotencyKeyReused):
        world.matches.act(table.game_id, actions[1], seat_of(token), idempotency_key="k")


def test_a_seat_moving_faster_than_its_rate_is_throttled_until_time_passes(world):
    table, token = human_vs_bot(world)
    rate = (1, 60.0)
    world.matches.act(table.game_id, legal(table), seat_of(token), rate=rate)
    world.run_due()
    table = world.matches.table(table.game_id)
    assert tables.seat_view(table, 0)["to_act"] == [0]
    with pytest.raises(Throttled) as throttled:
        world.matches.act(table.game_id, legal(table), seat_of(token), rate=rate)
    assert 0 < throttled.value.retry_after_s <= 60
    assert world.matches.table(table.game_id).version == table.version
    world.clock.now += 60
    assert world.matches.act(table.game_id, legal(table), seat_of(token), rate=rate).table.version > table.version


def test_enqueue_later_leaves_the_jobs_to_the_caller(world):
    table, token = human_vs_bot(world)
    outcome = world.matches.act(table.game_id, legal(table), seat_of(token), enqueue_later=True)
    assert world.jobs.waiting() == []
    outcome.enqueue()
    assert world.jobs.waiting() == [Job("bot", table.game_id, outcome.table.version, 1)]


def test_a_queue_down_after_the_answer_is_logged_and_the_sweeper_makes_up_for_it(world, caplog):
    table, token = human_vs_bot(world)
    world.jobs.reachable = False
    outcome = world.matches.act(table.game_id, legal(table), seat_of(token), enqueue_later=True)
    with caplog.at_level(logging.WARNING, logger="talon.matches"):
        outcome.enqueue()
    assert "the sweeper will enqueue them" in caplog.text and world.jobs.waiting() == []
    world.jobs.reachable = True
    assert world.matches.sweep(now_ms=int(START_S * 1000), idle_expiry_s=3600) == 1
    assert world.jobs.waiting() == [Job("bot", table.game_id, outcome.table.version, 1)]


def test_a_process_holding_an_old_table_decides_again_on_the_stored_one(world):
    table, token = human_vs_bot(world)
    world.matches.act(table.game_id, legal(table), seat_of(token))  # this process now holds the bot's turn
    worker = world.other_process()
    world.run_due(worker)  # the bot moves elsewhere
    stored = worker.table(table.game_id)
    assert world.matches.held_table(table.game_id).version < stored.version
    outcome = world.matches.act(table.game_id, legal(stored), seat_of(token))
    assert outcome.table.version > stored.version
    assert world.store.read(table.game_id, after=stored.version)[0].actor == 0


def racing_world(**options):
    """A human (seat 0, to act, with a turn timer) against a bot, on a store another writer can race."""
    world = World(store=RacingStore)
    table, token = human_vs_bot(world, **options)
    (timer,) = world.jobs.waiting()
    worker = world.other_process()
    world.store.before = lambda: world.run(timer, worker)  # the timer runs out right before the append
    return world, table, token


def test_a_move_that_lost_the_race_to_its_turn_timer_is_decided_again():
    world, table, token = racing_world(turn_timeout_s=30)
    action = legal(table)
    with pytest.raises(GameError) as refused:
        world.matches.act(table.game_id, action, seat_of(token))
    stored = world.matches.table(table.game_id)
    assert event_types(world, table.game_id, table.version)[-1] == "turn_timed_out"
    assert stored.seats[0].timeouts == 1
    with pytest.raises(type(refused.value)):  # the move was decided again on the table as stored
        tables.act(stored, 0, action)


def test_a_move_with_if_match_that_lost_a_race_names_the_new_version():
    world, table, token = racing_world(turn_timeout_s=30)
    with pytest.raises(VersionMismatch) as stale:
        world.matches.act(table.game_id, legal(table), seat_of(token), if_match={table.version})
    assert stale.value.current_version == world.matches.table(table.game_id).version > table.version


# The workers' jobs.


def two_humans(world):
    created = world.matches.create_match("sixty-six", {}, [HUMAN, HUMAN], seed=7)
    tokens = [world.matches.claim_seat(created.game_id, seat, name)[2] for seat, name in ((0, "Ann"), (1, "Bob"))]
    return world.matches.table(created.game_id), tokens


def test_the_move_that_ends_a_round_is_scored_and_dealt_in_its_own_append(world):
    table, tokens = two_humans(world)
    for _ in range(100):
        (seat,) = tables.seat_view(table, 0)["to_act"]
        after = world.matches.act(table.game_id, legal(table, seat), seat_of(tokens[seat])).table
        if after.deals > table.deals:
            break
        table = after
    appended = event_types(world, table.game_id, table.version)
    assert appended[-4:] == ["round_scored", "deal_revealed", "deal_committed", "dealt"]
    assert "round_scored" not in appended[:-4]  # the move's own events come first
    assert after.status == "active" and tables.seat_view(after, 0)["to_act"]
    assert world.jobs.waiting() == []  # no worker between the rounds


def test_advance_scores_the_round_and_deals_the_next_at_its_version_only(world):
    table, _ = two_humans(world)
    # A round ended by an append without its system steps (as a server before settled moves stored
    # them): the advance job the table owes does them.
    while tables.owed_work(table) != [("advance", None)]:
        (seat,) = tables.seat_view(table, 0)["to_act"]
        table, _ = world.matches.tables.save(table.game_id, table, tables.act(table, seat, legal(table, seat)))
    assert not world.matches.advance(table.game_id, table.version - 1)  # stale: nothing
    assert world.matches.table(table.game_id).version == table.version
    assert world.matches.advance(table.game_id, table.version)
    after = world.matches.table(table.game_id)
    assert event_types(world, table.game_id, table.version) == [
        "round_scored",
        "deal_revealed",
        "deal_committed",
        "dealt",
    ]
    assert after.deals == table.deals + 1 and after.status == "active"
    assert not world.matches.advance(table.game_id, after.version)  # nothing owed now


def test_a_bot_turn_moves_once_and_not_when_stale_or_not_owed():
    world = World(bot_delay_s=0.5)
    table, token = human_vs_bot(world)
    assert not world.matches.bot_turn(table.game_id, table.version, 1)  # the human's turn
    after = world.matches.act(table.game_id, legal(table), seat_of(token)).table
    assert world.jobs.waiting() == [Job("bot", table.game_id, after.version, 1, 0.5)]
    assert not world.matches.bot_turn(table.game_id, after.version - 1, 1)  # stale
    assert world.jobs.due() == []  # the bot waits its delay
    world.jobs.tick(0.5)
    assert world.run_due() == 1
    assert world.matches.table(table.game_id).version > after.version
    assert not world.matches.bot_turn(table.game_id, after.version, 1)  # done already


def test_a_turn_timer_has_the_bot_move_for_the_human_then_take_the_seat_over():
    world = World(bot_delay_s=1.0)  # one job per bot move, so the test sees each turn
    table, token = human_vs_bot(world, turn_timeout_s=30, takeover_after=2)
    timer = Job("timeout", table.game_id, table.version, 0, 30.0)
    assert world.jobs.waiting() == [timer]
    assert not world.matches.turn_timeout(table.game_id, table.version - 1, 0)  # stale
    world.jobs.tick(29)
    assert world.run_due() == 0
    assert world.jobs.run_next(world.run) == timer and world.jobs.now == 30
    assert "turn_timed_out" in event_types(world, table.game_id, table.version)
    assert world.matches.table(table.game_id).seats[0].timeouts == 1

    def next_job_for_seat_0(kind):
        for _ in range(20):
            if any(job.kind == kind and job.seat == 0 for job in world.jobs.waiting()):
                return
            world.jobs.run_next(world.run)
        raise AssertionError(f"no {kind} job for seat 0")

    next_job_for_seat_0("timeout")
    world.jobs.run_next(world.run)
    taken = world.matches.table(table.game_id)
    assert taken.seats[0].taken_over and event_types(world, table.game_id)[-1] == "seat_taken_over"
    # The bot plays the seat now, without a timer, until the human comes back.
    next_job_for_seat_0("bot")
    table = world.matches.table(table.game_id)
    assert world.jobs.waiting() == [Job("bot", table.game_id, table.version, 0, 1.0, background=True)]
    outcome = world.matches.act(table.game_id, legal(table), seat_of(token))
    assert event_types(world, table.game_id, table.version)[0] == "seat_returned"
    assert not outcome.table.seats[0].taken_over


def test_a_reset_seat_reopens_the_bot_plays_it_and_its_token_is_void(world):
    table, token = human_vs_bot(world, turn_timeout_s=30)
    reset = world.matches.reset_seat(table.game_id, 0)
    assert reset.seats[0].open and seat_of(token)(reset) is None
    assert Job("bot", table.game_id, reset.version, 0, 0.0, background=True) in world.jobs.waiting()
    with pytest.raises(NotASeat):
        world.matches.act(table.game_id, legal(reset), seat_of(token))
    assert world.matches.lobby_page("active", None, None, 5)[0][0]["open_seats"] == 1
    with pytest.raises(SeatUnavailable):
        world.matches.reset_seat(table.game_id, 1)  # a bot's seat
    _, seat, _ = world.matches.claim_seat(table.game_id, None, "Bob")
    assert seat == 0


# The sweeper.


def test_the_sweeper_closes_idle_matches(world):
    table, _ = human_vs_bot(world)
    waiting = world.matches.create_match("sixty-six", {}, [HUMAN, BOT], seed=1)
    now_ms = int(START_S * 1000)
    assert world.matches.sweep(now_ms=now_ms + 3_599_000, idle_expiry_s=3600) == 0
    assert world.matches.sweep(now_ms=now_ms + 3_600_000, idle_expiry_s=3600) == 2
    for game_id in (table.game_id, waiting.game_id):
        closed = world.matches.table(game_id)
        assert closed.abandoned and closed.status == "finished"
        assert world.store.read(game_id)[-2 if game_id == table.game_id else -1].data == {"idle_s": 3600}
    assert world.store.lobby("finished", 0, 10)[1] == 2
    assert world.matches.sweep(now_ms=now_ms + 7_200_000, idle_expiry_s=3600) == 0


def test_the_sweeper_requeues_the_jobs_a_crash_lost(world):
    table = world.matches.create_match("sixty-six", {}, [BOT, BOT], seed=7)
    lost = world.jobs.waiting()
    world.jobs = InMemoryJobQueue()  # the queue lost them (a crash between the append and the enqueue)
    world.matches = Matches(world.store, world.jobs)
    assert world.matches.sweep(now_ms=int(START_S * 1000), idle_expiry_s=3600) == 1
    assert world.jobs.waiting() == lost
    assert world.matches.sweep(now_ms=int(START_S * 1000), idle_expiry_s=3600) == 0  # waiting: left alone
    world.jobs.fail(lost[0])
    assert world.matches.sweep(now_ms=int(START_S * 1000), idle_expiry_s=3600) == 1  # failed: again
    assert world.matches.table(table.game_id).version == table.version
