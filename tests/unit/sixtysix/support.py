"""A small driver for golden tests: a match whose state follows every event decide returns."""

from __future__ import annotations

from games.sixtysix import RULES
from tests.unit.bot_play import play_out


def build_deck(non_dealer, dealer, trump_card, stock_top=(), variant="2p24"):
    """A deck (top first) that deals these hands with dealer = seat 0, then the given stock top.

    The rest of the pack follows in pack order. Hands are given in the order they are dealt.
    """
    non_dealer, dealer = list(non_dealer), list(dealer)
    first = 3
    deck = non_dealer[:first] + dealer[:first] + non_dealer[first:] + dealer[first:] + [trump_card]
    deck += list(stock_top)
    deck += [c for c in RULES.deck({"variant": variant}) if c not in deck]
    assert sorted(deck) == sorted(RULES.deck({"variant": variant})), "cards repeat or are missing"
    return deck


def seats_for(options) -> int:
    """The number of seats the variant is played by."""
    (n,) = RULES.seat_counts(options or {})
    return n


class Match:
    def __init__(self, options=None, first_dealer=0, deck=None):
        n = seats_for(options)
        self.options = RULES.normalize_options(options or {}, n)
        self.state = RULES.new_state(self.options, n, first_dealer)
        self.events = []
        if deck is not None:
            self.deal(deck)

    def act(self, seat, action):
        events = RULES.decide(self.state, seat, action)
        for event in events:
            self.state = RULES.evolve(self.state, event)
        self.events += events
        return events

    def deal(self, deck):
        return self.act(None, {"type": "deal", "deck": list(deck)})

    def play(self, seat, card):
        return self.act(seat, {"type": "play", "card": card})

    def meld(self, seat, suit):
        return self.act(seat, {"type": "meld", "suit": suit})

    def exchange(self, seat):
        return self.act(seat, {"type": "exchange"})

    def close(self, seat):
        return self.act(seat, {"type": "close"})

    def declare(self, seat):
        return self.act(seat, {"type": "declare_out"})

    def draw(self, seat):
        return self.act(seat, {"type": "draw"})

    def score(self):
        """Scores the round; returns the round_scored data."""
        events = self.act(None, {"type": "score_round"})
        return events[0]["data"]

    def trick(self, leader_card, follower_card, draw=True):
        """Plays one trick (leader then follower) and, if the winner must draw, draws."""
        leader = self.state.round.to_play
        self.play(leader, leader_card)
        self.play(1 - leader, follower_card)
        if draw and self.state.phase == "after_trick":
            self.draw(self.state.round.to_play)

    def round_of(self, *plays, draw=True):
        """Plays one trick of any size, cards in play order from the seat to play; draws if due."""
        assert len(plays) == self.state.n_seats
        seat = self.state.round.to_play
        for k, card in enumerate(plays):
            self.play((seat + k) % self.state.n_seats, card)
        if draw and self.state.phase == "after_trick":
            self.draw(self.state.round.to_play)
        return self.state.round.tricks[-1]

    def view(self, seat):
        return RULES.view(self.state, seat)

    def hand(self, seat):
        return sorted(self.state.round.hands[seat])


def bot_view(state, seat):
    """The view a bot gets from the service: the engine's view plus seat and legal actions."""
    return {**RULES.view(state, seat), "seat": seat, "legal_actions": RULES.legal_actions(state, seat)}


def play_match(options, seed, levels=None, first_dealer=0, on_step=None, max_rounds=200):
    """Plays a whole match with bots, shuffling from `seed`; returns (final state, all events).

    `on_step(state, events)` is called after every action, if given.
    """
    import random

    from games.sixtysix import bots

    rng = random.Random(seed)
    n = seats_for(options)
    levels = levels or ("random",) * n
    options = RULES.normalize_options(options, n)
    state = RULES.new_state(options, n, first_dealer)
    return play_out(
        RULES,
        bots,
        state,
        options,
        rng,
        levels,
        bot_view,
        keep_going=lambda s: s.phase != "match_over" and s.rounds_dealt <= max_rounds,
        on_step=on_step,
    )


def deal_deck(options, dealer, hands, dead=(), trump_card=None, stock_top=()):
    """A deck (top first) that deals `hands` {seat: cards in the order dealt} with this dealer, in any
    variant: batches in play order from dealer+1, then the dead cards (3p), the trump card and the
    stock top; the rest of the pack follows in pack order. Without a talon (pagat 3p) the trump card
    is the first card of dealer+1's second batch, so it is given inside that hand."""
    from collections import Counter

    from games.sixtysix.options import Options

    n = seats_for(options)
    spec = Options.from_dict(RULES.normalize_options(options, n)).spec
    pack = RULES.deck(RULES.normalize_options(options, n))
    taken = {seat: 0 for seat in range(n)}
    deck = []
    for batch in spec.batches:
        for k in range(1, n + 1):
            seat = (dealer + k) % n
            deck += list(hands[seat][taken[seat] : taken[seat] + batch])
            taken[seat] += batch
    deck += list(dead) + ([trump_card] if trump_card else []) + list(stock_top)
    rest = Counter(pack) - Counter(deck)
    deck += [c for c in pack if rest[c] and not rest.subtract([c])]
    assert Counter(deck) == Counter(pack), "cards repeat or are missing"
    return deck
