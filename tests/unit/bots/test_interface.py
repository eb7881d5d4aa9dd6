"""games.bots: one interface for every game and level, and a choice that depends only on view and seed."""

from __future__ import annotations

import copy
import json
import random

import pytest

from bench import botlab
from games import bots
from games.registry import BOT_LEVELS, rules_for


def positions(game: str, count: int, seed: int = 3):
    """Views of seats to act, reached by random play, with the engine state they came from."""
    rules, n = rules_for(game), botlab.SEATS[game]
    options = rules.normalize_options(botlab.OPTIONS[game], n)
    rng, found = random.Random(seed), []
    state = rules.new_state(options, n, 0)
    while len(found) < count:
        pending = rules.pending_system_action(state)
        if pending is not None:
            action, seat = dict(pending), None
            if action["type"] == "deal":
                action["deck"] = rng.sample(rules.deck(options), len(rules.deck(options)))
        elif rules.to_act(state):
            seat = rules.to_act(state)[0]
            found.append((botlab.seat_view(rules, game, options, state, seat), state))
            action = rng.choice(rules.legal_actions(state, seat))
        else:
            state = rules.new_state(options, n, 0)
            continue
        for event in rules.decide(state, seat, action):
            state = rules.evolve(state, event)
    return found


def test_registry_offers_every_level_of_the_interface():
    assert tuple(BOT_LEVELS) == bots.LEVELS


@pytest.mark.parametrize("game", sorted(botlab.SEATS))
@pytest.mark.parametrize("level", bots.LEVELS)
def test_every_level_returns_a_legal_action(game, level):
    for view, _ in positions(game, 12)[::3]:
        assert bots.choose(view, level=level, seed=7, samples=4) in view["legal_actions"]


@pytest.mark.parametrize("game", sorted(botlab.SEATS))
def test_the_choice_depends_only_on_view_and_seed(game):
    """Same view JSON and seed, fresh objects: the same action and values; the view is not modified."""
    for view, _ in positions(game, 8, seed=11)[::2]:
        frozen = json.dumps(view, sort_keys=True)
        first = bots.decide(json.loads(frozen), "expert", seed=5, samples=6)
        again = bots.decide(copy.deepcopy(json.loads(frozen)), "expert", seed=5, samples=6)
        assert first == again
        assert json.dumps(view, sort_keys=True) == frozen


def test_the_same_view_from_different_hidden_deals_gets_the_same_choice():
    """Two deals that differ only in the cards the seat cannot see give the seat the same view,
    so the expert must choose the same: it cannot peek at hidden cards."""
    rules = rules_for("sixty-six")
    options = rules.normalize_options({"variant": "2p24"}, 2)
    deck = rules.deck(options)
    random.Random(2).shuffle(deck)
    # Dealer 1 deals seat 0 deck[0:3] and deck[6:9], seat 1 deck[3:6] and deck[9:12]; deck[12] is the
    # trump card, the stock follows. Swap a card of seat 1's hand with one deep in the stock.
    other = list(deck)
    other[3], other[20] = other[20], other[3]
    views = []
    for d in (deck, other):
        state = rules.new_state(options, 2, 1)  # dealer 1: seat 0 leads
        for event in rules.decide(state, None, {"type": "deal", "deck": d}):
            state = rules.evolve(state, event)
        views.append(botlab.seat_view(rules, "sixty-six", options, state, 0))
    assert views[0] == views[1]
    assert bots.decide(views[0], "expert", seed=1, samples=8) == bots.decide(views[1], "expert", seed=1, samples=8)


def test_unknown_level_and_not_your_turn_are_refused():
    view, _ = positions("sixty-six", 1)[0]
    with pytest.raises(ValueError):
        bots.choose(view, level="grandmaster")
    with pytest.raises(ValueError):
        bots.choose({**view, "legal_actions": []}, level="basic")


def test_a_short_bot_lab_run_completes():
    """A few matches, so the lab cannot rot (no win-rate assertion: that is measured, not tested)."""
    total = botlab.run("sixty-six", "expert", "random", pairs=1, procs=1)
    assert total["matches"] == 2 and total["deals"] >= 2
    assert total["times"]["expert"]["n"] > 0
    assert "matches won by A" in botlab.report("sixty-six", "expert", "random", total)
