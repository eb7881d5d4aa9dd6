"""GET /v1/games/{id}/hint: the expert's suggestion for the seat's current decision.

The hint is computed by games.bots from exactly the seat's view, like a bot's move, so it can say
nothing the seat may not know. Its seed names the game, version and seat, never the match's secret.
"""

from __future__ import annotations

import time

from flask_smorest import Blueprint

from games import bots
from games import table as tables
from service import cooperative
from service.http import bearer_token, caller, json_response, matches, problems
from service.problems import Problem
from service.schemas import ref

blp = Blueprint("hints", __name__, url_prefix="/v1/games", description="Hints for a seat's decision")

HINT_SECONDS = 0.3  # the route, not the pure bot, holds the clock


def _search(view: dict, seed: str):
    """The expert's search, bounded in time. Up to HINT_SECONDS of CPU: it runs off the event loop
    (service/cooperative.py), which meanwhile serves every other connection."""
    deadline = time.monotonic() + HINT_SECONDS
    return bots.decide(view, "expert", seed=seed, stop=lambda: time.monotonic() > deadline)


@blp.route("/<game_id>/hint", methods=["GET"])
@blp.doc(operationId="getHint", security=[{"seat": []}])
@blp.response(200, ref("Hint"), description="The suggestion, and the value of every legal action")
@problems(blp, "unauthorized", "forbidden", "unknown-game", "not-your-turn", "too-many-requests")
def get_hint(game_id):
    """The expert's suggestion for the seat's current decision

    With the expert's estimate for each legal action (higher is better; what the number means in
    each game is in `values[].value`). Within 0.3 s. 409 `not-your-turn` when the game does not wait
    for this seat."""
    table = matches().table(game_id)
    who = caller(table, bearer_token(), required=True)
    if who.seat is None:
        raise Problem(403, "forbidden", "hints are for seats: use the seat's token")
    view = tables.seat_view(table, who.seat)
    if not view["legal_actions"]:
        raise Problem(409, "not-your-turn", "the game does not wait for this seat now", current_version=table.version)
    action, values = cooperative.offload(_search, view, f"hint:{game_id}:{table.version}:{who.seat}")
    # An action the expert proved dominated (and never plays) has no value of its own: null.
    searched = values or {}
    rows = [
        {"action": a, "value": None if (v := searched.get(bots.action_key(a))) is None else round(v, 3)}
        for a in view["legal_actions"]
    ]
    return json_response(
        {
            "game": table.game,
            "version": table.version,
            "seat": who.seat,
            "level": "expert",
            "suggestion": action,
            "searched": values is not None,
            "values": rows,
        }
    )
