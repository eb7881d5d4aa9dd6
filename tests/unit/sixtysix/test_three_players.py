"""3p (RULES §2.1, §2.2, §2.10): the two dead cards, a stock of 9, scoring against each opponent, and
the RULES §2.14 cases whose three-player reading differs. Arithmetic worked by hand in the comments."""

from __future__ import annotations

from dataclasses import replace

from games.sixtysix import RULES
from games.sixtysix.state import Play, Trick
from tests.unit.sixtysix.support import Match, deal_deck

THREE = {"variant": "3p"}


def legal_cards(m, seat):
    return sorted(a["card"] for a in RULES.legal_actions(m.state, seat) if a["type"] == "play")


# Dealer seat 0, so seat 1 leads, then 2, then 0. Trump card 7H (hearts; the 7 is the exchange card
# of the 32-card pack, so it can never be exchanged). Dead: 8S 7S (no points). 120 card points in play.
OWN_DEAL = deal_deck(
    THREE,
    0,
    {
        1: "AS TS 9S AD TD KD 8D".split(),
        2: "QS JS 9D JD 7D KC QC".split(),
        0: "AH TH KH QH JH 9H AC".split(),
    },
    dead=["8S", "7S"],
    trump_card="7H",
    stock_top="KS QD TC JC 9C 8C 7C 8H".split(),
)


def test_the_deal_sets_two_dead_cards_aside_and_leaves_a_stock_of_nine():
    m = Match(THREE, deck=OWN_DEAL)
    rnd = m.state.round
    # RULES §2.2: [0..8] in threes to 1, 2, 0; [9..20] in fours; [21..22] dead; [23] trump; [24..31] stock
    assert rnd.hands[1] == tuple(OWN_DEAL[0:3] + OWN_DEAL[9:13])
    assert rnd.hands[2] == tuple(OWN_DEAL[3:6] + OWN_DEAL[13:17])
    assert rnd.hands[0] == tuple(OWN_DEAL[6:9] + OWN_DEAL[17:21])
    assert rnd.dead == ("8S", "7S") and rnd.trump_card == "7H" and len(rnd.stock) == 8
    view = m.view(1)["round"]
    assert view["stock_size"] == 9 and view["hand_sizes"] == [7, 7, 7] and view["exchange_card"] == "7H"


def test_dead_cards_are_never_shown():
    m = Match(THREE, deck=OWN_DEAL)
    dealt = m.events[0]
    assert dealt["data"]["dead"] == ["8S", "7S"]  # the operator's log keeps them
    for seat in (0, 1, 2, None):
        shown = RULES.event_view(dealt, seat)["data"]
        assert "dead" not in shown and "stock" not in shown and shown["stock_size"] == 9
        assert all(h is None for i, h in enumerate(shown["hands"]) if i != seat)
        assert '"8S"' not in str(RULES.view(m.state, seat)).replace("'", '"')


def test_own_deal_a_win_against_each_opponent():
    m = Match(THREE, deck=OWN_DEAL)
    # T1 (phase 1, any card): s1 AS, s2 QS, s0 AC (a discard) -> AS wins: 11+3+11 = 25. s1 = 25.
    assert m.round_of("AS", "QS", "AC").winner == 1
    # Draws, winner first then play order: s1 KS, s2 QD, s0 TC.
    assert [d["seat"] for d in m.events[-1]["data"]["draws"]] == [1, 2, 0]
    # T2: s1 TS, s2 JS, s0 9H (trump) -> s0: 10+2+0 = 12. Draws: s0 JC, s1 9C, s2 8C.
    assert m.round_of("TS", "JS", "9H").points == 12
    # T3: s0 shows KH QH: 40 in trumps, active at once (s0 has a trick): s0 = 12 + 40 = 52.
    m.meld(0, "H")
    # s0 QH, s1 8D, s2 7D -> s0: 3+0+0 = 3 (s0 cards 15, total 55). Last draws: s0 7C, s1 8H, and
    # s2 takes the face-up 7H: the stock is exhausted after three rounds (RULES §2.10).
    m.round_of("QH", "8D", "7D")
    assert m.events[-1]["data"]["draws"][-1] == {"seat": 2, "card": "7H", "face_up": True}
    assert m.view(0)["round"]["stock_open"] is False and m.view(0)["round"]["hand_sizes"] == [7, 7, 7]
    assert m.view(0)["round"]["card_points"] == [15, 25, 0] and m.view(0)["round"]["meld_points"] == [40, 0, 0]
    # T4 (strict): s0 JC; s1 holds only 9C in clubs, lower -> 9C; s2 must beat JC: KC or QC.
    m.play(0, "JC")
    assert legal_cards(m, 1) == ["9C"]
    m.play(1, "9C")
    assert legal_cards(m, 2) == ["KC", "QC"]
    m.play(2, "KC")  # s2: 2+0+4 = 6, one trick
    # T5: s2 8C; s0 must beat it with a club: only TC does. s1 has no clubs and must trump: 8H.
    m.play(2, "8C")
    assert legal_cards(m, 0) == ["TC"]
    m.play(0, "TC")
    assert legal_cards(m, 1) == ["8H"]
    m.play(1, "8H")  # s1: 0+10+0 = 10 -> s1 = 35, two tricks
    # T6: s1 AD; s2 cannot beat it, any diamond: QD; s0 has no diamonds and must trump: JH wins.
    m.play(1, "AD")
    m.play(2, "QD")
    assert legal_cards(m, 0) == ["AH", "JH", "KH", "TH"]
    m.play(0, "JH")  # s0: 11+3+2 = 16 -> s0 cards 12+3+16 = 31, total 31 + 40 = 71
    m.declare(0)
    result = m.score()
    assert result["card_points"] == [31, 35, 6] and result["totals"] == [71, 35, 6]
    assert result["tricks"] == [3, 2, 1]
    # A1: against s1 (2 tricks, 35 >= 33) 1; against s2 (1 trick, 6 < 33) 2; added up: 3.
    assert (result["case"], result["game_points"]) == ("A1", [3, 0, 0])
    assert result["next_dealer"] == 1 and result["standing"] == [
        {"seats": [0], "score": 3},
        {"seats": [1], "score": 0},
        {"seats": [2], "score": 0},
    ]
    # Conservation: 31 + 35 + 6 in tricks, 25 + 18 + 5 still held (AH TH KH 7C / 9S TD KD KS / 9D JD QC 7H).
    assert sum(result["card_points"]) + 25 + 18 + 5 == 120


def _two_tricks_then_false_declaration(options):
    """s1 leads, s2 wins T1; s2 leads, s1 wins T2; s1 declares with 40 at AFTER_TRICK."""
    deck = deal_deck(
        {**THREE, **options},
        0,
        {
            1: "AS TS 9S 8S KD QD JD".split(),
            2: "AD TD QS KS JS 9D 8D".split(),
            0: "7S 7D 7C 8C 9C JC QC".split(),
        },
        dead=["AC", "TC"],
        trump_card="9H",
    )
    m = Match({**THREE, **options}, deck=deck)
    m.round_of("KD", "AD", "7D")  # s2 wins 4+11+0 = 15
    m.round_of("KS", "7S", "AS")  # s2 leads, s0, then s1 wins: 4+0+11 = 15. s1 = 15
    m.play(1, "TS"), m.play(2, "QS"), m.play(0, "8C")  # s1: 10+3 = 13 -> 28
    m.declare(1)  # 28 < 66: false; s2 has 1 trick and 15 points, s0 no trick
    return m.score()


def test_04_false_declaration_pays_each_other_player_by_its_own_tricks():
    result = _two_tricks_then_false_declaration({})
    assert result["totals"] == [0, 28, 15] and result["tricks"] == [0, 2, 1]
    assert (result["case"], result["game_points"]) == ("B2", [3, 0, 2])


def test_04_mirror_pays_each_other_player_the_win_scale_against_itself():
    result = _two_tricks_then_false_declaration({"false_declaration": "mirror", "schneider_threshold": 10})
    # s0: no tricks -> 3; s2: a trick and 15 >= 10 -> 1
    assert (result["case"], result["game_points"]) == ("B2", [3, 0, 1])


def test_06_closer_fails_each_opponent_scores_by_its_tricks_at_closing():
    deck = deal_deck(
        THREE,
        0,
        {
            1: "AS TS KS AD TD KD 9S".split(),
            2: "QS JS QD JD 9D 8D 7D".split(),
            0: "AC TC KC QC JC 9C 8S".split(),
        },
        dead=["7S", "8C"],
        trump_card="9H",
    )
    m = Match(THREE, deck=deck)
    m.round_of("9S", "JS", "8S", draw=False)  # s2 wins T1 with JS: 0+2+0 = 2
    m.close(2)  # s2 closes before drawing: s2 had 1 trick, s0 and s1 none
    assert m.state.round.tricks_at_close == (0, 0, 1)
    m.play(2, "QS")
    assert legal_cards(m, 0) == sorted("AC TC KC QC JC 9C".split())  # no spades, no trumps: anything
    m.play(0, "9C")
    assert legal_cards(m, 1) == ["AS", "KS", "TS"]  # must beat QS
    m.play(1, "AS")  # s1 wins: 3+0+11 = 14; s2 can no longer reach 66
    while m.state.phase != "round_over":
        seat = m.state.round.to_play
        m.act(seat, next(a for a in RULES.legal_actions(m.state, seat) if a["type"] == "play"))
    result = m.score()
    # C1, the closer failed: s0 and s1 had no tricks when the stock was closed -> 3 each.
    assert (result["case"], result["game_points"]) == ("C1", [3, 3, 0])
    assert result["last_trick_points"] == [0, 0, 0]


def test_09_closer_who_takes_no_further_trick_fails_against_both():
    deck = deal_deck(
        THREE,
        0,
        {
            1: "KH QH AS TS AD TD 9S".split(),
            2: "JS 9D JD 8S 7S 8D 7D".split(),
            0: "KS QS KD QD 9C 8C 7C".split(),
        },
        dead=["JC", "QC"],
        trump_card="9H",
        stock_top="AC TC KC AH TH JH 8H 7H".split(),
    )
    m = Match(THREE, deck=deck)
    m.round_of("9S", "JS", "KS", draw=False)  # s0 wins: 0+2+4 = 6
    m.close(0)  # s0 closes before drawing; s1 had no trick
    m.play(0, "QS")
    m.play(1, "AS")  # must beat QS: AS or TS -> AS wins 3+11 = 14 (+ s2's card)
    m.play(2, "8S")
    m.play(1, "TS"), m.play(2, "7S"), m.play(0, "9C")  # s1: 10
    m.play(1, "AD"), m.play(2, "JD"), m.play(0, "KD")  # s1: 11+2+4 = 17
    m.play(1, "TD"), m.play(2, "9D"), m.play(0, "QD")  # s1: 10+0+3 = 13 -> 14+10+17+13 = 54
    m.play(1, "KH"), m.play(2, "8D"), m.play(0, "8C")  # s1: 4 -> 58; s1 short of 66
    assert m.view(1)["round"]["card_points"] == [6, 58, 0]
    m.play(1, "QH"), m.play(2, "7D"), m.play(0, "7C")  # s1: 3 -> 61, all 7 cards played
    result = m.score()
    # played out, closer s0 failed (C1): s1 had no trick at closing -> 3, s2 none -> 3
    assert (result["case"], result["game_points"]) == ("C1", [0, 3, 3])


def test_07_declarer_against_the_closer_scores_two_or_three_per_opponent():
    deck = deal_deck(
        THREE,
        0,
        {
            1: "KH QH AS TS AD TD 9S".split(),
            2: "JS 9D JD 8S 7S 8D 7D".split(),
            0: "KS QS KD QD 9C 8C 7C".split(),
        },
        dead=["JC", "QC"],
        trump_card="9H",
        stock_top="AC TC KC AH TH JH 8H 7H".split(),
    )
    m = Match({**THREE, "meld_after_close": True}, deck=deck)
    m.round_of("9S", "JS", "KS", draw=False)  # s0 wins 6
    m.close(0)  # s1 had no trick at closing
    m.play(0, "QS"), m.play(1, "AS"), m.play(2, "8S")  # s1: 14
    m.meld(1, "H")  # 40 in trumps (meld_after_close), active: s1 = 54
    m.play(1, "KH"), m.play(2, "8D"), m.play(0, "KD")  # s1: 4+0+4 = 8 -> 62
    m.play(1, "AD"), m.play(2, "9D"), m.play(0, "QD")  # s1: 11+0+3 = 14 -> 76
    m.declare(1)
    result = m.score()
    # A2: s1 declared validly against the closer with no trick at closing: 3 from each opponent.
    assert result["totals"][1] == 76
    assert (result["case"], result["game_points"]) == ("A2", [0, 6, 0])


def test_14_three_rounds_of_draws_then_strict_play_from_trick_four():
    m = Match(THREE, deck=OWN_DEAL)
    for _ in range(3):
        seat = m.state.round.to_play
        for k in range(3):
            s = (seat + k) % 3
            m.act(s, next(a for a in RULES.legal_actions(m.state, s) if a["type"] == "play"))
        m.draw(m.state.round.to_play)
    draws = [e["data"]["draws"] for e in m.events if e["type"] == "drew"]
    assert len(draws) == 3 and draws[-1][-1]["card"] == "7H" and draws[-1][-1]["face_up"]
    assert [d["face_up"] for d in draws[-1]] == [False, False, True]
    assert m.state.phase == "lead" and not m.view(0)["round"]["stock_open"]


def _round_with_totals(tricks_by_seat):
    """A 3p state at the end of a played-out deal with these tricks (for the C2 tie-break)."""
    m = Match(THREE, deck=OWN_DEAL)
    tricks = tuple(Trick(s, (Play(s, c),), s, p) for s, c, p in tricks_by_seat)
    rnd = replace(m.state.round, tricks=tricks, hands=((), (), ()), stock=(), trump_card=None)
    m.state = replace(m.state, round=rnd, phase="round_over")
    return m.score()


def test_20_a_tie_for_the_highest_total_is_a_drawn_deal():
    # s0 55 + s1 55 (+10 last trick... taken by s2: 10 + 10 = 20) -> 55-55-20: no game points
    result = _round_with_totals([(0, "AS", 55), (1, "AD", 55), (2, "AC", 10)])
    assert result["totals"] == [55, 55, 20] and (result["case"], result["game_points"]) == ("C2", [0, 0, 0])
    assert result["next_dealer"] == 1


def test_c2_the_single_highest_total_wins_against_each():
    # s0 80; s1 30 with a trick -> 2; s2 no trick -> 3; last trick s0 (+10 -> 90)
    result = _round_with_totals([(1, "AD", 30), (0, "AS", 80)])
    assert result["totals"] == [90, 30, 0] and result["game_points"] == [5, 0, 0]


def test_24_a_tie_on_top_of_the_target_plays_another_deal():
    m = Match({**THREE, "match_target": 3})
    m.state = replace(m.state, scores=(1, 0, 1))
    m.deal(OWN_DEAL)
    m.round_of("KD", "7D", "AC")  # s1 wins T1 and declares falsely: s2 and s0 score 3 each (no tricks)
    m.declare(1)
    events = m.act(None, {"type": "score_round"})
    assert events[0]["data"]["scores"] == [4, 0, 4] and [e["type"] for e in events] == ["round_scored"]
    assert RULES.pending_system_action(m.state) == {"type": "deal"}


def test_dealer_rules_with_three_players():
    for rule, expected in [("alternate", 1), ("winner_deals", 0), ("loser_deals", 1)]:
        m = Match({**THREE, "dealer_rule": rule}, deck=OWN_DEAL)
        m.round_of("AS", "QS", "AC"), m.round_of("TS", "JS", "9H")
        m.meld(0, "H"), m.round_of("QH", "8D", "7D")
        m.play(0, "JC"), m.play(1, "9C"), m.play(2, "KC")
        m.play(2, "8C"), m.play(0, "TC"), m.play(1, "8H")
        m.play(1, "AD"), m.play(2, "QD"), m.play(0, "JH")
        m.declare(0)
        assert m.score()["next_dealer"] == expected  # s0 won; loser_deals: first loser from the dealer on
