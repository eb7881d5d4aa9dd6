"""Fifty-Six inside the generic table: a thrown-in deal takes the next deck, the view's fixed fields."""

from __future__ import annotations

from games import table as tables
from games.fiftysix.options import pack_for
from tests.unit.fiftysix.support import DECK_113


def apply(table, events):
    for event in events:
        table = tables.evolve(table, event)
    return table


def test_a_thrown_in_deal_takes_the_next_deck_order():
    second = list(reversed(DECK_113))
    events = tables.create(
        "g1",
        "fifty-six",
        {"all_pass_contract": "redeal", "first_dealer": 3},
        [{"kind": "bot", "level": "basic"}] * 4,
        seed=7,
        decks=[DECK_113, second],
    )
    table = apply(None, events)
    assert table.state.round.hands[0][:4] == tuple(DECK_113[:4])
    for seat in range(4):
        table = apply(table, tables.act(table, seat, {"type": "pass"}))
    table = apply(table, tables.system_step(table))
    assert table.deals == 2 and table.state.round.dealer == 3
    assert table.state.round.hands[0][:4] == tuple(second[:4])


def test_seat_view_has_the_fixed_fields_and_teams():
    events = tables.create("g2", "fifty-six", {"first_dealer": 5}, [{"kind": "bot", "level": "basic"}] * 6, seed=1)
    table = apply(None, events)
    view = tables.seat_view(table, 0)
    assert view["standing"] == [
        {"seats": [0, 3], "score": 12},
        {"seats": [1, 4], "score": 12},
        {"seats": [2, 5], "score": 12},
    ]
    assert [p["team"] for p in view["players"]] == [0, 1, 2, 0, 1, 2]
    assert view["to_act"] == [0] and view["legal_actions"][0] == {"type": "pass"}
    assert sorted(tables.next_deck(table)) == sorted(pack_for(6))
