"""Every option of RULES §3.9, its normalisation, and the binding clarifications §3.10a."""

from __future__ import annotations

import pytest

from games.errors import OptionError, RuleError
from games.smear import RULES
from tests.unit.smear.support import Match, deck_for_deal, play_deal, points_of
from tests.unit.smear.test_edge_cases import DECK_X, PLAY_NO_ACE, PLAY_TIE, PLAY_X
from tests.unit.smear.test_hand_checked_deals import DEAL_W2, DEAL_W3, play_hand_checked

WORKED_TRICKS = ["AS 9S KS QS", "7S JS 8H TS", "AH JD JH 8S", "9H TH AC 9D", "KC TC QC QH", "9C TD AD KD"]

# Deal S (widow 0, trump S): the AS is the only trump in play (the other seven spades and JD are
# undealt). s0 AS AH 7H 7D JC 7C · s1 KH TH AD TD AC TC · s2 QH 9H KD 9D KC 9C · s3 JH 8H QD 8D QC 8C.
PLAY_ONE_TRUMP = [
    "AS KH QH JH",  # s0: 4+3+2+1 = 10 → A
    "AH TH 9H 8H",  # s0: 4+10 = 14 → A
    "7H AD KD QD",  # s0 (nobody else has a heart): 4+3+2 = 9 → A (A 33)
    "7D TD 9D 8D",  # s1: 10 → B
    "AC KC QC JC",  # s1: 10 → B
    "TC 9C 8C 7C",
]  # s1: 10 → B (B 30); out of play KS QS JS TS 9S 8S 7S JD = 17


def test_defaults_and_snake_case_names():
    assert RULES.normalize_options({}, 4) == {
        "widow_size": 0,
        "all_pass": "redeal_same_dealer",
        "high_low_rule": "ace_seven",
        "game_tie": "none",
        "discards_count_for_high_low_jack": False,
        "match_target": 15,
        "both_reach": "higher_score_then_bidder",
        "win_only_on_successful_bid": False,
        "cap_non_bidder_at_15": False,
    }
    assert RULES.seat_counts({}) == {4}
    assert len(RULES.deck({})) == 32 and len(set(RULES.deck({}))) == 32


@pytest.mark.parametrize(
    "name, value",
    [
        ("widow_size", 4),
        ("widow_size", -1),
        ("widow_size", "2"),
        ("widow_size", True),
        ("all_pass", "redealSameDealer"),
        ("high_low_rule", "classic"),
        ("game_tie", "both"),
        ("both_reach", "higherScoreThenBidder"),
        ("discards_count_for_high_low_jack", 1),
        ("win_only_on_successful_bid", "yes"),
        ("cap_non_bidder_at_15", None),
        ("match_target", 0),
        ("first_dealer", 4),
        ("widowSize", 1),
    ],
)
def test_bad_options_are_refused_naming_the_field(name, value):
    with pytest.raises(OptionError) as err:
        RULES.normalize_options({name: value}, 4)
    assert err.value.field == name


def test_every_option_value_is_accepted():
    for name, values in [
        ("widow_size", [0, 1, 2, 3]),
        ("all_pass", ["redeal_same_dealer", "stick_dealer", "pass_deal"]),
        ("high_low_rule", ["ace_seven", "highest_lowest_in_play"]),
        ("game_tie", ["none", "non_bidders", "bidders"]),
        ("both_reach", ["higher_score_then_bidder", "bidder_wins"]),
        ("match_target", [1, 21]),
        ("first_dealer", [0, 3]),
    ]:
        for value in values:
            assert RULES.normalize_options({name: value}, 4)[name] == value


def test_all_pass_stick_dealer_the_dealer_may_not_pass_but_may_bid_any_value():
    m = Match({"all_pass": "stick_dealer"}, first_dealer=3, deck=DECK_X)
    m.pass_(0), m.pass_(1), m.pass_(2)
    assert m.legal(3) == [{"type": "bid", "value": v} for v in (2, 3, 4)]
    with pytest.raises(RuleError) as err:
        m.pass_(3)
    assert err.value.rule == "Smear §3.10a.1"
    assert m.bid(3, 3)[-1]["data"] == {"bidder": 3, "bid": 3}


def test_all_pass_stick_dealer_the_dealer_may_pass_after_a_bid():
    m = Match({"all_pass": "stick_dealer"}, first_dealer=3, deck=DECK_X)
    m.bid(0, 2), m.pass_(1), m.pass_(2)
    assert m.pass_(3)[-1]["data"] == {"bidder": 0, "bid": 2}


def test_all_pass_pass_deal_moves_the_deal_left():
    m = Match({"all_pass": "pass_deal"}, first_dealer=3, deck=DECK_X)
    for seat in (0, 1, 2, 3):
        events = m.pass_(seat)
    assert events[-1]["data"] == {"dealer": 3, "rule": "pass_deal", "next_dealer": 0}
    m.deal(DECK_X)
    assert m.state.round.dealer == 0 and m.view(1)["round"]["to_act"] == [1]


def test_highest_lowest_in_play_credits_the_players_of_the_highest_and_lowest_trump():
    options = {"high_low_rule": "highest_lowest_in_play"}
    m = Match(options, first_dealer=3, deck=deck_for_deal(PLAY_NO_ACE, bidder=0, dealer=3))
    data = play_deal(m, PLAY_NO_ACE, bidder=0, bid=2)
    high, low = data["points"][0], data["points"][1]
    assert (high["team"], high["seat"], high["card"]) == (0, 0, "KS")  # AS undealt: KS is the highest in play
    assert (low["team"], low["seat"], low["card"]) == (1, 1, "7S")
    assert points_of(data) == {"high": 0, "low": 1, "jack": 0, "game": 1}


def test_one_trump_in_play_gives_high_and_low_under_highest_lowest_only():
    deck = deck_for_deal(PLAY_ONE_TRUMP, bidder=0, dealer=3)
    plain = play_deal(Match(first_dealer=3, deck=deck), PLAY_ONE_TRUMP, bidder=0, bid=2)
    assert plain["game_counts"] == [33, 30]
    assert points_of(plain) == {"high": 0, "low": None, "jack": None, "game": 0}
    m = Match({"high_low_rule": "highest_lowest_in_play"}, first_dealer=3, deck=deck)
    data = play_deal(m, PLAY_ONE_TRUMP, bidder=0, bid=2)
    assert points_of(data) == {"high": 0, "low": 0, "jack": None, "game": 0}
    assert data["points"][1]["card"] == "AS" and data["scores"] == [3, 0]


def test_highest_lowest_counts_discarded_trumps_with_the_discard_option():
    _, data = play_hand_checked(
        DEAL_W3, {"high_low_rule": "highest_lowest_in_play", "discards_count_for_high_low_jack": True}
    )
    assert [(p["point"], p["card"], p["team"]) for p in data["points"][:3]] == [
        ("high", "AS", 0),
        ("low", "7S", 0),
        ("jack", "JS", 0),
    ]
    _, plain = play_hand_checked(DEAL_W3, {"high_low_rule": "highest_lowest_in_play"})
    assert plain["points"][1]["card"] == "8S"  # the lowest trump played


@pytest.mark.parametrize(
    "tie, game_team, scores", [("none", None, [2, 1]), ("bidders", 0, [3, 1]), ("non_bidders", 1, [2, 2])]
)
def test_game_tie_options(tie, game_team, scores):
    m = Match({"game_tie": tie}, first_dealer=3, deck=deck_for_deal(PLAY_TIE, bidder=0, dealer=3))
    data = play_deal(m, PLAY_TIE, bidder=0, bid=2)
    assert data["game_counts"] == [30, 30]
    assert points_of(data)["game"] == game_team and data["scores"] == scores


def test_match_target():
    m = Match({"match_target": 3}, first_dealer=3, deck=DECK_X)
    data = play_deal(m, PLAY_X, bidder=0, bid=2)
    assert data["match_ended"]["winner"] == [0, 2] and data["match_ended"]["reason"] == "reached 3"
    short = Match({"match_target": 4}, first_dealer=3, deck=DECK_X)
    assert "match_ended" not in play_deal(short, PLAY_X, bidder=0, bid=2)


def _worked_bid_2(options, scores):
    from tests.unit.smear.test_worked_example import DECK

    m = Match({"widow_size": 2, **options}, first_dealer=3, deck=DECK, scores=scores)
    return m, play_deal(m, WORKED_TRICKS, bidder=2, bid=2, discards=["8C", "7D"])


def test_both_reach_bidder_wins():
    _, data = _worked_bid_2({"both_reach": "bidder_wins"}, (13, 14))
    assert data["scores"] == [15, 16] and data["match_ended"]["winner"] == [0, 2]


def test_win_only_on_successful_bid_the_bidders_win_when_they_make_it():
    _, data = _worked_bid_2({"win_only_on_successful_bid": True}, (13, 14))
    assert data["scores"] == [15, 16] and data["match_ended"]["winner"] == [0, 2]  # B (16) did not bid


def test_win_only_on_successful_bid_a_set_never_wins():
    from tests.unit.smear.test_worked_example import DECK

    m = Match({"widow_size": 2, "win_only_on_successful_bid": True}, first_dealer=3, deck=DECK, scores=(0, 13))
    data = play_deal(m, WORKED_TRICKS, bidder=2, bid=3, discards=["8C", "7D"])
    assert data["scores"] == [-3, 15] and "match_ended" not in data


def test_cap_non_bidder_at_15_caps_and_stops_the_non_bidders_winning():
    from tests.unit.smear.test_worked_example import DECK

    m = Match({"widow_size": 2, "cap_non_bidder_at_15": True}, first_dealer=3, deck=DECK, scores=(0, 14))
    data = play_deal(m, WORKED_TRICKS, bidder=2, bid=3, discards=["8C", "7D"])  # A set; B +2
    assert data["scores"] == [-3, 15] and data["deltas"] == [-3, 1] and data["capped"] == [False, True]
    assert "match_ended" not in data and m.state.phase == "await_deal"
    # Next deal (dealer s0): deal W2, where B's s1 bids 2 and makes 3 (A 1): now B may win.
    w2 = DEAL_W2
    m.deal(deck_for_deal(list(w2.tricks), w2.bidder, w2.dealer, w2.widow, w2.discards))
    data = play_deal(m, list(w2.tricks), bidder=1, bid=2, discards=w2.discards, trump="H")
    assert data["scores"] == [-3 + 1, 15 + 3] and data["capped"] == [False, False]
    assert data["match_ended"]["winner"] == [1, 3]


def test_cap_only_cuts_gains_beyond_the_target():
    m = Match({"cap_non_bidder_at_15": True}, first_dealer=3, deck=DECK_X, scores=(0, 13))
    data = play_deal(m, PLAY_X, bidder=0, bid=2)  # B +1 → 14, under the cap
    assert data["scores"] == [3, 14] and data["capped"] == [False, False]
