"""The table's lifecycle (games/table.py), pure: seats claimed, turns timed out and taken over, seats
reset, matches abandoned, and the work a table owes the workers at each point. No store, no queue."""

from __future__ import annotations

import hashlib

import pytest

from games import table as tables
from games.errors import ActionShapeError, NotActive, NotYourTurn, SeatUnavailable

ANN, BOB = "a" * 64, "b" * 64  # token hashes


def apply(table, events):
    for event in events:
        table = tables.evolve(table, event)
    return table


def new_table(seats, game="sixty-six", seed=7, **options):
    return apply(None, tables.create("g1", game, options, seats, seed))


def human_vs_bot(**options):
    """Sixty-Six, a human (seat 0, claimed by ANN) against a bot; seat 0 is to act."""
    table = new_table([{"kind": "human"}, {"kind": "bot"}], **options)
    table = apply(table, tables.claim_seat(table, 0, "Ann", ANN))
    assert tables.seat_view(table, 0)["to_act"] == [0]
    return table


def first_legal(table, seat):
    return tables.seat_view(table, seat)["legal_actions"][0]


def until_turn_of(table, seat):
    """The other seats (bots) and the system act until it is `seat`'s turn."""
    for _ in range(100):
        to_act = tables.seat_view(table, seat)["to_act"]
        if to_act == [seat]:
            return table
        if tables.owed_work(table) == [("advance", None)]:
            table = apply(table, tables.system_step(table))
        else:
            table = apply(table, tables.bot_move(table, to_act[0]))
    raise AssertionError("the seat never got the turn")


def types(events):
    return [e["type"] for e in events]


# Creating and claiming.


def test_a_match_with_an_open_human_seat_waits_and_owes_nothing():
    table = new_table([{"kind": "human"}, {"kind": "bot"}])
    assert (table.status, table.version, table.deals) == ("waiting", 1, 0)
    assert table.seats[0].open and not table.seats[1].open
    assert tables.owed_work(table) == []


def test_a_match_of_bots_deals_at_once_and_owes_the_first_bot_move():
    events = tables.create("g1", "sixty-six", {}, [{"kind": "bot"}, {"kind": "bot", "level": "basic"}], 7)
    assert types(events) == ["match_created", "deal_committed", "dealt"]
    table = apply(None, events)
    assert (table.status, table.deals) == ("active", 1)
    assert tables.owed_work(table) == [("bot", s) for s in tables.seat_view(table, None)["to_act"]]


def test_claiming_takes_the_first_open_seat_and_the_last_claim_deals():
    table = new_table([{"kind": "human"}, {"kind": "bot"}, {"kind": "human"}, {"kind": "bot"}], game="fifty-six")
    events = tables.claim_seat(table, None, "Ann", ANN)
    assert types(events) == ["seat_claimed"] and events[0]["data"]["seat"] == 0
    table = apply(table, events)
    assert table.status == "waiting" and tables.seat_of_token(table, ANN) == 0
    events = tables.claim_seat(table, None, "Bob", BOB)
    assert types(events) == ["seat_claimed", "deal_committed", "dealt"] and events[0]["data"]["seat"] == 2
    table = apply(table, events)
    assert table.status == "active" and tables.seat_of_token(table, BOB) == 2
    assert table.seats[2].name == "Bob" and tables.seat_of_token(table, "c" * 64) is None


@pytest.mark.parametrize("seat", [0, 1, 2, -1, None])  # taken, a bot's, missing twice, none open
def test_a_seat_that_is_taken_a_bots_or_missing_cannot_be_claimed(seat):
    table = human_vs_bot()
    with pytest.raises(SeatUnavailable):
        tables.claim_seat(table, seat, "Bob", BOB)
    assert table.seats[0].token_hash == ANN


def test_the_deal_is_committed_before_it_is_dealt():
    table = human_vs_bot()
    committed = next(
        e
        for e in tables.claim_seat(new_table([{"kind": "human"}, {"kind": "bot"}]), 0, "Ann", ANN)
        if e["type"] == "deal_committed"
    )
    salt = tables.deal_salt(table.seed, 1)
    assert committed["data"]["commitment"] == tables.deal_commitment(salt, tables.committed_deck(table))
    assert table.commitment == committed["data"]["commitment"]


# Acting, the work owed, and the turn timer.


def test_actions_are_refused_until_the_match_is_active_and_out_of_turn():
    waiting = new_table([{"kind": "human"}, {"kind": "bot"}])
    with pytest.raises(NotActive):
        tables.act(waiting, 0, {"type": "play", "card": "AS"})
    table = human_vs_bot()
    with pytest.raises(ActionShapeError):
        tables.act(table, 0, ["play"])
    with pytest.raises(NotYourTurn):
        tables.act(table, 1, first_legal(table, 0))


def test_a_humans_turn_owes_a_timeout_only_with_a_turn_timer():
    assert tables.owed_work(human_vs_bot()) == []
    assert tables.owed_work(human_vs_bot(turn_timeout_s=30)) == [("timeout", 0)]


def test_the_bots_turn_and_the_rounds_end_are_owed_to_the_workers():
    table = human_vs_bot()
    table = apply(table, tables.act(table, 0, first_legal(table, 0)))
    assert tables.owed_work(table) == [("bot", 1)]  # the bot follows the lead
    for _ in range(100):
        if tables.owed_work(table) == [("advance", None)]:
            break
        to_act = tables.seat_view(table, 0)["to_act"][0]
        table = apply(table, tables.act(table, to_act, first_legal(table, to_act)))
    assert tables.owed_work(table) == [("advance", None)]
    deals = table.deals
    table = apply(table, tables.system_step(table))
    assert table.deals == deals + 1 and tables.seat_view(table, 0)["to_act"]  # the next deal is on


def test_a_settled_move_brings_the_rounds_scoring_and_next_deal_with_it():
    table = human_vs_bot()
    move = tables.act(table, 0, first_legal(table, 0))
    assert tables.settle(table, move) == tables.Settled(move, apply(table, move))  # mid-round: nothing follows
    for _ in range(100):
        to_act = tables.seat_view(table, 0)["to_act"][0]
        move = tables.act(table, to_act, first_legal(table, to_act))
        if tables.owed_work(apply(table, move)) == [("advance", None)]:
            break
        table = apply(table, move)
    settled = tables.settle(table, move)
    after = apply(table, settled.events)
    assert settled.events == move + tables.system_step(apply(table, move))
    assert types(settled.events)[-4:] == ["round_scored", "deal_revealed", "deal_committed", "dealt"]
    assert after.deals == table.deals + 1 and tables.owed_work(after) != [("advance", None)]
    assert settled.table == after  # the fold the caller stores without folding again


def test_a_timed_out_turn_is_played_by_the_stand_in_bot_and_counted():
    table = human_vs_bot(turn_timeout_s=30)
    events = tables.time_out(table, 0)
    assert types(events)[-1] == "turn_timed_out" and events[-1]["data"] == {"seat": 0, "consecutive": 1}
    assert events[0]["actor"] == 0  # the bot's move is made for the seat
    table = apply(table, events)
    assert table.seats[0].timeouts == 1 and not table.seats[0].taken_over


def test_timeouts_in_a_row_hand_the_seat_to_the_bot_until_its_human_acts():
    table = human_vs_bot(turn_timeout_s=30, takeover_after=2)
    table = until_turn_of(apply(table, tables.time_out(table, 0)), 0)
    events = tables.time_out(table, 0)
    assert types(events)[-2:] == ["turn_timed_out", "seat_taken_over"]
    table = until_turn_of(apply(table, events), 0)
    assert table.seats[0].taken_over and table.seats[0].played_by_bot
    assert tables.owed_work(table) == [("bot", 0)]  # no more timers: the bot plays the seat
    events = tables.act(table, 0, first_legal(table, 0))
    assert events[0] == {"type": "seat_returned", "actor": 0, "data": {"seat": 0}}
    table = apply(table, events)
    assert (table.seats[0].taken_over, table.seats[0].timeouts) == (False, 0)


def test_a_move_in_time_ends_the_run_of_timeouts():
    table = human_vs_bot(turn_timeout_s=30, takeover_after=3)
    table = until_turn_of(apply(table, tables.time_out(table, 0)), 0)
    assert table.seats[0].timeouts == 1
    table = apply(table, tables.act(table, 0, first_legal(table, 0)))
    assert table.seats[0].timeouts == 0


# Resetting a seat and abandoning a match.


def test_a_reset_seat_reopens_and_a_bot_plays_it_meanwhile():
    table = human_vs_bot(turn_timeout_s=30)
    events = tables.reset_seat(table, 0)
    assert events == [{"type": "seat_reset", "actor": None, "data": {"seat": 0}}]
    table = apply(table, events)
    assert table.seats[0].open and tables.seat_of_token(table, ANN) is None and table.status == "active"
    assert tables.owed_work(table) == [("bot", 0)]
    table = apply(table, tables.claim_seat(table, None, "Bob", BOB))
    assert tables.seat_of_token(table, BOB) == 0 and tables.owed_work(table) == [("timeout", 0)]


@pytest.mark.parametrize("seat", [1, 2, -1])
def test_only_a_human_seat_can_be_reset(seat):
    with pytest.raises(SeatUnavailable):
        tables.reset_seat(human_vs_bot(), seat)


def test_an_abandoned_match_reveals_the_deal_in_progress_and_owes_nothing():
    table = human_vs_bot(turn_timeout_s=30)
    events = tables.abandon(table, 7200)
    assert types(events) == ["match_abandoned", "deal_revealed"] and events[0]["data"] == {"idle_s": 7200}
    revealed = events[1]["data"]
    digest = hashlib.sha256(f"{revealed['salt']}:{','.join(revealed['deck'])}".encode()).hexdigest()
    assert digest == table.commitment
    table = apply(table, events)
    assert (table.status, table.abandoned, table.revealed) == ("finished", True, 1)
    assert tables.owed_work(table) == []
    with pytest.raises(SeatUnavailable):
        tables.claim_seat(table, None, "Bob", BOB)
    with pytest.raises(NotActive):
        tables.act(table, 0, {"type": "play", "card": "AS"})


def test_a_waiting_match_is_abandoned_with_nothing_to_reveal():
    table = new_table([{"kind": "human"}, {"kind": "bot"}])
    assert types(tables.abandon(table, 60)) == ["match_abandoned"]


def test_a_table_survives_its_snapshot():
    table = human_vs_bot(turn_timeout_s=30)
    table = until_turn_of(apply(table, tables.time_out(table, 0)), 0)
    assert tables.load(tables.dump(table)) == table
