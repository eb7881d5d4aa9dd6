"""Each deal's deck is the pack of the players at that deal (RULES §1.2, §1.9): 64 cards while eight play,
48 once a team is out; the table shuffles, commits, reveals and takes from the operator that pack."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from games import table as tables
from games.errors import ActionShapeError, OptionError
from games.fiftysix import RULES
from games.fiftysix.options import pack_for

EIGHT_BOTS = [{"kind": "bot", "level": "basic"}] * 8
# One table each: a failed contract eliminates the declarer's team, a made one ends the match.
ONE_TABLE = {"starting_tables": 1, "first_dealer": 0}


def play_out(events: list[dict]) -> tuple[tables.Table, list[dict]]:
    """The match these creation events start, played to its end by its bots and the system."""
    table = None
    for event in events:
        table = tables.evolve(table, event)
    while table.status == "active":
        work = tables.owed_work(table)
        step = tables.system_step(table) if work == [("advance", None)] else tables.bot_move(table, work[0][1])
        for event in step:
            table = tables.evolve(table, event)
        events = events + step
    return table, events


def deals_of(events: list[dict]) -> list[dict]:
    """Per deal: the players dealt in, the cards dealt, the commitment, and the deck and salt revealed."""
    deals: dict[int, dict] = {}
    for event in events:
        data = event["data"]
        if event["type"] == "deal_committed":
            deals[data["deal"]] = {"commitment": data["commitment"]}
        elif event["type"] == "dealt":
            deal = deals[max(deals)]
            deal.update(players=len(data["active"]), hands=[c for hand in data["hands"] for c in hand])
        elif event["type"] == "deal_revealed":
            deals[data["deal"]].update(deck=data["deck"], salt=data["salt"])
    return [deals[n] for n in sorted(deals)]


def test_finding_12_after_an_elimination_the_deal_commits_and_reveals_the_pack_of_its_players():
    """The finding: after an elimination the next deal was dealt from the 64-card pack trimmed to 48
    cards, so the deck committed and revealed held 16 cards nobody was dealt."""
    # Seed 7: the basic bots fail a contract in each of the first two deals.
    table, events = play_out(tables.create("g", "fifty-six", ONE_TABLE, EIGHT_BOTS, seed=7))
    deals = deals_of(events)
    for deal in deals:
        pack = Counter(pack_for(deal["players"]))
        assert Counter(deal["deck"]) == Counter(deal["hands"]) == pack
        assert tables.deal_commitment(deal["salt"], deal["deck"]) == deal["commitment"]
    assert [d["players"] for d in deals] == [8, 6, 4] and table.status == "finished"


def test_finding_12_operator_decks_of_64_48_and_48_cards_deal_eight_then_six_then_four_players():
    """The finding: the 48-card deck of a deal after an elimination was refused at creation."""
    decks = operator_decks()
    table, events = play_out(tables.create("g", "fifty-six", ONE_TABLE, EIGHT_BOTS, seed=1, decks=decks))
    deals = deals_of(events)
    assert [d["players"] for d in deals] == [8, 6, 4] and table.status == "finished"
    for deal, deck in zip(deals, decks):
        assert deal["deck"] == deck and Counter(deal["hands"]) == Counter(deck)
        assert tables.deal_commitment(deal["salt"], deck) == deal["commitment"]


def operator_decks() -> list[list[str]]:
    """Decks of 64, 48 and 48 cards with which the basic bots fail a contract in each of the first two
    deals (seed 1 for their choices), so that the match goes from eight players to six to four."""
    rng = random.Random(3)
    return [rng.sample(pack_for(8), 64), rng.sample(pack_for(6), 48), rng.sample(pack_for(4), 48)]


def test_the_packs_a_match_can_use_and_the_pack_of_each_deal():
    assert [len(p) for p in RULES.packs(RULES.normalize_options({}, 8))] == [64, 48]
    assert RULES.packs(RULES.normalize_options({}, 6)) == RULES.packs(RULES.normalize_options({}, 4)) == [pack_for(6)]
    # Two sides: the first elimination leaves one team, and the match is over.
    assert RULES.packs(RULES.normalize_options({"team_format": "two_sides"}, 8)) == [pack_for(8)]
    state = RULES.new_state(RULES.normalize_options({}, 8), 8, 0)
    assert RULES.deal_pack({}, state) == RULES.deck({"players": 8}) == pack_for(8)
    assert RULES.deal_pack({}, replace(state, tables=(12, 0, 12, 12))) == pack_for(6)
    assert RULES.deal_pack({}, replace(state, tables=(12, 0, 12, 0))) == pack_for(4)


def test_the_engine_deals_only_the_pack_of_the_players_at_the_deal():
    state = replace(RULES.new_state(RULES.normalize_options({}, 8), 8, 0), tables=(12, 0, 12, 12))
    with pytest.raises(ActionShapeError, match="the 48-card pack of the 6 players at this deal"):
        RULES.decide(state, None, {"type": "deal", "deck": pack_for(8)})
    dealt = RULES.decide(state, None, {"type": "deal", "deck": pack_for(6)})[0]["data"]
    assert [len(hand) for hand in dealt["hands"]] == [8, 0, 8, 8, 8, 0, 8, 8]
    with pytest.raises(ActionShapeError, match="the 64-card pack of the 8 players at this deal"):
        RULES.decide(RULES.new_state(RULES.normalize_options({}, 8), 8, 0), None, {"type": "deal", "deck": pack_for(6)})


@pytest.mark.parametrize(
    "players,decks,message",
    [
        (8, [pack_for(6)], "deck 0 must hold exactly the 64 cards of the first deal's pack"),
        (8, [pack_for(8), pack_for(8)[1:]], "deck 1 must hold exactly the 64 or 48 cards of one of this game's packs"),
        (6, [pack_for(6), pack_for(8)], "deck 1 must hold exactly the 48 cards of this game's pack"),
    ],
)
def test_operator_decks_are_checked_at_creation_against_the_packs_the_match_can_use(players, decks, message):
    with pytest.raises(OptionError) as refused:
        tables.create("g", "fifty-six", {}, [{"kind": "human"}] * players, seed=1, decks=decks)
    assert (refused.value.field, refused.value.detail) == ("decks", message)
    # Every later entry may be either pack: which one its deal needs is known only at that deal.
    tables.create("g", "fifty-six", {}, [{"kind": "human"}] * 8, seed=1, decks=[pack_for(8), pack_for(6), pack_for(8)])


def test_a_deal_whose_operator_deck_is_not_the_pack_of_its_players_is_dealt_from_the_seed():
    """The operator gave 64 cards for deal 2, but a team went out in deal 1: deal 2 takes the seeded
    shuffle of the 48-card pack, and the match plays on to its end."""
    first, second = operator_decks()[0], random.Random(9).sample(pack_for(8), 64)
    table, events = play_out(tables.create("g", "fifty-six", ONE_TABLE, EIGHT_BOTS, seed=1, decks=[first, second]))
    deals = deals_of(events)
    seeded = pack_for(6)
    random.Random("1:1").shuffle(seeded)
    assert deals[0]["deck"] == first and deals[1]["players"] == 6 and deals[1]["deck"] == seeded
    assert table.status == "finished"


@pytest.mark.parametrize("players", [4, 6, 8])
def test_a_deal_of_the_first_pack_has_no_older_form(players):
    """The step as taken before Fifty-Six 56.2 differs only after an elimination from eight players."""
    table = None
    for event in tables.create("g", "fifty-six", {}, [{"kind": "human"}] * players, seed=1):
        table = tables.evolve(table, event)
    assert tables.first_pack_deal(table) == []
    table = replace(table, state=replace(table.state, tables=(12, 0) + (12,) * (len(table.state.tables) - 2)))
    older = tables.first_pack_deal(table)
    assert (older != []) == (players == 8)
    if older:  # the first pack committed, its cards of the 48-card pack dealt
        deck = tables.deck_of_deal(table, 1, pack_for(8))
        assert older[0]["data"]["commitment"] == tables.deal_commitment(tables.deal_salt(1, 1), deck)
        trimmed = [c for c in deck if c[0] not in "87"]  # what the engine then left of it
        assert older[1:] == RULES.decide(table.state, None, {"type": "deal", "deck": trimmed})
