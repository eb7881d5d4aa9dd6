"""Examples for the OpenAPI document: a Sixty-Six view, a rematch and a replay step, worked out by the
pure engine from a fixed seed (the same every time), so each example has the shape the code gives it."""

from __future__ import annotations

from games import table as tables
from games.replay import fold, replay_step


def _view() -> dict:
    events = tables.create(
        "5d1c0e7f9a2b4c3d",
        "sixty-six",
        {"first_dealer": 1},
        [{"kind": "human"}, {"kind": "bot", "level": "basic"}],
        seed=7,
    )
    table = fold(events)
    return tables.seat_view(tables.applied(table, tables.claim_seat(table, 0, "Ana", "0" * 64)), 0)


VIEW = _view()


def _played_out() -> list[dict]:
    """A short all-bots match of Sixty-Six (one game point wins it), played to its end."""
    events = tables.create(
        "5d1c0e7f9a2b4c3d",
        "sixty-six",
        {"first_dealer": 1, "match_target": 1},
        [{"kind": "bot", "level": "basic"}, {"kind": "bot", "level": "basic"}],
        seed=7,
    )
    table = fold(events)
    while not table.finished:
        work = tables.owed_work(table)
        if work == [("advance", None)]:
            step = tables.settle(table, [])  # the system's step, with the table after it
        else:
            move = tables.bot_move(table, work[0][1])
            step = tables.Settled(move, tables.applied(table, move))
        table = step.table
        events += step.events
    return events


def _replay() -> dict:
    events = _played_out()
    return dict(replay_step(fold(events[:12]), len(events)))


def _rematch() -> dict:
    created = tables.create(
        "9f0e1d2c3b4a5968",
        "sixty-six",
        {"first_dealer": 0},
        [{"kind": "human", "reserved": True}, {"kind": "bot", "level": "basic"}],
        seed=8,
        rematch_of="5d1c0e7f9a2b4c3d",
    )
    table = fold(created)
    table = tables.applied(table, tables.claim_seat(table, 0, "Ana", "0" * 64, reserved_ok=True))
    return {
        "game_id": table.game_id,
        "seat": 0,
        "token": "9f0e1d2c3b4a5968.kY3v-example-token",
        "view": tables.seat_view(table, 0),
    }


REPLAY = _replay()
REMATCH = _rematch()
