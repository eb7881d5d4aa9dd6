"""The table's part of rematches (games/table.py: offer_rematch, rematch_spec, reserved seats) and of
replays (games/replay.py), pure: no store, no HTTP."""

from __future__ import annotations

import pytest

from games import table as tables
from games.errors import NotFinished, SeatUnavailable
from games.replay import fold, replay_step

SEATS = [{"kind": "human"}, {"kind": "bot", "level": "random"}, {"kind": "human"}, {"kind": "bot", "level": "expert"}]


def add(table, events):
    for event in events:
        table = tables.evolve(table, event)
    return table


def finished_smear() -> tables.Table:
    """A Smear match to 1 point with two humans, played by the stand-in bots (both seats claimed, then
    seat 2 reset by the operator: its seat is open at the end)."""
    table = fold(
        tables.create(
            "old",
            "smear",
            {"first_dealer": 3, "match_target": 1, "turn_timeout_s": 40, "takeover_after": 3},
            SEATS,
            seed=4,
        )
    )
    table = add(table, tables.claim_seat(table, 0, "Ann", "a" * 64))
    table = add(table, tables.claim_seat(table, 2, "Cy", "c" * 64))
    table = add(table, tables.reset_seat(table, 2))
    while not table.finished:
        work = tables.owed_work(table)
        table = add(
            table, tables.system_step(table) if work == [("advance", None)] else tables.bot_move(table, work[0][1])
        )
    return table


def test_the_rematch_has_the_same_options_and_bots_the_next_dealer_and_the_players_seats_kept():
    old = finished_smear()
    options, seats = tables.rematch_spec(old)
    assert options == {**old.options, "first_dealer": 0, "turn_timeout_s": 40, "takeover_after": 3}
    # Ann's seat is kept for her; seat 2 had nobody at the end, so it is open to anyone.
    assert seats == [
        {"kind": "human", "reserved": True},
        {"kind": "bot", "level": "random"},
        {"kind": "human", "reserved": False},
        {"kind": "bot", "level": "expert"},
    ]
    new = fold(tables.create("new", old.game, options, seats, seed=5, rematch_of="old"))
    assert new.rematch_of == "old" and [s.reserved for s in new.seats] == [True, False, False, False]
    assert [(s.kind, s.level, s.name) for s in new.seats] == [
        (s.kind, s.level, s.name if s.kind == "bot" else None) for s in old.seats
    ]
    view = tables.seat_view(new, None)
    assert view["rematch_of"] == "old" and view["rematch"] is None
    assert [p["reserved"] for p in view["players"]] == [True, False, False, False]


def test_a_kept_seat_is_only_its_players():
    old = finished_smear()
    new = fold(tables.create("new", old.game, *tables.rematch_spec(old), seed=5, rematch_of="old"))
    with pytest.raises(SeatUnavailable, match="kept for its player"):
        tables.claim_seat(new, 0, "Eve", "e" * 64)
    # The first open seat for anyone is the one nobody kept.
    assert tables.claim_seat(new, None, "Eve", "e" * 64)[0]["data"]["seat"] == 2
    claimed = add(new, tables.claim_seat(new, 0, "Ann", "b" * 64, reserved_ok=True))
    assert claimed.seats[0].name == "Ann" and not tables.seat_view(claimed, None)["players"][0]["reserved"]
    # An operator's reset opens a kept seat to anyone.
    reopened = add(new, tables.reset_seat(new, 0))
    assert not reopened.seats[0].reserved
    assert tables.claim_seat(reopened, 0, "Eve", "e" * 64)[0]["data"]["seat"] == 0


def test_the_offer_follows_the_end_once():
    running = fold(tables.create("g", "smear", {}, SEATS, seed=4))
    with pytest.raises(NotFinished):
        tables.offer_rematch(running, "r")
    old = finished_smear()
    offered = add(old, tables.offer_rematch(old, "r"))
    assert offered.rematch == "r" and offered.finished and offered.version == old.version + 1
    assert tables.seat_view(offered, 0)["rematch"] == {"game_id": "r"}
    assert tables.event_view("smear", tables.offer_rematch(old, "r")[0], None)["data"] == {"game_id": "r"}
    with pytest.raises(SeatUnavailable):
        tables.offer_rematch(offered, "s")


def test_snapshots_keep_the_links_and_older_snapshots_load_without_them():
    old = finished_smear()
    new = add(fold(tables.create("new", old.game, *tables.rematch_spec(old), seed=5, rematch_of="old")), [])
    assert tables.load(tables.dump(new)) == new
    offered = add(old, tables.offer_rematch(old, "r"))
    assert tables.load(tables.dump(offered)).rematch == "r"
    older = {k: v for k, v in tables.dump(new).items() if k not in ("rematch", "rematch_of")}
    older["seats"] = [{k: v for k, v in s.items() if k != "reserved"} for s in older["seats"]]
    loaded = tables.load(older)
    assert loaded.rematch is None and loaded.rematch_of is None and not any(s.reserved for s in loaded.seats)


def test_a_replay_before_the_first_deal_has_no_hands_and_after_it_every_hand():
    events = tables.create("g", "sixty-six", {"first_dealer": 1}, [{"kind": "bot", "level": "basic"}] * 2, seed=3)
    assert replay_step(fold(events[:1]), 40)["hands"] is None
    dealt = next(i for i, e in enumerate(events) if e["type"] == "dealt") + 1
    table = fold(events[:dealt])
    step = replay_step(table, 40)
    hands = [tables.seat_view(table, seat)["round"]["hand"] for seat in (0, 1)]
    assert step["hands"] == hands and [len(h) for h in hands] == [6, 6]
    assert step["view"]["round"]["hand"] is None  # the view stays a spectator's: the hands are beside it
    assert step["view"]["seat"] is None and step["view"]["legal_actions"] == [] and step["last_version"] == 40
