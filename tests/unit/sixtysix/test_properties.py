"""Property tests: random legal play under random options and seeds.

Every step: cards are conserved and played once, card points add up, every legal action is accepted,
no view or event view shows another seat's hidden cards. Every round: game points follow §2.9. Every
match: it ends at the target, and replaying its events (or a snapshot) gives the same state.
"""
from __future__ import annotations

import json
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from games.sixtysix import RULES
from games.sixtysix.options import CARD_POINTS
from tests.unit.sixtysix.support import play_match

OPTIONS = st.fixed_dictionaries({}, optional={
    "variant": st.sampled_from(["2p24", "2p20", "2p32"]),
    "dealer_rule": st.sampled_from(["alternate", "winner_deals", "loser_deals"]),
    "close_before_draw": st.booleans(),
    "meld_after_close": st.booleans(),
    "false_declaration": st.sampled_from(["two_or_three", "mirror"]),
    "last_trick_rule": st.sampled_from(["plus10", "last_trick_wins_one_point"]),
    "closed_scoring": st.sampled_from(["final_totals", "at_closing"]),
    "non_closer_may_exchange_at_close": st.booleans(),
    "min_stock_to_close": st.integers(0, 10),
    "min_stock_for_exchange": st.integers(0, 10),
    "schneider_threshold": st.integers(0, 66),
    "draw_bonus": st.booleans(),
})
SEEDS = st.integers(0, 2**32 - 1)
LEVELS = st.tuples(*[st.sampled_from(["random", "basic"])] * 2)


def points(cards) -> int:
    return sum(CARD_POINTS[c[0]] for c in cards)


def check_cards(state):
    rnd = state.round
    played = [p.card for t in rnd.tricks for p in t.plays] + [p.card for p in rnd.trick]
    assert max(Counter(played).values(), default=1) == 1
    held = [c for hand in rnd.hands for c in hand] + list(rnd.stock) + [rnd.trump_card] * bool(rnd.trump_card)
    assert Counter(held + played) == Counter(RULES.deck(state.options.as_dict()))
    assert sum(t.points for t in rnd.tricks) + points(held) + points(p.card for p in rnd.trick) == 120


def check_legal_actions(state):
    for seat in range(state.n_seats):
        legal = RULES.legal_actions(state, seat)
        assert bool(legal) == (seat in RULES.to_act(state))
        for action in legal:
            for event in RULES.decide(state, seat, action):
                json.dumps(event)


def hidden_from(state, seat):
    rnd = state.round
    hidden = set(rnd.stock)
    if rnd.closer is not None and rnd.trump_card:
        hidden.add(rnd.trump_card)
    for other in range(state.n_seats):
        if other != seat:
            hidden |= set(rnd.hands[other])
    return hidden - {state.options.spec.exchange_rank + rnd.trump_suit}


def shown(data) -> str:
    return json.dumps(data)


def check_views(state, events):
    for seat in (0, 1, None):
        hidden = hidden_from(state, seat)
        text = shown(RULES.view(state, seat))
        assert not [c for c in hidden if f'"{c}"' in text]
        for event in events:
            public = {d["card"] for d in event["data"].get("draws", []) if d["face_up"]}
            public.add(event["data"].get("took"))
            text = shown(RULES.event_view(event, seat))
            assert not [c for c in hidden - public if f'"{c}"' in text], event


def expected_game_points(state, totals, tricks):
    """RULES §2.9 restated from the table: (scoring side or None, points)."""
    rnd, opts = state.round, state.options
    half, closer, target = opts.schneider_threshold, rnd.closer, opts.spec.target

    def scale(side, at_close=False):
        t, p = (rnd.tricks_at_close[side], rnd.totals_at_close[side]) if at_close else (tricks[side], totals[side])
        return 3 if t == 0 else 2 if p < half else 1

    def closer_wins(side):
        return side, scale(1 - side, at_close=closer == side and opts.closed_scoring == "at_closing")

    def two_or_three_at_close(side):
        return side, 3 if rnd.tricks_at_close[side] == 0 else 2

    d = rnd.declarer
    if d is not None:
        if totals[d] >= target:
            return closer_wins(d) if closer in (None, d) else two_or_three_at_close(d)
        if closer == d:
            return two_or_three_at_close(1 - d)
        if opts.false_declaration == "mirror":
            return 1 - d, scale(1 - d)
        return 1 - d, 3 if tricks[1 - d] == 0 else 2
    last = rnd.tricks[-1].winner
    if closer is not None:
        return closer_wins(closer) if last == closer and totals[closer] >= target else two_or_three_at_close(1 - closer)
    if opts.last_trick_rule == "last_trick_wins_one_point":
        return last, 1
    if totals[0] == totals[1]:
        return None, 0
    w = 0 if totals[0] > totals[1] else 1
    return w, scale(1 - w)


def check_scoring(before, result):
    rnd = before.round
    cards = [0, 0]
    for trick in rnd.tricks:
        cards[trick.winner] += trick.points
    if rnd.declarer is None:
        dead = points(rnd.stock) + points([rnd.trump_card] if rnd.trump_card else [])
        assert sum(cards) == 120 - dead
    tricks = [sum(t.winner == s for t in rnd.tricks) for s in (0, 1)]
    melds = [sum(m.points for m in rnd.melds if m.seat == s) if tricks[s] else 0 for s in (0, 1)]
    bonus = [0, 0]
    if rnd.declarer is None and rnd.closer is None and before.options.last_trick_rule == "plus10":
        bonus[rnd.tricks[-1].winner] = 10
    totals = [c + m + b for c, m, b in zip(cards, melds, bonus)]
    assert result["totals"] == totals and result["tricks"] == tricks
    side, pts = expected_game_points(before, totals, tricks)
    assert result["game_points"] == [pts if s == side else 0 for s in (0, 1)]
    assert all(p in (0, 1, 2, 3) for p in result["game_points"])
    assert sum(result["bonus_points"]) == (before.draw_bonus if side is not None else 0)


class Checker:
    """Follows a match step by step and checks every invariant on the way."""

    def __init__(self, thorough: bool):
        self.thorough = thorough
        self.before = None
        self.rounds = 0

    def __call__(self, state, events):
        for event in events:
            if event["type"] == "round_scored":
                check_scoring(self.before, event["data"])
                self.rounds += 1
        if state.round is not None:
            check_cards(state)
            if self.thorough:
                check_legal_actions(state)
                check_views(state, events)
        if any(e["type"] == "round_scored" for e in events):
            assert all(s < state.options.match_target for s in self.previous_scores)
        self.previous_scores = state.scores
        self.before = state

    previous_scores = (0, 0)


def replay(options, log):
    state = RULES.new_state(RULES.normalize_options(options, 2), 2, 0)
    for event in log:
        state = RULES.evolve(state, event)
        if RULES.is_round_boundary(event):
            assert RULES.load_state(json.loads(json.dumps(RULES.dump_state(state)))) == state
    return state


@settings(max_examples=120, deadline=None)
@given(OPTIONS, SEEDS, LEVELS, st.integers(1, 3))
def test_every_step_keeps_the_invariants(options, seed, levels, target):
    options = {**options, "match_target": target}
    checker = Checker(thorough=True)
    play_match(options, seed, levels, on_step=checker)
    assert checker.rounds >= 1


@settings(max_examples=150, deadline=None)
@given(OPTIONS, SEEDS, LEVELS, st.integers(1, 11))
def test_full_matches_end_at_the_target_and_replay_exactly(options, seed, levels, target):
    options = {**options, "match_target": target}
    final, log = play_match(options, seed, levels, on_step=Checker(thorough=False))
    assert final.phase == "match_over" and log[-1]["type"] == "match_ended"
    winner = final.winner
    assert final.scores[winner] >= target and final.scores[1 - winner] < target
    assert replay(options, log) == final
    assert RULES.load_state(json.loads(json.dumps(RULES.dump_state(final)))) == final
