"""The Fifty-Six expert: judgements it must get right, its fast replays agree with the engine and the
basic player, its worlds agree with the view, and its answers are legal and reproducible."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games import bots as interface
from games.fiftysix import RULES, bots, expert
from games.fiftysix.expert_auction import finish
from games.fiftysix.expert_hand import Model
from games.fiftysix.expert_sim import Deal, basic_card
from games.fiftysix.expert_world import Sampler, played_by, voids
from tests.unit.fiftysix.support import KINGS_AND_QUEENS, Match, bot_view, deck_for, deck_from_hands, first_hand_match

SAMPLES = 240


def view_of(m: Match, seat: int) -> dict:
    return {**bot_view(m.state, seat), "game": "fifty-six", "options": {**m.options, "first_dealer": 3}}


def expert_choice(view: dict, seed: int = 1, samples: int = SAMPLES) -> tuple[dict, dict]:
    return expert.choose(view, random.Random(seed), samples, lambda: False)


def dealt(seed: int, dealer: int = 0) -> Match:
    deck = RULES.deck({"players": 4})
    random.Random(seed).shuffle(deck)
    return Match(first_dealer=dealer, deck=deck)


# --- judgements ---------------------------------------------------------------------------------

LAST_SEAT_WITHOUT_HEARTS = ["9S", "AS", "KS", "QD", "KD", "QC", "KC", "TD", "TC", "AD", "AC", "9D"]


def heart_trick_for_the_last_seat(hearts: dict[int, list[str]]) -> Match:
    """Seat 0 bids 28 in spades, all pass; seats 0, 1, 2 play the first heart of `hearts[seat]` to the
    first trick. Seat 3, last to play, has no heart (LAST_SEAT_WITHOUT_HEARTS)."""
    fixed = {**hearts, 3: LAST_SEAT_WITHOUT_HEARTS}
    m = Match(first_dealer=3, deck=deck_for(4, 3, fixed, voids={3: "H"}))
    m.bid(0, 28, "S")
    for seat in (1, 2, 3):
        m.pass_(seat)
    for seat in (0, 1, 2):
        m.play(seat, hearts[seat][0])
    return m


def partner_winning_position() -> Match:
    """Spades trump. Seat 0 leads QH, seat 1 takes over with JH, seat 2 follows KH. Seat 3 (seat 1's
    partner, last to play) has no heart: it could trump its partner's trick or throw a plain card."""
    return heart_trick_for_the_last_seat({0: ["QH", "TH"], 1: ["JH", "AH"], 2: ["KH", "9H"]})


@pytest.mark.parametrize("level", ["basic", "expert"])
def test_does_not_trump_its_partners_winning_trick(level):
    view = view_of(partner_winning_position(), 3)
    assert {"type": "play", "card": "9S"} in view["legal_actions"]  # it could overtake
    if level == "basic":
        card = bots.choose(view, "basic", random.Random(0))["card"]
    else:
        action, values = expert_choice(view)
        card = action["card"]
        assert values[card] > values["9S"]
    assert card[1] != "S"  # a plain card: the partner's jack takes the trick anyway


def test_expert_does_not_bid_a_hopeless_hand():
    action, values = expert_choice(view_of(first_hand_match(KINGS_AND_QUEENS), 0))
    assert action["type"] != "bid"
    assert set(values) == {"pass", "bid"}


def test_expert_bids_a_very_strong_hand():
    strong = ["JS", "JS", "9S", "9S", "AS", "TS", "JH", "JH", "JD", "JD", "JC", "9C"]
    rest = Counter(RULES.deck({"players": 4}))
    rest.subtract(strong)
    pool = sorted(rest.elements())
    random.Random(4).shuffle(pool)
    hands = [strong] + [pool[i * 12 : (i + 1) * 12] for i in range(3)]
    m = Match(deck=deck_from_hands(hands, 3))
    action, values = expert_choice(view_of(m, 0))
    assert action["type"] == "bid" and action["suit"] == "S"
    assert values["bid"] > 0.5  # the contract makes nearly always


def test_expert_trumps_an_opponents_rich_trick_when_last_to_play():
    """Spades trump. Seat 0 leads JH, seat 1 plays QH, seat 2 plays 9H: five points, the opponents
    winning. Seat 3, last and without hearts, takes them with a trump rather than throwing a card."""
    m = heart_trick_for_the_last_seat({0: ["JH", "TH"], 1: ["QH", "AH"], 2: ["9H", "KH"]})
    action, values = expert_choice(view_of(m, 3))
    assert action["card"][1] == "S"
    assert values[action["card"]] > values["QD"]


# --- the fast replays agree with the engine ---------------------------------------------------------


def basic_auction(m: Match, rng: random.Random) -> None:
    while m.state.phase == "auction":
        seat = m.state.round.to_play
        m.act(seat, bots.choose(bot_view(m.state, seat), "basic", rng))


@pytest.mark.parametrize("seed", range(12))
def test_the_play_out_is_the_basic_players_card_for_card(seed):
    m = dealt(seed, dealer=seed % 4)
    rng = random.Random(seed)
    basic_auction(m, rng)
    deal = Deal.from_state(m.state)
    while m.state.phase == "play":
        seat = m.state.round.to_play
        card = bots.choose(bot_view(m.state, seat), "basic", rng)["card"]
        assert basic_card(deal, seat) == card
        deal.play(card)
        m.play(seat, card)
    team_points = m.score()["card_points"]
    assert deal.points == team_points


@pytest.mark.parametrize("seed", range(12))
def test_the_auction_model_calls_as_the_basic_bidder_and_ends_as_the_engine(seed):
    m = dealt(100 + seed, dealer=seed % 4)
    model = Model(m.state)
    predicted = finish(m.state, model)
    rng = random.Random(seed)
    while m.state.phase == "auction":
        seat = m.state.round.to_play
        rnd = m.state.round
        high = None if rnd.high_bid is None else (rnd.high_bid.seat, rnd.high_bid.value, rnd.high_bid.suit)
        call = bots.choose(bot_view(m.state, seat), "basic", rng)
        assert model.call(seat, high, rnd.level, not rnd.calls) == call
        m.act(seat, call)
    assert predicted == m.state.round.contract


# --- worlds agree with the view -------------------------------------------------------------------


def test_sampled_worlds_agree_with_everything_the_view_shows():
    m = partner_winning_position()
    m.play(3, "QD")
    m.play(1, "AH")  # seat 1 leads hearts again: seat 3 is known to have none
    view = view_of(m, 2)
    sampler = Sampler(view)
    rnd = view["round"]
    played = Counter(c for cs in played_by(rnd).values() for c in cs)
    for seed in range(20):
        world = sampler.sample(random.Random(seed))
        hands = world.round.hands
        assert sorted(hands[2]) == sorted(rnd["hand"])
        assert [len(h) for h in hands] == rnd["hand_sizes"]
        assert Counter(c for h in hands for c in h) + played == Counter(RULES.deck({"players": 4}))
        assert not any(c[1] == "H" for c in hands[3]), voids(rnd)
        assert RULES.legal_actions(world, 2) == view["legal_actions"]


# --- the interface: legal, complete, reproducible ---------------------------------------------------


def positions(count: int, seed: int):
    """Views of seats to act, reached by basic play from random deals."""
    rng, found = random.Random(seed), []
    while len(found) < count:
        m = dealt(rng.randrange(10**6), dealer=rng.randrange(4))
        while m.state.phase in ("auction", "play") and len(found) < count:
            seat = m.state.round.to_play
            view = view_of(m, seat)
            if rng.random() < 0.15:
                found.append(view)
            m.act(seat, bots.choose(view, "basic", rng))
    return found


def test_every_choice_is_legal_with_a_value_for_every_legal_action():
    for view in positions(30, seed=5):
        action, values = expert_choice(view, samples=24)
        assert action in view["legal_actions"]
        assert set(values) == {interface.action_key(a) for a in view["legal_actions"]}
        assert all(isinstance(v, float) for v in values.values())


def test_the_choice_depends_only_on_view_and_seed():
    for view in positions(6, seed=9):
        first = interface.decide(view, "expert", seed=3, samples=24)
        assert interface.decide(dict(view), "expert", seed=3, samples=24) == first


def test_stop_ends_the_search_early_with_values_for_every_action():
    view = positions(1, seed=2)[0]
    action, values = expert.choose(view, random.Random(0), 10_000, lambda: True)
    assert action in view["legal_actions"]
    assert set(values) == {interface.action_key(a) for a in view["legal_actions"]}


@pytest.mark.parametrize("players,team_format", [(6, "pairs"), (8, "two_sides")])
def test_six_and_eight_players_get_legal_choices(players, team_format):
    options = {"team_format": team_format, "starting_tables": 1}
    m = Match(players=players, options=options, first_dealer=0)
    deck = RULES.deck({"players": players})
    random.Random(players).shuffle(deck)
    m.deal(deck)
    rng = random.Random(1)
    while m.state.phase in ("auction", "play"):
        seat = m.state.round.to_play
        view = {**bot_view(m.state, seat), "game": "fifty-six", "options": {**m.options, "first_dealer": 0}}
        action, values = expert_choice(view, samples=12)
        assert action in view["legal_actions"]
        assert set(values) == {interface.action_key(a) for a in view["legal_actions"]}
        m.act(seat, action if rng.random() < 0.5 else bots.choose(view, "basic", rng))
