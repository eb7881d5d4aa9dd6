"""Every option of RULES §1.10, and option normalisation."""

from __future__ import annotations

import pytest

from games.errors import OptionError, RuleError
from games.fiftysix import RULES
from games.fiftysix.state import Contract
from tests.unit.fiftysix.support import Match, deck_for
from tests.unit.fiftysix.test_edge_cases import scored


def test_defaults_are_filled_in_and_players_comes_from_the_seats():
    assert RULES.normalize_options({}, 6) == {
        "players": 6,
        "team_format": "pairs",
        "starting_tables": 12,
        "double_scoring": "multiply",
        "pass_is_final": False,
        "first_bidder_must_bid": False,
        "all_pass_contract": "28nt_non_dealer",
    }
    assert RULES.seat_counts(RULES.normalize_options({}, 8)) == {8}


@pytest.mark.parametrize(
    "options,n,field",
    [
        ({"players": 6}, 4, "players"),
        ({}, 5, "players"),
        ({"players": True}, 4, "players"),
        ({"teamFormat": "pairs"}, 4, "teamFormat"),
        ({"team_format": "twoSides"}, 4, "team_format"),
        ({"starting_tables": 0}, 4, "starting_tables"),
        ({"starting_tables": "12"}, 4, "starting_tables"),
        ({"double_scoring": "times"}, 4, "double_scoring"),
        ({"pass_is_final": 1}, 4, "pass_is_final"),
        ({"first_bidder_must_bid": "yes"}, 4, "first_bidder_must_bid"),
        ({"all_pass_contract": "28NT_nonDealer"}, 4, "all_pass_contract"),
        ({"first_dealer": 4}, 4, "first_dealer"),
    ],
)
def test_bad_options_name_their_field(options, n, field):
    with pytest.raises(OptionError) as err:
        RULES.normalize_options(options, n)
    assert err.value.field == field


@pytest.mark.parametrize(
    "players,teams", [(4, [[0, 2], [1, 3]]), (6, [[0, 2, 4], [1, 3, 5]]), (8, [[0, 2, 4, 6], [1, 3, 5, 7]])]
)
def test_two_sides_makes_two_alternating_teams(players, teams):
    m = Match(players=players, options={"team_format": "two_sides"}, first_dealer=0)
    assert [s["seats"] for s in m.view(None)["standing"]] == teams


def test_pairs_teams_sit_opposite():
    m = Match(players=8, first_dealer=0)
    assert [s["seats"] for s in m.view(None)["standing"]] == [[0, 4], [1, 5], [2, 6], [3, 7]]


def test_two_sides_six_players_a_made_contract_is_paid_by_the_one_other_team():
    result, events = scored(Contract(3, 40, "S", 1), [10, 46], players=6, team_format="two_sides")
    # s3 is on side 1 (odd seats); 46 >= 40, band 40-47 wins 2, doubled x2 = 4.
    assert result["made"] and result["tables"] == [8, 16]
    assert [e["type"] for e in events] == ["round_scored"]


def test_starting_tables():
    m = Match(players=6, options={"starting_tables": 3}, first_dealer=0)
    assert [s["score"] for s in m.view(None)["standing"]] == [3, 3, 3]


@pytest.mark.parametrize(
    "level,made,per_team", [(0, True, 3), (1, True, 4), (2, True, 5), (1, False, 5), (2, False, 6)]
)
def test_additive_double_scoring(level, made, per_team):
    m = Match(options={"double_scoring": "additive"})
    m.deal(deck_for(4, 3, {}))
    from tests.unit.fiftysix.test_full_deals import force_score

    points = [50, 6] if made else [40, 16]
    _, events = force_score(m.state, Contract(0, 48, "S", level), points)
    result = events[0]["data"]
    assert (result["made"], result["per_team"]) == (made, per_team)
    assert result["multiplier"] == f"+{level}"


def test_pass_is_final_skips_a_passed_player_and_ends_on_the_last_bidder():
    m = Match(options={"pass_is_final": True}, deck=deck_for(4, 3, {}))
    m.pass_(0)
    m.bid(1, 28, "S")
    m.pass_(2)
    events = m.pass_(3)  # s0 passed before, so the turn is back with s1: over
    assert events[-1]["type"] == "auction_ended"
    plain = Match(deck=deck_for(4, 3, {}))
    plain.pass_(0)
    plain.bid(1, 28, "S")
    plain.pass_(2)
    plain.pass_(3)
    assert plain.state.phase == "auction" and plain.state.round.to_play == 0  # passing is not final
    plain.bid(0, 30, "H")


def test_pass_is_final_ends_on_the_doubler_and_lets_the_bidders_side_redouble_first():
    m = Match(options={"pass_is_final": True}, deck=deck_for(4, 3, {}))
    m.bid(0, 30, "S")
    m.double(1)
    m.pass_(2)
    m.pass_(3)
    assert m.state.round.to_play == 0
    assert {"type": "redouble"} in RULES.legal_actions(m.state, 0)
    assert m.pass_(0)[-1]["type"] == "auction_ended"  # back to the doubler s1
    assert m.state.round.contract.level == 1


def test_pass_is_final_all_pass():
    m = Match(options={"pass_is_final": True}, deck=deck_for(4, 3, {}))
    for seat in range(4):
        events = m.pass_(seat)
    assert events[-1]["data"]["contract"]["all_pass"] is True


def test_first_bidder_must_bid_only_for_the_opening_call():
    m = Match(options={"first_bidder_must_bid": True}, deck=deck_for(4, 3, {}))
    with pytest.raises(RuleError) as err:
        m.pass_(0)
    assert err.value.rule == "56 §1.10"
    assert {"type": "pass"} not in RULES.legal_actions(m.state, 0)
    m.bid(0, 28, "C")
    m.pass_(1)
    assert {"type": "pass"} in RULES.legal_actions(m.state, 2)


def test_all_pass_redeal_same_dealer_and_a_new_deal():
    m = Match(options={"all_pass_contract": "redeal"}, deck=deck_for(4, 3, {}))
    for seat in range(4):
        events = m.pass_(seat)
    assert events[-1] == {"type": "thrown_in", "actor": None, "data": {"dealer": 3}}
    assert RULES.pending_system_action(m.state) == {"type": "deal"}
    assert m.state.tables == (12, 12) and m.state.last_result is None
    m.deal(deck_for(4, 3, {}))
    assert m.state.round.number == 2 and m.state.round.dealer == 3 and m.state.round.to_play == 0
