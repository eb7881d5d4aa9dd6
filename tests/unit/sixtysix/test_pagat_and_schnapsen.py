"""pagat's three-player game (three_player_mode=pagat_no_talon) and the Schnapsen profile (RULES §2.12)."""

from __future__ import annotations

import pytest

from games.errors import RuleError
from games.sixtysix import RULES
from tests.unit.sixtysix.support import Match, deal_deck

PAGAT = {"variant": "3p", "three_player_mode": "pagat_no_talon"}

# Dealer 0: dealt 3-2-3 in play order 1, 2, 0. Seat 1's second batch starts with AH, dealt face up:
# hearts are trump. Seat 1's hand in the order dealt: KH QH TH | AH AD | TD KD QD.
PAGAT_DEAL = deal_deck(
    PAGAT,
    0,
    {
        1: "KH QH TH AH AD TD KD QD".split(),
        2: "TS JS 9S AC TC KC QC JC".split(),
        0: "JH 9H AS KS QS JD 9D 9C".split(),
    },
)


def legal_cards(m, seat):
    return sorted(a["card"] for a in RULES.legal_actions(m.state, seat) if a["type"] == "play")


def test_pagat_deals_three_two_three_with_the_trump_card_face_up_in_a_hand():
    assert PAGAT_DEAL[9] == "AH" and len(PAGAT_DEAL) == 24
    m = Match(PAGAT, deck=PAGAT_DEAL)
    rnd = m.state.round
    assert rnd.hands[1] == tuple(PAGAT_DEAL[0:3] + PAGAT_DEAL[9:11] + PAGAT_DEAL[15:18])
    assert rnd.hands[2] == tuple(PAGAT_DEAL[3:6] + PAGAT_DEAL[11:13] + PAGAT_DEAL[18:21])
    assert rnd.hands[0] == tuple(PAGAT_DEAL[6:9] + PAGAT_DEAL[13:15] + PAGAT_DEAL[21:24])
    assert rnd.trump_suit == "H" and rnd.stock == () and rnd.trump_card is None
    for seat in (0, 1, 2, None):
        view = m.view(seat)["round"]
        assert view["turned_card"] == "AH" and view["trump"] == "H"  # public, though in seat 1's hand
        assert view["stock_size"] == 0 and view["stock_open"] is False and view["exchange_card"] is None
        shown = RULES.event_view(m.events[0], seat)["data"]
        assert shown["trump_card"] == "AH" and shown["stock_size"] == 0
        assert all(h is None for i, h in enumerate(shown["hands"]) if i != seat)


def test_pagat_deal_strict_from_the_start_marriage_at_the_lead_and_the_win_scale_from_each():
    m = Match(PAGAT, deck=PAGAT_DEAL)
    legal = RULES.legal_actions(m.state, 1)
    assert {"type": "close"} not in legal and {"type": "exchange"} not in legal
    # T1: seat 1 shows KH QH (40 in trumps, pending: no trick yet) and leads KH.
    assert m.meld(1, "H")[0]["data"]["pending"] is True
    m.play(1, "KH")
    assert len(legal_cards(m, 2)) == 8  # no hearts (trumps): any card
    m.play(2, "TS")
    assert legal_cards(m, 0) == ["9H", "JH"]  # strict at once: must follow the trump lead
    m.play(0, "JH")  # seat 1 wins: 4+10+2 = 16, and the 40 becomes active: 56
    assert m.state.phase == "lead" and RULES.to_act(m.state) == [1]  # no stock: no after_trick
    # T2: QH, JS, 9H -> 3+2+0 = 5 (61). T3: AH, 9S, AS -> 11+0+11 = 22 (83).
    m.round_of("QH", "JS", "9H")
    m.round_of("AH", "9S", "AS")
    m.meld(1, "D")  # a marriage at any lead, though the deal is strict (20; total 103)
    m.declare(1)
    result = m.score()
    assert result["totals"] == [0, 103, 0] and result["meld_points"] == [0, 60, 0]
    # A1: 3 from each opponent (neither has a trick): 6.
    assert (result["case"], result["game_points"]) == ("A1", [0, 6, 0])


def test_pagat_played_out_deal_has_130_points_with_the_last_trick():
    m = Match(PAGAT, deck=PAGAT_DEAL)
    while m.state.phase != "round_over":
        seat = m.state.round.to_play
        m.act(seat, next(a for a in RULES.legal_actions(m.state, seat) if a["type"] == "play"))
    assert len(m.state.round.tricks) == 8
    result = m.score()
    assert sum(result["card_points"]) == 120 and sum(result["totals"]) == 130
    assert sum(result["last_trick_points"]) == 10 and result["case"] == "C2"


def test_schnapsen_profile_sets_the_defaults_and_explicit_options_win():
    opts = RULES.normalize_options({"profile": "schnapsen"}, 2)
    assert (
        opts["variant"],
        opts["meld_after_close"],
        opts["last_trick_rule"],
        opts["closed_scoring"],
        opts["min_stock_to_close"],
        opts["close_before_draw"],
    ) == ("2p20", True, "last_trick_wins_one_point", "at_closing", 4, False)
    assert opts["profile"] == "schnapsen"
    mixed = RULES.normalize_options({"profile": "schnapsen", "min_stock_to_close": 0, "variant": "2p24"}, 2)
    assert mixed["min_stock_to_close"] == 0 and mixed["variant"] == "2p24" and mixed["meld_after_close"]
    assert RULES.normalize_options({}, 2)["profile"] == "sixty_six"
    pagat = RULES.normalize_options({"profile": "schnapsen", **PAGAT}, 3)
    assert pagat["min_stock_to_close"] == 0 and pagat["meld_after_close"] is True  # no stock to close


SCHNAPSEN_DEAL = "AS TS KS QS JS AH TH KH QH JH AD TD KD QD JD AC TC KC QC JC".split()


def test_schnapsen_closing_needs_four_cards_in_the_stock():
    m = Match({"profile": "schnapsen"}, deck=SCHNAPSEN_DEAL)
    # 2p20: stock 9 + the face-up AD = 10. Draws are automatic (close_before_draw=false).
    for _ in range(3):
        leader = m.state.round.to_play
        m.act(leader, next(a for a in RULES.legal_actions(m.state, leader) if a["type"] == "play"))
        follower = m.state.round.to_play
        events = m.act(follower, next(a for a in RULES.legal_actions(m.state, follower) if a["type"] == "play"))
        assert events[-1]["type"] == "drew"
    assert m.view(0)["round"]["stock_size"] == 4
    leader = m.state.round.to_play
    assert {"type": "close"} in RULES.legal_actions(m.state, leader)
    m.act(leader, next(a for a in RULES.legal_actions(m.state, leader) if a["type"] == "play"))
    m.act(
        m.state.round.to_play,
        next(a for a in RULES.legal_actions(m.state, m.state.round.to_play) if a["type"] == "play"),
    )
    assert m.view(0)["round"]["stock_size"] == 2
    with pytest.raises(RuleError) as err:
        m.close(m.state.round.to_play)
    assert err.value.rule == "66 §2.7" and "4" in err.value.detail


def test_schnapsen_last_trick_wins_one_point():
    m = Match({"profile": "schnapsen"}, deck=SCHNAPSEN_DEAL)
    while m.state.phase != "round_over":
        seat = m.state.round.to_play
        m.act(seat, next(a for a in RULES.legal_actions(m.state, seat) if a["type"] == "play"))
    result = m.score()
    last = m.state.round.tricks[-1].winner
    assert result["last_trick_points"] == [0, 0] and sum(result["card_points"]) == 120
    assert (result["case"], result["game_points"]) == ("C2", [1 if s == last else 0 for s in (0, 1)])


def test_schnapsen_marriages_after_closing():
    deck = "KC QC AC AS JC KD TC TS JS QD 9H TH 9C KS QS 9S AH KH QH JH AD TD JD 9D".split()
    schnapsen_deck = [c for c in deck if c[0] != "9"]  # the same order without the nines: 20 cards
    m = Match({"profile": "schnapsen"}, deck=schnapsen_deck)
    assert m.state.round.hands[1] == ("KC", "QC", "AC", "TC", "TS")
    m.close(1)
    m.meld(1, "C")  # allowed after closing in Schnapsen
    assert m.state.round.trump_suit == "H" and m.state.round.melds[0].points == 20
    plain = Match({"variant": "2p20"}, deck=schnapsen_deck)
    plain.close(1)
    with pytest.raises(RuleError):
        plain.meld(1, "C")
