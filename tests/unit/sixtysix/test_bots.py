"""Bots choose only from legal_actions, are reproducible, and basic clearly beats random."""
from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.sixtysix import bots
from tests.unit.sixtysix.support import bot_view, play_match


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(["random", "basic"]), st.sampled_from(["2p24", "2p20", "2p32"]))
def test_every_choice_is_legal_and_reproducible(seed, level, variant):
    def check(state, events):
        for seat in range(2):
            view = bot_view(state, seat)
            if view["legal_actions"]:
                choice = bots.choose(view, level, random.Random(seed))
                assert choice in view["legal_actions"]
                assert bots.choose(view, level, random.Random(seed)) == choice

    play_match({"variant": variant, "match_target": 3}, seed, (level, "basic"), on_step=check)


def test_basic_beats_random():
    matches, wins = 200, 0
    for seed in range(matches):
        basic_seat = seed % 2
        levels = ("basic", "random") if basic_seat == 0 else ("random", "basic")
        final, _ = play_match({}, seed, levels, first_dealer=(seed // 2) % 2)
        wins += final.winner == basic_seat
    assert wins >= 180, wins


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
