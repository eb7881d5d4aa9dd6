"""The table: one match of any game, with its seats and players, as a pure fold over events.

A game engine knows cards and rules; the table adds what every game shares: who sits where, who has
claimed a seat, when the match starts, the decks it will deal, and the seat's whole view as the API
renders it. It is generic over games (the engine is looked up in games.registry) and pure like them.

Table events (the game's own events follow them in the same stream):

| type            | data                                                              | who sees what                  |
|-----------------|-------------------------------------------------------------------|--------------------------------|
| `match_created` | game_id, game, options, seats [{kind, level}], first_dealer,      | `seed` and `decks` operators   |
|                 | seed, decks                                                       | only                           |
| `seat_claimed`  | seat, name, token_hash                                            | `token_hash` operators only    |

Two event-type conventions are shared with every engine: `dealt` starts a deal (the table counts them
to pick the next deck) and `match_ended` ends the match.

Status: `waiting` while a human seat is open, `active` once every seat is taken, `finished` after
`match_ended`.
"""
from __future__ import annotations

import hmac
import random
from dataclasses import dataclass, replace
from typing import Any

from games.errors import ActionShapeError, NotActive, OptionError, SeatUnavailable
from games.registry import BOT_LEVELS, bots_for, game_names, rules_for

SEAT_KINDS = ("human", "bot")
OPERATOR_ONLY = {"match_created": ("seed", "decks"), "seat_claimed": ("token_hash",)}


@dataclass(frozen=True)
class Seat:
    kind: str                      # "human" | "bot"
    level: str | None = None       # bot level
    name: str | None = None        # set when claimed (bots are named at creation)
    token_hash: str | None = None  # sha256 of the seat token; never rendered

    @property
    def open(self) -> bool:
        return self.kind == "human" and self.token_hash is None


@dataclass(frozen=True)
class Table:
    game_id: str
    game: str
    options: dict
    seats: tuple[Seat, ...]
    first_dealer: int
    seed: int
    decks: tuple[tuple[str, ...], ...]
    state: Any                     # the engine's state
    version: int = 0
    deals: int = 0                 # how many deals have happened (indexes `decks` and the seeded shuffles)
    finished: bool = False

    @property
    def rules(self):
        return rules_for(self.game)

    @property
    def status(self) -> str:
        if self.finished:
            return "finished"
        return "waiting" if any(s.open for s in self.seats) else "active"


# ---------------------------------------------------------------------------------------------------
# Deciding: requests in, events out (or a GameError naming what is wrong)

def create(game_id: str, game: str, options: dict, seats: list[dict], seed: int,
           decks: list[list[str]] | None = None) -> list[dict]:
    """The events that create a match, including its first deal when no human seat needs claiming."""
    if game not in game_names():
        raise OptionError("game", f"unknown game {game!r}; choose one of {', '.join(game_names())}")
    rules = rules_for(game)
    options = dict(options or {})
    first_dealer = options.pop("first_dealer", None)
    normalized = rules.normalize_options(options, len(seats))
    if len(seats) not in rules.seat_counts(normalized):
        counts = ", ".join(str(n) for n in sorted(rules.seat_counts(normalized)))
        raise OptionError("seats", f"{game} with these options is played by {counts} players, not {len(seats)}")
    if first_dealer is None:
        first_dealer = random.Random(seed).randrange(len(seats))
    elif not (isinstance(first_dealer, int) and not isinstance(first_dealer, bool)
              and 0 <= first_dealer < len(seats)):
        raise OptionError("first_dealer", f"first_dealer must be a seat number from 0 to {len(seats) - 1}")
    _check_decks(rules.deck(normalized), decks or [])
    created = {"type": "match_created", "actor": None, "data": {
        "game_id": game_id, "game": game, "options": normalized, "first_dealer": first_dealer,
        "seats": [_seat_spec(i, s) for i, s in enumerate(seats)],
        "seed": seed, "decks": [list(d) for d in decks or []]}}
    table = evolve(None, created)
    return [created] + (system_step(table) if table.status == "active" else [])


def claim_seat(table: Table, seat: int | None, name: str, token_hash: str) -> list[dict]:
    """A player takes an open human seat; the last one to sit down starts the first deal."""
    if table.status != "waiting":
        raise SeatUnavailable(f"the match is {table.status}: no seat is open")
    if seat is None:
        seat = next(i for i, s in enumerate(table.seats) if s.open)
    elif not 0 <= seat < len(table.seats):
        raise SeatUnavailable(f"there is no seat {seat}: seats are 0 to {len(table.seats) - 1}")
    elif not table.seats[seat].open:
        what = "a bot's" if table.seats[seat].kind == "bot" else "already taken"
        raise SeatUnavailable(f"seat {seat} is {what}")
    claimed = {"type": "seat_claimed", "actor": seat,
               "data": {"seat": seat, "name": name, "token_hash": token_hash}}
    after = evolve(table, claimed)
    return [claimed] + (system_step(after) if after.status == "active" else [])


def act(table: Table, seat: int, action: Any) -> list[dict]:
    """A seat's action, checked by the game's rules."""
    if table.status != "active":
        raise NotActive(f"the match is {table.status}; actions are accepted while it is active")
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise ActionShapeError("an action is a JSON object with a string field 'type'")
    return table.rules.decide(table.state, seat, action)


def system_step(table: Table) -> list[dict]:
    """What the system does next without a player: deal, score a finished round, end the match.

    Runs until the game waits for a player again (or is over). Decks come from the operator's list,
    then from the match seed, so the same match always deals the same cards.
    """
    events: list[dict] = []
    while (action := table.rules.pending_system_action(table.state)) is not None:
        if action["type"] == "deal":
            action = {**action, "deck": next_deck(table)}
        step = table.rules.decide(table.state, None, action)
        for event in step:
            table = evolve(table, event)
        events.extend(step)
    return events


def next_deck(table: Table) -> list[str]:
    if table.deals < len(table.decks):
        return list(table.decks[table.deals])
    deck = list(table.rules.deck(table.options))
    random.Random(f"{table.seed}:{table.deals}").shuffle(deck)
    return deck


def followups(table: Table) -> list[tuple[str, int | None]]:
    """Work the workers must do now: ("advance", None) for a system step, ("bot", seat) per bot to act."""
    if table.status != "active":
        return []
    if table.rules.pending_system_action(table.state) is not None:
        return [("advance", None)]
    return [("bot", s) for s in table.rules.to_act(table.state) if table.seats[s].kind == "bot"]


# ---------------------------------------------------------------------------------------------------
# Evolving: the fold

def evolve(table: Table | None, event: dict) -> Table:
    kind, data = event["type"], event["data"]
    if kind == "match_created":
        rules = rules_for(data["game"])
        seats = tuple(Seat(kind=s["kind"], level=s.get("level"), name=s.get("name")) for s in data["seats"])
        return Table(game_id=data["game_id"], game=data["game"], options=data["options"], seats=seats,
                     first_dealer=data["first_dealer"], seed=data["seed"],
                     decks=tuple(tuple(d) for d in data.get("decks") or ()),
                     state=rules.new_state(data["options"], len(seats), data["first_dealer"]), version=1)
    assert table is not None, "a table starts with match_created"
    table = replace(table, version=table.version + 1)
    if kind == "seat_claimed":
        seats = list(table.seats)
        seats[data["seat"]] = replace(seats[data["seat"]], name=data["name"], token_hash=data["token_hash"])
        return replace(table, seats=tuple(seats))
    table = replace(table, state=table.rules.evolve(table.state, event))
    if kind == "dealt":
        table = replace(table, deals=table.deals + 1)
    elif kind == "match_ended":
        table = replace(table, finished=True)
    return table


# ---------------------------------------------------------------------------------------------------
# Views: what one seat (or a spectator, seat None) may know

def seat_view(table: Table, seat: int | None) -> dict:
    rules = table.rules
    game_part = rules.view(table.state, seat)
    standing = game_part.get("standing", [])
    legal = rules.legal_actions(table.state, seat) if seat is not None and table.status == "active" else []
    return {
        "game_id": table.game_id, "game": table.game, "options": {**table.options, "first_dealer": table.first_dealer},
        "version": table.version, "status": table.status, "seat": seat,
        "players": [_player(table, i, standing) for i in range(len(table.seats))],
        "to_act": rules.to_act(table.state) if table.status == "active" else [],
        **game_part,
        "legal_actions": legal,
    }


def event_view(table_game: str, event: dict, seat: int | None, operator: bool = False) -> dict:
    """The event data as the caller may see it. Operators see everything."""
    if operator:
        return event
    hidden = OPERATOR_ONLY.get(event["type"])
    if hidden is not None:
        return {**event, "data": {k: v for k, v in event["data"].items() if k not in hidden}}
    return rules_for(table_game).event_view(event, seat)


def bot_choice(table: Table, seat: int) -> dict:
    """The bot's action, chosen from exactly the view its seat gets, with a seed fixed by the position."""
    view = seat_view(table, seat)
    rng = random.Random(f"{table.seed}:{table.version}:{seat}")
    return bots_for(table.game).choose(view, table.seats[seat].level, rng)


def seat_of_token(table: Table, token_hash: str) -> int | None:
    found = None
    for i, s in enumerate(table.seats):
        # Compare against every seat, in constant time, so timing says nothing about which matched.
        if s.token_hash is not None and hmac.compare_digest(s.token_hash, token_hash):
            found = i
    return found


# ---------------------------------------------------------------------------------------------------

def _seat_spec(index: int, seat: dict) -> dict:
    kind = seat.get("kind")
    if kind not in SEAT_KINDS:
        raise OptionError("seats", f"seat {index}: kind must be one of {', '.join(SEAT_KINDS)}")
    if kind == "human":
        return {"kind": "human"}
    level = seat.get("level", "basic")
    if level not in BOT_LEVELS:
        raise OptionError("seats", f"seat {index}: bot level must be one of {', '.join(BOT_LEVELS)}")
    return {"kind": "bot", "level": level, "name": f"Bot {index} ({level})"}


def _check_decks(pack: list[str], decks: list[list[str]]) -> None:
    for i, deck in enumerate(decks):
        if sorted(deck) != sorted(pack):
            raise OptionError("decks", f"deck {i} must hold exactly the {len(pack)} cards of this game's pack")


def _player(table: Table, seat: int, standing: list[dict]) -> dict:
    s = table.seats[seat]
    sides = [side["seats"] for side in standing]
    team = next((i for i, side in enumerate(sides) if seat in side and len(side) > 1), None)
    return {"seat": seat, "kind": s.kind, "name": s.name, "level": s.level, "team": team,
            "claimed": s.kind == "bot" or s.token_hash is not None}


# ---------------------------------------------------------------------------------------------------
# Snapshots: a table as plain data and back

def dump(table: Table) -> dict:
    return {"game_id": table.game_id, "game": table.game, "options": table.options,
            "seats": [dict(vars(s)) for s in table.seats], "first_dealer": table.first_dealer,
            "seed": table.seed, "decks": [list(d) for d in table.decks], "version": table.version,
            "deals": table.deals, "finished": table.finished, "state": table.rules.dump_state(table.state)}


def load(data: dict) -> Table:
    rules = rules_for(data["game"])
    return Table(game_id=data["game_id"], game=data["game"], options=data["options"],
                 seats=tuple(Seat(**s) for s in data["seats"]), first_dealer=data["first_dealer"],
                 seed=data["seed"], decks=tuple(tuple(d) for d in data["decks"]), version=data["version"],
                 deals=data["deals"], finished=data["finished"], state=rules.load_state(data["state"]))


def is_snapshot_point(event: dict) -> bool:
    """Snapshots are taken at deal boundaries: right after each deal, the state a round starts from."""
    return event["type"] == "dealt"
