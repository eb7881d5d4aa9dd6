"""Property tests: random legal play under random options and seeds, in every variant (2p24, 2p20,
2p32, 3p with dead cards, 3p pagat_no_talon, 4p), and with the Schnapsen profile.

Every step: cards (each copy) are conserved and played at most once, card points add up, every legal
action is accepted and every other action of the game's kinds refused, no view or event view shows another seat's hidden cards. Every round: game points
follow §2.9 and §2.10 (restated below as an independent oracle). Every match: it ends at the target,
and replaying its events (or a snapshot) gives the same state.
"""

from __future__ import annotations

import json
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from games.cards import SUITS
from games.errors import GameError
from games.sixtysix import RULES
from games.sixtysix.options import CARD_POINTS, RANK_ORDER, Options, stock_size
from tests.unit.sixtysix.support import play_match, seats_for

VARIANTS = {
    "2p24": {"variant": "2p24"},
    "2p20": {"variant": "2p20"},
    "2p32": {"variant": "2p32"},
    "3p": {"variant": "3p"},
    "3p pagat": {"variant": "3p", "three_player_mode": "pagat_no_talon"},
    "4p": {"variant": "4p"},
    "schnapsen": {"profile": "schnapsen"},
}
RULE_OPTIONS = st.fixed_dictionaries(
    {},
    optional={
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
    },
)


@st.composite
def match_options(draw, variants=tuple(VARIANTS)):
    """A variant, random rule options, and the two stock minimums cut to the variant's stock size."""
    base = VARIANTS[draw(st.sampled_from(variants))]
    options = {**base, **draw(RULE_OPTIONS)}
    stock = stock_size(spec_of_options(base))
    for count in ("min_stock_to_close", "min_stock_for_exchange"):
        if count in options:
            options[count] = min(options[count], stock)
    return options


def spec_of_options(options):
    """The variant's spec once the profile's defaults are filled in."""
    return Options.from_dict(RULES.normalize_options(options, seats_for(options))).spec


SEEDS = st.integers(0, 2**32 - 1)
LEVEL = st.sampled_from(["random", "basic"])


def points(cards) -> int:
    return sum(CARD_POINTS[c[0]] for c in cards)


def check_cards(state):
    rnd, spec = state.round, state.options.spec
    played = [p.card for t in rnd.tricks for p in t.plays] + [p.card for p in rnd.trick]
    assert max(Counter(played).values(), default=1) <= spec.copies  # each copy played once
    held = [c for hand in rnd.hands for c in hand] + list(rnd.stock) + [rnd.trump_card] * bool(rnd.trump_card)
    assert Counter(held + played + list(rnd.dead)) == Counter(RULES.deck(state.options.as_dict()))
    assert len(rnd.dead) == spec.dead
    in_tricks = sum(t.points for t in rnd.tricks)
    assert in_tricks + points(held) + points(p.card for p in rnd.trick) + points(rnd.dead) == 120 * spec.copies


# Every action a seat could post: a play of any card of any variant, a marriage in any suit, the rest.
EVERY_ACTION = (
    [{"type": "play", "card": rank + suit} for rank in RANK_ORDER for suit in SUITS]
    + [{"type": "meld", "suit": suit} for suit in SUITS]
    + [{"type": kind} for kind in ("exchange", "close", "declare_out", "draw")]
)


def check_legal_actions(state):
    """The legal actions are exactly what `decide` accepts: each is accepted, any other is refused (so
    the candidates `legal_actions` checks leave out nothing a seat may do)."""
    for seat in range(state.n_seats):
        legal = RULES.legal_actions(state, seat)
        assert bool(legal) == (seat in RULES.to_act(state))
        for action in legal:
            for event in RULES.decide(state, seat, action):
                json.dumps(event)
        for action in EVERY_ACTION:
            if action not in legal:
                try:
                    RULES.decide(state, seat, action)
                except GameError:
                    continue
                raise AssertionError(f"seat {seat} may {action}, which legal_actions does not list")


def hidden_from(state, seat):
    """Card names the seat must not see: others' hands, the stock, the dead cards (a closed stock's
    face-down trump card too), unless the same name is public or in the seat's own hand (two decks)."""
    rnd = state.round
    hidden = set(rnd.stock) | set(rnd.dead)
    if rnd.closer is not None and rnd.trump_card:
        hidden.add(rnd.trump_card)
    for other in range(state.n_seats):
        if other != seat:
            hidden |= set(rnd.hands[other])
    public = {p.card for t in rnd.tricks for p in t.plays} | {p.card for p in rnd.trick}
    public |= {state.options.spec.exchange_rank + rnd.trump_suit, rnd.turned_card}
    if rnd.closer is None and rnd.trump_card:
        public.add(rnd.trump_card)
    own = set(rnd.hands[seat]) if seat is not None else set()
    return hidden - public - own


def check_views(state, events):
    for seat in [*range(state.n_seats), None]:
        hidden = hidden_from(state, seat)
        text = json.dumps(RULES.view(state, seat))
        assert not [c for c in hidden if f'"{c}"' in text]
        for event in events:
            public = {d["card"] for d in event["data"].get("draws", []) if d["face_up"] or d["seat"] == seat}
            public.add(event["data"].get("took"))
            text = json.dumps(RULES.event_view(event, seat))
            assert not [c for c in hidden - public if f'"{c}"' in text], event
            if event["type"] == "dealt":
                assert "dead" not in RULES.event_view(event, seat)["data"]


def expected_game_points(state, totals, tricks):
    """RULES §2.9 and §2.10 restated from the tables: game points per side."""
    rnd, opts = state.round, state.options
    half, target = opts.schneider_threshold, opts.spec.target
    sides = range(len(state.sides))
    side = {seat: i for i, members in enumerate(state.sides) for seat in members}
    closer = None if rnd.closer is None else side[rnd.closer]
    at_close = rnd.tricks_at_close

    def scale(o, use_close=False):
        t, p = (at_close[o], rnd.totals_at_close[o]) if use_close else (tricks[o], totals[o])
        return 3 if t == 0 else 2 if p < half else 1

    def wins(w, each):  # w scores each(o) from every opponent o, added up
        return [sum(each(o) for o in sides if o != w) if i == w else 0 for i in sides]

    def each_takes(loser, each):  # every other side o scores each(o)
        return [0 if i == loser else each(i) for i in sides]

    def closer_wins(w):
        return wins(w, lambda o: scale(o, use_close=closer == w and opts.closed_scoring == "at_closing"))

    if rnd.declarer is not None:
        d = side[rnd.declarer]
        if totals[d] >= target:
            return closer_wins(d) if closer in (None, d) else wins(d, lambda o: 3 if at_close[d] == 0 else 2)
        if closer == d:
            return each_takes(d, lambda o: 3 if at_close[o] == 0 else 2)
        if opts.false_declaration == "mirror":
            return each_takes(d, scale)
        return each_takes(d, lambda o: 3 if tricks[o] == 0 else 2)
    last = side[rnd.tricks[-1].winner]
    if closer is not None:
        if last == closer and totals[closer] >= target:
            return closer_wins(closer)
        return each_takes(closer, lambda o: 3 if at_close[o] == 0 else 2)
    if opts.last_trick_rule == "last_trick_wins_one_point":
        return wins(last, lambda o: 1)
    best = max(totals)
    if totals.count(best) > 1:
        return [0] * len(totals)
    return wins(totals.index(best), scale)


def check_scoring(before, result):
    rnd, spec = before.round, before.options.spec
    side = {seat: i for i, members in enumerate(before.sides) for seat in members}
    n_sides = len(before.sides)
    cards, tricks, melds = [0] * n_sides, [0] * n_sides, [0] * n_sides
    for trick in rnd.tricks:
        cards[side[trick.winner]] += trick.points
        tricks[side[trick.winner]] += 1
    if rnd.declarer is None:  # played out: everything but the dead and the closed-out cards was won
        out = points(rnd.stock) + points([rnd.trump_card] if rnd.trump_card else []) + points(rnd.dead)
        assert sum(cards) == 120 * spec.copies - out
    for meld in rnd.melds:
        if tricks[side[meld.seat]]:
            melds[side[meld.seat]] += meld.points
    bonus = [0] * n_sides
    if rnd.declarer is None and rnd.closer is None and before.options.last_trick_rule == "plus10":
        bonus[side[rnd.tricks[-1].winner]] = 10
    totals = [c + m + b for c, m, b in zip(cards, melds, bonus)]
    assert result["totals"] == totals and result["tricks"] == tricks
    assert result["game_points"] == expected_game_points(before, totals, tricks)
    assert all(0 <= p <= 3 * (n_sides - 1) for p in result["game_points"])
    paid = [before.draw_bonus if p else 0 for p in result["game_points"]]
    assert result["bonus_points"] == paid
    assert result["scores"] == [s + g + b for s, g, b in zip(before.scores, result["game_points"], paid)]


def match_is_over(scores, target):
    return max(scores) >= target and list(scores).count(max(scores)) == 1


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
                assert not match_is_over(self.before.scores, state.options.match_target)
                self.rounds += 1
        if state.round is not None:
            check_cards(state)
            if self.thorough:
                check_legal_actions(state)
                check_views(state, events)
        self.before = state


def replay(options, log):
    n = seats_for(options)
    state = RULES.new_state(RULES.normalize_options(options, n), n, 0)
    for event in log:
        state = RULES.evolve(state, event)
        if RULES.is_round_boundary(event):
            assert RULES.load_state(json.loads(json.dumps(RULES.dump_state(state)))) == state
    return state


@settings(max_examples=140, deadline=None)
@given(match_options(), SEEDS, LEVEL, LEVEL, st.integers(1, 3))
def test_every_step_keeps_the_invariants(options, seed, level, other, target):
    options = {**options, "match_target": target}
    n = seats_for(options)
    checker = Checker(thorough=True)
    play_match(options, seed, tuple(level if s % 2 else other for s in range(n)), on_step=checker)
    assert checker.rounds >= 1


@settings(max_examples=150, deadline=None)
@given(match_options(), SEEDS, LEVEL, LEVEL, st.integers(1, 11))
def test_full_matches_end_at_the_target_and_replay_exactly(options, seed, level, other, target):
    options = {**options, "match_target": target}
    n = seats_for(options)
    final, log = play_match(
        options, seed, tuple(level if s % 2 else other for s in range(n)), on_step=Checker(thorough=False)
    )
    assert final.phase == "match_over" and log[-1]["type"] == "match_ended"
    winner = final.winner
    assert final.scores[winner] >= target
    assert all(score < final.scores[winner] for i, score in enumerate(final.scores) if i != winner)
    assert replay(options, log) == final
    assert RULES.load_state(json.loads(json.dumps(RULES.dump_state(final)))) == final


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(["3p", "3p pagat", "4p"]), SEEDS)
def test_three_and_four_player_deals_follow_the_layout(variant, seed):
    """Each deal: hand sizes, stock size and (3p) two dead cards as RULES §2.2 says."""
    options = VARIANTS[variant]

    def check(state, events):
        for event in events:
            if event["type"] == "dealt":
                rnd, spec = state.round, state.options.spec
                assert [len(h) for h in rnd.hands] == [sum(spec.batches)] * state.n_seats
                assert len(rnd.stock) + (rnd.trump_card is not None) == {"3p": 9, "3p pagat": 0, "4p": 20}[variant]
                assert len(rnd.dead) == (2 if variant == "3p" else 0)
                if variant == "3p pagat":
                    assert rnd.turned_card in rnd.hands[(rnd.dealer + 1) % 3]

    play_match({**options, "match_target": 3}, seed, on_step=check)
