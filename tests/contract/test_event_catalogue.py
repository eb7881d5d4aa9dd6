"""The event catalogue of the spec lists every event type each game's engine and the table write, and the
rare ones (turn timeouts, takeovers, seat resets, abandonment) match their schemas as every kind of
caller sees them: a seat, a spectator, the operator. Whole matches (test_matches_conform.py) cover the
rest over HTTP."""

from __future__ import annotations

import random

import pytest
import yaml

from games import table as tables
from games.fiftysix import evolve as fiftysix
from games.sixtysix import evolve as sixtysix
from games.smear import evolve as smear
from tests.support.contract import SPEC_PATH, check_schema

ENGINES = {
    "sixty-six": ("SixtySix", sixtysix.MUTATORS, 2),
    "fifty-six": ("FiftySix", fiftysix.MUTATORS, 4),
    "smear": ("Smear", smear.MUTATORS, 4),
}
TABLE_EVENTS = {
    "match_created",
    "seat_claimed",
    "turn_timed_out",
    "seat_taken_over",
    "seat_returned",
    "seat_reset",
    "seat_resumed",
    "match_abandoned",
    "deal_committed",
    "deal_revealed",
    "rematch_offered",
}


@pytest.mark.parametrize("game", ENGINES)
def test_the_catalogue_lists_every_event_the_engines_write(game):
    prefix, mutators, _ = ENGINES[game]
    union = yaml.safe_load(SPEC_PATH.read_text())["components"]["schemas"][f"{prefix}Event"]
    assert set(union["discriminator"]["mapping"]) == set(mutators) | TABLE_EVENTS


def _applied(table, events, log):
    for event in events:
        table = tables.evolve(table, event)
        log.append(event)
    return table


@pytest.mark.parametrize("game", ENGINES)
def test_the_tables_rare_events_match_the_catalogue_for_every_caller(game):
    prefix, _, players = ENGINES[game]
    log: list[dict] = []
    table = _applied(
        None,
        tables.create("g1", game, {"turn_timeout_s": 30, "takeover_after": 2}, [{"kind": "human"}] * players, seed=3),
        log,
    )
    for seat in range(players):
        table = _applied(
            table,
            tables.claim_seat(table, seat, f"p{seat}", "0" * 64, player_id="0123456789abcdef" if seat == 0 else None),
            log,
        )
    table = _applied(
        table, tables.resume_seat(table, 0, "0123456789abcdef", "1" * 64), log
    )  # seat 0's player, elsewhere
    rng = random.Random(1)
    for _ in range(500):  # seat 0 lets its turns run out until the bot takes it over; the others play
        table = _applied(table, tables.system_step(table), log)
        waiting = table.rules.to_act(table.state)[0]
        if waiting == 0 and table.seats[0].taken_over:
            table = _applied(table, tables.act(table, 0, rng.choice(table.rules.legal_actions(table.state, 0))), log)
            break
        if waiting == 0:
            table = _applied(table, tables.time_out(table, 0), log)
        else:
            table = _applied(
                table, tables.act(table, waiting, rng.choice(table.rules.legal_actions(table.state, waiting))), log
            )
    table = _applied(table, tables.reset_seat(table, 0), log)
    table = _applied(table, tables.abandon(table, 604800), log)
    kinds = {e["type"] for e in log}
    assert {
        "turn_timed_out",
        "seat_taken_over",
        "seat_returned",
        "seat_reset",
        "seat_resumed",
        "match_abandoned",
        "deal_revealed",
    } <= kinds
    for version, event in enumerate(log, start=1):
        for seat, operator in [(0, False), (None, False), (None, True)]:
            shown = tables.event_view(game, event, seat, operator=operator)
            check_schema(
                f"{prefix}Event",
                {
                    "version": version,
                    "type": shown["type"],
                    "at": "2026-11-30T03:04:05.123Z",
                    "actor": shown["actor"],
                    "data": shown["data"],
                },
                f"{event['type']} as {'the operator' if operator else seat}",
            )
