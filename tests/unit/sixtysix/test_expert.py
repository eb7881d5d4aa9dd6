"""The Sixty-Six expert's judgement (and the basic player's where it can): the last trick, marriages,
exchanging, closing, and the exact solver against a plain minimax."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from bench import botlab
from games import bots
from games.sixtysix import RULES
from games.sixtysix.state import LEAD, Play, Trick
from tests.unit.sixtysix.support import Match, build_deck

OPTIONS = RULES.normalize_options({"variant": "2p24"}, 2)


def view_of(state, seat):
    return botlab.seat_view(RULES, "sixty-six", OPTIONS, state, seat)


def tricks(*plays):
    """Finished tricks from (winner, leader card, follower card); seat 0 leads each."""
    out = []
    for winner, a, b in plays:
        points = sum(RULES_POINTS[c[0]] for c in (a, b))
        out.append(Trick(0, (Play(0, a), Play(1, b)), winner, points))
    return tuple(out)


RULES_POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0}


def last_two_tricks():
    """Stock exhausted, hearts trump, seat 0 (49 points) to lead from AH 9S against KS JH (seat 1,
    54 points). Leading AH first gives seat 1 the last trick (+10): 62-68, seat 1 wins the deal.
    Leading 9S first lets seat 1 take KS cheaply, then AH takes JH and the last trick: 72-58."""
    deck = build_deck("AH 9S TD KS JH QD".split(), "AS TS AD AC TC KD".split(), "KC")
    state = Match({"variant": "2p24"}, first_dealer=0, deck=deck).state
    played = tricks(
        (0, "AS", "TS"),
        (1, "AD", "TD"),
        (0, "AC", "TC"),
        (1, "KD", "QD"),
        (1, "KC", "QC"),
        (1, "TH", "9H"),
        (1, "KH", "QH"),
        (0, "QS", "JS"),
        (0, "JD", "9D"),
        (1, "JC", "9C"),
    )
    rnd = replace(
        state.round,
        trump_suit="H",
        trump_card=None,
        stock=(),
        hands=(("AH", "9S"), ("KS", "JH")),
        tricks=played,
        leader=0,
        to_play=0,
        meld_used=((), ()),
    )
    return replace(state, phase=LEAD, round=rnd)


def test_the_expert_takes_the_last_trick_when_it_decides_the_deal():
    state = last_two_tricks()
    assert [sum(t.points for t in state.round.tricks if t.winner == s) for s in (0, 1)] == [49, 54]
    for seed in range(5):
        assert bots.choose(view_of(state, 0), "expert", seed=seed) == {"type": "play", "card": "9S"}


def test_the_last_trick_position_is_scored_as_described():
    """Both orders played through the engine: the bonus trick decides who wins the deal."""
    for first, then, winner in (("AH", "9S", 1), ("9S", "AH", 0)):
        m = Match({"variant": "2p24"})
        m.state = last_two_tricks()
        m.play(0, first)
        m.play(1, next(a["card"] for a in RULES.legal_actions(m.state, 1)))
        leader = m.state.round.to_play
        m.play(leader, then if leader == 0 else m.state.round.hands[1][0])
        m.play(1 - leader, m.state.round.hands[1 - leader][0])
        assert m.score()["game_points"][winner] == 1


def lead_positions_with_a_marriage(count: int, seed: int):
    """Views of a seat on lead that may show a marriage, reached by basic play from shuffled deals."""
    rng, found = random.Random(seed), []
    while len(found) < count:
        state = RULES.new_state(OPTIONS, 2, rng.randrange(2))
        deck = RULES.deck(OPTIONS)
        rng.shuffle(deck)
        for event in RULES.decide(state, None, {"type": "deal", "deck": deck}):
            state = RULES.evolve(state, event)
        while RULES.to_act(state):
            seat = RULES.to_act(state)[0]
            view = view_of(state, seat)
            if any(a["type"] == "meld" for a in view["legal_actions"]):
                found.append(view)
                break
            action = bots.choose(view, "basic", seed=0)
            for event in RULES.decide(state, seat, action):
                state = RULES.evolve(state, event)
    return found


@pytest.mark.parametrize("level", ["basic", "expert"])
def test_never_leads_away_a_marriage_it_could_show(level):
    for n, view in enumerate(lead_positions_with_a_marriage(25, seed=8)):
        meldable = {a["suit"] for a in view["legal_actions"] if a["type"] == "meld"}
        action = bots.choose(view, level, seed=n, samples=16)
        assert not (action["type"] == "play" and action["card"][0] in "KQ" and action["card"][1] in meldable), (
            view,
            action,
        )


def test_the_expert_exchanges_the_trump_nine():
    """Seat 1 won the first trick and holds 9H under a face-up KH: the higher trump is never worse."""
    deck = build_deck("AS QS 9H TD JD QD".split(), "9S JS KD TH QC 9D".split(), "KH")
    m = Match({"variant": "2p24"}, first_dealer=0, deck=deck)
    m.trick("AS", "9S")
    view = view_of(m.state, 1)
    assert {"type": "exchange"} in view["legal_actions"]
    assert bots.choose(view, "expert", seed=1) == {"type": "exchange"}


def test_the_expert_does_not_close_with_a_weak_hand():
    """Seat 1 leads the first trick with no trick won, no trump above the jack and nothing to meld:
    closing now would almost surely fail and give the other seat 3 game points."""
    deck = build_deck("9S JS 9D JD QC JH".split(), "AS TS AD AH TH KH".split(), "QH")
    m = Match({"variant": "2p24"}, first_dealer=0, deck=deck)
    view = view_of(m.state, 1)
    assert {"type": "close"} in view["legal_actions"]
    for seed in range(3):
        assert bots.choose(view, "expert", seed=seed)["type"] != "close"


def test_the_solver_agrees_with_plain_minimax_on_fixed_positions():
    """30 closed or exhausted positions from a fixed seed (the bot lab's --solver-check, smaller).
    Positions with more than 8 cards in hand are skipped: plain minimax through the engine is slow."""
    from games.sixtysix.expert_solver import solve

    rng, checked = random.Random(2024), 0
    while checked < 30:
        state = botlab.solver_position(rng)
        if sum(len(h) for h in state.round.hands) > 8:
            continue
        assert solve(state) == botlab.minimax(state)
        checked += 1


def test_fast_playouts_play_the_deal_like_the_engine_with_basic_players(monkeypatch):
    """expert_playout keeps its own copy of the rules and of the basic player: without the solver's
    finish, it must end every deal exactly as the engine does with two basic bots."""
    from games.sixtysix import expert_playout
    from games.sixtysix.expert_solver import difference
    from games.sixtysix.scoring import round_result
    from tests.unit.bots.test_interface import positions

    monkeypatch.setattr(expert_playout, "SOLVE_CARDS", 0)
    for _, state in positions("sixty-six", 120, seed=21)[::2]:
        engine = state
        while RULES.to_act(engine):
            seat = RULES.to_act(engine)[0]
            action = bots.choose(view_of(engine, seat), "basic")
            for event in RULES.decide(engine, seat, action):
                engine = RULES.evolve(engine, event)
        game = round_result(engine).game_points
        assert expert_playout.playout(state, 0, difference) == game[0] - game[1]
