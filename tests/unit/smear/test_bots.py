"""Bots choose only from legal_actions, are reproducible, play sensibly, and basic beats random."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.smear import bots
from tests.unit.smear.support import Match, bot_view, build_deck, play_match
from tests.unit.smear.test_edge_cases import DECK_X


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(["random", "basic"]), st.sampled_from([0, 1, 2, 3]))
def test_every_choice_is_legal_and_reproducible(seed, level, widow_size):
    def check(state, events):
        for seat in range(4):
            view = bot_view(state, seat)
            if view["legal_actions"]:
                choice = bots.choose(view, level, random.Random(seed))
                assert choice in view["legal_actions"]
                assert bots.choose(view, level, random.Random(seed)) == choice

    play_match(
        {"widow_size": widow_size, "match_target": 4},
        seed,
        (level, "basic", level, "basic"),
        on_step=check,
        max_deals=6,
    )


def test_basic_beats_random():
    matches, wins = 60, 0
    for seed in range(matches):
        basic = seed % 2
        levels = tuple("basic" if s % 2 == basic else "random" for s in range(4))
        final, _ = play_match({"widow_size": seed % 4}, seed, levels, first_dealer=seed % 4)
        wins += final.winner == basic
    assert wins >= 57, wins


def test_basic_bids_from_trumps_and_points_and_passes_junk():
    strong = build_deck(["AS KS JS 7S TD AC", "9H 8H 7H 9D 8D 7D", "QH JH TH QD JD 9C", "KH AH KD AD KC QC"])
    m = Match(first_dealer=3, deck=strong)
    # High and Low are sure, the Jack well guarded, Game likely: 3 (4 would stake the whole deal on Game).
    assert bots.choose(bot_view(m.state, 0), "basic", random.Random(0)) == {"type": "bid", "value": 3}
    m.pass_(0)
    assert bots.choose(bot_view(m.state, 1), "basic", random.Random(0)) == {"type": "pass"}


def test_basic_discards_non_trumps_banking_tens_and_names_its_long_suit():
    deck = build_deck(["AS KS QS 9S TD 8H", "9H 7H 9D 8D 7D 9C", "QH JH TH QD JD 8C", "KH AH KD AD KC QC"], "8S 7C")
    m = Match({"widow_size": 2}, first_dealer=3, deck=deck)
    m.bid(0, 3), m.pass_(1), m.pass_(2), m.pass_(3)
    choice = bots.choose(bot_view(m.state, 0), "basic", random.Random(0))
    # The TD is banked for Game; the other card is a worthless singleton (8H or 7C), never a spade.
    assert choice["trump"] == "S" and "TD" in choice["cards"] and set(choice["cards"]) - {"TD"} <= {"8H", "7C"}


def test_basic_leads_its_top_trump_to_pull_trumps():
    m = Match(first_dealer=3, deck=DECK_X)
    m.bid(0, 2), m.pass_(1), m.pass_(2), m.pass_(3)
    m.play(0, "7S"), m.play(1, "KS"), m.play(2, "JS"), m.play(3, "9S")
    m.play(1, "KH"), m.play(2, "9H"), m.play(3, "QH"), m.play(0, "AH")
    assert bots.choose(bot_view(m.state, 0), "basic", random.Random(0)) == {"type": "play", "card": "AS"}


def test_basic_smears_a_ten_onto_its_partners_safe_trick_and_keeps_its_jack():
    m = Match(first_dealer=3, deck=DECK_X)
    m.bid(0, 2), m.pass_(1), m.pass_(2), m.pass_(3)
    m.play(0, "AS"), m.play(1, "8S")
    # s2 holds JS 9H 8H QD 7C 8C: it must follow with JS, its only trump; partner's AS is safe.
    assert bots.choose(bot_view(m.state, 2), "basic", random.Random(0)) == {"type": "play", "card": "JS"}
    m.play(2, "JS")
    # s3 holds 9S QH TS TD TC TH: must play a spade; the opponents' AS wins, so it saves its TS.
    assert bots.choose(bot_view(m.state, 3), "basic", random.Random(0)) == {"type": "play", "card": "9S"}
    m.play(3, "9S")
    m.play(0, "AD"), m.play(1, "KD")
    # s2 must follow with its only diamond.
    assert bots.choose(bot_view(m.state, 2), "basic", random.Random(0)) == {"type": "play", "card": "QD"}
    m.play(2, "QD")
    # s3 last, partner s1 not winning: it cannot beat AD without trumping; TS would win it.
    assert bots.choose(bot_view(m.state, 3), "basic", random.Random(0)) == {"type": "play", "card": "TS"}
