"""RULES §2.14, edge cases 1-21 and 24 (22-23 are four-player cases), with decks built for each."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.errors import RuleError
from games.sixtysix import RULES
from games.sixtysix.legal import follow_options
from tests.unit.sixtysix.support import Match, build_deck

DECK_A = "AS QH 9H 9S JS KD TS JD AC TH QC 9D KH 9C AH TC JH KS QS AD TD QD KC JC".split()


def rule_error(section, fn, *args):
    with pytest.raises(RuleError) as err:
        fn(*args)
    assert err.value.rule == section, err.value
    return err.value


def legal_cards(m, seat):
    return sorted(a["card"] for a in RULES.legal_actions(m.state, seat) if a["type"] == "play")


def test_01_pending_marriage_becomes_active_on_a_later_trick():
    deck = build_deck("KS QS 9D JD 9C JC".split(), "AS TS AD TD AC TC".split(), "9H", ["JH", "AH"])
    m = Match(deck=deck)
    assert m.meld(1, "S")[0]["data"]["pending"] is True
    m.play(1, "QS")
    m.play(0, "AS")
    rnd = m.view(1)["round"]
    assert rnd["meld_points"] == [0, 0] and rnd["melds"][0]["active"] is False
    m.draw(0)
    m.play(0, "TD")
    m.play(1, "AH")
    rnd = m.view(0)["round"]
    assert rnd["meld_points"] == [0, 20] and rnd["melds"][0]["active"] is True
    assert rnd["card_points"] == [14, 21]


def test_02_marriage_never_activated_gives_three():
    deck = build_deck("KH QH 9S JD 9D 9C".split(), "AH TH AS TS KS QS".split(), "9H")
    m = Match(deck=deck)
    m.meld(1, "H")
    m.trick("QH", "AH")
    m.trick("TH", "9S")
    m.meld(0, "S")
    m.trick("KS", "JD")
    m.trick("AS", "9D")
    m.play(0, "TS")
    m.play(1, "9C")
    m.declare(0)
    result = m.score()
    assert result["totals"] == [71, 0] and result["tricks"] == [5, 0]
    assert (result["case"], result["game_points"]) == ("A1", [3, 0])


def test_03_meld_then_declare_without_leading():
    deck = build_deck("AS TS AD TD KC QC".split(), "9S QS QD JD 9C JC".split(), "9H")
    m = Match(deck=deck)
    for lead, follow in [("AS", "9S"), ("TS", "QS"), ("AD", "QD"), ("TD", "JD")]:
        m.trick(lead, follow)
    assert m.view(1)["round"]["card_points"] == [0, 50]
    m.meld(1, "C")
    m.declare(1)
    result = m.score()
    assert result["totals"] == [0, 70]
    assert (result["case"], result["game_points"]) == ("A1", [0, 3])  # P0 has no trick


def _false_declaration_with_60(options):
    deck = build_deck("AS AC AH TS TC AD".split(), "KS KC KH TD TH KD".split(), "QD")
    m = Match(options, deck=deck)
    for lead, follow in [("AS", "KS"), ("AC", "KC"), ("AH", "KH"), ("TS", "TD"), ("TH", "TC"), ("KD", "AD")]:
        m.trick(lead, follow, draw=False) if lead == "KD" else m.trick(lead, follow)
    assert m.state.phase == "after_trick"
    m.declare(1)
    return m.score()


def test_04_false_declaration_opponent_with_tricks_scores_two():
    result = _false_declaration_with_60({})
    assert result["totals"] == [40, 60] and result["tricks"] == [2, 4]
    assert (result["case"], result["game_points"]) == ("B2", [2, 0])


def test_04_false_declaration_mirror_gives_the_win_scale_against_the_opponent():
    result = _false_declaration_with_60({"false_declaration": "mirror"})
    assert (result["case"], result["game_points"]) == ("B2", [1, 0])


def test_04_false_declaration_opponent_without_tricks_scores_three():
    deck = build_deck("AS AC AH TS KH TC".split(), "QS QC QH JS JH 9S".split(), "9D")
    m = Match(deck=deck)
    for lead, follow in [("AS", "QS"), ("AC", "QC"), ("AH", "QH"), ("TS", "JS")]:
        m.trick(lead, follow)
    m.play(1, "KH")
    m.play(0, "JH")
    m.declare(1)
    result = m.score()
    assert result["totals"] == [0, 60]
    assert (result["case"], result["game_points"]) == ("B2", [3, 0])


def _closer_succeeds(options):
    deck = build_deck(
        "AS TH AH KC QC KD".split(), "9S TC 9H AD JS JD".split(), "9C", ["9D", "QS", "KS", "JH", "QH", "KH"]
    )
    m = Match(options, deck=deck)
    m.trick("AS", "9S")
    m.trick("TH", "TC")
    m.trick("9H", "AH")
    m.meld(1, "C")
    m.close(1)
    assert m.state.round.tricks_at_close == (1, 2) and m.state.round.totals_at_close == (20, 62)
    m.trick("QC", "JD")
    m.trick("KD", "AD")
    assert m.view(1)["round"]["card_points"][0] == 35
    m.trick("KS", "KC")
    m.declare(1)
    return m.score()


def test_05_closer_succeeds_opponent_counted_at_the_end():
    result = _closer_succeeds({})
    assert result["totals"] == [35, 75]
    assert (result["case"], result["game_points"]) == ("A1", [0, 1])


def test_05_at_closing_scoring_counts_the_opponent_when_the_stock_was_closed():
    result = _closer_succeeds({"closed_scoring": "at_closing"})
    assert (result["case"], result["game_points"]) == ("A1", [0, 2])


def test_06_closer_fails_opponent_had_a_trick_at_closing():
    deck = build_deck("JC AC TS KS QS JS".split(), "QC KC AD TD KD QD".split(), "9H", ["JD", "9S"])
    m = Match(deck=deck)
    m.trick("JC", "QC")
    m.play(0, "KC")
    m.play(1, "AC")
    m.close(1)  # AFTER_TRICK, before drawing (edge case 18)
    assert m.view(0)["round"]["hand_sizes"] == [5, 5]
    for lead, follow in [("TS", "AD"), ("KS", "TD"), ("QS", "KD"), ("JS", "QD"), ("9S", "JD")]:
        m.trick(lead, follow)
    result = m.score()
    assert result["totals"] == [5, 64] and result["last_trick_points"] == [0, 0]
    assert (result["case"], result["game_points"]) == ("C1", [2, 0])


def test_06_closer_fails_opponent_had_no_trick_at_closing():
    deck = build_deck("AS TS KS QS JS 9S".split(), "AD TD KD QD JD 9D".split(), "9H")
    m = Match(deck=deck)
    m.close(1)
    for lead, follow in zip("AS TS KS QS JS 9S".split(), "AD TD KD QD JD 9D".split()):
        m.trick(lead, follow)
    result = m.score()
    assert result["totals"] == [0, 60] and result["tricks"] == [0, 6]
    assert (result["case"], result["game_points"]) == ("C1", [3, 0])


def test_07_opponent_of_closer_declares_first_after_a_trick_at_closing():
    deck = build_deck("JC AH AS TS 9S JS".split(), "AC KH QH AD TD KD".split(), "9H", ["JD", "QD", "9D", "KC"])
    m = Match(deck=deck)
    m.trick("JC", "AC")
    m.meld(0, "H")
    m.trick("QH", "AH")
    m.close(1)
    assert m.state.round.tricks_at_close == (1, 1)
    m.play(1, "AS")
    assert legal_cards(m, 0) == ["KH"]
    m.play(0, "KH")
    m.declare(0)
    result = m.score()
    assert result["totals"][0] == 68
    assert (result["case"], result["game_points"]) == ("A2", [2, 0])


def test_07_opponent_of_closer_declares_first_with_no_trick_at_closing():
    deck = build_deck("KH QH AC TC AD TD".split(), "AH JC KD 9S JS QS".split(), "9H")
    m = Match(first_dealer=1, deck=deck)  # seat 0 leads first
    m.meld(0, "H")
    m.play(0, "QH")
    m.play(1, "AH")
    m.close(1)
    assert m.state.round.tricks_at_close == (0, 1)
    m.play(1, "JC")
    assert legal_cards(m, 0) == ["AC", "TC"]
    m.play(0, "AC")
    m.trick("AD", "KD")
    m.declare(0)
    result = m.score()
    assert result["totals"] == [68, 14]
    assert (result["case"], result["game_points"]) == ("A2", [3, 0])


def test_08_closer_declares_falsely_measured_at_closing():
    deck = build_deck("KS QS AS TS AD JS".split(), "TH KD QD JD 9D TC".split(), "9H")
    m = Match(deck=deck)
    m.meld(1, "S")
    m.close(1)
    m.play(1, "QS")
    assert legal_cards(m, 0) == ["TH"]
    m.play(0, "TH")
    m.play(0, "KD")
    m.play(1, "AD")
    m.trick("AS", "JD")
    m.trick("KS", "TC")
    m.declare(1)
    result = m.score()
    assert result["totals"] == [13, 62] and result["tricks"] == [1, 3]
    assert (result["case"], result["game_points"]) == ("B1", [3, 0])


def test_09_closer_loses_the_last_trick_after_forgetting_to_declare():
    deck = build_deck("AS TS AC TC AD 9D".split(), "KS QS KC QC KD TD".split(), "9H")
    m = Match(deck=deck)
    m.close(1)
    for lead, follow in [("AS", "KS"), ("TS", "QS"), ("AC", "KC"), ("TC", "QC"), ("AD", "KD")]:
        m.trick(lead, follow)
    assert {"type": "declare_out"} in RULES.legal_actions(m.state, 1)
    m.trick("9D", "TD")  # P1 led instead of declaring with 71
    result = m.score()
    assert result["totals"] == [10, 71]
    assert (result["case"], result["game_points"]) == ("C1", [3, 0])


@pytest.mark.parametrize(
    "hand, allowed",
    [
        (["AH", "9H", "TC", "JC", "9S"], ["AH"]),
        (["9H", "TC", "JC", "9S"], ["9H"]),
        (["TC", "JC", "9S"], ["JC", "TC"]),
        (["9S", "QD", "KD"], ["9S", "KD", "QD"]),
    ],
)
def test_10_strict_play_after_a_plain_lead(hand, allowed):
    assert sorted(follow_options(hand, ["KH"], "C", strict=True)) == sorted(allowed)


def test_11_trump_lead_in_phase_two_must_be_beaten():
    assert follow_options(["AC", "JC", "AS"], ["TC"], "C", strict=True) == ["AC"]
    assert sorted(follow_options(["QC", "JC", "AS"], ["TC"], "C", strict=True)) == ["JC", "QC"]


def test_12_no_obligation_in_phase_one():
    deck = build_deck("AH 9C JC QC KC TC".split(), "9S KH JS QS KS TS".split(), "9D")
    m = Match(deck=deck)
    m.play(1, "AH")
    m.play(0, "9S")  # holds KH, may still throw a spade
    assert m.state.round.tricks[-1].winner == 1


def test_13_exchange_rules():
    m = Match(deck=DECK_A)
    rule_error("66 §2.6", m.exchange, 1)  # trick 1: no trick won yet
    m.play(1, "AS")
    rule_error("66 §2.6", m.exchange, 0)  # the follower
    m.play(0, "9S")
    m.draw(1)
    m.exchange(1)
    assert m.state.round.trump_card == "9H"
    moves = _play_out_phase_one(m)
    last_draw = [e for e in m.events if e["type"] == "drew"][-1]["data"]["draws"][-1]
    assert last_draw["card"] == "9H" and last_draw["face_up"] is True
    assert moves >= 1
    rule_error("66 §2.6", m.exchange, m.state.round.to_play)  # stock exhausted


def test_13_exchange_rejected_after_closing():
    m = Match(deck=DECK_A)
    m.trick("AS", "9S")
    m.close(1)
    rule_error("66 §2.6", m.exchange, 1)


def _play_out_phase_one(m):
    """Plays the first legal card (or draws) until the stock is exhausted; returns the tricks played."""
    count = 0
    while m.state.round.stock or m.state.round.trump_card:
        seat = m.state.round.to_play
        action = RULES.legal_actions(m.state, seat)
        choice = next(a for a in action if a["type"] in ("draw", "play"))
        m.act(seat, choice)
        count += choice["type"] == "play"
    return count


def test_14_draw_order_and_phase_two_from_trick_seven():
    m = Match(deck=DECK_A)
    _play_out_phase_one(m)
    rnd = m.state.round
    assert len(rnd.tricks) == 6 and m.state.phase == "lead"
    draws = [e for e in m.events if e["type"] == "drew"][-1]["data"]["draws"]
    assert draws[0] == {"seat": rnd.tricks[-1].winner, "card": "JC", "face_up": False}
    assert draws[1] == {"seat": 1 - rnd.tricks[-1].winner, "card": "KH", "face_up": True}
    assert m.view(0)["round"]["stock_open"] is False and m.view(0)["round"]["hand_sizes"] == [6, 6]


def test_15_marriage_timing():
    m = Match(deck=DECK_A)
    _play_out_phase_one(m)
    leader = m.state.round.to_play
    hand = m.state.round.hands[leader]
    suit = next((s for s in "SHDC" if "K" + s in hand and "Q" + s in hand), "S")
    rule_error("66 §2.5", m.meld, leader, suit)  # stock exhausted
    b = Match(deck="KC QC AC AS JC KD TC TS JS QD 9H TH 9C KS QS 9S AH KH QH JH AD TD JD 9D".split())
    b.close(1)
    rule_error("66 §2.5", b.meld, 1, "C")  # after closing


def test_16_one_meld_per_lead():
    deck = build_deck("KS QS KD QD 9C JC".split(), "AS TS AD TD AC TC".split(), "9H")
    m = Match(deck=deck)
    m.meld(1, "S")
    rule_error("66 §2.5", m.meld, 1, "D")


def test_17_the_meld_card_must_be_led():
    deck = build_deck("KH QH AS 9C JC TC".split(), "9S JS QS KS TS AD".split(), "9D")
    m = Match(deck=deck)
    m.meld(1, "H")
    rule_error("66 §2.5", m.play, 1, "AS")
    m.play(1, "QH")
    assert m.state.round.trick[0].card == "QH"


def test_18_close_before_drawing_keeps_five_cards_and_kills_the_stock():
    m = Match(deck=DECK_A)
    m.play(1, "AS")
    m.play(0, "9S")
    m.close(1)
    rnd = m.view(0)["round"]
    assert rnd["hand_sizes"] == [5, 5] and rnd["trump_card"] is None and rnd["closed"] is True
    assert m.state.phase == "lead" and m.state.round.to_play == 1
    rule_error("66 §2.4", m.draw, 1)
    while m.state.phase != "round_over":
        seat = m.state.round.to_play
        m.act(seat, next(a for a in RULES.legal_actions(m.state, seat) if a["type"] == "play"))
    assert len(m.state.round.tricks) == 6 and not any(m.state.round.hands)
    assert len(m.state.round.stock) == 11  # the stock and the trump card are out of play


def test_19_no_last_trick_bonus_after_closing():
    deck = build_deck("AS TS KS QS JS 9S".split(), "AD TD KD QD JD 9D".split(), "9H")
    m = Match(deck=deck)
    m.close(1)
    assert m.view(1)["round"]["last_trick_bonus"] is False
    for lead, follow in zip("AS TS KS QS JS 9S".split(), "AD TD KD QD JD 9D".split()):
        m.trick(lead, follow)
    assert m.score()["last_trick_points"] == [0, 0]


DRAWN_DEAL = [  # found by search from DECK_A: all cards played, 65-65
    (1, "TS"),
    (0, "9S"),
    (1, "d"),
    (1, "JD"),
    (0, "JS"),
    (1, "d"),
    (1, "TC"),
    (0, "JH"),
    (0, "d"),
    (0, "9D"),
    (1, "9H"),
    (1, "d"),
    (1, "AS"),
    (0, "KD"),
    (1, "d"),
    (1, "AC"),
    (0, "KS"),
    (1, "d"),
    (1, "9C"),
    (0, "KC"),
    (0, "QC"),
    (1, "JC"),
    (0, "TD"),
    (1, "AD"),
    (1, "QS"),
    (0, "TH"),
    (0, "KH"),
    (1, "QH"),
    (0, "AH"),
    (1, "QD"),
]


def play_moves(m, moves):
    """Moves are "d" (draw), "x" (exchange), "mH" (meld hearts) or a card to play."""
    for seat, move in moves:
        if move == "d":
            m.draw(seat)
        elif move == "x":
            m.exchange(seat)
        elif move.startswith("m"):
            m.meld(seat, move[1])
        else:
            m.play(seat, move)


def test_20_drawn_deal_gives_nothing_and_passes_the_deal():
    for rule in ("alternate", "winner_deals", "loser_deals"):
        m = Match({"dealer_rule": rule}, deck=DECK_A)
        play_moves(m, DRAWN_DEAL)
        assert m.state.phase == "round_over"
        result = m.score()
        assert result["totals"] == [65, 65] and result["last_trick_points"] == [10, 0]
        assert (result["case"], result["game_points"], result["next_dealer"]) == ("C2", [0, 0], 1)


def test_draw_bonus_goes_to_the_winner_of_the_next_deal():
    m = Match({"draw_bonus": True}, deck=DECK_A)
    play_moves(m, DRAWN_DEAL)
    m.score()
    assert m.state.draw_bonus == 1
    m.deal(DECK_A)  # seat 1 deals now, so seat 0 plays worked example A's winning part
    _worked_example_a(m, winner=0)
    result = m.score()
    assert result["game_points"] == [2, 0] and result["bonus_points"] == [1, 0]
    assert result["scores"] == [3, 0] and m.state.draw_bonus == 0


def test_last_trick_wins_one_point_rule():
    m = Match({"last_trick_rule": "last_trick_wins_one_point"}, deck=DECK_A)
    play_moves(m, DRAWN_DEAL)
    result = m.score()
    assert result["last_trick_points"] == [0, 0] and result["totals"] == [55, 65]
    assert (result["case"], result["game_points"]) == ("C2", [1, 0])  # seat 0 took the last trick


FORGOTTEN = [  # found by search from DECK_A: seat 0 has 70 and leads; seat 1 wins and has 66
    (1, "JD"),
    (0, "9D"),
    (1, "d"),
    (1, "x"),
    (1, "mH"),
    (1, "QH"),
    (0, "KD"),
    (1, "d"),
    (1, "TS"),
    (0, "JH"),
    (0, "d"),
    (0, "KS"),
    (1, "AC"),
    (0, "d"),
    (0, "AD"),
    (1, "AS"),
    (0, "d"),
    (0, "QC"),
    (1, "KH"),
    (1, "d"),
    (1, "TC"),
    (0, "TH"),
    (0, "AH"),
    (1, "KC"),
    (0, "JS"),
    (1, "QS"),
    (1, "9C"),
    (0, "9H"),
]


def test_21_forgotten_declaration_lets_the_opponent_win():
    m = Match(deck=DECK_A)
    play_moves(m, FORGOTTEN)
    rnd = m.view(0)["round"]
    assert rnd["to_act"] == [0] and rnd["card_points"][0] + rnd["meld_points"][0] >= 70
    m.play(0, "QD")  # seat 0 leads instead of declaring
    m.play(1, "TD")
    assert m.view(1)["round"]["card_points"][1] + m.view(1)["round"]["meld_points"][1] >= 66
    m.declare(1)
    result = m.score()
    assert (result["case"], result["game_points"]) == ("A1", [0, 1])


def _worked_example_a(m, winner):
    """Worked example A's moves, with `winner` in the non-dealer's part."""
    w, loser = winner, 1 - winner
    m.trick("AS", "9S")
    m.exchange(w)
    m.meld(w, "H")
    m.trick("QH", "AH")
    m.play(loser, "TC")
    m.play(w, "AC")
    m.declare(w)


def test_24_match_end_at_the_target():
    m = Match(first_dealer=1)
    m.state = replace(m.state, scores=(6, 0))
    m.deal(DECK_A)
    _worked_example_a(m, winner=0)
    events = m.act(None, {"type": "score_round"})
    assert [e["type"] for e in events] == ["round_scored", "match_ended"]
    assert events[1]["data"]["winner"] == [0]
    view = m.view(None)
    assert view["winner"] == [0] and view["standing"][0]["score"] == 8
    assert RULES.pending_system_action(m.state) is None and RULES.to_act(m.state) == []


def test_13_no_exchange_when_the_exchange_card_lies_face_up():
    deck = build_deck("AS TS KS QS JS 9S".split(), "AD TD KD QD JD 9D".split(), "9H")
    m = Match(deck=deck)
    m.trick("AS", "AD")
    err = rule_error("66 §2.6", m.exchange, 1)
    assert "face up" in err.detail
