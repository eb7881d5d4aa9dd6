"""Action shapes, turn errors, views and event views, snapshots and the system hooks."""

from __future__ import annotations

import json

import pytest

from games.errors import ActionShapeError, NotYourTurn, RuleError
from games.sixtysix import RULES
from tests.unit.sixtysix.support import Match
from tests.unit.sixtysix.test_edge_cases import DECK_A, _worked_example_a

ROUND_KEYS = {
    "number",
    "dealer",
    "phase",
    "leader",
    "to_act",
    "hand",
    "hand_sizes",
    "trump",
    "trump_card",
    "exchange_card",
    "stock_size",
    "stock_open",
    "closed",
    "closer",
    "tricks_at_close",
    "trick",
    "tricks",
    "melds",
    "turn_meld",
    "card_points",
    "meld_points",
    "tricks_won",
    "last_trick_bonus",
    "declarer",
    "target",
    "turned_card",
}


@pytest.mark.parametrize(
    "action",
    [
        None,
        "play",
        {},
        {"type": "fly"},
        {"type": "play"},
        {"type": "play", "card": "1S"},
        {"type": "play", "card": "TS", "extra": 1},
        {"type": "meld", "suit": "X"},
        {"type": "meld"},
    ],
)
def test_malformed_actions(action):
    m = Match(deck=DECK_A)
    with pytest.raises(ActionShapeError):
        RULES.decide(m.state, 1, action)


def test_system_actions_are_not_for_seats_and_decks_must_be_the_pack():
    m = Match()
    with pytest.raises(ActionShapeError):
        RULES.decide(m.state, 0, {"type": "deal", "deck": DECK_A})
    with pytest.raises(ActionShapeError):
        RULES.decide(m.state, None, {"type": "deal", "deck": DECK_A[:-1] + ["AS"]})
    with pytest.raises(NotYourTurn):
        RULES.decide(m.state, None, {"type": "score_round"})


def test_turn_errors():
    m = Match(deck=DECK_A)
    with pytest.raises(NotYourTurn):
        m.play(0, "9S")
    with pytest.raises(NotYourTurn):
        m.deal(DECK_A)
    _worked_example_a(m, winner=1)
    with pytest.raises(NotYourTurn, match="scored"):
        m.play(0, "JS")
    assert RULES.legal_actions(m.state, 0) == [] and RULES.to_act(m.state) == []


def test_rule_errors_name_the_section():
    m = Match(deck=DECK_A)
    with pytest.raises(RuleError) as err:
        m.play(1, "KH")
    assert err.value.rule == "66 §2.3" and "KH" in err.value.detail


def test_rejected_actions_change_nothing():
    m = Match(deck=DECK_A)
    before = RULES.dump_state(m.state)
    for action in ({"type": "exchange"}, {"type": "draw"}, {"type": "meld", "suit": "S"}):
        with pytest.raises(RuleError):
            RULES.decide(m.state, 1, action)
    assert RULES.dump_state(m.state) == before


def test_first_lead_legal_actions():
    m = Match(deck=DECK_A)
    legal = RULES.legal_actions(m.state, 1)
    assert {"type": "close"} in legal and {"type": "declare_out"} in legal
    assert {"type": "exchange"} not in legal and {"type": "draw"} not in legal
    assert sorted(a["card"] for a in legal if a["type"] == "play") == sorted("AS QH 9H TS JD AC".split())
    assert RULES.legal_actions(m.state, 0) == [] and RULES.legal_actions(m.state, None) == []


def test_view_shape_and_hiding():
    m = Match(deck=DECK_A)
    m.trick("AS", "9S")
    for seat in (0, 1, None):
        view = m.view(seat)
        assert set(view) == {"standing", "winner", "round", "last_result"}
        assert set(view["round"]) == ROUND_KEYS
        text = json.dumps(view)
        hidden = set(m.state.round.stock)
        for other in (0, 1):
            if other != seat:
                hidden |= set(m.state.round.hands[other])
        hidden.discard(view["round"]["exchange_card"])
        assert not any(f'"{card}"' in text for card in hidden)
    assert m.view(None)["round"]["hand"] is None
    assert m.view(0)["round"]["hand"] == ["JS", "AH", "TH", "KD", "9D", "QC"]  # by suit, high first


def test_last_result_stays_through_the_next_deal_until_replaced():
    m = Match(deck=DECK_A)
    _worked_example_a(m, winner=1)
    assert m.view(0)["last_result"] is None
    m.score()
    assert m.view(0)["last_result"]["case"] == "A1"
    assert m.view(0)["last_result"]["standing"] == [{"seats": [0], "score": 0}, {"seats": [1], "score": 2}]
    assert RULES.pending_system_action(m.state) == {"type": "deal"}
    m.deal(DECK_A)
    assert m.view(0)["last_result"]["round"] == 1 and m.view(0)["round"]["number"] == 2


def test_event_views_hide_hands_stock_and_drawn_cards():
    m = Match(deck=DECK_A)
    dealt = m.events[0]
    mine = RULES.event_view(dealt, 1)["data"]
    assert mine["hands"][1] == DECK_A[0:3] + DECK_A[6:9] and mine["hands"][0] is None
    assert mine["hand_sizes"] == [6, 6] and mine["stock_size"] == 12 and "stock" not in mine
    assert RULES.event_view(dealt, None)["data"]["hands"] == [None, None]
    m.trick("AS", "9S")
    drew = m.events[-1]
    assert RULES.event_view(drew, 1)["data"]["draws"] == [
        {"seat": 1, "card": "9C", "face_up": False},
        {"seat": 0, "card": None, "face_up": False},
    ]
    assert RULES.event_view(m.events[1], 0) == m.events[1]  # played: public


def test_system_hooks():
    m = Match()
    assert RULES.pending_system_action(m.state) == {"type": "deal"}
    assert RULES.view(m.state, 0)["round"] is None
    m.deal(DECK_A)
    assert RULES.pending_system_action(m.state) is None
    assert RULES.is_round_boundary(m.events[0])
    _worked_example_a(m, winner=1)
    assert RULES.pending_system_action(m.state) == {"type": "score_round"}
    m.score()
    assert RULES.is_round_boundary(m.events[-1]) and not RULES.is_round_boundary(m.events[1])
    assert RULES.name == "sixty-six" and RULES.engine_version == "66.2"


def test_dump_and_load_round_trip_through_json():
    m = Match(deck=DECK_A)
    _worked_example_a(m, winner=1)
    m.score()
    data = json.loads(json.dumps(RULES.dump_state(m.state)))
    assert RULES.load_state(data) == m.state
