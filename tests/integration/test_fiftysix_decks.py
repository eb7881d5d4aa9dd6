"""Fifty-Six through the service, on a real Redis with real rq jobs: each deal's deck is the pack of the
players at that deal. An operator's decks of 64, 48 and 48 cards deal a match from eight players to six
to four, and it audits clean; a deck the first deal cannot use is refused at creation; and logs written
before Fifty-Six 56.2 (a 64-card deck committed after an elimination) still audit clean, including a
match that was dealt so before an upgrade and played on after it.

`data/fifty-six-8p-56.1.jsonl` is the export of a match played by the code before that change (commit
99f8ec2): eight basic bots, one table each, seed 5, first dealer 0, operator decks
`random.Random(i).sample(pack_for(8), 64)` for i in 0..3. Its deals had 8, 6, 4, 4 and 4 players, and
each after the first committed to and revealed a 64-card deck: deals 2 to 4 the operator's, deal 5 the
seeded shuffle.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from app import audit
from events.codec import Codec
from events.store import EventStore
from games.fiftysix.options import pack_for
from tests.support.talon import OPERATOR, auth, make_app, run_jobs
from tests.unit.fiftysix.test_deal_packs import operator_decks

OLD_LOG = Path(__file__).parent / "data" / "fifty-six-8p-56.1.jsonl"
EIGHT_BOTS = [{"kind": "bot", "level": "basic"}] * 8


@pytest.fixture
def app(r, redis_url):
    return make_app(redis_url)


@pytest.fixture
def store(app) -> EventStore:
    return app.extensions["talon_application"].store


def deals_of(events) -> list[dict]:
    """Per deal: the players dealt in, the cards dealt and the deck revealed."""
    deals: list[dict] = []
    for event in events:
        if event.type == "dealt":
            deals.append(
                {
                    "players": len(event.data["active"]),
                    "hands": Counter(c for hand in event.data["hands"] for c in hand),
                }
            )
        elif event.type == "deal_revealed":
            deals[event.data["deal"] - 1]["deck"] = event.data["deck"]
    return deals


def test_operator_decks_of_64_48_and_48_cards_play_from_eight_to_six_to_four_players_and_audit(app, store, redis_url):
    client = app.test_client()
    decks = operator_decks()
    created = client.post(
        "/v1/games",
        headers=auth(OPERATOR),
        json={
            "game": "fifty-six",
            "seed": 1,
            "options": {"starting_tables": 1, "first_dealer": 0},
            "seats": EIGHT_BOTS,
            "decks": decks,
        },
    )
    assert created.status_code == 201, created.json
    game_id = created.json["game_id"]
    run_jobs(redis_url)
    assert client.get(f"/v1/games/{game_id}").json["status"] == "finished"
    deals = deals_of(store.read(game_id))
    assert [d["players"] for d in deals] == [8, 6, 4]
    for deal, deck in zip(deals, decks):
        assert deal["deck"] == deck and deal["hands"] == Counter(deck)
    report = audit.audit_game(store, game_id)
    assert report["ok"], report["first_broken"]
    assert report["checks"]["commitments"] == {"ok": True, "deals": 3, "revealed": 3, "pending": 0}
    assert report["checks"]["replay"]["match_result"] == "reproduced"


def test_a_first_deck_of_another_pack_is_refused_naming_the_pack(app, store):
    client = app.test_client()
    body = {"game": "fifty-six", "seats": EIGHT_BOTS, "decks": [pack_for(6)]}
    refused = client.post("/v1/games", headers=auth(OPERATOR), json=body)
    assert refused.status_code == 422 and refused.json["type"].endswith("/invalid-option")
    assert [(e["field"], e["detail"]) for e in refused.json["errors"]] == [
        ("decks", "deck 0 must hold exactly the 64 cards of the first deal's pack")
    ]
    refused = client.post("/v1/games", headers=auth(OPERATOR), json={**body, "decks": [pack_for(8), pack_for(8)[:50]]})
    assert [(e["field"], e["detail"]) for e in refused.json["errors"]] == [
        ("decks", "deck 1 must hold exactly the 64 or 48 cards of one of this game's packs")
    ]
    assert store.lobby("waiting", 0, 10)[1] == store.lobby("active", 0, 10)[1] == 0  # nothing was created


def old_log() -> tuple[str, list, dict]:
    header, entries = audit.read_export(OLD_LOG.read_text().splitlines())
    return header["game_id"], entries, header["meta"]


def test_a_log_written_before_the_change_still_audits_clean(store):
    game_id, entries, meta = old_log()
    store.import_entries(game_id, entries, meta)
    events = store.read(game_id)
    deals = deals_of(events)
    assert [d["players"] for d in deals] == [8, 6, 4, 4, 4]
    assert [len(d["deck"]) for d in deals] == [64] * 5  # the old form: 16 cards nobody was dealt
    report = audit.audit_game(store, game_id)
    assert report["ok"], report["first_broken"]
    assert report["checks"]["replay"]["events_reproduced"] == len(events)
    assert report["checks"]["commitments"]["revealed"] == report["checks"]["conservation"]["deals"] == 5


def test_an_old_form_deal_is_revealed_as_committed_when_the_match_plays_on_after_the_upgrade(app, store, redis_url):
    """A match running during the upgrade: its deal 2 was committed to 64 cards by the code before it."""
    game_id, entries, meta = old_log()
    decoded = [Codec().decode(entry.version, entry.payload, entry.hash, entry.prev_hash) for entry in entries]
    second = next(n for n, e in enumerate(decoded) if e.type == "dealt" and e.data["round"] == 2)
    store.import_entries(game_id, entries[: second + 5], {**meta, "status": "active"})
    talon = app.extensions["talon_application"].matches
    talon.jobs.repair(talon._owed_jobs(talon.table(game_id)))  # as the sweeper would
    run_jobs(redis_url)
    events = store.read(game_id)
    assert events[-1].type == "match_ended"
    deals = deals_of(events)
    assert deals[1]["players"] == 6 and len(deals[1]["deck"]) == 64  # revealed as it was committed
    assert len(deals) > 2 and all(len(d["deck"]) == 48 and d["hands"] == Counter(d["deck"]) for d in deals[2:])
    report = audit.audit_game(store, game_id)
    assert report["ok"], report["first_broken"]
    assert audit.verify_commitments([{"type": e.type, "data": e.data} for e in events]) == []
