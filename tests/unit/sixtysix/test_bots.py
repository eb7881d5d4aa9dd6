"""Bots choose only from legal_actions, are reproducible, and basic clearly beats random."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.sixtysix import bots
from tests.unit.sixtysix.support import bot_view, play_match, seats_for

VARIANTS = [{"variant": v} for v in ("2p24", "2p20", "2p32", "3p", "4p")] + [
    {"variant": "3p", "three_player_mode": "pagat_no_talon"},
    {"profile": "schnapsen"},
]


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(["random", "basic"]), st.sampled_from(VARIANTS))
def test_every_choice_is_legal_and_reproducible(seed, level, options):
    n = seats_for(options)

    def check(state, events):
        for seat in range(n):
            view = bot_view(state, seat)
            if view["legal_actions"]:
                choice = bots.choose(view, level, random.Random(seed))
                assert choice in view["legal_actions"]
                assert bots.choose(view, level, random.Random(seed)) == choice

    play_match({**options, "match_target": 3}, seed, (level,) + ("basic",) * (n - 1), on_step=check)


def test_basic_beats_random():
    matches, wins = 200, 0
    for seed in range(matches):
        basic_seat = seed % 2
        levels = ("basic", "random") if basic_seat == 0 else ("random", "basic")
        final, _ = play_match({}, seed, levels, first_dealer=(seed // 2) % 2)
        wins += final.winner == basic_seat
    assert wins >= 180, wins


@pytest.mark.parametrize("options", [{"variant": "3p"}, {"variant": "3p", "three_player_mode": "pagat_no_talon"}])
def test_basic_beats_two_random_players(options):
    matches, wins = 90, 0
    for seed in range(matches):
        basic_seat = seed % 3
        levels = tuple("basic" if s == basic_seat else "random" for s in range(3))
        final, _ = play_match(options, seed, levels, first_dealer=(seed // 3) % 3)
        wins += final.winner == basic_seat
    assert wins >= 65, wins  # a third would be chance


def test_a_basic_partnership_beats_a_random_one():
    matches, wins = 60, 0
    for seed in range(matches):
        basic_side = seed % 2
        levels = tuple("basic" if s % 2 == basic_side else "random" for s in range(4))
        final, _ = play_match({"variant": "4p"}, seed, levels, first_dealer=(seed // 2) % 4)
        wins += final.winner == basic_side
    assert wins >= 54, wins


def test_basic_throws_points_on_its_partners_trick_when_last_to_play():
    from tests.unit.sixtysix.support import Match, deal_deck

    deck = deal_deck(
        {"variant": "4p"},
        3,
        {
            0: "AS 9C 9C JC QC KC TC".split(),
            1: "AC QS 9D 9D JD QD KD".split(),
            2: "QH JS 9S TD AD TD AD".split(),
            3: "9S TS 9H JH QS TH AH".split(),
        },
        trump_card="KH",
    )
    m = Match({"variant": "4p"}, first_dealer=3, deck=deck)
    m.play(0, "9C"), m.play(1, "AC"), m.play(2, "9S")
    # Seat 3's partner (seat 1) wins with AC and nobody plays after seat 3: add the ten (not the ace).
    assert bots.choose(bot_view(m.state, 3), "basic", random.Random(0)) == {"type": "play", "card": "TS"}


def test_basic_declares_when_out():
    from tests.unit.sixtysix.support import Match
    from tests.unit.sixtysix.test_edge_cases import DECK_A

    m = Match(deck=DECK_A)
    m.trick("AS", "9S")
    m.exchange(1)
    m.meld(1, "H")
    m.trick("QH", "AH")
    m.play(0, "TC")
    m.play(1, "AC")
    assert bots.choose(bot_view(m.state, 1), "basic", random.Random(0)) == {"type": "declare_out"}


def test_basic_exchanges_and_melds_the_trump_marriage_first():
    from tests.unit.sixtysix.support import Match
    from tests.unit.sixtysix.test_edge_cases import DECK_A

    m = Match(deck=DECK_A)
    m.trick("AS", "9S")
    assert bots.choose(bot_view(m.state, 1), "basic", random.Random(0)) == {"type": "exchange"}
    m.exchange(1)
    assert bots.choose(bot_view(m.state, 1), "basic", random.Random(0)) == {"type": "meld", "suit": "H"}
    m.meld(1, "H")
    assert bots.choose(bot_view(m.state, 1), "basic", random.Random(0)) == {"type": "play", "card": "QH"}
