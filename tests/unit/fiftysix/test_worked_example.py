"""RULES §1.13, move by move, exactly as written."""

from __future__ import annotations

from tests.unit.fiftysix.support import DECK_113, Match

TRICKS = [  # (cards in play order, winner, points) from the table in §1.13
    (("JS", "JS", "9S", "TS"), 0, 9),
    (("TS", "AS", "AS", "9S"), 3, 5),
    (("KS", "QS", "TH", "QS"), 1, 1),
    (("AC", "JC", "TC", "JC"), 2, 8),
    (("9C", "AC", "TC", "9C"), 2, 6),
    (("KC", "QH", "QC", "KC"), 3, 0),
    (("KS", "AH", "JH", "9H"), 1, 6),
    (("JD", "TD", "9D", "9D"), 1, 8),
    (("QC", "QH", "TH", "JH"), 0, 4),
    (("AD", "TD", "JD", "KD"), 2, 5),
    (("AH", "KH", "9H", "KH"), 0, 3),
    (("KD", "QD", "AD", "QD"), 2, 1),
]


def test_worked_example_113():
    m = Match(players=4, first_dealer=3, deck=DECK_113)
    assert m.hand(0) == sorted("JS TS QS JH 9H AH 9D AD KD JC TC QC".split())
    assert m.hand(1) == sorted("JS AS JH TH KH JD TD QD 9C AC KC QC".split())
    assert m.hand(2) == sorted("9S AS QS 9H AH QH JD AD TD JC 9C KC".split())
    assert m.hand(3) == sorted("9S TS KS KS TH KH QH 9D KD QD AC TC".split())

    assert m.view(0)["round"]["to_act"] == [0]
    m.bid(0, 28, "H")
    m.bid(1, 30, "NT")
    m.bid(2, 32, "H")
    m.double(3)
    m.pass_(0)
    m.pass_(1)
    events = m.redouble(2)
    assert [e["type"] for e in events] == ["called", "auction_ended"]
    rnd = m.view(1)["round"]
    assert rnd["contract"] == {
        "declarer": 2,
        "value": 32,
        "suit": "H",
        "doubled": False,
        "redoubled": True,
        "level": "redoubled",
        "all_pass": False,
    }
    assert rnd["trump"] == "H" and rnd["phase"] == "play" and rnd["to_act"] == [0]
    assert [c["call"] for c in rnd["calls"]] == ["bid", "bid", "bid", "double", "pass", "pass", "redouble"]

    for cards, winner, points in TRICKS:
        leader = m.state.round.to_play
        taken = m.trick(*cards)
        assert [p["seat"] for p in taken["cards"]] == [(leader + k) % 4 for k in range(4)]
        assert (taken["winner"], taken["points"]) == (winner, points), cards
    assert m.view(0)["round"]["card_points"] == [36, 20]  # A = {0,2}, B = {1,3}
    assert m.state.phase == "round_over"

    result = m.score()
    assert result["made"] is True and result["card_points"] == [36, 20]
    assert (result["base"], result["multiplier"], result["per_team"]) == (1, "x4", 4)
    assert result["payments"] == [{"payer": 1, "payee": 0, "owed": 4, "paid": 4}]
    assert result["tables"] == [16, 8] and result["eliminated"] == []
    assert result["next_dealer"] == 0
    assert m.view(None)["standing"] == [{"seats": [0, 2], "score": 16}, {"seats": [1, 3], "score": 8}]
    assert m.view(None)["last_result"]["tables"] == [16, 8]

    m.deal(DECK_113)  # next dealer s0: s1 bids first and leads
    rnd = m.view(None)["round"]
    assert rnd["dealer"] == 0 and rnd["to_act"] == [1] and rnd["number"] == 2
    assert m.view(None)["last_result"]["round"] == 1  # stays until the next scoring
