"""Every two-player option of RULES §2.12, the variants, and option normalisation."""

from __future__ import annotations

import pytest

from games.errors import OptionError
from games.sixtysix import RULES
from tests.unit.sixtysix.support import Match, build_deck
from tests.unit.sixtysix.test_edge_cases import DECK_A, _worked_example_a, rule_error


def test_defaults_are_filled_in():
    assert RULES.normalize_options({}, 2) == {
        "variant": "2p24",
        "match_target": 7,
        "dealer_rule": "alternate",
        "close_before_draw": True,
        "meld_after_close": False,
        "false_declaration": "two_or_three",
        "last_trick_rule": "plus10",
        "closed_scoring": "final_totals",
        "non_closer_may_exchange_at_close": False,
        "min_stock_to_close": 0,
        "min_stock_for_exchange": 0,
        "schneider_threshold": 33,
        "draw_bonus": False,
        "profile": "sixty_six",
        "three_player_mode": "talon_with_dead_cards",
    }


def test_snake_case_values_and_first_dealer_are_accepted():
    opts = RULES.normalize_options(
        {
            "dealer_rule": "winner_deals",
            "false_declaration": "mirror",
            "last_trick_rule": "last_trick_wins_one_point",
            "closed_scoring": "at_closing",
            "first_dealer": 1,
        },
        2,
    )
    assert opts["dealer_rule"] == "winner_deals" and opts["first_dealer"] == 1


@pytest.mark.parametrize(
    "options, n, field",
    [
        ({"variant": "3p"}, 2, "variant"),
        ({"variant": "4p"}, 3, "variant"),
        ({"variant": "5p"}, 2, "variant"),
        ({"variant": "2p24"}, 3, "variant"),
        ({"dealerRule": "alternate"}, 2, "dealerRule"),
        ({"dealer_rule": "winnerDeals"}, 2, "dealer_rule"),
        ({"match_target": 0}, 2, "match_target"),
        ({"match_target": True}, 2, "match_target"),
        ({"close_before_draw": "yes"}, 2, "close_before_draw"),
        ({"min_stock_to_close": 13}, 2, "min_stock_to_close"),
        ({"schneider_threshold": -1}, 2, "schneider_threshold"),
        ({"first_dealer": 2}, 2, "first_dealer"),
        ({"three_player_mode": "pagat_no_talon"}, 2, "three_player_mode"),
        ({"variant": "4p", "three_player_mode": "pagat_no_talon"}, 4, "three_player_mode"),
        ({"variant": "3p", "three_player_mode": "pagatNoTalon"}, 3, "three_player_mode"),
        ({"profile": "schnapsen66"}, 2, "profile"),
        ({"variant": "3p", "three_player_mode": "pagat_no_talon", "min_stock_to_close": 1}, 3, "min_stock_to_close"),
        ({"variant": "4p", "schneider_threshold": 102}, 4, "schneider_threshold"),
    ],
)
def test_bad_options_name_their_field(options, n, field):
    with pytest.raises(OptionError) as err:
        RULES.normalize_options(options, n)
    assert err.value.field == field


def test_three_and_four_player_variants_are_available():
    three = RULES.normalize_options({"variant": "3p"}, 3)
    assert three["schneider_threshold"] == 33 and three["three_player_mode"] == "talon_with_dead_cards"
    four = RULES.normalize_options({"variant": "4p"}, 4)
    assert four["schneider_threshold"] == 51  # RULES §2.9: half is 51 with four players
    assert RULES.seat_counts(three) == {3} and RULES.seat_counts(four) == {4}


def test_seat_counts_and_decks():
    assert RULES.seat_counts({}) == {2} and RULES.seat_counts({"variant": "2p20"}) == {2}
    assert len(RULES.deck({})) == 24 and len(RULES.deck({"variant": "2p20"})) == 20
    assert len(set(RULES.deck({"variant": "2p32"}))) == 32
    assert len(RULES.deck({"variant": "3p"})) == 32
    assert len(RULES.deck({"variant": "3p", "three_player_mode": "pagat_no_talon"})) == 24
    four = RULES.deck({"variant": "4p"})
    assert len(four) == 48 and len(set(four)) == 24  # two identical 24-card decks


def test_2p20_deals_three_then_two_and_exchanges_the_jack():
    deck = RULES.deck({"variant": "2p20"})
    m = Match({"variant": "2p20"}, deck=deck)
    rnd = m.state.round
    assert rnd.hands[1] == tuple(deck[0:3] + deck[6:8]) and rnd.hands[0] == tuple(deck[3:6] + deck[8:10])
    assert rnd.trump_card == deck[10] and len(rnd.stock) == 9
    assert m.view(0)["round"]["exchange_card"] == "J" + deck[10][1]


def test_2p32_has_a_stock_of_twenty_and_exchanges_the_seven():
    m = Match({"variant": "2p32"}, deck=RULES.deck({"variant": "2p32"}))
    rnd = m.view(0)["round"]
    assert rnd["stock_size"] == 20 and rnd["hand_sizes"] == [6, 6]
    assert rnd["exchange_card"][0] == "7"


def _winner_of_deal(dealer_rule, winner):
    m = Match({"dealer_rule": dealer_rule}, first_dealer=1 - winner, deck=DECK_A)
    _worked_example_a(m, winner=winner)  # the non-dealer wins
    return m.score()["next_dealer"]


def test_dealer_rules():
    assert _winner_of_deal("alternate", 1) == 1
    assert _winner_of_deal("winner_deals", 1) == 1
    assert _winner_of_deal("loser_deals", 1) == 0
    assert _winner_of_deal("loser_deals", 0) == 1
    assert _winner_of_deal("winner_deals", 0) == 0


def test_winner_deals_keeps_a_winning_dealer():
    deck = build_deck("JC AH AS TS 9S JS".split(), "AC KH QH AD TD KD".split(), "9H", ["JD", "QD", "9D", "KC"])
    for rule, expected in [("winner_deals", 0), ("loser_deals", 1), ("alternate", 1)]:
        m = Match({"dealer_rule": rule}, deck=deck)
        m.trick("JC", "AC")
        m.meld(0, "H")
        m.trick("QH", "AH")
        m.close(1)
        m.trick("AS", "KH")
        m.declare(0)  # seat 0, the dealer, wins
        assert m.score()["next_dealer"] == expected


def test_close_before_draw_false_draws_automatically():
    m = Match({"close_before_draw": False}, deck=DECK_A)
    m.play(1, "AS")
    events = m.play(0, "9S")
    assert [e["type"] for e in events] == ["played", "trick_taken", "drew"]
    assert m.state.phase == "lead" and m.view(0)["round"]["hand_sizes"] == [6, 6]
    rule_error("66 §2.4", m.draw, 1)
    m.close(1)  # closing is still possible at the lead
    assert m.state.round.closer == 1


def test_meld_after_close():
    deck = "KC QC AC AS JC KD TC TS JS QD 9H TH 9C KS QS 9S AH KH QH JH AD TD JD 9D".split()
    m = Match({"meld_after_close": True}, deck=deck)
    m.close(1)
    m.meld(1, "C")
    assert m.state.round.melds[0].points == 40


def test_min_stock_to_close():
    m = Match({"min_stock_to_close": 11}, deck=DECK_A)
    assert {"type": "close"} in RULES.legal_actions(m.state, 1)
    m.trick("AS", "9S", draw=False)
    m.close(1)  # before drawing the stock still has 12
    m2 = Match({"min_stock_to_close": 11}, deck=DECK_A)
    m2.trick("AS", "9S")
    rule_error("66 §2.7", m2.close, 1)  # 10 left


def test_min_stock_for_exchange():
    for minimum, allowed in [(10, True), (11, False)]:
        m = Match({"min_stock_for_exchange": minimum}, deck=DECK_A)
        m.trick("AS", "9S")
        if allowed:
            m.exchange(1)
        else:
            rule_error("66 §2.6", m.exchange, 1)


def test_non_closer_may_exchange_at_close():
    deck = build_deck("AS TS KS QS JS 9S".split(), "9H TD KD QD JD 9D".split(), "AH")
    m = Match({"non_closer_may_exchange_at_close": True}, deck=deck)
    events = m.close(1)
    assert [e["type"] for e in events] == ["closed", "exchanged"]
    assert events[1]["data"] == {"seat": 0, "gave": "9H", "took": "AH", "at_close": True}
    assert "AH" in m.hand(0) and "9H" not in m.hand(0)
    plain = Match(deck=deck)
    assert [e["type"] for e in plain.close(1)] == ["closed"]


def test_schneider_threshold():
    m = Match({"schneider_threshold": 10}, deck=DECK_A)
    _worked_example_a(m, winner=1)
    assert m.score()["game_points"] == [0, 1]  # 14 >= 10


def test_match_target():
    m = Match({"match_target": 2}, deck=DECK_A)
    _worked_example_a(m, winner=1)
    events = m.act(None, {"type": "score_round"})
    assert events[-1]["type"] == "match_ended" and events[-1]["data"]["winner"] == [1]


@pytest.mark.parametrize("n, variant", [(2, "2p24"), (3, "3p"), (4, "4p")])
def test_without_a_variant_the_number_of_seats_chooses_it(n, variant):
    options = RULES.normalize_options({}, n)
    assert options["variant"] == variant and RULES.seat_counts(options) == {n}


def test_the_schnapsen_profile_picks_its_variant_only_for_two():
    assert RULES.normalize_options({"profile": "schnapsen"}, 2)["variant"] == "2p20"
    three = RULES.normalize_options({"profile": "schnapsen"}, 3)
    assert three["variant"] == "3p" and three["meld_after_close"] is True


def test_a_variant_for_other_players_is_refused_naming_the_ones_that_fit():
    with pytest.raises(OptionError) as err:
        RULES.normalize_options({"variant": "2p24"}, 3)
    assert err.value.field == "variant" and "for 3 players: 3p" in err.value.detail
    with pytest.raises(OptionError) as err:
        RULES.normalize_options({"variant": "2p24"}, 2 + 3)
    assert "played by 2, 3, 4 players" in err.value.detail


def test_a_number_of_seats_no_variant_fits_is_refused_on_the_seats():
    with pytest.raises(OptionError) as err:
        RULES.normalize_options({}, 5)
    assert err.value.field == "seats" and "2, 3, 4" in err.value.detail
