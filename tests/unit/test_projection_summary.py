"""app/projections.py without Redis: who a seat's participant is, what share of it a stand-in played,
and which matches rate whom (docs/ratings.md §7)."""

from __future__ import annotations

import pytest

from app.projections import rate, summarize
from events.codec import StoredEvent

P, Q, R = "aaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbb", "cccccccccccccccc"


class Log:
    def __init__(self, seats: list[dict], game: str = "sixty-six"):
        self.events: list[StoredEvent] = []
        self.add(
            "match_created",
            None,
            {
                "game_id": "g",
                "game": game,
                "options": {},
                "seats": seats,
                "first_dealer": 0,
                "turn_timeout_s": 30,
                "takeover_after": 2,
            },
        )

    def add(self, kind: str, actor, data: dict | None = None) -> Log:
        self.events.append(StoredEvent(len(self.events) + 1, kind, actor, data or {}, "2026-12-01T10:00:00.000Z"))
        return self

    def claim(self, seat: int, player: str | None, name: str = "n") -> Log:
        data = {"seat": seat, "name": name, "token_hash": "0" * 64}
        return self.add("seat_claimed", seat, {**data, "player_id": player} if player else data)

    def moves(self, seat: int, n: int) -> Log:
        for _ in range(n):
            self.add("played", seat, {"seat": seat, "card": "AS"})
        return self

    def end(self, winner: list[int], standing: list[dict]) -> Log:
        return self.add("match_ended", None, {"winner": winner, "standing": standing})


HUMANS_2 = [{"kind": "human"}, {"kind": "human"}]
ONE_EACH = [{"seats": [0], "score": 7}, {"seats": [1], "score": 3}]


def test_after_a_reset_the_seat_is_the_player_who_made_most_of_its_moves():
    log = Log(HUMANS_2).claim(0, P).claim(1, Q).moves(0, 2).moves(1, 2)
    log.add("seat_reset", None, {"seat": 0}).moves(0, 1)  # the stand-in, while the seat is open
    log.claim(0, R, "Ro").moves(0, 4).moves(1, 4).end([0], ONE_EACH)
    record = summarize("g", log.events)
    assert record["participants"] == [R, Q]
    assert record["players"][0]["taken_over_share"] == pytest.approx(3 / 7) and record["players"][0]["name"] == "Ro"
    assert record["players"][0]["player_id"] == R and record["status"] == "finished"


def test_a_timed_out_move_is_the_stand_ins_and_a_taken_over_seat_is_not_rated():
    log = Log(HUMANS_2).claim(0, P).claim(1, Q).moves(0, 1)
    for _ in range(2):  # two timeouts: the bot keeps the seat
        log.moves(0, 1).add("turn_timed_out", None, {"seat": 0, "consecutive": 1})
    log.add("seat_taken_over", None, {"seat": 0}).moves(0, 3).moves(1, 6).end([1], ONE_EACH)
    record = summarize("g", log.events)
    assert record["participants"] == [P, Q] and record["players"][0]["taken_over_share"] == pytest.approx(5 / 6)
    assert rate(record, {}) == {}  # a two-sided match: nobody rated


def test_a_seat_left_open_is_a_stand_ins_and_the_others_are_rated_among_themselves():
    three = [{"kind": "human"}] * 3
    log = Log(three).claim(0, P).claim(1, Q).claim(2, R).moves(0, 1).moves(1, 1).moves(2, 1)
    log.add("seat_reset", None, {"seat": 2}).moves(2, 5).moves(0, 5).moves(1, 5)
    standing = [{"seats": [0], "score": 7}, {"seats": [1], "score": 4}, {"seats": [2], "score": 2}]
    record = summarize("g", log.add("match_ended", None, {"winner": [0], "standing": standing}).events)
    assert record["participants"][2] == R and record["players"][2]["taken_over_share"] == pytest.approx(5 / 6)
    changes = rate(record, {})
    assert sorted(changes) == [P, Q]  # one full game between the two others
    assert changes[P]["after"][0] > 1500 > changes[Q]["after"][0]


def test_guests_play_as_newcomers_are_not_kept_and_rate_nobody_alone():
    bot_and_guest = [{"kind": "bot", "level": "basic", "name": "Bot 0 (basic)"}, {"kind": "human"}]
    record = summarize("g", Log(bot_and_guest).claim(1, None, "Eve").moves(0, 3).moves(1, 3).end([1], ONE_EACH).events)
    assert record["participants"][0] == "bot:basic" and record["participants"][1].startswith("guest:g:1:")
    assert record["players"][1] == {
        "seat": 1,
        "kind": "human",
        "level": None,
        "name": "Eve",
        "player_id": None,
        "team": None,
        "taken_over_share": 0.0,
    }
    assert rate(record, {}) == {}  # a bot and a guest: nobody rated
    versus = summarize("g", Log(HUMANS_2).claim(0, P).claim(1, None).moves(0, 3).moves(1, 3).end([0], ONE_EACH).events)
    assert list(rate(versus, {})) == [P]  # the guest's new rating is not kept


def test_an_abandoned_match_is_recorded_and_rates_nobody_and_nothing_after_the_end_counts():
    log = Log(HUMANS_2).claim(0, P).moves(0, 2).add("match_abandoned", None, {"idle_s": 604800})
    log.add("seat_reset", None, {"seat": 0}).add("deal_revealed", None, {"deal": 1, "deck": [], "salt": "s"})
    record = summarize("g", log.events)
    assert (record["status"], record["winner"], record["standing"]) == ("abandoned", None, None)
    assert record["participants"][0] == P and rate(record, {}) == {}
    assert summarize("g", Log(HUMANS_2).claim(0, P).events) is None  # not over: nothing to record
