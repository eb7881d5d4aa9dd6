"""RULES §3.11, edge cases 1-18, each with a deal built for it (first_dealer 3, so hands are listed
seat 0 to seat 3 and seat 0 speaks and, as bidder, leads first unless a test says otherwise)."""

from __future__ import annotations

import pytest

from games.errors import NotYourTurn, RuleError
from tests.unit.smear.support import Match, build_deck, deck_for_deal, play_deal, points_of

# Deal X (widow 0, trump S, s0 bids): s0 AS AH 7S AD AC 9D · s1 8S KH KS KD KC 8D ·
# s2 JS 9H 8H QD 7C 8C · s3 9S QH TS TD TC TH. Two ways to play it:
PLAY_X = [
    "7S KS JS 9S",  # s1 wins 7S+KS+JS+9S = 0+3+1+0 = 4 → B; s0 played the 7S; JS captured by B
    "KH 9H QH AH",  # s1 leads; s0 wins 3+0+2+4 = 9 → A
    "AS 8S 8H TS",  # s0 wins 4+0+0+10 = 14 → A (s2 has no spade left)
    "AD KD QD TD",  # 4+3+2+10 = 19 → A
    "AC KC 7C TC",  # 4+3+0+10 = 17 → A
    "9D 8D 8C TH",
]  # 0+0+0+10 = 10 → A.  A 69, B 4: High A, Low A, Jack B, Game A
PLAY_Z = [
    "AS 8S JS 9S",  # s0 wins 4+0+1+0 = 5 → A (JS captured by A)
    "AH KH 9H QH",  # 4+3+0+2 = 9 → A
    "7S KS 8H TS",  # s1 wins 0+3+0+10 = 13 → B
    "KD QD TD AD",  # s1 leads; s0 wins 3+2+10+4 = 19 → A
    "AC KC 7C TC",  # 17 → A
    "9D 8D 8C TH",
]  # 10 → A.  A 60, B 13: all four points to A
DECK_X = deck_for_deal(PLAY_X, bidder=0, dealer=3)

# Deal T (widow 0, trump S): every trick one suit; Game counts tie 30-30.
PLAY_TIE = [
    "AS 7S 8S 9S",  # s0: 4 → A; the 7S is s1's → Low B
    "KS QS JS TS",  # s0: 3+2+1+10 = 16 → A (A 20), JS → A
    "AH KH QH JH",  # s0: 4+3+2+1 = 10 → A (A 30)
    "9H TH 8H 7H",  # s1 TH: 10 → B
    "AD KD QD JD",  # s1: 10 → B (B 20)
    "TD 9D 8D 7D",
]  # s1: 10 → B (B 30)

# Deal U (widow 0, trump S, the AS undealt): at most three points.
PLAY_NO_ACE = [
    "QS 7S 8S 9S",  # s0: 2 → A; 7S by s1 → Low B
    "KS JS TS 7H",  # s0: 3+1+10 = 14 → A; s3 has no spade
    "AH KH QH JH",  # s0: 10 → A (A 26)
    "9H TH 8H 7C",  # s1: 10 → B
    "AD KD QD JD",  # s1: 10 → B
    "TD 9D 8D 7D",
]  # s1: 10 → B (B 30): Game B


def rule_error(section, fn, *args):
    with pytest.raises(RuleError) as err:
        fn(*args)
    assert err.value.rule == section, err.value
    return err.value


def test_01_a_bid_of_4_ends_the_auction_at_once():
    m = Match(first_dealer=3, deck=DECK_X)
    m.pass_(0)
    events = m.bid(1, 4)
    assert [e["type"] for e in events] == ["bid", "auction_won"]
    assert events[1]["data"] == {"bidder": 1, "bid": 4}
    assert m.state.phase == "play" and m.view(2)["round"]["to_act"] == [1]
    for seat in (2, 3):
        with pytest.raises(NotYourTurn):
            m.pass_(seat)
    assert m.legal(2) == [] and m.legal(1)[0]["type"] == "play"


def test_02_each_bid_must_be_higher_and_2_to_4():
    m = Match(first_dealer=3, deck=DECK_X)
    m.bid(0, 3)
    rule_error("Smear §3.3", m.bid, 1, 3)
    rule_error("Smear §3.3", m.bid, 1, 2)
    rule_error("Smear §3.3", m.bid, 1, 1)
    rule_error("Smear §3.3", m.bid, 1, 5)
    assert m.legal(1) == [{"type": "pass"}, {"type": "bid", "value": 4}]
    m.pass_(1)
    m.pass_(2)
    events = m.bid(3, 4)  # the dealer may bid 4 over 3
    assert events[-1]["data"] == {"bidder": 3, "bid": 4}


def test_03_all_pass_the_same_dealer_redeals():
    m = Match(first_dealer=3, deck=DECK_X, scores=(5, -2))
    for seat in (0, 1, 2):
        m.pass_(seat)
    events = m.pass_(3)
    assert events[-1] == {
        "type": "thrown_in",
        "actor": None,
        "data": {"dealer": 3, "rule": "redeal_same_dealer", "next_dealer": 3},
    }
    assert m.state.phase == "await_deal" and m.state.dealer == 3 and m.state.scores == (5, -2)
    m.deal(DECK_X)
    assert m.state.round.dealer == 3 and m.state.round.number == 2 and m.view(0)["round"]["to_act"] == [0]


def test_04_widow_3_with_eight_trumps_keeps_exactly_six():
    # s0 is dealt six spades and takes 8S 7S AH: eight spades and a heart.
    deck = build_deck(["AS KS QS JS TS 9S", "AD KD QD JD TD 9D", "AC KC QC JC TC 9C", "KH QH JH TH 9H 8H"], "8S 7S AH")
    m = Match({"widow_size": 3}, first_dealer=3, deck=deck)
    m.bid(0, 4)
    assert m.hand(0) == sorted("AS KS QS JS TS 9S 8S 7S AH".split())
    rule_error("Smear §3.4", m.discard, 0, "9S 8S 7S", "S")
    spade_discards = [a["cards"] for a in m.legal(0) if a["trump"] == "S"]
    assert len(spade_discards) == 28 and all("AH" in cards for cards in spade_discards)  # C(8,2)
    m.discard(0, "AH 8S 7S", "S")
    assert m.hand(0) == sorted("AS KS QS JS TS 9S".split())


def test_05_no_trump_discards_with_six_or_fewer_trumps():
    deck = build_deck(["AS KS QS JS AH KH", "AD KD QD JD TD 9D", "AC KC QC JC TC 9C", "QH JH TH 9H 8H 7H"], "TS 8D")
    m = Match({"widow_size": 2}, first_dealer=3, deck=deck)
    m.bid(0, 2)
    m.pass_(1), m.pass_(2), m.pass_(3)
    err = rule_error("Smear §3.4", m.discard, 0, "JS 8D", "S")  # five spades: none may go
    assert "not 1" in err.detail
    rule_error("Smear §3.10a.2", m.discard, 0, "TS 8D", "C")  # holds no club to lead
    m.discard(0, "KH 8D", "S")


def test_06_discards_count_for_game():
    """The bidder discards TD and 8D: +10 to the bidding team's Game count, never played (deal W2 of
    test_hand_checked_deals: tricks give B 33 against A 35; the discards make it 43 and Game B)."""
    from tests.unit.smear.test_hand_checked_deals import DEAL_W2, play_hand_checked

    m, data = play_hand_checked(DEAL_W2)
    assert m.state.round.discards == ("TD", "8D")
    assert not any(c in ("TD", "8D") for t in m.view(1)["round"]["tricks"] for c in (p["card"] for p in t["cards"]))
    assert m.view(1)["round"]["trick_game_counts"] == [35, 33]
    assert data["game_counts"] == [35, 43] and points_of(data)["game"] == 1


def test_07_ace_of_trumps_undealt_high_is_not_awarded():
    deck = deck_for_deal(PLAY_NO_ACE, bidder=0, dealer=3)
    assert "AS" in deck[24:]
    m = Match(first_dealer=3, deck=deck)
    data = play_deal(m, PLAY_NO_ACE, bidder=0, bid=2)
    assert points_of(data) == {"high": None, "low": 1, "jack": 0, "game": 1}
    assert data["game_counts"] == [26, 30] and sum(data["points_won"]) == 3
    assert data["points"][0]["why"] == "AS was not played"
    assert data["deltas"] == [-2, 2]  # A won 1 of 2: set


def test_08_trumping_while_able_to_follow_is_legal_other_suits_are_not():
    m = Match(first_dealer=3, deck=DECK_X)
    m.bid(0, 2), m.pass_(1), m.pass_(2), m.pass_(3)
    m.trick(PLAY_Z[0])
    m.play(0, "AH")  # hearts led, spades trump; s1 holds KH
    rule_error("Smear §3.5", m.play, 1, "KC")
    assert sorted(a["card"] for a in m.legal(1)) == ["KH", "KS"]
    m.play(1, "KS")
    assert m.state.round.trick[-1].card == "KS"


def test_09_trump_led_must_be_followed_with_trump():
    m = Match(first_dealer=3, deck=DECK_X)
    m.bid(0, 2), m.pass_(1), m.pass_(2), m.pass_(3)
    m.play(0, "AS")
    rule_error("Smear §3.5", m.play, 1, "KH")
    assert sorted(a["card"] for a in m.legal(1)) == ["8S", "KS"]


def test_10_low_goes_to_the_player_of_the_seven_not_the_trick_winner():
    m = Match(first_dealer=3, deck=DECK_X)
    data = play_deal(m, PLAY_X, bidder=0, bid=2)
    low = next(p for p in data["points"] if p["point"] == "low")
    assert (low["team"], low["seat"], low["card"]) == (0, 0, "7S")
    first = m.state.round.tricks[0]
    assert first.winner == 1  # and the trick's Game count (4) went to B
    assert data["game_counts"] == [69, 4]


def test_11_jack_goes_to_the_team_that_wins_its_trick():
    m = Match(first_dealer=3, deck=DECK_X)
    data = play_deal(m, PLAY_X, bidder=0, bid=2)
    jack = next(p for p in data["points"] if p["point"] == "jack")
    assert (jack["team"], jack["seat"], jack["card"]) == (1, 1, "JS")  # s2 (A) played it, s1 (B) took it
    assert points_of(data) == {"high": 0, "low": 0, "jack": 1, "game": 0}
    assert data["scores"] == [3, 1]


def test_12_a_game_tie_gives_no_game_point():
    m = Match(first_dealer=3, deck=deck_for_deal(PLAY_TIE, bidder=0, dealer=3))
    data = play_deal(m, PLAY_TIE, bidder=0, bid=2)
    assert data["game_counts"] == [30, 30]
    assert points_of(data) == {"high": 0, "low": 1, "jack": 0, "game": None}
    assert data["scores"] == [2, 1]


def test_13_set_subtracts_the_bid():
    from tests.unit.smear.test_worked_example import DECK

    m = Match({"widow_size": 2}, first_dealer=3, deck=DECK, scores=(1, 0))
    m.pass_(0), m.bid(1, 2), m.bid(2, 3), m.pass_(3)
    m.discard(2, "8C 7D", "S")
    for trick in ["AS 9S KS QS", "7S JS 8H TS", "AH JD JH 8S", "9H TH AC 9D", "KC TC QC QH", "9C TD AD KD"]:
        m.trick(trick)
    data = m.score()[0]["data"]
    assert data["points_won"] == [2, 2] and data["made"] is False
    assert data["scores"] == [1 - 3, 0 + 2]


def test_14_over_making_scores_every_point_won():
    m = Match(first_dealer=3, deck=DECK_X)
    data = play_deal(m, PLAY_Z, bidder=0, bid=2)
    assert points_of(data) == {"high": 0, "low": 0, "jack": 0, "game": 0}
    assert data["game_counts"] == [60, 13]
    assert (data["made"], data["deltas"], data["scores"]) == (True, [4, 0], [4, 0])


def test_15a_both_reach_15_equal_the_bidder_wins():
    m = Match(first_dealer=3, deck=DECK_X, scores=(12, 14))
    data = play_deal(m, PLAY_X, bidder=0, bid=2)  # A +3, B +1
    assert data["scores"] == [15, 15]
    assert data["match_ended"]["winner"] == [0, 2]
    assert m.state.phase == "match_over" and m.view(None)["winner"] == [0, 2]


def _worked_example_bid_2(options, scores):
    """RULES §3.12 with s2 bidding 2 alone: A (bidder) makes 2, B takes 2."""
    from tests.unit.smear.test_worked_example import DECK

    m = Match({"widow_size": 2, **options}, first_dealer=3, deck=DECK, scores=scores)
    tricks = ["AS 9S KS QS", "7S JS 8H TS", "AH JD JH 8S", "9H TH AC 9D", "KC TC QC QH", "9C TD AD KD"]
    return m, play_deal(m, tricks, bidder=2, bid=2, discards=["8C", "7D"])


def test_15b_both_reach_15_the_higher_score_wins():
    m, data = _worked_example_bid_2({}, (13, 14))
    assert data["made"] is True and data["scores"] == [15, 16]
    assert data["match_ended"]["winner"] == [1, 3]
    assert data["match_ended"]["reason"] == "both reached 15: the higher score wins"


def test_16_win_only_on_successful_bid_a_non_bidder_at_15_does_not_win():
    m = Match({"win_only_on_successful_bid": True}, first_dealer=3, deck=DECK_X, scores=(0, 14))
    data = play_deal(m, PLAY_X, bidder=0, bid=2)
    assert data["scores"] == [3, 15] and "match_ended" not in data
    assert m.state.phase == "await_deal"
    plain = Match(first_dealer=3, deck=DECK_X, scores=(0, 14))  # the same deal without the option ends it
    assert play_deal(plain, PLAY_X, bidder=0, bid=2)["match_ended"]["winner"] == [1, 3]


def test_17_the_deal_passes_left_and_the_first_speaker_is_left_of_the_dealer():
    m = Match(first_dealer=3, deck=DECK_X)
    seen = []
    for _ in range(5):
        rnd = m.view(0)["round"]
        seen.append((rnd["dealer"], rnd["to_act"][0]))
        dealer = rnd["dealer"]
        bidder = (dealer + 1) % 4
        deck = deck_for_deal(PLAY_X, bidder=0, dealer=3)  # the same cards: s0 holds the spades
        play_deal(m, PLAY_X, bidder=0, bid=2) if bidder == 0 else _pass_round(m)
        m.deal(deck)
    assert seen == [(3, 0), (0, 1), (1, 2), (2, 3), (3, 0)]


def _pass_round(m):
    """Everyone passes but the dealer, who bids 2 and the deal is played out by the legal lists."""
    dealer = m.state.round.dealer
    for k in range(1, 4):
        m.pass_((dealer + k) % 4)
    m.bid(dealer, 2)
    while m.state.phase == "play":
        seat = m.state.round.to_play
        m.act(seat, m.legal(seat)[0])
    m.score()


def test_18_the_first_lead_must_be_the_trump_named_at_discard():
    from tests.unit.smear.test_worked_example import DECK

    m = Match({"widow_size": 2}, first_dealer=3, deck=DECK)
    m.pass_(0), m.bid(1, 2), m.bid(2, 3), m.pass_(3)
    m.discard(2, "8C 7D", "S")
    rule_error("Smear §3.5", m.play, 2, "QH")
    assert [a["card"] for a in m.legal(2)] == ["AS", "8S", "7S"]
