"""A finished match as it stood at any version, with nothing hidden: what `GET /v1/games/{id}/replay`
shows. Pure, like the table.

Once a match is over nothing in it needs hiding any more, except what no seat ever saw (the stock's
order, the seed). So the replay is the spectator's view of the table folded up to that version, with
what the seats saw that a spectator does not put back in: each seat's hand (`hands`, by seat), and in
the round every field that is null for a spectator but known to a seat (Smear's widow, discard and the
trump the bidder named before the lead). The fields are taken from the seats' own views, so the replay
shows exactly what the players saw, no more: a game's view stays the one place that says what a seat knows.
"""

from __future__ import annotations

from typing import Any, TypedDict

from games.engine import View
from games.events import Event
from games.table import Table, evolve, seat_view


class ReplayStep(TypedDict):
    game_id: str
    version: int
    last_version: int  # the match's last version: the replay's versions are 1 to this
    view: View  # the spectator's view, with the seats' hidden round fields filled in
    hands: list[list[str]] | None  # each seat's hand, by seat; None before the first deal


def fold(events: list[Event]) -> Table:
    """The table after `events` (the log from `match_created` on)."""
    table: Table | None = None
    for event in events:
        table = evolve(table, event)
    assert table is not None, "a replay folds at least match_created"
    return table


def replay_step(table: Table, last_version: int) -> ReplayStep:
    """The table as it stands, every hand shown (`table` is the fold of a finished match's log up to
    some version; `last_version` the match's last)."""
    view = seat_view(table, None)
    seats = [table.rules.view(table.state, seat) for seat in range(len(table.seats))]
    shown: View = view.get("round") or {}
    hands: list[list[str]] | None = None
    if view.get("round") is not None:
        rounds: list[dict[str, Any]] = [s["round"] for s in seats]
        hands = [list(r.get("hand") or []) for r in rounds]
        shown = {
            **shown,
            **{key: _seen(key, rounds) for key, value in shown.items() if value is None and key != "hand"},
        }
        view = {**view, "round": shown}
    return {
        "game_id": table.game_id,
        "version": table.version,
        "last_version": last_version,
        "view": view,
        "hands": hands,
    }


def _seen(key: str, rounds: list[dict[str, Any]]) -> Any:
    """The value of a round field a spectator sees as null: the first seat's that knows it, else null."""
    return next((r[key] for r in rounds if r.get(key) is not None), None)
