"""RULES §2.15 and §2.16, move by move, exactly as written."""

from __future__ import annotations

import pytest

from games.errors import RuleError
from tests.unit.sixtysix.support import Match

DECK_A = "AS QH 9H 9S JS KD TS JD AC TH QC 9D KH 9C AH TC JH KS QS AD TD QD KC JC".split()
DECK_B = "KC QC AC AS JC KD TC TS JS QD 9H TH 9C KS QS 9S AH KH QH JH AD TD JD 9D".split()


def test_worked_example_a():
    m = Match(deck=DECK_A)
    assert m.hand(1) == sorted("AS QH 9H TS JD AC".split())
    assert m.hand(0) == sorted("9S JS KD TH QC 9D".split())
    rnd = m.view(1)["round"]
    assert (rnd["trump"], rnd["trump_card"], rnd["stock_size"], rnd["to_act"]) == ("H", "KH", 12, [1])
    assert m.state.round.stock == tuple("9C AH TC JH KS QS AD TD QD KC JC".split())

    m.play(1, "AS")
    m.play(0, "9S")
    assert m.view(1)["round"]["card_points"] == [0, 11]
    m.draw(1)
    assert "9C" in m.hand(1) and "AH" in m.hand(0)

    m.exchange(1)
    assert "KH" in m.hand(1) and "9H" not in m.hand(1)
    assert m.view(0)["round"]["trump_card"] == "9H"
    m.meld(1, "H")
    assert m.view(0)["round"]["melds"] == [{"seat": 1, "suit": "H", "points": 40, "active": True}]
    m.play(1, "QH")
    m.play(0, "AH")
    assert m.view(0)["round"]["card_points"] == [14, 11]
    m.draw(0)
    assert "TC" in m.hand(0) and "JH" in m.hand(1)

    m.play(0, "TC")
    m.play(1, "AC")
    rnd = m.view(1)["round"]
    assert rnd["card_points"] == [14, 32] and rnd["meld_points"] == [0, 40]
    assert rnd["phase"] == "after_trick" and rnd["to_act"] == [1]
    m.declare(1)
    result = m.score()
    assert result["case"] == "A1"
    assert result["totals"] == [14, 72]
    assert result["game_points"] == [0, 2]
    assert result["next_dealer"] == 1
    assert m.view(None)["standing"] == [{"seats": [0], "score": 0}, {"seats": [1], "score": 2}]


def test_worked_example_b():
    m = Match(deck=DECK_B)
    assert m.hand(1) == sorted("KC QC AC TC TS JS".split())
    assert m.hand(0) == sorted("AS JC KD QD 9H TH".split())
    assert m.view(0)["round"]["trump"] == "C"

    events = m.meld(1, "C")
    assert events[0]["data"] == {"seat": 1, "suit": "C", "points": 40, "pending": True}
    m.close(1)
    assert m.state.round.tricks_at_close == (0, 0)
    with pytest.raises(RuleError) as err:
        m.play(1, "AC")  # the melded K or Q must be led
    assert err.value.rule == "66 §2.5"
    m.play(1, "KC")
    assert _legal_cards(m, 0) == ["JC"]  # must beat, cannot, so a lower club
    m.play(0, "JC")
    assert m.view(1)["round"]["meld_points"] == [0, 40]
    assert m.view(1)["round"]["card_points"] == [0, 6]

    m.play(1, "TS")
    assert _legal_cards(m, 0) == ["AS"]
    m.play(0, "AS")
    assert m.view(1)["round"]["card_points"] == [21, 6]

    m.play(0, "TH")
    assert _legal_cards(m, 1) == sorted(["QC", "AC", "TC"])
    m.play(1, "QC")
    m.play(1, "AC")
    assert _legal_cards(m, 0) == sorted(["KD", "QD", "9H"])
    m.play(0, "9H")
    rnd = m.view(1)["round"]
    assert rnd["card_points"][1] + rnd["meld_points"][1] == 70
    m.declare(1)
    result = m.score()
    assert (result["case"], result["game_points"], result["totals"]) == ("A1", [0, 2], [21, 70])


def _legal_cards(m, seat):
    from games.sixtysix import RULES

    return sorted(a["card"] for a in RULES.legal_actions(m.state, seat) if a["type"] == "play")
