"""A small driver for golden tests: a match whose state follows every event decide returns."""

from __future__ import annotations

import random

from games.smear import RULES
from tests.unit.bot_play import play_out


def build_deck(hands_in_deal_order, undealt=()):
    """A deck (top first) that deals these four hands of six, in the order they are dealt
    (dealer+1 first), then the given top of the undealt pile; the rest of the pack follows in pack order."""
    hands = [h.split() if isinstance(h, str) else list(h) for h in hands_in_deal_order]
    deck = [c for part in (0, 3) for hand in hands for c in hand[part : part + 3]]
    deck += list(undealt.split() if isinstance(undealt, str) else undealt)
    deck += [c for c in RULES.deck({}) if c not in deck]
    assert sorted(deck) == sorted(RULES.deck({})), "cards repeat or are missing"
    return deck


class Match:
    def __init__(self, options=None, first_dealer=0, deck=None, scores=None):
        from dataclasses import replace

        self.options = RULES.normalize_options(options or {}, 4)
        self.state = RULES.new_state(self.options, 4, first_dealer)
        if scores is not None:
            self.state = replace(self.state, scores=tuple(scores))
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
        return self.act(None, {"type": "deal", "deck": list(deck.split() if isinstance(deck, str) else deck)})

    def bid(self, seat, value):
        return self.act(seat, {"type": "bid", "value": value})

    def pass_(self, seat):
        return self.act(seat, {"type": "pass"})

    def discard(self, seat, cards, trump):
        return self.act(
            seat, {"type": "discard", "cards": cards.split() if isinstance(cards, str) else cards, "trump": trump}
        )

    def play(self, seat, card):
        return self.act(seat, {"type": "play", "card": card})

    def trick(self, cards):
        """Plays one trick from the seat to play; returns the trick_taken data."""
        for card in cards.split():
            events = self.play(self.state.round.to_play, card)
        taken = [e for e in events if e["type"] == "trick_taken"]
        assert taken, "the trick is not complete"
        return taken[0]["data"]

    def score(self):
        """Scores the deal; returns the events (round_scored, maybe match_ended)."""
        return self.act(None, {"type": "score_round"})

    def view(self, seat):
        return RULES.view(self.state, seat)

    def hand(self, seat):
        return sorted(self.state.round.hands[seat])

    def legal(self, seat):
        return RULES.legal_actions(self.state, seat)


def bot_view(state, seat):
    """The view a bot gets from the service: the engine's view plus seat and legal actions."""
    return {**RULES.view(state, seat), "seat": seat, "legal_actions": RULES.legal_actions(state, seat)}


def play_match(options, seed, levels=("random",) * 4, first_dealer=0, on_step=None, max_deals=300):
    """Plays a whole match with bots, shuffling from `seed`; returns (final state, all events).

    `on_step(state, events)` is called after every action, if given.
    """
    from games.smear import bots

    rng = random.Random(seed)
    options = RULES.normalize_options(options, 4)
    state = RULES.new_state(options, 4, first_dealer)
    return play_out(
        RULES,
        bots,
        state,
        options,
        rng,
        levels,
        bot_view,
        keep_going=lambda s: s.phase != "match_over" and s.rounds_dealt <= max_deals,
        on_step=on_step,
    )


def seats_of_tricks(tricks, bidder):
    """[(seat, card), ...] per trick for tricks written in play order (lead first), the bidder leading
    the first and each trick's winner the next (RULES §0.4, §3.5; trump = the first card's suit)."""
    from games.cards import winning_index
    from games.smear.options import RANK_ORDER

    trick_lists = [t.split() for t in tricks]
    trump = trick_lists[0][0][1]
    leader, out = bidder, []
    for trick in trick_lists:
        seats = [(leader + k) % 4 for k in range(4)]
        out.append(list(zip(seats, trick)))
        leader = seats[winning_index(trick, trump, RANK_ORDER)]
    return out


def deck_for_deal(tricks, bidder, dealer, widow=(), discards=(), undealt_rest=None):
    """The deck that deals each seat the cards it plays in `tricks` (the bidder also its discards,
    less the widow, which is put on top of the undealt pile)."""
    widow, discards = list(widow), list(discards)
    held = {s: [] for s in range(4)}
    for trick in seats_of_tricks(tricks, bidder):
        for seat, card in trick:
            held[seat].append(card)
    held[bidder] = [c for c in held[bidder] + discards if c not in widow]
    order = [held[(dealer + k) % 4] for k in range(1, 5)]
    return build_deck(order, widow + list(undealt_rest or []))


def play_deal(m, tricks, bidder, bid, discards=(), trump=None):
    """Bids (the bidder bids `bid`, everyone else passes), discards, plays the tricks; returns the
    round_scored data (after scoring), with the match_ended data under "match_ended" if any."""
    dealer = m.state.round.dealer
    for k in range(1, 5):
        seat = (dealer + k) % 4
        if m.state.phase != "auction":
            break
        m.bid(seat, bid) if seat == bidder else m.pass_(seat)
    if m.state.phase == "discard":
        m.discard(bidder, list(discards), trump or tricks[0].split()[0][1])
    for trick in tricks:
        m.trick(trick)
    events = m.score()
    data = dict(events[0]["data"])
    if len(events) > 1:
        data["match_ended"] = events[1]["data"]
    return data


def points_of(data):
    """{point: team} of a round_scored data."""
    return {p["point"]: p["team"] for p in data["points"]}
