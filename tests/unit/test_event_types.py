"""Every event the engines and the table write is one their registries declare, with exactly the data its
TypedDict says (games/events.py): whole matches of every game and variant, played by bots through the
table, with the table's rarer events (turn timeouts, takeovers, returns, a seat reset, an abandonment)
made to happen. The registries are what the engine contract exposes (`Rules.event_types`) and what mypy
checks decide, evolve and the views against; this holds them to what is written at run time."""

from __future__ import annotations

import functools
import random
import types
import typing
from collections import Counter

import pytest

from games import table as tables
from games import table_events
from games.fiftysix import evolve as fiftysix_evolve
from games.fiftysix import view as fiftysix_view
from games.registry import rules_for
from games.sixtysix import evolve as sixtysix_evolve
from games.sixtysix import view as sixtysix_view
from games.smear import evolve as smear_evolve
from games.smear import view as smear_view

# (game, options, seats): every variant, and the options that make an engine write its rarer events.
MATCHES = [
    ("sixty-six", {}, 2),
    ("sixty-six", {"variant": "2p20"}, 2),
    ("sixty-six", {"variant": "2p32", "non_closer_may_exchange_at_close": True, "draw_bonus": True}, 2),
    ("sixty-six", {"profile": "schnapsen"}, 2),
    ("sixty-six", {}, 3),
    ("sixty-six", {"three_player_mode": "pagat_no_talon"}, 3),
    ("sixty-six", {}, 4),
    ("fifty-six", {"starting_tables": 4}, 4),
    ("fifty-six", {"starting_tables": 2}, 6),
    ("fifty-six", {"starting_tables": 2}, 8),
    (
        "fifty-six",
        {"team_format": "two_sides", "pass_is_final": True, "all_pass_contract": "redeal", "starting_tables": 3},
        6,
    ),
    ("smear", {}, 4),
    ("smear", {"widow_size": 2, "all_pass": "pass_deal"}, 4),
    ("smear", {"widow_size": 3, "all_pass": "stick_dealer"}, 4),
]
FOLDS = {
    "sixty-six": (sixtysix_evolve, sixtysix_view),
    "fifty-six": (fiftysix_evolve, fiftysix_view),
    "smear": (smear_evolve, smear_view),
}
MAX_STEPS = 20_000  # a guard: every match here ends far sooner


def registry(game: str) -> dict[str, type]:
    return {**table_events.EVENTS, **rules_for(game).event_types}


def shape_errors(value: object, hint: object, where: str) -> list[str]:
    """Where `value` is not of the type `hint` (the types event data records use), as readable paths."""
    if hint is typing.Any:
        return []
    if typing.is_typeddict(hint):
        return record_errors(value, hint, where)
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        checked = [shape_errors(value, arg, where) for arg in args]
        return [] if any(not errors for errors in checked) else [f"{where}: {value!r} is not {hint}"]
    if origin is list:
        if not isinstance(value, list):
            return [f"{where}: {value!r} is not a list"]
        return [e for i, item in enumerate(value) for e in shape_errors(item, args[0], f"{where}[{i}]")]
    if origin is dict:
        if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
            return [f"{where}: {value!r} is not an object"]
        return [e for k, item in value.items() for e in shape_errors(item, args[1], f"{where}.{k}")]
    if hint is type(None):
        return [] if value is None else [f"{where}: {value!r} is not null"]
    # bool is an int in Python, not in the JSON a client reads: a field is one or the other.
    if hint in (int, str, bool) and type(value) is hint:
        return []
    return [f"{where}: {value!r} is not {getattr(hint, '__name__', hint)}"]


def record_errors(value: object, record: type, where: str) -> list[str]:
    """Keys exactly as the TypedDict declares them (its required ones all there), each value its type."""
    if not isinstance(value, dict):
        return [f"{where}: {value!r} is not an object"]
    required, optional = record.__required_keys__, record.__optional_keys__
    errors = [f"{where}: missing {key!r}" for key in sorted(required - set(value))]
    errors += [f"{where}: undeclared {key!r}" for key in sorted(set(value) - required - optional)]
    hints = typing.get_type_hints(record)
    return errors + [
        e for key, item in value.items() if key in hints for e in shape_errors(item, hints[key], f"{where}.{key}")
    ]


def event_errors(event: dict, known: dict[str, type]) -> list[str]:
    where = f"{event['type']}"
    if set(event) != {"type", "actor", "data"}:
        return [f"{where}: the event's keys are {sorted(event)}"]
    if event["type"] not in known:
        return [f"{where}: not a registered event type"]
    if event["actor"] is not None and type(event["actor"]) is not int:
        return [f"{where}: actor {event['actor']!r}"]
    return record_errors(event["data"], known[event["type"]], f"{where}.data")


class Match:
    """A table and every event written to it."""

    def __init__(self) -> None:
        self.table: tables.Table | None = None
        self.log: list[dict] = []

    def add(self, events: list[dict]) -> tables.Table:
        for event in events:
            self.table = tables.evolve(self.table, event)
        self.log += events
        assert self.table is not None
        return self.table


@functools.cache  # both tests below read the same matches
def whole_match(index: int) -> tuple[dict, ...]:
    """A whole match of MATCHES[index]: seat 0 a claimed human seat that sometimes lets its turn run
    out (until a bot takes it over) and sometimes plays (taking it back); bots of both levels beside it."""
    game, options, n_seats = MATCHES[index]
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": ("random", "basic")[s % 2]} for s in range(1, n_seats)]
    match, rng = Match(), random.Random(index)
    table = match.add(tables.create("g", game, dict(options, turn_timeout_s=30), seats, seed=index))
    table = match.add(tables.claim_seat(table, 0, "Ann", "0" * 64))
    for _ in range(MAX_STEPS):
        table = match.add(tables.system_step(table))
        if table.finished:
            match.add(tables.offer_rematch(table, "r"))  # the one event after the end
            return tuple(match.log)
        _, seat = tables.owed_work(table)[0]
        assert seat is not None
        human_plays = rng.random() < 0.5
        if seat != 0 or (table.seats[0].taken_over and not human_plays):
            table = match.add(tables.bot_move(table, seat))
        elif human_plays:
            table = match.add(tables.act(table, seat, rng.choice(table.rules.legal_actions(table.state, seat))))
        else:
            table = match.add(tables.time_out(table, seat))
    raise AssertionError(f"{game} {options} did not end in {MAX_STEPS} steps")


def cut_short(game: str, n_seats: int) -> list[dict]:
    """A match whose human seat, claimed by a registered player who then resumes it on another device, the
    operator resets, and which is abandoned during its first deal."""
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": "basic"}] * (n_seats - 1)
    match = Match()
    table = match.add(tables.create("g", game, {}, seats, seed=5))
    table = match.add(tables.claim_seat(table, 0, "Ann", "0" * 64, player_id="0123456789abcdef"))
    table = match.add(tables.resume_seat(table, 0, "0123456789abcdef", "1" * 64))
    table = match.add(tables.reset_seat(table, 0))
    match.add(tables.abandon(table, 604_800))
    return match.log


def rematch_of(index: int) -> list[dict]:
    """The start of the rematch of MATCHES[index]'s whole match: its creation (a reserved seat, the match
    it follows) and its player's claim of the reserved seat."""
    log = whole_match(index)
    finished = Match()
    finished.add(list(log))
    assert finished.table is not None
    options, seats = tables.rematch_spec(finished.table)
    match = Match()
    table = match.add(tables.create("r", finished.table.game, options, seats, seed=6, rematch_of="g"))
    assert table.seats[0].reserved and table.rematch_of == "g"
    match.add(tables.claim_seat(table, 0, "Ann", "1" * 64, reserved_ok=True))
    return match.log


def passed_out(game: str, options: dict, n_seats: int) -> list[dict]:
    """A deal every seat passes (human seats all): thrown in where the options redeal it."""
    match = Match()
    table = match.add(tables.create("g", game, options, [{"kind": "human"}] * n_seats, seed=5))
    for seat in range(n_seats):
        table = match.add(tables.claim_seat(table, seat, f"P{seat}", f"{seat}" * 64))
    while match.log[-1]["type"] != "thrown_in":
        table = match.add(tables.act(table, table.rules.to_act(table.state)[0], {"type": "pass"}))
    return match.log


# Games with an auction that a deal all pass may throw in: what thrown_in takes, beyond whole matches.
THROWN_IN = {"fifty-six": ({"all_pass_contract": "redeal"}, 4), "smear": ({"all_pass": "pass_deal"}, 4)}


@pytest.mark.parametrize("index", range(len(MATCHES)), ids=[f"{g}-{n}p-{o}" for g, o, n in MATCHES])
def test_every_event_of_a_whole_match_is_registered_with_exactly_its_declared_data(index):
    known = registry(MATCHES[index][0])
    log = whole_match(index)
    assert [e["type"] for e in log[-2:]] == ["match_ended", "rematch_offered"]
    errors = [f"event {i + 1}, {e}" for i, event in enumerate(log) for e in event_errors(event, known)]
    assert not errors, "\n".join(errors[:20])


@pytest.mark.parametrize("game", FOLDS)
def test_the_matches_write_every_registered_event_type(game):
    """So that the test above checks every record against what is written, none only declared."""
    seen: Counter[str] = Counter()
    for index, (match_game, _, _n_seats) in enumerate(MATCHES):
        if match_game == game:
            seen.update(e["type"] for e in whole_match(index))
    short = cut_short(game, next(n for g, _, n in MATCHES if g == game))
    short += rematch_of(next(i for i, (g, _, _) in enumerate(MATCHES) if g == game))
    if game in THROWN_IN:
        short += passed_out(game, *THROWN_IN[game])
    assert not [e for event in short for e in event_errors(event, registry(game))]
    seen.update(e["type"] for e in short)
    assert set(registry(game)) - set(seen) == set()


@pytest.mark.parametrize("game", FOLDS)
def test_the_fold_and_the_views_handle_exactly_the_registered_types(game):
    evolve, view = FOLDS[game]
    events = rules_for(game).event_types
    assert set(evolve.MUTATORS) == set(events)
    assert set(view.HIDERS) <= set(events)


def test_a_misshaped_or_unknown_event_is_reported():
    known = registry("sixty-six")
    played = {"type": "played", "actor": 0, "data": {"seat": 0, "card": "AS"}}
    assert event_errors(played, known) == []
    assert event_errors({**played, "data": {"seat": 0}}, known) == ["played.data: missing 'card'"]
    assert event_errors({**played, "data": {"seat": 0, "card": "AS", "x": 1}}, known) == ["played.data: undeclared 'x'"]
    assert event_errors({**played, "data": {"seat": True, "card": "AS"}}, known) == [
        "played.data.seat: True is not int"
    ]
    assert event_errors({**played, "type": "shuffled"}, known) == ["shuffled: not a registered event type"]
    dealt = {
        "type": "dealt",
        "actor": None,
        "data": {"round": 1, "dealer": 0, "hands": [["AS"], ["TS"]], "trump_card": "KS", "stock": []},
    }
    assert event_errors(dealt, known) == []  # `dead` may be left out (3p only)
    assert event_errors({**dealt, "data": {**dealt["data"], "hands": [["AS"], None]}}, known) == [
        "dealt.data.hands[1]: None is not a list"
    ]
