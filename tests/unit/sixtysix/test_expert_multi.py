"""The Sixty-Six expert in the 3- and 4-player variants: sampled worlds agree with the view, and the
search returns a legal action with a value for every legal action, the same for the same seed."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from bench import botlab
from games import bots
from games.sixtysix import RULES, expert_multi
from games.sixtysix.legal import legal_actions
from games.sixtysix.options import deck
from tests.unit.sixtysix.support import Match

VARIANTS = [{"variant": "3p"}, {"variant": "3p", "three_player_mode": "pagat_no_talon"}, {"variant": "4p"}]


def positions(options: dict, count: int, seed: int):
    """(state, seat, normalized options) at random points of deals played by random moves."""
    rng = random.Random(seed)
    found = 0
    while found < count:
        m = Match(options, first_dealer=rng.randrange(3))
        pack = RULES.deck(m.options)
        rng.shuffle(pack)
        m.deal(pack)
        stop_at = rng.randrange(40)
        for step in range(200):
            if m.state.phase not in ("lead", "follow", "after_trick"):
                break
            seat = m.state.round.to_play
            legal = legal_actions(m.state, seat)
            if step >= stop_at and len(legal) > 1:
                yield m.state, seat, m.options
                found += 1
                break
            m.act(seat, rng.choice(legal))


def view_of(state, seat, options):
    return botlab.seat_view(RULES, "sixty-six", options, state, seat)


def accounted(state) -> Counter:
    rnd = state.round
    held = Counter(c for h in rnd.hands for c in h) + Counter(rnd.stock) + Counter(rnd.dead)
    held += Counter(p.card for t in rnd.tricks for p in t.plays) + Counter(p.card for p in rnd.trick)
    if rnd.trump_card is not None:
        held[rnd.trump_card] += 1
    return held


@pytest.mark.parametrize("options", VARIANTS, ids=["3p", "pagat", "4p"])
def test_sampled_worlds_agree_with_the_view(options):
    for state, seat, opts in positions(options, 25, seed=7):
        view = view_of(state, seat, opts)
        assert expert_multi.supported(view)
        rng = random.Random(1)
        for _ in range(4):
            world = expert_multi.sample(view, rng)
            rnd = world.round
            assert sorted(rnd.hands[seat]) == sorted(state.round.hands[seat])
            assert [len(h) for h in rnd.hands] == [len(h) for h in state.round.hands]
            assert len(rnd.stock) == len(state.round.stock)
            assert accounted(world) == Counter(deck(opts))
            assert legal_actions(world, seat) == view["legal_actions"]
            # Everyone's legal actions in the world are those the engine allows, and the real
            # hands never break the inferred voids.
            lacks = expert_multi.lacking(view)
            for other, hand in enumerate(state.round.hands):
                assert not set(hand) & lacks[other]


@pytest.mark.parametrize("options", VARIANTS, ids=["3p", "pagat", "4p"])
def test_the_expert_searches_and_is_reproducible(options):
    for n, (state, seat, opts) in enumerate(positions(options, 6, seed=11)):
        view = view_of(state, seat, opts)
        action, values = bots.decide(view, "expert", seed=n, samples=12)
        assert action in view["legal_actions"]
        assert values is not None
        assert set(values) == {bots.action_key(a) for a in view["legal_actions"]}
        assert all(isinstance(v, float) for v in values.values())
        assert bots.decide(view, "expert", seed=n, samples=12) == (action, values)
