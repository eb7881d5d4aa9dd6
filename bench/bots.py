"""All-bot `basic` matches through the running stack: what one rq worker gets done per minute, per game."""

from __future__ import annotations

import itertools
import threading
import time
from dataclasses import dataclass

from bench import load
from bench.stack import Stack

# (label, game, options, seats)
GAMES = [
    ("sixty-six 2p24", "sixty-six", {"variant": "2p24"}, 2),
    ("fifty-six 8p", "fifty-six", {}, 8),
    ("smear 4p", "smear", {}, 4),
]


@dataclass
class BotStats:
    label: str
    seconds: float
    matches: int  # matches played at a time
    finished: int
    events: int  # events appended by the worker (all matches, finished or not)

    @property
    def events_per_s(self) -> float:
        return self.events / self.seconds

    def per_minute(self, events_per_match: float) -> float:
        """Finished matches per minute: counted if some finished, else from the worker's event rate."""
        if self.finished:
            return self.finished * 60 / self.seconds
        return self.events_per_s * 60 / events_per_match


def run(stack: Stack, label: str, game: str, options: dict, seats: int, matches: int, budget_s: float) -> BotStats:
    """`matches` all-bot matches at a time for `budget_s`: each one finished is followed by a new one, so
    the worker always has that many to play (one job plays a bot's moves until a human's turn, which
    an all-bot match never has, up to its bound of appends; a few matches at once would otherwise
    finish in a fraction of a second, too short to be a figure)."""
    body = {"game": game, "options": options, "seats": [{"kind": "bot", "level": "basic"}] * seats}
    started = time.perf_counter()
    end = started + budget_s
    finished: list[int] = []  # events of each finished match
    unfinished: list[int] = []  # events of the matches the time ran out on

    created = itertools.count()

    def play_matches() -> None:
        conn = load.Connection(stack.base_url)
        try:
            while time.perf_counter() < end:
                game_id = _create(stack, body, next(created))
                version, over = _watch(conn, game_id, end)
                (finished if over else unfinished).append(version)
        finally:
            conn.close()

    threads = [threading.Thread(target=play_matches) for _ in range(matches)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(budget_s + 2 * load.REQUEST_TIMEOUT_S)
    return BotStats(label, budget_s, matches, len(finished), sum(finished) + sum(unfinished))


def _create(stack: Stack, body: dict, index: int) -> str:
    """Creates the match from a loopback address of its own, as if each were opened by another person:
    the bench runs with the deployed limits on, and one address may create 30 matches a minute."""
    conn = load.Connection(stack.base_url, source=load.client_address(index))
    try:
        return conn.json("POST", "/v1/games", body)["game_id"]
    finally:
        conn.close()


def _watch(conn: load.Connection, game_id: str, end: float) -> tuple[int, bool]:
    """Long-polls the match as a spectator until it is finished or the time is up: (its version, finished)."""
    version = 0
    while time.perf_counter() < end:
        status, raw = conn.request("GET", f"/v1/games/{game_id}?wait=2", headers={"If-None-Match": f'"{version}"'})
        if status == 200:
            view = load.orjson.loads(raw)
            version = view["version"]
            if view["status"] == "finished":
                return version, True
    return version, False
