"""4p (RULES §2.1, §2.10): partnerships {0,2} and {1,3}, two identical decks, target 101 and half 51,
pooled points and marriages, closing for the team, strict play that overtakes a partner, and RULES
§2.14 edge cases 22, 23 and 13 (4p). Arithmetic worked by hand in the comments."""

from __future__ import annotations

import pytest

from games.errors import NotYourTurn, RuleError
from games.sixtysix import RULES
from games.sixtysix.legal import follow_options
from tests.unit.sixtysix.support import Match, deal_deck

FOUR = {"variant": "4p"}


def legal_cards(m, seat):
    return sorted(a["card"] for a in RULES.legal_actions(m.state, seat) if a["type"] == "play")


# Dealer seat 3, so seat 0 leads, then 1, 2, 3. Trump card JH: hearts.
OWN_DEAL = deal_deck(
    FOUR,
    3,
    {
        0: "KS QS KD QD AC TC 9C".split(),
        1: "AS TS TD AD 9D JD JC".split(),
        2: "KH QH TH AH JS QC KC".split(),
        3: "9S 9S JS 9D JC QC KC".split(),
    },
    trump_card="JH",
)


def test_the_deal_uses_two_decks_and_leaves_a_stock_of_twenty():
    m = Match(FOUR, first_dealer=3, deck=OWN_DEAL)
    rnd = m.state.round
    # RULES §2.2: [0..11] in threes to 0, 1, 2, 3; [12..27] in fours; [28] trump; [29..47] stock
    for seat in range(4):
        assert rnd.hands[seat] == tuple(OWN_DEAL[3 * seat : 3 * seat + 3] + OWN_DEAL[12 + 4 * seat : 16 + 4 * seat])
    assert rnd.trump_card == OWN_DEAL[28] == "JH" and rnd.stock == tuple(OWN_DEAL[29:])
    view = m.view(0)
    assert view["standing"] == [{"seats": [0, 2], "score": 0}, {"seats": [1, 3], "score": 0}]
    assert view["round"]["stock_size"] == 20 and view["round"]["hand_sizes"] == [7, 7, 7, 7]
    assert view["round"]["target"] == 101 and m.state.options.schneider_threshold == 51
    assert rnd.hands[3].count("9S") == 2  # the two copies are both in one hand


def test_own_deal_team_marriage_activated_by_the_partner_then_declared():
    m = Match(FOUR, first_dealer=3, deck=OWN_DEAL)
    # T1: s0 shows KS QS before team {0,2} has a trick: 20, pending (edge case 23).
    assert m.meld(0, "S")[0]["data"] == {"seat": 0, "suit": "S", "points": 20, "pending": True}
    # s0 QS, s1 AS, s2 JS, s3 9S -> AS wins: 3+11+2+0 = 16 for team {1,3}.
    assert m.round_of("QS", "AS", "JS", "9S").winner == 1
    assert [d["seat"] for d in m.events[-1]["data"]["draws"]] == [1, 2, 3, 0]  # four draws, winner first
    assert m.view(0)["round"]["meld_points"] == [0, 0]
    # T2: s1 TD, s2 TH (trump), s3 9D, s0 TC -> s2 wins for the team: 10+10+0+10 = 30.
    assert m.round_of("TD", "TH", "9D", "TC").winner == 2
    # The partner's trick activates s0's marriage for the team: 30 + 20 = 50.
    view = m.view(2)["round"]
    assert view["meld_points"] == [20, 0] and view["melds"][0]["active"] is True
    assert view["card_points"] == [30, 16] and view["tricks_won"] == [1, 1]
    # T3: s2 shows KH QH: 40 in trumps (team total 90), leads QH; s3 JC, s0 AC, s1 JD -> QH wins:
    # 3+2+11+2 = 18. Team {0,2}: cards 48, marriages 60 -> 108 >= 101.
    m.meld(2, "H")
    assert m.round_of("QH", "JC", "AC", "JD", draw=False).winner == 2
    assert m.state.phase == "after_trick" and RULES.to_act(m.state) == [2]
    with pytest.raises(NotYourTurn):
        m.declare(0)  # only the trick winner may declare, for the team
    m.declare(2)
    result = m.score()
    assert result["card_points"] == [48, 16] and result["meld_points"] == [60, 0]
    assert result["totals"] == [108, 16] and result["tricks"] == [2, 1]
    # A1: team {1,3} has a trick and 16 < 51 -> 2.
    assert (result["case"], result["game_points"]) == ("A1", [2, 0])
    assert result["standing"] == [{"seats": [0, 2], "score": 2}, {"seats": [1, 3], "score": 0}]
    assert result["next_dealer"] == 0  # alternate: to the next seat


def test_22_the_first_of_two_identical_cards_wins():
    deck = deal_deck(
        FOUR,
        3,
        {
            0: "AS 9C 9C JC QC KC TC".split(),
            1: "AS KS 9D 9D JD QD KD".split(),
            2: "QS JS 9S TD AD TD AD".split(),
            3: "9S TS 9H JH QH TH AH".split(),
        },
        trump_card="KH",
    )
    m = Match(FOUR, first_dealer=3, deck=deck)
    m.close(0)  # phase 2 from the first card
    m.play(0, "AS")
    assert legal_cards(m, 1) == ["AS", "KS"]  # nothing beats AS: any spade, the other AS included
    m.play(1, "AS")
    m.play(2, "9S")
    assert legal_cards(m, 3) == ["9S", "TS"]  # spades before trumps
    m.play(3, "TS")
    trick = m.state.round.tricks[-1]
    assert trick.winner == 0 and trick.points == 11 + 11 + 0 + 10  # the copy played first wins


def test_22_two_marriages_in_one_suit_need_two_pairs_on_two_leads():
    deck = deal_deck(
        FOUR,
        3,
        {
            0: "KH KH QH QH AS AD AC".split(),
            1: "9S JS 9D JD 9C JC TS".split(),
            2: "9S JS 9D JD 9C JC TD".split(),
            3: "QS KS QD KD QC KC TC".split(),
        },
        trump_card="9H",
    )
    m = Match(FOUR, first_dealer=3, deck=deck)
    m.meld(0, "H")  # 40, pending
    with pytest.raises(RuleError):
        m.meld(0, "H")  # one marriage per lead
    assert m.round_of("QH", "9S", "9S", "QS").winner == 0
    m.meld(0, "H")  # the second pair: KH and the other QH
    assert [(x.seat, x.points) for x in m.state.round.melds] == [(0, 40), (0, 40)]
    assert m.round_of("KH", "JS", "JS", "KS").winner == 0
    hand = m.state.round.hands[0]
    assert hand.count("KH") == 1 and hand.count("QH") == 1
    with pytest.raises(RuleError):
        m.meld(0, "H")  # KH and QH left, but each was used in a marriage already
    assert m.view(0)["round"]["meld_points"] == [80, 0]


def test_13_no_exchange_when_a_nine_of_trumps_lies_face_up():
    deck = deal_deck(
        FOUR,
        3,
        {
            0: "9H AS AD AC TS TD TC".split(),
            1: "9S JS 9D JD 9C JC QS".split(),
            2: "9S JS 9D JD 9C JC QD".split(),
            3: "KS QS KD QD KC QC KH".split(),
        },
        trump_card="9H",
    )
    m = Match(FOUR, first_dealer=3, deck=deck)
    m.round_of("AS", "9S", "9S", "KS")
    with pytest.raises(RuleError, match="face up") as err:
        m.exchange(0)  # holds the other 9H, but a 9 of trumps already lies face up
    assert err.value.rule == "66 §2.6"


def test_13_exchange_with_the_sides_trick_and_the_nine_becomes_the_last_card():
    deck = deal_deck(
        FOUR,
        3,
        {
            0: "9H AS AD AC TS TD TC".split(),
            1: "9S JS 9D JD 9C JC QS".split(),
            2: "9S JS 9D JD 9C JC QD".split(),
            3: "KS QS KD QD KC QC KH".split(),
        },
        trump_card="AH",
    )
    m = Match(FOUR, first_dealer=3, deck=deck)
    with pytest.raises(RuleError, match="won a trick"):
        m.exchange(0)  # first lead: the side has no trick yet
    m.round_of("AS", "9S", "9S", "KS")
    m.exchange(0)
    assert m.state.round.trump_card == "9H" and "AH" in m.state.round.hands[0]
    while m.state.round.trump_card:
        seat = m.state.round.to_play
        m.act(seat, next(a for a in RULES.legal_actions(m.state, seat) if a["type"] in ("draw", "play")))
    draws = [e["data"]["draws"] for e in m.events if e["type"] == "drew"]
    assert len(draws) == 5 and draws[-1][-1] == {**draws[-1][-1], "card": "9H", "face_up": True}
    assert len(m.state.round.tricks) == 5 and m.view(1)["round"]["hand_sizes"] == [7, 7, 7, 7]


def test_strict_play_overtakes_a_partner():
    # s0 (partner of s2) leads KS; s1 has no spades. s2 holds AS and QS: it must take over with AS.
    assert follow_options(["AS", "QS", "9H"], ["KS", "9C"], "H", strict=True) == ["AS"]
    # The partner's trump must be overtaken with a higher trump when following suit is impossible.
    assert follow_options(["AH", "9H", "9D"], ["KS", "QH"], "H", strict=True) == ["AH"]
    # Once a plain lead is trumped, a player with the led suit just follows it with any card of it.
    assert sorted(follow_options(["AS", "9S", "AH"], ["KS", "9H"], "H", strict=True)) == ["9S", "AS"]


def test_closing_on_behalf_of_the_team_counts_team_tricks_at_closing():
    m = Match(FOUR, first_dealer=3, deck=OWN_DEAL)
    m.round_of("KS", "AS", "JS", "9S", draw=False)  # s1 wins for team {1,3}
    m.close(1)
    assert m.state.round.tricks_at_close == (0, 1)
    m.declare(1)  # 4+11+2+0 = 17 < 101: the closer's false declaration (B1)
    result = m.score()
    # B1: team {0,2} had no trick when the stock was closed -> 3
    assert (result["case"], result["game_points"]) == ("B1", [3, 0])


def test_dealer_rules_with_partnerships():
    for rule, expected in [("alternate", 0), ("winner_deals", 0), ("loser_deals", 3)]:
        m = Match({**FOUR, "dealer_rule": rule}, first_dealer=3, deck=OWN_DEAL)
        m.meld(0, "S"), m.round_of("QS", "AS", "JS", "9S"), m.round_of("TD", "TH", "9D", "TC")
        m.meld(2, "H"), m.round_of("QH", "JC", "AC", "JD", draw=False)
        m.declare(2)
        # team {0,2} won, seat 3 dealt: winner_deals -> the first of {0,2} from the dealer on is 0;
        # loser_deals -> the dealer is on the losing side and keeps the deal.
        assert m.score()["next_dealer"] == expected
