"""All-bot `basic` matches through the running stack: what one rq worker gets done per minute, per game."""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass

from bench import load
from bench.stack import Stack

# (label, game, options, seats)
GAMES = [("sixty-six 2p24", "sixty-six", {"variant": "2p24"}, 2),
         ("fifty-six 8p", "fifty-six", {}, 8),
         ("smear 4p", "smear", {}, 4)]


@dataclass
class BotStats:
    label: str
    seconds: float
    matches: int            # matches started at once
    finished: int
    events: int             # events appended by the worker (all matches, finished or not)

    @property
    def events_per_s(self) -> float:
        return self.events / self.seconds

    def per_minute(self, events_per_match: float) -> float:
        """Finished matches per minute: counted if some finished, else from the worker's event rate."""
        if self.finished:
            return self.finished * 60 / self.seconds
        return self.events_per_s * 60 / events_per_match


def run(stack: Stack, label: str, game: str, options: dict, seats: int, matches: int, budget_s: float) -> BotStats:
    """Starts `matches` all-bot matches at once and lets the worker play them for up to `budget_s`."""
    conn = load.Connection(stack.base_url)
    body = {"game": game, "options": options, "seats": [{"kind": "bot", "level": "basic"}] * seats}
    ids = [conn.json("POST", "/v1/games", body)["game_id"] for _ in range(matches)]
    conn.close()
    started = time.perf_counter()
    end = started + budget_s
    finished_at: dict[str, float] = {}
    versions: dict[str, int] = {}

    def watch(game_id: str) -> None:
        watcher = load.Connection(stack.base_url)
        try:
            version = 0
            while time.perf_counter() < end:
                status, raw = watcher.request("GET", f"/v1/games/{game_id}?wait=2",
                                              headers={"If-None-Match": f'"{version}"'})
                if status == 200:
                    view = load.orjson.loads(raw)
                    version = versions[game_id] = view["version"]
                    if view["status"] == "finished":
                        finished_at[game_id] = time.perf_counter()
                        return
        finally:
            watcher.close()

    threads = [threading.Thread(target=watch, args=(game_id,)) for game_id in ids]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(budget_s + 2 * load.REQUEST_TIMEOUT_S)
    done = max(finished_at.values()) if len(finished_at) == matches else time.perf_counter()
    return BotStats(label, min(done, end) - started if finished_at else budget_s, matches, len(finished_at),
                    sum(versions.values()))
