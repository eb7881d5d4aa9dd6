"""Action shapes, turn and rule errors, conventions, views, event views and snapshots."""

from __future__ import annotations

import json

import pytest

from games.errors import ActionShapeError, NotYourTurn, RuleError
from games.fiftysix import RULES
from games.fiftysix.rules import CONVENTIONS
from tests.unit.fiftysix.support import DECK_113, Match


@pytest.mark.parametrize(
    "action",
    [
        {"type": "bid", "value": 30},
        {"type": "bid", "value": 30, "suit": "X"},
        {"type": "bid", "value": "30", "suit": "H"},
        {"type": "bid", "value": True, "suit": "H"},
        {"type": "bid", "value": 30, "suit": "H", "convention": "telepathy"},
        {"type": "pass", "convention": "number_first"},
        {"type": "double", "value": 30},
        {"type": "play", "card": "1S"},
        {"type": "play"},
        {"type": "shout"},
        "pass",
    ],
)
def test_malformed_actions_are_shape_errors(action):
    m = Match(deck=DECK_113)
    with pytest.raises(ActionShapeError):
        RULES.decide(m.state, 0, action)


def test_turns_and_system_actions():
    m = Match(deck=DECK_113)
    with pytest.raises(NotYourTurn):
        m.pass_(1)
    with pytest.raises(NotYourTurn):
        RULES.decide(m.state, None, {"type": "score_round"})
    with pytest.raises(ActionShapeError):
        RULES.decide(m.state, 0, {"type": "deal", "deck": DECK_113})
    with pytest.raises(RuleError):
        m.play(0, "JS")  # the auction is not over
    with pytest.raises(ActionShapeError):
        RULES.decide(RULES.new_state(m.options, 4, 3), None, {"type": "deal", "deck": DECK_113[:-1]})


def test_a_convention_is_public_and_legal_actions_list_bids_without_one():
    m = Match(deck=DECK_113)
    legal = RULES.legal_actions(m.state, 0)
    assert legal[0] == {"type": "pass"} and legal[1] == {"type": "bid", "value": 28, "suit": "S"}
    assert all("convention" not in a for a in legal) and len(legal) == 1 + 29 * 5
    assert {"type": "double"} not in legal and {"type": "redouble"} not in legal
    events = m.bid(0, 30, "D", convention="number_first")
    assert events[0]["data"] == {"seat": 0, "call": "bid", "value": 30, "suit": "D", "convention": "number_first"}
    assert RULES.event_view(events[0], 2) == events[0]
    assert m.view(3)["round"]["calls"] == [events[0]["data"]]
    m.bid(1, 32, "S", convention="plus_two")
    assert m.view(None)["round"]["calls"][1]["convention"] == "plus_two"
    assert set(CONVENTIONS) >= {"number_first", "suit_first", "plus_two", "no"}


def test_views_show_only_the_own_hand():
    m = Match(deck=DECK_113)
    for seat in range(4):
        rnd = m.view(seat)["round"]
        assert sorted(rnd["hand"]) == m.hand(seat) and rnd["hand_sizes"] == [12] * 4
        text = json.dumps(m.view(seat))
        for other in range(4):
            if other != seat:
                assert not set(m.hand(other)) - set(m.hand(seat)) & {c for c in DECK_113 if f'"{c}"' in text}
    assert m.view(None)["round"]["hand"] is None
    assert m.view(None)["round"]["contract"] is None and m.view(None)["round"]["trump"] is None


def test_dealt_event_view_hides_other_hands():
    m = Match(deck=DECK_113)
    dealt = m.events[0]
    for seat in (0, 1, 2, 3, None):
        data = RULES.event_view(dealt, seat)["data"]
        assert data["hand_sizes"] == [12] * 4
        assert [h is not None for h in data["hands"]] == [s == seat for s in range(4)]
        assert "deck" not in data


def test_round_view_keys_and_snapshot_round_trip():
    m = Match(deck=DECK_113)
    m.bid(0, 28, "H")
    for seat in (1, 2, 3):
        m.pass_(seat)
    m.play(0, "JS")
    view = m.view(0)
    assert set(view) == {"standing", "winner", "round", "last_result"}
    assert set(view["round"]) == {
        "number",
        "dealer",
        "phase",
        "to_act",
        "active_seats",
        "hand",
        "hand_sizes",
        "calls",
        "high_bid",
        "doubling",
        "contract",
        "trump",
        "leader",
        "trick",
        "tricks",
        "card_points",
        "tricks_won",
    }
    assert view["round"]["trick"] == [{"seat": 0, "card": "JS"}] and view["round"]["trump"] == "H"
    dumped = json.loads(json.dumps(RULES.dump_state(m.state)))
    assert RULES.load_state(dumped) == m.state
    assert RULES.is_round_boundary(m.events[0]) and not RULES.is_round_boundary(m.events[-1])


def test_a_hand_may_hold_both_copies_and_plays_them_one_at_a_time():
    m = Match(deck=DECK_113)
    assert m.hand(3).count("KS") == 2
    assert [a["card"] for a in RULES.legal_actions(m.state, 3) if a["type"] == "play"] == []
    m.bid(0, 28, "NT")
    for seat in (1, 2, 3):
        m.pass_(seat)
    m.trick("JS", "JS", "9S", "TS")
    m.trick("TS", "AS", "AS", "9S")
    m.play(3, "KS")
    assert m.hand(3).count("KS") == 1
    assert m.view(3)["round"]["hand_sizes"][3] == 9
