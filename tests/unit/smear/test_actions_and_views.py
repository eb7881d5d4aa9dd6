"""Action shapes, turn and rule errors, what each seat sees (views and event views), snapshots."""

from __future__ import annotations

import json

import pytest

from games.errors import ActionShapeError, NotYourTurn, RuleError
from games.smear import RULES
from tests.unit.smear.support import Match
from tests.unit.smear.test_worked_example import DECK


def worked(upto_discard=True):
    m = Match({"widow_size": 2}, first_dealer=3, deck=DECK)
    m.pass_(0), m.bid(1, 2), m.bid(2, 3), m.pass_(3)
    if upto_discard:
        m.discard(2, "8C 7D", "S")
    return m


@pytest.mark.parametrize(
    "action",
    [
        None,
        [],
        {},
        {"type": "fold"},
        {"type": "pass", "value": 2},
        {"type": "bid"},
        {"type": "bid", "value": "3"},
        {"type": "bid", "value": True},
        {"type": "bid", "value": 2.0},
        {"type": "play", "card": "1S"},
        {"type": "play", "card": "as"},
        {"type": "discard", "cards": "8C 7D", "trump": "S"},
        {"type": "discard", "cards": ["8C", "XX"], "trump": "S"},
        {"type": "discard", "cards": ["8C", "7D"], "trump": "NT"},
        {"type": "discard", "cards": ["8C", "7D"]},
    ],
)
def test_malformed_actions_are_shape_errors(action):
    m = worked(upto_discard=False)
    with pytest.raises(ActionShapeError):
        RULES.decide(m.state, 2, action)


def test_turns_and_phases():
    m = Match({"widow_size": 2}, first_dealer=3, deck=DECK)
    with pytest.raises(NotYourTurn):
        m.pass_(1)  # s0 speaks first
    with pytest.raises(NotYourTurn):
        RULES.decide(m.state, None, {"type": "pass"})
    with pytest.raises(ActionShapeError):
        RULES.decide(m.state, 0, {"type": "deal", "deck": DECK.split()})
    with pytest.raises(NotYourTurn):
        RULES.decide(m.state, None, {"type": "score_round"})
    with pytest.raises(RuleError) as err:
        m.play(0, "KS")
    assert err.value.rule == "Smear §3.5"
    with pytest.raises(RuleError):
        m.discard(0, "KS TD", "S")
    m.pass_(0), m.bid(1, 2), m.bid(2, 3), m.pass_(3)
    with pytest.raises(RuleError) as err:
        m.bid(2, 4)
    assert err.value.rule == "Smear §3.3"
    with pytest.raises(RuleError):
        m.discard(2, "8C 7D 7S", "S")  # three cards for a widow of two
    with pytest.raises(RuleError):
        m.discard(2, "8C 8C", "S")
    with pytest.raises(RuleError):
        m.discard(2, "8C KS", "S")  # not held
    with pytest.raises(NotYourTurn):
        RULES.decide(m.state, None, {"type": "deal", "deck": DECK.split()})
    fresh = RULES.new_state(RULES.normalize_options({}, 4), 4, 0)
    with pytest.raises(ActionShapeError):
        RULES.decide(fresh, None, {"type": "deal", "deck": ["AS"] * 32})


def test_no_discard_step_without_a_widow():
    m = Match(first_dealer=3, deck=DECK)
    m.pass_(0), m.pass_(1), m.bid(2, 2), m.pass_(3)
    assert m.state.phase == "play"
    with pytest.raises(RuleError):
        m.discard(2, [], "S")
    assert len(m.legal(2)) == 6  # any card may be led: its suit becomes trump
    m.play(2, "KD")
    assert m.view(0)["round"]["trump"] == "D"


def test_legal_discards_list_every_combination_in_a_stable_order():
    m = worked(upto_discard=False)
    legal = m.legal(2)
    # Hand AS 8S 7S QH 9H KD 8C 7D: no suit has more than six, so no trump may go, and one must stay.
    by_trump = {s: [a for a in legal if a["trump"] == s] for s in "SHDC"}
    assert len(by_trump["S"]) == 10 and len(by_trump["H"]) == 15 and len(by_trump["D"]) == 15
    assert len(by_trump["C"]) == 21  # C(7,2): the 8C never goes, and it stays as the one club
    assert legal[0] == {"type": "discard", "cards": ["QH", "9H"], "trump": "S"}
    assert legal == m.legal(2) and [a["trump"] for a in legal] == sorted((a["trump"] for a in legal), key="SHDC".index)
    for action in legal[:20]:
        RULES.decide(m.state, 2, action)


def test_the_widow_the_discard_and_the_named_trump_are_the_bidders_alone():
    m = worked(upto_discard=False)
    bidder = m.view(2)["round"]
    assert bidder["widow"] == ["7S", "QH"] and bidder["widow_taken"] == 2 and bidder["discard"] == []
    for seat in (0, 1, 3, None):
        rnd = m.view(seat)["round"]
        assert rnd["widow"] is None and rnd["discard"] is None and rnd["widow_taken"] == 2
        assert "7S" not in json.dumps(m.view(seat)) and "QH" not in json.dumps(m.view(seat))
    assert m.view(None)["round"]["hand"] is None and m.view(1)["round"]["hand_sizes"] == [6, 6, 8, 6]
    m.discard(2, "8C 7D", "S")
    bidder = m.view(2)["round"]
    assert (bidder["trump"], bidder["trump_public"], bidder["discard"]) == ("S", False, ["7D", "8C"])
    for seat in (0, 1, 3, None):
        rnd = m.view(seat)["round"]
        assert (rnd["trump"], rnd["trump_public"], rnd["discarded"], rnd["discard"]) == (None, False, 2, None)
        assert '"8C"' not in json.dumps(m.view(seat)) and '"7D"' not in json.dumps(m.view(seat))
    m.play(2, "AS")
    assert m.view(0)["round"]["trump"] == "S" and m.view(0)["round"]["trump_public"] is True
    assert m.view(0)["round"]["discard"] is None


def test_event_views_hide_hands_the_undealt_pile_the_widow_and_the_discard():
    m = worked()
    dealt, taken, discarded = (
        next(e for e in m.events if e["type"] == t) for t in ("dealt", "widow_taken", "discarded")
    )
    for seat in (0, 1, 3, None):
        shown = RULES.event_view(dealt, seat)["data"]
        assert "undealt" not in shown and shown["undealt_size"] == 8 and shown["hand_sizes"] == [6] * 4
        assert [h is not None for h in shown["hands"]] == [i == seat for i in range(4)]
        assert RULES.event_view(taken, seat)["data"] == {"seat": 2, "count": 2}
        assert RULES.event_view(discarded, seat)["data"] == {"seat": 2, "count": 2}
    assert RULES.event_view(taken, 2)["data"] == {"seat": 2, "cards": ["7S", "QH"]}
    assert RULES.event_view(discarded, 2)["data"] == {"seat": 2, "cards": ["7D", "8C"], "trump": "S"}
    assert RULES.event_view(dealt, 2)["data"]["hands"][2] == ["AS", "8S", "KD", "9H", "8C", "7D"]


def test_round_view_keys_and_snapshots():
    m = worked()
    m.trick("AS 9S KS QS")
    m.play(2, "7S")
    rnd = m.view(1)["round"]
    assert rnd["calls"] == [
        {"seat": 0, "value": None},
        {"seat": 1, "value": 2},
        {"seat": 2, "value": 3},
        {"seat": 3, "value": None},
    ]
    assert (rnd["bidder"], rnd["bid"], rnd["high_bid"], rnd["leader"], rnd["to_act"]) == (2, 3, 3, 2, [3])
    assert rnd["tricks"] == [
        {
            "leader": 2,
            "winner": 2,
            "game_count": 9,
            "cards": [
                {"seat": 2, "card": "AS"},
                {"seat": 3, "card": "9S"},
                {"seat": 0, "card": "KS"},
                {"seat": 1, "card": "QS"},
            ],
        }
    ]
    assert rnd["trick"] == [{"seat": 2, "card": "7S"}] and rnd["trick_game_counts"] == [9, 0]
    assert rnd["undealt_size"] == 6 and rnd["dealer"] == 3 and rnd["phase"] == "play"
    assert m.view(1)["standing"] == [{"seats": [0, 2], "score": 0}, {"seats": [1, 3], "score": 0}]
    assert m.view(1)["winner"] is None and m.view(1)["last_result"] is None
    dumped = json.loads(json.dumps(RULES.dump_state(m.state)))
    assert RULES.load_state(dumped) == m.state
    for t in ["JS 8H TS", "AH JD JH 8S", "9H TH AC 9D", "KC TC QC QH", "9C TD AD KD"]:
        for card in t.split():
            m.play(m.state.round.to_play, card)
    m.score()
    assert RULES.load_state(json.loads(json.dumps(RULES.dump_state(m.state)))) == m.state
    assert RULES.pending_system_action(m.state) == {"type": "deal"}
    assert m.view(0)["last_result"]["scores"] == [-3, 2]
