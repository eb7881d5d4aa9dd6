"""A small driver for golden tests, and a whole-match player for property and bot tests."""

from __future__ import annotations

import random

from games.fiftysix import RULES
from tests.unit.bot_play import play_out

DECK_113 = (
    "JS TS QS JH JS AS JH TH 9S AS QS 9H 9S TS KS KS 9H AH 9D AD KH JD TD QD AH QH JD AD TH KH QH "
    "9D KD JC TC QC 9C AC KC QC TD JC 9C KC KD QD AC TC"
).split()


def deck_from_hands(hands, dealer, players=None):
    """A deck (top first) that deals these hands (per seat, in the order the cards are dealt).

    Batches of four go round in play order from dealer+1 over the seats whose hand is not empty.
    """
    n = len(hands)
    order = [(dealer + k) % n for k in range(1, n + 1) if hands[(dealer + k) % n]]
    rounds = len(hands[order[0]]) // 4
    deck = []
    for r in range(rounds):
        for seat in order:
            deck += hands[seat][4 * r : 4 * r + 4]
    return deck


class Match:
    def __init__(self, players=4, options=None, first_dealer=3, deck=None):
        self.options = RULES.normalize_options({**(options or {})}, players)
        self.state = RULES.new_state(self.options, players, first_dealer)
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

    def bid(self, seat, value, suit, **extra):
        return self.act(seat, {"type": "bid", "value": value, "suit": suit, **extra})

    def pass_(self, seat):
        return self.act(seat, {"type": "pass"})

    def double(self, seat):
        return self.act(seat, {"type": "double"})

    def redouble(self, seat):
        return self.act(seat, {"type": "redouble"})

    def play(self, seat, card):
        return self.act(seat, {"type": "play", "card": card})

    def trick(self, *cards_in_order):
        """Plays one trick from the seat to play; returns the trick_taken data."""
        events = []
        for card in cards_in_order:
            events += self.play(self.state.round.to_play, card)
        return next(e["data"] for e in events if e["type"] == "trick_taken")

    def score(self):
        events = self.act(None, {"type": "score_round"})
        return events[0]["data"]

    def view(self, seat):
        return RULES.view(self.state, seat)

    def hand(self, seat):
        return sorted(self.state.round.hands[seat])


def bot_view(state, seat):
    """The view a bot gets from the service: the engine's view plus seat and legal actions."""
    return {**RULES.view(state, seat), "seat": seat, "legal_actions": RULES.legal_actions(state, seat)}


def play_match(options, players, seed, levels=None, first_dealer=0, on_step=None, max_deals=300):
    """Plays a whole match with bots, shuffling from `seed`; returns (final state, all events).

    `on_step(state, events)` is called after every action, if given.
    """
    from games.fiftysix import bots

    levels = levels or ["random"] * players
    rng = random.Random(seed)
    options = RULES.normalize_options(options, players)
    state = RULES.new_state(options, players, first_dealer)
    return play_out(
        RULES,
        bots,
        state,
        options,
        rng,
        levels,
        bot_view,
        keep_going=lambda s: s.phase != "match_over" and s.rounds_dealt < max_deals,
        on_step=on_step,
    )


def fill_hands(players, fixed, voids=None):
    """Hands per seat: the `fixed` cards first, then the rest of the pack, never giving a seat a card of
    a suit listed in `voids[seat]`. Seats with voids are filled first so the greedy fill cannot fail."""
    from collections import Counter

    voids = voids or {}
    size = 12 if players == 4 else 8
    left = Counter(RULES.deck({"players": players}))
    hands = {s: list(fixed.get(s, [])) for s in range(players)}
    for cards in hands.values():
        left.subtract(cards)
    assert min(left.values()) >= 0, "a fixed card is used three times"
    pool = list(left.elements())
    for seat in sorted(range(players), key=lambda s: -len(voids.get(s, ""))):
        for card in list(pool):
            if len(hands[seat]) == size:
                break
            if card[1] not in voids.get(seat, ""):
                hands[seat].append(card)
                pool.remove(card)
        assert len(hands[seat]) == size, f"cannot fill seat {seat}"
    return [hands[s] for s in range(players)]


def deck_for(players, dealer, fixed, voids=None):
    return deck_from_hands(fill_hands(players, fixed, voids), dealer)


KINGS_AND_QUEENS = ["KS", "QS", "KH", "QH", "KD", "QD", "KC", "QC", "KS", "QS", "KH", "QH"]


def first_hand_match(hand: list[str], dealer: int = 3) -> Match:
    """A 4-player match whose seat 0 holds `hand`; the other seats get the rest of DECK_113 in order."""
    rest = list(DECK_113)
    for card in hand:
        rest.remove(card)
    hands = [hand] + [rest[i * 12 : (i + 1) * 12] for i in range(3)]
    return Match(deck=deck_from_hands(hands, dealer))
