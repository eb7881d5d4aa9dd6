"""Property tests: random legal play under random options and seeds, every widow size.

Every step: cards are conserved and played once, every legal action is accepted, no view or event
view shows a card the seat may not see (other hands, the undealt pile, another seat's widow and
discard, the trump named before the first lead). Every deal: at most 4 points, a point only for a
card in play (or a counted discard), Game counts that add up to the cards in play plus the discards,
scores moved by §3.7. Every match: replaying its events (or a snapshot) gives the same state.
"""

from __future__ import annotations

import json
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from games.smear import RULES
from games.smear.options import game_value
from tests.unit.smear.support import play_match

OPTIONS = st.fixed_dictionaries(
    {"widow_size": st.sampled_from([0, 1, 2, 3])},
    optional={
        "all_pass": st.sampled_from(["redeal_same_dealer", "stick_dealer", "pass_deal"]),
        "high_low_rule": st.sampled_from(["ace_seven", "highest_lowest_in_play"]),
        "game_tie": st.sampled_from(["none", "non_bidders", "bidders"]),
        "discards_count_for_high_low_jack": st.booleans(),
        "both_reach": st.sampled_from(["higher_score_then_bidder", "bidder_wins"]),
        "win_only_on_successful_bid": st.booleans(),
        "cap_non_bidder_at_15": st.booleans(),
    },
)
SEEDS = st.integers(0, 2**32 - 1)
LEVELS = st.tuples(*[st.sampled_from(["random", "basic"])] * 4)


def played_cards(rnd) -> list[str]:
    return [p.card for t in rnd.tricks for p in t.plays] + [p.card for p in rnd.trick]


def check_cards(state):
    rnd = state.round
    played = played_cards(rnd)
    held = [c for hand in rnd.hands for c in hand] + list(rnd.undealt) + list(rnd.discards)
    assert Counter(held + played) == Counter(RULES.deck({}))
    assert len(rnd.widow) in (0, state.options.widow_size)


def check_legal_actions(state):
    for seat in range(4):
        legal = RULES.legal_actions(state, seat)
        assert bool(legal) == (seat in RULES.to_act(state))
        for action in legal:
            for event in RULES.decide(state, seat, action):
                json.dumps(event)


def credited_discards(state) -> set[str]:
    result = state.last_result
    discards = set(state.round.discards) if state.round else set()
    return {p.card for p in result.points if p.card in discards} if result else set()


def hidden_from(state, seat) -> set[str]:
    rnd = state.round
    hidden = set(rnd.undealt)
    for other in range(4):
        if other != seat:
            hidden |= set(rnd.hands[other])
    if seat != rnd.bidder:
        hidden |= set(rnd.widow) - set(played_cards(rnd)) | set(rnd.discards)
    return hidden


def check_views(state, events):
    rnd = state.round
    for seat in (0, 1, 2, 3, None):
        hidden = hidden_from(state, seat)
        # What a bot at this seat gets: the round part of its view and its legal actions (last_result
        # may name last deal's cards, which this deal dealt anew).
        text = json.dumps([RULES.view(state, seat)["round"], RULES.legal_actions(state, seat)])
        assert not [c for c in hidden if f'"{c}"' in text]
        if seat != rnd.bidder and rnd.trump is None:
            assert RULES.view(state, seat)["round"]["trump"] is None
        for event in events:
            if event["type"] == "dealt":  # a new deal: the pile and the others' hands of this deal
                continue
            shown = json.dumps(RULES.event_view(event, seat))
            assert not [c for c in hidden - credited_discards(state) if f'"{c}"' in shown], event
            if event["type"] == "discarded" and seat != rnd.bidder:
                assert RULES.event_view(event, seat)["data"] == {"seat": rnd.bidder, "count": len(rnd.discards)}
        dealt = [e for e in events if e["type"] == "dealt"]
        for event in dealt:
            data = RULES.event_view(event, seat)["data"]
            assert "undealt" not in data and all(h is None for i, h in enumerate(data["hands"]) if i != seat)


def check_scoring(before, data):
    rnd, opts = before.round, before.options
    in_play = played_cards(rnd)
    assert sum(data["points_won"]) <= 4 and len(data["points"]) == 4
    for point in data["points"]:
        if point["team"] is None or point["point"] == "game":
            continue
        counted = opts.discards_count_for_high_low_jack and point["card"] in rnd.discards
        assert point["card"] in in_play or counted, point
        assert point["card"][1] == rnd.trump
    assert sum(data["game_counts"]) == sum(map(game_value, in_play)) + sum(map(game_value, rnd.discards))
    assert sum(data["game_counts"]) + sum(map(game_value, rnd.undealt)) == 80
    bidders, won = rnd.bidder % 2, data["points_won"]
    expected = [0, 0]
    expected[bidders] = won[bidders] if won[bidders] >= rnd.bid else -rnd.bid
    expected[1 - bidders] = won[1 - bidders]
    if opts.cap_non_bidder_at_15 and data["capped"][1 - bidders]:
        assert before.scores[1 - bidders] + data["deltas"][1 - bidders] == max(
            before.scores[1 - bidders], opts.match_target
        )
        expected[1 - bidders] = data["deltas"][1 - bidders]
    assert data["deltas"] == expected
    assert data["scores"] == [s + d for s, d in zip(before.scores, data["deltas"])]


class Checker:
    """Follows a match step by step and checks every invariant on the way."""

    def __init__(self, thorough: bool):
        self.thorough = thorough
        self.before = None
        self.deals = 0

    def __call__(self, state, events):
        for event in events:
            if event["type"] == "round_scored":
                check_scoring(self.before, event["data"])
                self.deals += 1
        if state.round is not None:
            check_cards(state)
            if self.thorough:
                check_legal_actions(state)
                check_views(state, events)
        self.before = state


def replay(options, log, first_dealer=0):
    state = RULES.new_state(RULES.normalize_options(options, 4), 4, first_dealer)
    for event in log:
        state = RULES.evolve(state, event)
        if RULES.is_round_boundary(event):
            assert RULES.load_state(json.loads(json.dumps(RULES.dump_state(state)))) == state
    return state


def check_end(final, log, options, levels, max_deals):
    """A match ends at the target; random bids are often set, so a match with a random bot may stay
    under the target for long: it is then cut after `max_deals` deals (basic bots always finish)."""
    if final.phase != "match_over":
        assert "random" in levels and final.rounds_dealt > max_deals
        return
    assert log[-1]["type"] == "match_ended"
    target = options.get("match_target", 15)
    assert final.scores[final.winner] >= target
    ended = log[-1]["data"]
    assert ended["standing"] == [
        {"seats": [0, 2], "score": final.scores[0]},
        {"seats": [1, 3], "score": final.scores[1]},
    ]


@settings(max_examples=60, deadline=None)
@given(OPTIONS, SEEDS, LEVELS, st.integers(1, 5))
def test_every_step_keeps_the_invariants(options, seed, levels, target):
    options = {**options, "match_target": target}
    checker = Checker(thorough=True)
    final, log = play_match(options, seed, levels, on_step=checker, max_deals=6)
    assert checker.deals >= 1
    check_end(final, log, options, levels, 6)


@settings(max_examples=60, deadline=None)
@given(OPTIONS, SEEDS, LEVELS, st.integers(0, 3))
def test_full_matches_end_at_the_target_and_replay_exactly(options, seed, levels, first_dealer):
    final, log = play_match(
        options, seed, levels, first_dealer=first_dealer, on_step=Checker(thorough=False), max_deals=40
    )
    check_end(final, log, options, levels, 40)
    assert replay(options, log, first_dealer) == final
    assert RULES.load_state(json.loads(json.dumps(RULES.dump_state(final)))) == final
