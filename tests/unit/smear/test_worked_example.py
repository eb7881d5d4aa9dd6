"""RULES §3.12, move by move, exactly as written."""

from __future__ import annotations

import pytest

from games.errors import RuleError
from tests.unit.smear.support import Match

DECK = "KS TD AC QS TS AD AS 8S KD JS 9S AH TC 8H JD QC JH 9D 9H 8C 7D TH KC 9C 7S QH KH 7H QD 8D JC 7C"


def test_worked_example():
    m = Match({"widow_size": 2}, first_dealer=3, deck=DECK)
    assert m.hand(0) == sorted("KS TD AC TC 8H JD".split())
    assert m.hand(1) == sorted("QS TS AD QC JH 9D".split())
    assert m.hand(2) == sorted("AS 8S KD 9H 8C 7D".split())
    assert m.hand(3) == sorted("JS 9S AH TH KC 9C".split())
    assert m.state.round.undealt == tuple("7S QH KH 7H QD 8D JC 7C".split())
    assert m.view(0)["round"]["to_act"] == [0]

    m.pass_(0)
    m.bid(1, 2)
    m.bid(2, 3)
    events = m.pass_(3)
    assert [e["type"] for e in events] == ["passed", "auction_won", "widow_taken"]
    assert events[1]["data"] == {"bidder": 2, "bid": 3}
    assert events[2]["data"] == {"seat": 2, "cards": ["7S", "QH"]}
    assert m.hand(2) == sorted("AS 8S KD 9H 8C 7D 7S QH".split())

    m.discard(2, "8C 7D", "S")
    assert m.hand(2) == sorted("AS 8S 7S KD 9H QH".split())
    assert m.state.round.undealt == tuple("KH 7H QD 8D JC 7C".split())  # out of play: Game value 6
    assert m.view(2)["round"]["trump"] == "S" and m.view(1)["round"]["trump"] is None

    # Game count per trick: 9, 11, 6, 14, 17, 17 (74 in play; discards 0, out of play 6: 80).
    assert m.trick("AS 9S KS QS") == {
        "winner": 2,
        "game_count": 9,
        "cards": [
            {"seat": 2, "card": "AS"},
            {"seat": 3, "card": "9S"},
            {"seat": 0, "card": "KS"},
            {"seat": 1, "card": "QS"},
        ],
    }
    assert m.view(1)["round"]["trump"] == "S"
    assert (m.trick("7S JS 8H TS")["winner"], m.trick("AH JD JH 8S")["winner"]) == (3, 2)
    assert m.trick("9H TH AC 9D")["winner"] == 3
    assert m.trick("KC TC QC QH")["winner"] == 3
    with pytest.raises(RuleError):
        m.play(3, "TD")  # seat 3 does not hold TD
    last = m.trick("9C TD AD KD")
    assert last["winner"] == 3
    assert m.view(0)["round"]["trick_game_counts"] == [15, 59]

    (scored,) = m.score()
    data = scored["data"]
    points = {p["point"]: (p["team"], p["seat"], p["card"]) for p in data["points"]}
    assert points == {"high": (0, 2, "AS"), "low": (0, 2, "7S"), "jack": (1, 3, "JS"), "game": (1, None, None)}
    assert data["game_counts"] == [15, 59]
    assert data["points_won"] == [2, 2] and data["made"] is False
    assert data["deltas"] == [-3, 2] and data["scores"] == [-3, 2]
    assert data["standing"] == [{"seats": [0, 2], "score": -3}, {"seats": [1, 3], "score": 2}]
    assert data["next_dealer"] == 0

    m.deal(DECK)
    assert m.state.round.dealer == 0 and m.view(1)["round"]["to_act"] == [1]
    assert m.view(1)["last_result"]["scores"] == [-3, 2]
