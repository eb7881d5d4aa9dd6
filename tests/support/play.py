"""Matches played quickly through the use cases (app/matches.py), without rq or HTTP: for the tests of the
projections (ratings, histories, leaderboards), which need many finished matches of every kind.

A `Recorder` stands in for the job queue (the tests run the owed work themselves, in order); `play`
drives one match to its end: the system's steps and the bots' moves as the workers would make them,
the humans' moves chosen at random among their legal actions, and, for the seats named in `time_out`,
the turn timer running out (the stand-in bot moves, and takes the seat over) instead of a human move.
"""

from __future__ import annotations

import random

from app.matches import Matches
from games import table as tables

# Fast matches of every game and number of players: one point, one table, one game point to win.
KINDS = [
    ("sixty-six", {"match_target": 1}, 2),
    ("sixty-six", {"match_target": 1}, 3),
    ("sixty-six", {"match_target": 1, "variant": "4p"}, 4),
    ("fifty-six", {"starting_tables": 1}, 4),
    ("fifty-six", {"starting_tables": 1}, 6),
    ("smear", {"match_target": 1}, 4),
]


class Recorder:
    """The JobQueue port, remembering nothing: `play` does the owed work itself."""

    def enqueue(self, jobs) -> int:
        return len(jobs)

    def repair(self, jobs) -> int:
        return 0

    def depths(self) -> dict[str, int]:
        return {}


def start(
    matches: Matches,
    game: str,
    options: dict,
    seats: list[dict],
    players: list,
    rng: random.Random,
    timeout: bool = False,
) -> tuple[str, dict[int, str]]:
    """A match with these seats ({"kind": "human"} or a bot), its human seats claimed in order by
    `players` (a player id, or None for a guest): the game id and each human seat's token."""
    options = {**options, "first_dealer": 0, **({"turn_timeout_s": 60, "takeover_after": 1} if timeout else {})}
    table = matches.create_match(game, options, seats, seed=rng.randrange(2**31))
    tokens = {}
    for player in players:
        _, seat, token = matches.claim_seat(table.game_id, None, f"name-{player or 'guest'}", player)
        tokens[seat] = token
    return table.game_id, tokens


def play(
    matches: Matches,
    game_id: str,
    rng: random.Random,
    time_out: frozenset[int] = frozenset(),
    stop_after: int | None = None,
) -> tables.Table:
    """Plays the match on to its end (or for `stop_after` steps): returns the table."""
    steps = 0
    while True:
        table = matches.table(game_id)
        if table.status != "active" or (stop_after is not None and steps >= stop_after):
            return table
        # A human's turn is owed work only while a turn timer runs: the human acts here.
        work = tables.owed_work(table) or [("human", s) for s in table.rules.to_act(table.state)]
        steps += 1
        kind, seat = work[0]
        if kind == "advance":
            matches.advance(game_id, table.version)
        elif kind == "bot":
            matches.bot_turn(game_id, table.version, seat)
        elif seat in time_out:
            matches.turn_timeout(game_id, table.version, seat)
        else:
            view = tables.seat_view(table, seat)
            matches.act(game_id, rng.choice(view["legal_actions"]), lambda t, s=seat: s)
