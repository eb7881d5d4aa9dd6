"""A small driver for golden tests: a match whose state follows every event decide returns."""
from __future__ import annotations

from games.sixtysix import RULES


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


class Match:
    def __init__(self, options=None, first_dealer=0, deck=None):
        self.options = RULES.normalize_options(options or {}, 2)
        self.state = RULES.new_state(self.options, 2, first_dealer)
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

    def view(self, seat):
        return RULES.view(self.state, seat)

    def hand(self, seat):
        return sorted(self.state.round.hands[seat])
