"""Examples for the OpenAPI document: a Sixty-Six view, worked out by the pure engine from a fixed seed
(the same every time), so the example always has the shape the code gives a view."""
from __future__ import annotations

from games import table as tables


def _view() -> dict:
    events = tables.create("5d1c0e7f9a2b4c3d", "sixty-six", {"first_dealer": 1},
                           [{"kind": "human"}, {"kind": "bot", "level": "basic"}], seed=7)
    table = None
    for event in events:
        table = tables.evolve(table, event)
    for event in tables.claim_seat(table, 0, "Ana", "0" * 64):
        table = tables.evolve(table, event)
    return tables.seat_view(table, 0)


VIEW = _view()
