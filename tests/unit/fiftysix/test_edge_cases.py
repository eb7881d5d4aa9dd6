"""RULES §1.12, edge cases 1-21, each with a deck (or a scored position) built for it."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.errors import RuleError
from games.fiftysix import RULES
from games.fiftysix.state import ROUND_OVER, Contract, Play, Trick
from tests.unit.fiftysix.support import Match, deck_for


def rule_error(fn, *args, section="56 §1.5"):
    with pytest.raises(RuleError) as err:
        fn(*args)
    assert err.value.rule == section, err.value
    return err.value


def contract_match(fixed, voids=None, bid=(28, "NT"), players=4, dealer=None):
    """A deal with these cards, dealer = the seat before s0; s0 bids `bid`, everyone else passes."""
    dealer = players - 1 if dealer is None else dealer
    m = Match(players=players, first_dealer=dealer, deck=deck_for(players, dealer, fixed, voids))
    m.bid(0, *bid)
    for seat in range(1, players):
        m.pass_(seat)
    assert m.state.phase == "play"
    return m


def test_01_identical_cards_no_trump_first_copy_wins():
    m = contract_match({0: ["JS"], 1: ["JS"], 2: ["QS"], 3: ["KS"]})
    assert m.trick("JS", "JS", "QS", "KS")["winner"] == 0


def test_02_identical_trumps_first_copy_wins():
    m = contract_match({0: ["QS"], 1: ["9H"], 2: ["KS"], 3: ["9H"]}, voids={1: "S", 3: "S"}, bid=(28, "H"))
    assert m.trick("QS", "9H", "KS", "9H")["winner"] == 1


def test_03_rank_order_nine_over_ace_ten_over_king():
    fixed = {0: ["AS"], 1: ["9S", "TS"], 2: ["QS", "KS"], 3: ["QS", "KS"]}
    m = contract_match(fixed, voids={0: "S"})
    assert m.trick("AS", "9S", "QS", "QS")["winner"] == 1  # 9 outranks A
    discard = next(c for c in m.state.round.hands[0] if c[1] != "S")
    assert m.trick("TS", "KS", "KS", discard)["winner"] == 1  # T outranks K


def test_04_no_trump_a_void_players_jack_cannot_win():
    m = contract_match({0: ["KS"], 1: ["JH"], 2: ["QS"], 3: ["AS"]}, voids={1: "S"})
    assert m.trick("KS", "JH", "QS", "AS")["winner"] == 3


def test_05_follow_suit_is_enforced_and_the_state_is_unchanged():
    m = contract_match({0: ["KS"], 1: ["AS", "JH"]})
    m.play(0, "KS")
    before = m.state
    rule_error(m.play, 1, "JH", section="56 §1.6")
    assert m.state == before
    legal = [a["card"] for a in RULES.legal_actions(m.state, 1)]
    assert legal and all(c[1] == "S" for c in legal)


def test_06_no_duty_to_trump():
    m = contract_match({0: ["KS"], 1: ["JH", "QD"]}, voids={1: "S"}, bid=(28, "H"))
    m.play(0, "KS")
    m.play(1, "QD")
    assert m.state.round.trick[-1].card == "QD"


def test_07_bid_increments():
    m = Match(deck=deck_for(4, 3, {}))
    rule_error(m.bid, 0, 27, "H")
    m.bid(0, 30, "S")
    rule_error(m.bid, 1, 30, "NT")
    m.bid(1, 31, "C")
    rule_error(m.bid, 2, 57, "H")
    rule_error(m.bid, 2, 27, "H")
    assert m.view(None)["round"]["high_bid"] == {"seat": 1, "value": 31, "suit": "C"}


def test_08_double_legality():
    m = Match(deck=deck_for(4, 3, {}))
    m.bid(0, 30, "S")
    m.pass_(1)
    rule_error(m.double, 2)  # partner of the bidder
    m.pass_(2)
    m.double(3)
    m.pass_(0)
    rule_error(m.double, 1)  # already doubled
    rule_error(m.redouble, 1)  # not the bid's team
    assert m.view(None)["round"]["doubling"] == "doubled"


def test_09_redouble_ends_the_auction_at_once():
    m = Match(deck=deck_for(4, 3, {}))
    m.bid(0, 30, "S")
    m.double(1)
    events = m.redouble(2)
    assert events[-1]["type"] == "auction_ended"
    contract = m.view(None)["round"]["contract"]
    assert (contract["declarer"], contract["value"], contract["suit"], contract["redoubled"]) == (0, 30, "S", True)
    assert m.state.phase == "play" and m.state.round.to_play == 0  # s3 never spoke after the redouble


def test_10_a_new_bid_cancels_the_double():
    m = Match(deck=deck_for(4, 3, {}))
    m.bid(0, 30, "S")
    m.double(1)
    m.bid(2, 32, "S")
    assert m.view(None)["round"]["doubling"] == "none"
    m.double(3)
    assert m.view(None)["round"]["doubling"] == "doubled"
    for seat in (0, 1, 2):
        m.pass_(seat)
    assert m.view(None)["round"]["contract"]["level"] == "doubled"


def test_11_all_pass_gives_28_nt_to_the_non_dealer_team():
    m = Match(deck=deck_for(4, 3, {}))
    for seat in range(4):
        events = m.pass_(seat)
    assert events[-1]["type"] == "auction_ended"
    assert m.view(None)["round"]["contract"] == {
        "declarer": 0,
        "value": 28,
        "suit": "NT",
        "doubled": False,
        "redoubled": False,
        "level": "none",
        "all_pass": True,
    }
    assert m.state.round.to_play == 0


@pytest.mark.parametrize("players", [6, 4])
def test_12_the_auction_ends_after_n_minus_one_passes(players):
    m = Match(players=players, first_dealer=players - 1, deck=deck_for(players, players - 1, {}))
    m.bid(0, 28, "D")
    for seat in range(1, players - 1):
        m.pass_(seat)
        assert m.state.phase == "auction"
    assert m.pass_(players - 1)[-1]["type"] == "auction_ended"


def scored(contract, points, tables=None, players=4, team_format="pairs", dealer=None):
    """Scores a deal whose tricks gave `points` per team; returns (round_scored data, all events)."""
    m = Match(
        players=players, options={"team_format": team_format}, first_dealer=players - 1 if dealer is None else dealer
    )
    m.deal(deck_for(players, m.state.dealer, {}))
    state = m.state
    if tables is not None:
        state = replace(state, tables=tuple(tables))
    tricks = tuple(Trick(team[0], (Play(team[0], "QS"),), team[0], p) for team, p in zip(state.teams, points))
    state = replace(state, phase=ROUND_OVER, round=replace(state.round, contract=contract, tricks=tricks, trick=()))
    events = RULES.decide(state, None, {"type": "score_round"})
    return events[0]["data"], events


def test_13_the_bid_exactly_made():
    result, _ = scored(Contract(0, 40, "H", 0), [40, 16])
    assert result["made"] and result["per_team"] == 2
    assert result["tables"] == [14, 10]


@pytest.mark.parametrize(
    "value,level,points,made,per_team",
    [
        (39, 0, 39, True, 1),
        (40, 0, 40, True, 2),
        (47, 0, 46, False, 3),
        (48, 0, 47, False, 4),
        (56, 2, 55, False, 20),
    ],
)
def test_14_band_edges(value, level, points, made, per_team):
    result, _ = scored(Contract(0, value, "S", level), [points, 56 - points])
    assert (result["made"], result["per_team"]) == (made, per_team)
    moved = per_team if made else -per_team
    assert result["tables"] == [12 + moved, 12 - moved] if per_team <= 12 else [0, 24]


def test_15_three_teams_each_other_team_is_paid():
    failed, _ = scored(Contract(0, 48, "S", 1), [40, 10, 6], tables=[20, 20, 20], players=6)
    assert failed["per_team"] == 8
    assert [(p["payer"], p["payee"], p["paid"]) for p in failed["payments"]] == [(0, 1, 8), (0, 2, 8)]
    assert failed["tables"] == [4, 28, 28]
    made, _ = scored(Contract(0, 48, "S", 1), [50, 4, 2], players=6)
    assert made["per_team"] == 6
    assert made["tables"] == [24, 6, 6]


def test_16_short_payment_eliminates_and_ends_the_match():
    result, events = scored(Contract(1, 40, "S", 0), [30, 26], tables=[21, 3])
    assert result["payments"] == [{"payer": 1, "payee": 0, "owed": 3, "paid": 3}]
    assert result["tables"] == [24, 0] and result["eliminated"] == [1]
    assert events[-1] == {
        "type": "match_ended",
        "actor": None,
        "data": {"winner": [0, 2], "standing": [{"seats": [0, 2], "score": 24}, {"seats": [1, 3], "score": 0}]},
    }


def test_17_partial_payment():
    result, events = scored(Contract(1, 40, "S", 0), [30, 26], tables=[22, 2])
    assert result["payments"] == [{"payer": 1, "payee": 0, "owed": 3, "paid": 2}]
    assert result["tables"] == [24, 0] and result["eliminated"] == [1]
    assert events[-1]["type"] == "match_ended"


def test_17b_a_failing_team_pays_in_play_order_from_the_seat_after_the_declarer():
    # 6p pairs, declarer s4 (team 1) holds 5 and owes 4 to each: s5 (team 2) first, then s0 (team 0).
    result, _ = scored(Contract(4, 40, "S", 0), [20, 20, 16], tables=[31, 5, 24], players=6)
    assert [(p["payee"], p["owed"], p["paid"]) for p in result["payments"]] == [(2, 3, 3), (0, 3, 2)]
    assert result["tables"] == [33, 0, 27]


def test_18_eight_players_use_64_cards_with_8_and_7_lowest():
    deck = RULES.deck(RULES.normalize_options({}, 8))
    assert len(deck) == 64 and {c[0] for c in deck} == set("J9ATKQ87")
    discards = ["KH", "QH", "8H", "7D"]
    fixed = {0: ["8S"], 1: ["7S"], 2: ["QS"], 3: ["8S"], **{4 + i: [c] for i, c in enumerate(discards)}}
    m = contract_match(fixed, voids={s: "S" for s in range(4, 8)}, players=8)
    assert all(len(h) == 8 for h in m.state.round.hands)
    taken = m.trick("8S", "7S", "QS", "8S", *discards)
    assert taken["winner"] == 2 and taken["points"] == 0  # Q over 8 over 7; K Q 8 7 score nothing
    assert m.state.round.tricks[0].plays[0].seat == 0


def test_19_elimination_6p_next_deal_has_12_card_hands_and_seats_keep_order():
    m = Match(players=6, first_dealer=5, deck=deck_for(6, 5, {}))
    m.state = replace(m.state, tables=(20, 1, 15))
    state = replace(
        m.state,
        phase=ROUND_OVER,
        round=replace(
            m.state.round, contract=Contract(1, 30, "S", 0), trick=(), tricks=(Trick(0, (Play(0, "QS"),), 0, 56),)
        ),
    )
    events = RULES.decide(state, None, {"type": "score_round"})
    data = events[0]["data"]
    # s1's team fails 30 and owes 2 to each: s2's team first (takes its 1 table), s0's team gets nothing.
    assert [(p["payee"], p["paid"]) for p in data["payments"]] == [(2, 1), (0, 0)]
    assert data["eliminated"] == [1] and data["tables"] == [20, 0, 16]
    assert data["next_dealer"] == 0
    assert [e["type"] for e in events] == ["round_scored"]
    for event in events:
        state = RULES.evolve(state, event)
    deck = RULES.deck(RULES.normalize_options({}, 6))
    events = RULES.decide(state, None, {"type": "deal", "deck": deck})
    state = RULES.evolve(state, events[0])
    assert events[0]["data"]["active"] == [0, 2, 3, 5]
    assert [len(h) for h in state.round.hands] == [12, 0, 12, 12, 0, 12]
    assert state.round.to_play == 2  # dealer s0: the next active seat bids first
    assert RULES.view(state, 1)["round"]["hand"] == [] and RULES.legal_actions(state, 1) == []
    assert RULES.view(state, None)["standing"][1] == {"seats": [1, 4], "score": 0}


def test_20_dealer_rotation():
    m = Match(first_dealer=3, deck=deck_for(4, 3, {}))
    for seat in range(4):
        m.pass_(seat)
    for _ in range(12):
        leader = m.state.round.to_play
        for k in range(4):
            seat = (leader + k) % 4
            m.play(seat, RULES.legal_actions(m.state, seat)[0]["card"])
    assert m.score()["next_dealer"] == 0
    m.deal(deck_for(4, 0, {}))
    assert m.state.round.dealer == 0 and m.state.round.to_play == 1
    for seat in (1, 2, 3, 0):
        m.pass_(seat)
    assert m.state.round.contract.declarer == 1 and m.state.round.to_play == 1


def test_21_the_declarer_does_not_lead():
    m = Match(first_dealer=3, deck=deck_for(4, 3, {}))
    m.pass_(0)
    m.pass_(1)
    m.bid(2, 29, "C")
    m.pass_(3)
    m.pass_(0)
    m.pass_(1)
    assert m.state.round.contract.declarer == 2
    assert m.view(None)["round"]["to_act"] == [0]
