"""Two whole deals of our own, worked out by hand (arithmetic in the comments), and the elimination
path from eight players to six to four."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.errors import ActionShapeError
from games.fiftysix import RULES
from games.fiftysix.options import pack_for
from games.fiftysix.state import ROUND_OVER, Contract, Play, Trick
from tests.unit.fiftysix.support import Match, deck_from_hands


def play_tricks(m, tricks):
    for cards, winner, points in tricks:
        taken = m.trick(*cards)
        assert (taken["winner"], taken["points"]) == (winner, points), cards


# 6 players, pairs: teams t0 {0,3}, t1 {1,4}, t2 {2,5}. Dealer s5 deals the unshuffled 48-card pack
# (J 9 A T K Q of S, H, D, C, twice) in fours from s0, twice round, so every seat holds two copies of
# four cards:
#   s0 JS JS 9S 9S AS AS TS TS (14)   s1 KS KS QS QS JH JH 9H 9H (10)   s2 AH AH TH TH KH KH QH QH (4)
#   s3 JD JD 9D 9D AD AD TD TD (14)   s4 KD KD QD QD JC JC 9C 9C (10)   s5 AC AC TC TC KC KC QC QC (4)
SIX_TRICKS = [
    # T1 s0 leads JS; s1 follows QS; s2 (no spades) trumps QH and wins. 3+0+0+1+2+0 = 6 -> t2 6
    (("JS", "QS", "QH", "TD", "9C", "QC"), 2, 6),
    # T2 s2 leads QH; only s1 holds hearts: 9H beats Q.       0+1+2+0+1+2 = 6 -> t1 6
    (("QH", "TD", "9C", "QC", "TS", "9H"), 1, 6),
    # T3, T4 s1 leads JH, the best heart.                       3+0+1+0+0+1 = 5 -> t1 11, then 16
    (("JH", "KH", "AD", "QD", "KC", "TS"), 1, 5),
    (("JH", "KH", "AD", "QD", "KC", "AS"), 1, 5),
    # T5 s1 leads 9H; s2 must follow with TH, the 9 is higher. 2+1+2+0+1+1 = 7 -> t1 23
    (("9H", "TH", "9D", "KD", "TC", "AS"), 1, 7),
    # T6 s1 leads KS; s2 (no spades) trumps TH; s0 follows 9S.  0+1+2+0+1+2 = 6 -> t2 12
    (("KS", "TH", "9D", "KD", "TC", "9S"), 2, 6),
    # T7, T8 s2 leads AH and nobody else has a heart left.      1+3+3+1+3+0 = 11 -> t2 23; 1+3+3+1+2+0 = 10 -> t2 33
    (("AH", "JD", "JC", "AC", "JS", "QS"), 2, 11),
    (("AH", "JD", "JC", "AC", "9S", "KS"), 2, 10),
]


def test_six_player_deal_with_a_redouble_failing_and_a_team_knocked_out():
    m = Match(players=6, first_dealer=5, deck=pack_for(6))
    assert m.hand(2) == sorted("AH AH TH TH KH KH QH QH".split())
    m.pass_(0)
    m.bid(1, 32, "H", convention="suit_first")
    m.pass_(2)
    m.double(3)
    assert m.redouble(4)[-1]["type"] == "auction_ended"  # s4 is s1's partner
    assert m.view(0)["round"]["calls"][1] == {
        "seat": 1,
        "call": "bid",
        "value": 32,
        "suit": "H",
        "convention": "suit_first",
    }
    play_tricks(m, SIX_TRICKS)
    # t0 0, t1 6+5+5+7 = 23, t2 6+6+11+10 = 33; 0+23+33 = 56
    assert m.view(None)["round"]["card_points"] == [0, 23, 33]
    result = m.score()
    # 23 < 32: failed. Band 28-39 loses 2, redoubled x4 = 8 to each other team, paid from the seat
    # after the declarer s1: s2's team t2 first (8, leaving t1 4), then s3's team t0 (4 of 8).
    assert (result["made"], result["per_team"]) == (False, 8)
    assert [(p["payee"], p["owed"], p["paid"]) for p in result["payments"]] == [(2, 8, 8), (0, 8, 4)]
    assert result["tables"] == [16, 0, 20] and result["eliminated"] == [1]  # 16+0+20 = 36
    assert result["next_dealer"] == 0
    m.deal(pack_for(4))
    rnd = m.view(None)["round"]
    assert rnd["active_seats"] == [0, 2, 3, 5] and rnd["hand_sizes"] == [12, 0, 12, 12, 0, 12]
    assert rnd["to_act"] == [2]  # dealer s0; s1 is out, so s2 bids first


# 8 players, pairs: t0 {0,4}, t1 {1,5}, t2 {2,6}, t3 {3,7}; 64 cards, 8 each, dealer s7.
EIGHT_HANDS = [
    "JS 9S AS TS KH QH 8H 7H",
    "KS QS 8S 7S JD 9D AD TD",
    "JH 9H AH TH KC QC 8C 7C",
    "KD QD 8D 7D JC 9C AC TC",
    "JS 9S AS TS KD QD 8D 7D",
    "KS QS 8S 7S JH 9H AH TH",
    "JD 9D AD TD KC QC 8C 7C",
    "KH QH 8H 7H JC 9C AC TC",
]
EIGHT_TRICKS = [
    # T1 s0 JS, all others follow spades or discard sevens; s4 TS.          3+1 = 4 -> t0 4
    (("JS", "7S", "7C", "7D", "TS", "7S", "7C", "7H"), 0, 4),
    # T2 s0 7H; s1 trumps 8S, s4 over-trumps 9S.                             1+2+2 = 5 -> t0 9
    (("7H", "8S", "TH", "8D", "9S", "9H", "8C", "8H"), 4, 5),
    # T3 s4 7D; s5 discards JH (no duty to trump); s6 JD is the best diamond. 3+3+2+2 = 10 -> t2 10
    (("7D", "JH", "JD", "9C", "8H", "9D", "8C", "KD"), 6, 10),
    # T4 s6 9D; s1 JD is higher, but s5 trumps with 8S.                     2+3+2 = 7 -> t1 7
    (("9D", "QH", "QH", "JD", "9H", "QD", "8D", "8S"), 5, 7),
    # T5 s5 AH; s1 trumps KS, s4 over-trumps JS.                            1+3+3+3 = 10 -> t0 19
    (("AH", "KC", "KH", "KH", "KS", "JH", "JC", "JS"), 4, 10),
    # T6 s4 KD; s6 AD beats it, s0 trumps 9S.                               1+1+3+2+1+2 = 10 -> t0 29
    (("KD", "TH", "AD", "JC", "9S", "TD", "QC", "9C"), 0, 10),
    # T7 s0 TS; s4 AS is higher.                                             1+1+1+1+1+1 = 6 -> t0 35
    (("TS", "QS", "AH", "AC", "AS", "KS", "TD", "AC"), 4, 6),
    # T8 s4 QD; s5 trumps QS, s0 over-trumps AS.                            1+1+1+1 = 4 -> t0 39
    (("QD", "QS", "QC", "TC", "AS", "AD", "KC", "TC"), 0, 4),
]


def test_eight_player_deal_made_doubled_pays_three_teams():
    hands = [h.split() for h in EIGHT_HANDS]
    m = Match(players=8, first_dealer=7, deck=deck_from_hands(hands, 7))
    assert all(m.hand(s) == sorted(hands[s]) for s in range(8))
    m.bid(0, 28, "S", convention="number_first")
    m.bid(1, 29, "D", convention="suit_first")
    m.pass_(2)
    m.pass_(3)
    m.bid(4, 31, "S", convention="plus_two")
    m.double(5)
    for seat in (6, 7, 0, 1, 2, 3):
        m.pass_(seat)
        assert m.state.phase == "auction"
    m.pass_(4)  # seven passes after the double end the auction
    assert m.view(None)["round"]["contract"]["level"] == "doubled"
    assert m.state.round.to_play == 0  # dealer+1 leads, not the declarer s4
    play_tricks(m, EIGHT_TRICKS)
    # t0 4+5+10+10+6+4 = 39, t1 7, t2 10, t3 0; 39+7+10+0 = 56
    assert m.view(None)["round"]["card_points"] == [39, 7, 10, 0]
    result = m.score()
    # 39 >= 31: made. Band 28-39 wins 1, doubled x2 = 2 from each of three teams: 12+6 = 18.
    assert (result["made"], result["per_team"]) == (True, 2)
    assert result["tables"] == [18, 10, 10, 10] and result["next_dealer"] == 0


def force_score(state, contract, points_by_team):
    """Scores the current deal as if its tricks had given these points per team."""
    tricks = tuple(
        Trick(team[0], (Play(team[0], "QS"),), team[0], p) for team, p in zip(state.teams, points_by_team) if p
    )
    state = replace(state, phase=ROUND_OVER, round=replace(state.round, contract=contract, tricks=tricks, trick=()))
    events = RULES.decide(state, None, {"type": "score_round"})
    for event in events:
        state = RULES.evolve(state, event)
    return state, events


def deal(state, deck):
    for event in RULES.decide(state, None, {"type": "deal", "deck": list(deck)}):
        state = RULES.evolve(state, event)
    return state


def test_elimination_path_from_eight_to_six_to_four_players():
    full = RULES.deck(RULES.normalize_options({}, 8))
    state = RULES.new_state(RULES.normalize_options({"starting_tables": 2}, 8), 8, 7)
    state = deal(state, full)
    assert [len(h) for h in state.round.hands] == [8] * 8
    # t1 (s1, s5) bids 40 and fails: owes 3 to each, holds 2, pays t2 (seat after s1) both.
    state, events = force_score(state, Contract(1, 40, "S", 0), [20, 10, 20, 6])
    assert events[0]["data"]["tables"] == [2, 0, 4, 2] and events[0]["data"]["next_dealer"] == 0
    with pytest.raises(ActionShapeError, match="the 48-card pack of the 6 players at this deal"):
        deal(state, full)  # six players: the 8s and 7s are out of the pack, not dealt around
    assert RULES.deal_pack(state.options.as_dict(), state) == pack_for(6)
    state = deal(state, pack_for(6))
    assert [len(h) for h in state.round.hands] == [8, 0, 8, 8, 8, 0, 8, 8]
    assert state.round.to_play == 2
    # t3 (s3, s7) bids 28 and fails: owes 2 to each, from s4's team t0 on: t0 takes both.
    state, events = force_score(state, Contract(3, 28, "NT", 0), [30, 0, 20, 6])
    assert events[0]["data"]["tables"] == [4, 0, 4, 0] and events[0]["data"]["eliminated"] == [3]
    assert [e["type"] for e in events] == ["round_scored"]
    state = deal(state, pack_for(4))
    assert [len(h) for h in state.round.hands] == [12, 0, 12, 0, 12, 0, 12, 0]
    assert state.round.dealer == 2 and state.round.to_play == 4  # 0 dealt, so 2 deals; 4 bids first
    state, events = force_score(state, Contract(4, 56, "H", 0), [40, 0, 16, 0])
    assert events[-1]["data"]["winner"] == [2, 6] and state.phase == "match_over"
    assert RULES.view(state, None)["standing"] == [
        {"seats": [0, 4], "score": 0},
        {"seats": [1, 5], "score": 0},
        {"seats": [2, 6], "score": 8},
        {"seats": [3, 7], "score": 0},
    ]
