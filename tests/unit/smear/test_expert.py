"""The Smear expert: judgements from the issue (a bidder with A-K-J bids; junk does not bid 4; the
trump Jack is taken when it can be), values for every legal action, legal and reproducible choices."""

from __future__ import annotations

import copy
import json
import random

import pytest

from bench import botlab
from games import bots
from games.smear import RULES
from tests.unit.smear.support import Match, build_deck


def seat_view(m: Match, seat: int) -> dict:
    return botlab.seat_view(RULES, "smear", m.options, m.state, seat)


def opening(hand: str) -> Match:
    """Dealer 3, so seat 0 speaks first holding `hand`; the others get the rest in pack order."""
    rest = [c for c in RULES.deck({}) if c not in hand.split()]
    return Match(first_dealer=3, deck=build_deck([hand, rest[:6], rest[6:12], rest[12:18]]))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_bidder_holding_ace_king_jack_bids(seed):
    view = seat_view(opening("AS KS JS 8H 9D 8C"), 0)
    assert bots.choose(view, "basic", seed=seed)["type"] == "bid"
    action, values = bots.decide(view, "expert", seed=seed)
    assert action["type"] == "bid"
    assert values[bots.action_key(action)] > values["pass"]


@pytest.mark.parametrize("seed", [0, 1])
def test_a_junk_hand_passes_and_never_bids_four(seed):
    view = seat_view(opening("9S 8H 9D 8C 9H 8D"), 0)
    action, values = bots.decide(view, "expert", seed=seed)
    assert action == {"type": "pass"}
    assert values["bid 4"] < values["pass"]


def test_the_partner_takes_the_trump_jack_an_opponent_had_to_play():
    deck = build_deck(["AS 9S TH 9H 8D 7C", "JS AH KH 8H QD 9C", "KS 8S AD KD 7D 8C", "QH JH 7H TD 9D TC"])
    m = Match(first_dealer=3, deck=deck)
    m.bid(0, 2), m.pass_(1), m.pass_(2), m.pass_(3)
    m.play(0, "9S"), m.play(1, "JS")  # s1's only spade: the Jack is on the table
    action, values = bots.decide(seat_view(m, 2), "expert", seed=3)
    assert action == {"type": "play", "card": "KS"}
    assert values["KS"] > values["8S"]


def positions(count: int, seed: int, widow_size: int):
    """Views of seats to act, reached by random play (widow matches include the discard)."""
    options = RULES.normalize_options({"widow_size": widow_size}, 4)
    rng, found = random.Random(seed), []
    state = RULES.new_state(options, 4, seed % 4)
    while len(found) < count:
        pending = RULES.pending_system_action(state)
        if pending is not None:
            action, seat = dict(pending), None
            if action["type"] == "deal":
                action["deck"] = rng.sample(RULES.deck(options), 32)
        elif RULES.to_act(state):
            seat = RULES.to_act(state)[0]
            found.append(botlab.seat_view(RULES, "smear", options, state, seat))
            action = rng.choice(RULES.legal_actions(state, seat))
        else:
            state = RULES.new_state(options, 4, 0)
            continue
        for event in RULES.decide(state, seat, action):
            state = RULES.evolve(state, event)
    return found


@pytest.mark.parametrize("widow_size", [0, 1, 2, 3])
def test_every_choice_is_legal_with_a_value_for_every_legal_action(widow_size):
    views = positions(60, seed=widow_size, widow_size=widow_size)
    kinds = {a["type"] for v in views for a in v["legal_actions"]}
    assert {"bid", "pass", "play"} <= kinds and (widow_size == 0 or "discard" in kinds)
    for view in views:
        action, values = bots.decide(view, "expert", seed=9, samples=6)
        assert action in view["legal_actions"]
        keys = [bots.action_key(a) for a in view["legal_actions"]]
        assert len(set(keys)) == len(keys), "action keys must tell the legal actions apart"
        assert sorted(values) == sorted(keys)
        assert all(isinstance(v, float) for v in values.values())


def test_the_choice_depends_only_on_view_and_seed():
    for view in positions(40, seed=5, widow_size=2)[::4]:
        frozen = json.dumps(view, sort_keys=True)
        first = bots.decide(json.loads(frozen), "expert", seed=4, samples=8)
        assert bots.decide(copy.deepcopy(view), "expert", seed=4, samples=8) == first
        assert json.dumps(view, sort_keys=True) == frozen


def test_stop_ends_the_search_early_with_values_for_every_action():
    view = seat_view(opening("AS KS JS 8H 9D 8C"), 0)
    action, values = bots.decide(view, "expert", seed=1, samples=400, stop=lambda: True)
    assert action in view["legal_actions"] and sorted(values) == ["bid 2", "bid 3", "bid 4", "pass"]
