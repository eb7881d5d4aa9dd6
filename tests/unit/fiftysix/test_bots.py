"""Bots choose only from legal_actions, are reproducible, and basic plays sensibly and beats random."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.fiftysix import bots
from tests.unit.fiftysix.support import DECK_113, KINGS_AND_QUEENS, Match, bot_view, first_hand_match, play_match


@settings(max_examples=20, deadline=None)
@given(
    st.integers(0, 2**32 - 1),
    st.sampled_from(["random", "basic"]),
    st.sampled_from([4, 6, 8]),
    st.sampled_from(["pairs", "two_sides"]),
)
def test_every_choice_is_legal_and_reproducible(seed, level, players, team_format):
    def check(state, events):
        for seat in range(players):
            view = bot_view(state, seat)
            if view["legal_actions"]:
                choice = bots.choose(view, level, random.Random(seed))
                assert choice in view["legal_actions"]
                assert bots.choose(view, level, random.Random(seed)) == choice

    play_match(
        {"team_format": team_format, "starting_tables": 1},
        players,
        seed,
        ["basic"] * players,
        on_step=check,
        max_deals=2,
    )


def test_basic_beats_random():
    wins = 0
    for seed in range(40):
        basic = seed % 2  # side of the basic bots
        levels = ["basic" if s % 2 == basic else "random" for s in range(4)]
        final, _ = play_match({"starting_tables": 3}, 4, seed, levels, first_dealer=seed % 4)
        wins += final.winner == basic
    assert wins >= 36, wins


def view_of(m, seat):
    return bot_view(m.state, seat)


def test_basic_does_not_outbid_its_partner_and_bids_a_strong_hand():
    m = Match(deck=DECK_113)  # s0 holds JS JH JC 9H 9D: three jacks
    first = bots.choose(view_of(m, 0), "basic", random.Random(0))
    assert first["type"] == "bid" and first["value"] == 28
    m.act(0, first)
    m.pass_(1)
    assert bots.choose(view_of(m, 2), "basic", random.Random(0)) == {"type": "pass"}  # partner's bid stands


def test_basic_passes_a_weak_hand():
    m = first_hand_match(KINGS_AND_QUEENS)
    assert bots.choose(view_of(m, 0), "basic", random.Random(0)) == {"type": "pass"}


def test_basic_wins_an_opponents_lead_with_a_card_nobody_can_top():
    m = Match(deck=DECK_113)
    m.bid(0, 28, "H")
    for seat in (1, 2, 3):
        m.pass_(seat)
    m.play(0, "TS")
    # s1 holds JS and AS; the other JS and both 9S are still out, so only the jack is safe.
    choice = bots.choose(view_of(m, 1), "basic", random.Random(0))
    assert choice == {"type": "play", "card": "JS"}
    m.act(1, choice)
    # s2 (9S AS QS) cannot beat the jack: it follows with its cheapest spade.
    assert bots.choose(view_of(m, 2), "basic", random.Random(0)) == {"type": "play", "card": "QS"}


def test_basic_keeps_off_a_partners_winning_trick_and_feeds_it_when_last():
    m = Match(deck=DECK_113)
    m.bid(0, 28, "NT")
    for seat in (1, 2, 3):
        m.pass_(seat)
    m.play(0, "JS")  # s0 leads the jack: the first copy wins ties
    m.play(1, "AS")
    # s2 holds 9S AS QS; the JS is winning for its partner: it plays the cheapest spade.
    assert bots.choose(view_of(m, 2), "basic", random.Random(0)) == {"type": "play", "card": "QS"}


def test_basic_trumps_only_when_it_matters():
    m = Match(deck=DECK_113)
    m.bid(0, 28, "D")
    for seat in (1, 2, 3):
        m.pass_(seat)
    m.trick("JS", "JS", "9S", "TS")
    m.trick("TS", "AS", "AS", "9S")
    m.play(3, "KS")
    m.play(0, "QS")
    # s1 has no spades left; the trick holds no points: it does not spend a trump (JD TD QD).
    choice = bots.choose(view_of(m, 1), "basic", random.Random(0))["card"]
    assert choice[1] != "D" and choice[0] not in "J9"
