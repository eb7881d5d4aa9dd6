"""The table: one match of any game, with its seats and players, as a pure fold over events.

A game engine knows cards and rules; the table adds what every game shares: who sits where, who has
claimed a seat, when the match starts, the decks it will deal, turn timers and bot takeover, and the
seat's whole view as the API renders it. It is generic over games (the engine is looked up in
games.registry) and pure like them.

Table events (the game's own events follow them in the same stream):

| type              | data                                                      | who sees what                 |
|-------------------|-----------------------------------------------------------|-------------------------------|
| `match_created`   | game_id, game, options, seats [{kind, level}],            | `seed`, `decks` and           |
|                   | first_dealer, turn_timeout_s, takeover_after, seed, decks | `join_code_hash` operators    |
|                   | [, private, join_code_hash, rematch_of]                   | only                          |
| `seat_claimed`    | seat, name, token_hash, player_id (registered players)   | `token_hash` operators only   |
| `seat_resumed`    | seat, player_id, token_hash (a fresh token for the seat's | `token_hash` operators only   |
|                   | player; the earlier tokens keep working)                  |                               |
| `turn_timed_out`  | seat, consecutive (after the bot's move made for the seat) | public                        |
| `seat_taken_over` | seat (a bot plays it until its human acts again)          | public                        |
| `seat_returned`   | seat (the human acted again with the seat's token)        | public                        |
| `seat_reset`      | seat (operator: the token is revoked, the seat reopens)   | public                        |
| `match_abandoned` | idle_s (no event for that long: the match is closed),     | public                        |
|                   | by ("operator" when an operator ended it)                 |                               |
| `deal_committed`  | deal (1, 2, ...), commitment = sha256 hex of              | public                        |
|                   | `<salt>:<card>,<card>,...` (the deck top first)           |                               |
| `deal_revealed`   | deal, deck (top first), salt                              | public                        |
| `rematch_offered` | game_id (the rematch; once, after the match is finished)  | public                        |

Deal commitments. Right before each deal, `system_step` appends `deal_committed`, then the engine's
own `dealt` event (which hides the hands as it always did). Once that deal is over - after its
`score_round` step (before `match_ended`, which stays the last event), before the next deal if it was
thrown in unscored, or when the match is abandoned - `deal_revealed` publishes the deck and the salt, so anyone can check that
sha256(f"{salt}:{','.join(deck)}") equals the commitment published before the first card was played.
The salt is HMAC-SHA256(key = the match seed, message = `talon-deal-salt:<deal>`): reproducible (an
audit recomputes it) and secret until revealed, since the seed is operator-only; without a salt, a
hash of the deck could be brute-forced from the cards a player already knows.

Decks. Each deal's deck is an ordering of the pack of the players at that deal (the engine's
`deal_pack`: in Fifty-Six 64 cards while eight play, 48 once a team is out), shuffled by the match seed
unless the operator gave it. The operator's `decks` are for deal 1, 2, ... in turn, all given at
creation, before anyone knows which teams will go out: so creation checks that deck 0 is the first
deal's pack and every later one an ordering of a pack the match can use (the engine's `packs`), and a
deal whose entry is not the pack of its players takes the seeded shuffle instead, as the deals past the
end of the list do. A wrong guess never stops a running match, and the reveal shows the deck dealt.

Before Fifty-Six 56.2 a deal after an elimination committed to, and revealed, a deck of the match's
first pack, of which the engine dealt only the cards in play. Logs keep such deals: one committed so
before an upgrade is revealed as committed (`committed_deck` checks which deck the recorded commitment
is of), and the audit replays them with `first_pack_deal`.

The data record of each table event is declared in games/table_events.py, with their registry EVENTS.

Two event-type conventions are shared with every engine: `dealt` starts a deal (the table counts them
to pick the next deck) and `match_ended` ends the match.

Rematches. `rematch_offered` is the one event a finished match may still take, once: it links the match
to its rematch, a new match made by `rematch_spec` (the same options and seats, the first dealer moved on
by one) whose `match_created` names the match it follows (`rematch_of`) and marks `reserved` the human
seats that had a player: only that player takes such a seat (the use case proves it with their seat
token of the finished match and claims with `reserved_ok`); `claim_seat` gives them to no one else.
An operator's `seat_reset` lifts the reservation with the token.

Status: `waiting` until the first deal (a human seat is open), `active` from then on, `finished` after
`match_ended` or `match_abandoned`. A human seat that is open during play (reset by the operator) or
taken over after timeouts is played by a `basic` bot until a human takes it (back).
"""

from __future__ import annotations

import hashlib
import hmac
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypedDict

from games import bots
from games.engine import Action, OptionDict, Rules, Snapshot, View
from games.errors import ActionShapeError, JoinCodeRefused, NotActive, NotFinished, OptionError, SeatUnavailable
from games.events import Event, EventData, SeatData, Side
from games.options import whole_number
from games.records import replace
from games.registry import BOT_LEVELS, game_names, rules_for
from games.table_events import (
    DEAL_COMMITTED,
    DEAL_REVEALED,
    MATCH_ABANDONED,
    MATCH_CREATED,
    REMATCH_OFFERED,
    SEAT_CLAIMED,
    SEAT_RESET,
    SEAT_RESUMED,
    SEAT_RETURNED,
    SEAT_TAKEN_OVER,
    TURN_TIMED_OUT,
    DealCommittedData,
    DealRevealedData,
    MatchAbandonedData,
    MatchCreatedData,
    RematchOfferedData,
    SeatClaimedData,
    SeatResumedData,
    SeatSpec,
    TurnTimedOutData,
)

SEAT_KINDS = ("human", "bot")
OPERATOR_ONLY = {
    "match_created": ("seed", "decks", "join_code_hash"),
    "seat_claimed": ("token_hash",),
    "seat_resumed": ("token_hash",),
}
JSON_INT_MAX = 2**63 - 1  # a seed above it is written as its decimal digits
# The commitment is public from the start; the deck and the salt only come with the reveal.
PUBLIC_TABLE_EVENTS = ("match_abandoned", "deal_committed", "deal_revealed", "rematch_offered")
STAND_IN_LEVEL = "basic"  # the bot that plays a timed-out, taken-over or reopened human seat
TURN_TIMEOUT_RANGE = (1, 86_400)
TAKEOVER_RANGE = (1, 20)
DEFAULT_TAKEOVER_AFTER = 2


@dataclass(frozen=True)
class Seat:
    kind: str  # "human" | "bot"
    level: str | None = None  # bot level
    name: str | None = None  # set when claimed (bots are named at creation)
    token_hash: str | None = None  # sha256 of the seat token; never rendered
    timeouts: int = 0  # turns in a row the human let run out
    taken_over: bool = False  # a bot plays the seat until its human acts again
    reserved: bool = False  # a rematch's seat kept for the player of the match it follows
    player_id: str | None = None  # the registered player who claimed the seat (None: a guest)
    more_tokens: tuple[str, ...] = ()  # hashes of the tokens a resume issued since the claim

    @property
    def open(self) -> bool:
        return self.kind == "human" and self.token_hash is None

    @property
    def played_by_bot(self) -> bool:
        return self.kind == "bot" or self.taken_over or self.open


@dataclass(frozen=True)
class Table:
    game_id: str
    game: str
    options: OptionDict
    seats: tuple[Seat, ...]
    first_dealer: int
    seed: int
    decks: tuple[tuple[str, ...], ...]
    state: object  # the engine's state: only the game's own rules read it
    version: int = 0
    deals: int = 0  # how many deals have happened (indexes `decks` and the seeded shuffles)
    revealed: int = 0  # how many deals have been revealed (deal_revealed)
    commitment: str | None = None  # the latest deal's commitment: its reveal shows the deck that hashes to it
    finished: bool = False
    abandoned: bool = False
    turn_timeout_s: int | None = None
    takeover_after: int = DEFAULT_TAKEOVER_AFTER
    rematch: str | None = None  # the game id of this finished match's rematch, once offered
    rematch_of: str | None = None  # the finished match this one is the rematch of
    private: bool = False  # not listed in the lobby; seats are claimed with the join code only
    join_code_hash: str | None = None  # sha256 of the private match's join code; never rendered

    @property
    def rules(self) -> Rules[Any]:
        return rules_for(self.game)

    @property
    def status(self) -> str:
        if self.finished:
            return "finished"
        return "active" if self.deals else "waiting"


# ---------------------------------------------------------------------------------------------------
# Deciding: requests in, events out (or a GameError naming what is wrong)


def create(
    game_id: str,
    game: str,
    options: OptionDict,
    seats: list[dict[str, Any]],
    seed: int,
    decks: list[list[str]] | None = None,
    rematch_of: str | None = None,
    join_code_hash: str | None = None,
) -> list[Event]:
    """The events that create a match, including its first deal when no human seat needs claiming.
    With `join_code_hash` the match is private: its seats are claimed with that code only."""
    if game not in game_names():
        raise OptionError("game", f"unknown game {game!r}; choose one of {', '.join(game_names())}")
    rules = rules_for(game)
    options = dict(options or {})
    table_options = {name: options.pop(name, None) for name in ("first_dealer", "turn_timeout_s", "takeover_after")}
    normalized = rules.normalize_options(options, len(seats))
    if len(seats) not in rules.seat_counts(normalized):
        counts = ", ".join(str(n) for n in sorted(rules.seat_counts(normalized)))
        raise OptionError("seats", f"{game} with these options is played by {counts} players, not {len(seats)}")
    first_dealer = table_options["first_dealer"]
    if first_dealer is None:
        first_dealer = random.Random(seed).randrange(len(seats))
    first_dealer = whole_number("first_dealer", first_dealer, 0, len(seats) - 1)
    timeout = table_options["turn_timeout_s"]
    if timeout is not None:
        timeout = whole_number("turn_timeout_s", timeout, *TURN_TIMEOUT_RANGE)
    takeover = table_options["takeover_after"]  # 0 or false is out of range, not "the default"
    takeover_after = whole_number(
        "takeover_after", DEFAULT_TAKEOVER_AFTER if takeover is None else takeover, *TAKEOVER_RANGE
    )
    _check_decks(rules.packs(normalized), decks or [])
    data: MatchCreatedData = {
        "game_id": game_id,
        "game": game,
        "options": normalized,
        "first_dealer": first_dealer,
        "turn_timeout_s": timeout,
        "takeover_after": takeover_after,
        "seats": [_seat_spec(i, s) for i, s in enumerate(seats)],
        "seed": seed if seed <= JSON_INT_MAX else str(seed),
        "decks": [list(d) for d in decks or []],
    }
    if rematch_of is not None:
        data["rematch_of"] = rematch_of
    if join_code_hash is not None:
        data["private"] = True
        data["join_code_hash"] = join_code_hash
    created = MATCH_CREATED(None, data)
    table = evolve(None, created)
    return [created] + _start_when_full(table)


def check_join_code(table: Table, code_hash: str | None) -> None:
    """A private match's seats are claimed with its join code (its sha256 here) only."""
    if table.join_code_hash is None:
        return
    if code_hash is None or not hmac.compare_digest(table.join_code_hash, code_hash):
        raise JoinCodeRefused("this match is private: its seats are claimed with the join code its creator got")


def claim_seat(
    table: Table,
    seat: int | None,
    name: str,
    token_hash: str,
    *,
    reserved_ok: bool = False,
    player_id: str | None = None,
) -> list[Event]:
    """A player takes an open human seat; the last one to sit down starts the first deal. A reserved
    seat (a rematch's) only with `reserved_ok`: the caller has proved it is that seat's player.
    `player_id`: a registered player's (the match joins their history), None for a guest."""
    if table.finished:
        raise SeatUnavailable("the match is finished: no seat is open")
    if seat is None:
        seat = next((i for i, s in enumerate(table.seats) if s.open and (reserved_ok or not s.reserved)), None)
        if seat is None:
            raise SeatUnavailable("no human seat is open")
    elif not 0 <= seat < len(table.seats):
        raise SeatUnavailable(f"there is no seat {seat}: seats are 0 to {len(table.seats) - 1}")
    elif not table.seats[seat].open:
        what = "a bot's" if table.seats[seat].kind == "bot" else "already taken"
        raise SeatUnavailable(f"seat {seat} is {what}")
    elif table.seats[seat].reserved and not reserved_ok:
        raise SeatUnavailable(
            f"seat {seat} is kept for its player of match {table.rematch_of}, who takes it with that match's rematch"
        )
    data: SeatClaimedData = {"seat": seat, "name": name, "token_hash": token_hash}
    if player_id is not None:
        data["player_id"] = player_id
    claimed = SEAT_CLAIMED(seat, data)
    return [claimed] + _start_when_full(evolve(table, claimed))


def resume_seat(table: Table, seat: int, player_id: str, token_hash: str) -> list[Event]:
    """The seat's registered player takes a fresh token for it (another device); the earlier ones keep
    working. Only the player who claimed the seat, and only until the match is over."""
    if table.finished:
        raise SeatUnavailable("the match is finished: there is no seat to resume")
    if not 0 <= seat < len(table.seats) or table.seats[seat].player_id != player_id:
        raise SeatUnavailable(f"seat {seat} is not held by this player")
    return [SEAT_RESUMED(None, {"seat": seat, "player_id": player_id, "token_hash": token_hash})]


def act(table: Table, seat: int, action: object) -> list[Event]:
    """A seat's action, checked by the game's rules. A taken-over seat's human takes it back."""
    if table.status != "active":
        raise NotActive(f"the match is {table.status}; actions are accepted while it is active")
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise ActionShapeError("an action is a JSON object with a string field 'type'")
    events = table.rules.decide(table.state, seat, action)
    if table.seats[seat].taken_over:
        events = [SEAT_RETURNED(seat, {"seat": seat}), *events]
    return events


def bot_move(table: Table, seat: int) -> list[Event]:
    """The move of the bot that plays `seat` (a bot's seat, or a human seat it stands in for)."""
    return table.rules.decide(table.state, seat, bot_choice(table, seat))


def time_out(table: Table, seat: int) -> list[Event]:
    """The human at `seat` let the turn time run out: the stand-in bot moves, and after
    `takeover_after` timeouts in a row it keeps the seat until the human acts again."""
    consecutive = table.seats[seat].timeouts + 1
    events = bot_move(table, seat)
    events.append(TURN_TIMED_OUT(None, {"seat": seat, "consecutive": consecutive}))
    if consecutive >= table.takeover_after:
        events.append(SEAT_TAKEN_OVER(None, {"seat": seat}))
    return events


def reset_seat(table: Table, seat: int) -> list[Event]:
    """Operator: revoke the seat's token; the seat reopens for claiming (a bot plays it meanwhile).
    Nothing follows the end of a match: a finished one is refused."""
    if table.finished:
        raise NotActive("the match is finished: its seats can no longer be reset")
    if not 0 <= seat < len(table.seats) or table.seats[seat].kind != "human":
        raise SeatUnavailable(f"seat {seat} is not a human seat of this match")
    return [SEAT_RESET(None, {"seat": seat})]


def offer_rematch(table: Table, game_id: str) -> list[Event]:
    """Links a finished match to its rematch `game_id` (once: a second offer is refused)."""
    if not table.finished:
        raise NotFinished(f"the match is {table.status}: a rematch follows a finished match")
    if table.rematch is not None:
        raise SeatUnavailable(f"the rematch of this match is {table.rematch} already")
    return [REMATCH_OFFERED(None, {"game_id": game_id})]


def rematch_spec(table: Table) -> tuple[OptionDict, list[dict[str, Any]]]:
    """The options and seats of a finished match's rematch, as `create` takes them: the same game options,
    timer and takeover, the first dealer moved on by one; the same bots, and each human seat that had a
    player reserved for them."""
    options = {
        **table.options,
        "first_dealer": (table.first_dealer + 1) % len(table.seats),
        "turn_timeout_s": table.turn_timeout_s,
        "takeover_after": table.takeover_after,
    }
    seats: list[dict[str, Any]] = [
        {"kind": "bot", "level": s.level}
        if s.kind == "bot"
        else {"kind": "human", "reserved": s.token_hash is not None}
        for s in table.seats
    ]
    return options, seats


def abandon(table: Table, idle_s: int, by: str | None = None) -> list[Event]:
    """The match is closed (by the sweeper after `idle_s` idle seconds, or by an operator: `by`); a deal
    in progress is revealed, since it will never be played out. A finished match is refused."""
    if table.finished:
        raise NotActive("the match is finished already")
    data: MatchAbandonedData = {"idle_s": idle_s}
    if by is not None:
        data["by"] = by
    return [MATCH_ABANDONED(None, data), *_reveal_pending(table)]


@dataclass(frozen=True)
class Settled:
    """A move's events followed by the system's steps they leave owing, and the table after all of them
    (their fold, which finding the steps needs anyway: the caller stores it without folding again)."""

    events: list[Event]
    table: Table


def settle(table: Table, events: list[Event]) -> Settled:
    """`events` (a move decided on `table`) followed by what the system then does without a player: a
    round's scoring, the next deal, the match's end. So a move and the steps it leaves owing are one
    append, as a claim that fills the match is one append with its first deal: nobody waits for a
    worker between the last trick of a round and the first of the next."""
    steps, after = _system_steps(applied(table, events))
    return Settled([*events, *steps], after)


def applied(table: Table, events: list[Event]) -> Table:
    """The table after `events`."""
    for event in events:
        table = evolve(table, event)
    return table


def system_step(table: Table) -> list[Event]:
    """What the system does next without a player: deal, score a finished round, end the match.

    Runs until the game waits for a player again (or is over). Decks come from the operator's list,
    then from the match seed, so the same match always deals the same cards.
    """
    return _system_steps(table)[0]


def _system_steps(table: Table) -> tuple[list[Event], Table]:
    """`system_step`'s events, and the table after them."""
    events: list[Event] = []
    while step := system_events(table):
        table = applied(table, step)
        events.extend(step)
    return events, table


def system_events(table: Table) -> list[Event]:
    """One system step ([] if none is due): a deal with its commitment (revealing a thrown-in deal
    first), or the round's scoring followed by the reveal of the deal just scored."""
    action = table.rules.pending_system_action(table.state)
    if action is None:
        return []
    if action["type"] == "deal":
        deck = next_deck(table)
        return _deal_events(table, action, deck, deck)
    events = table.rules.decide(table.state, None, action)
    if action["type"] != "score_round":
        return events
    # The reveal follows the round's result; `match_ended` stays the last event of a finished match.
    end = next((i for i, e in enumerate(events) if e["type"] == "match_ended"), len(events))
    return [*events[:end], *_reveal_pending(table), *events[end:]]


def _deal_events(table: Table, action: Action, committed: list[str], dealt: list[str]) -> list[Event]:
    """The reveal of a thrown-in deal, the commitment to the next deal's deck `committed`, and that deal
    of the cards `dealt` (the same deck, but in `first_pack_deal`)."""
    deal = table.deals + 1
    commitment = DEAL_COMMITTED(
        None, {"deal": deal, "commitment": deal_commitment(deal_salt(table.seed, deal), committed)}
    )
    return [*_reveal_pending(table), commitment, *table.rules.decide(table.state, None, {**action, "deck": dealt})]


def next_deck(table: Table) -> list[str]:
    return deck_of_deal(table, table.deals + 1, _pack(table))


def deck_of_deal(table: Table, deal: int, pack: list[str]) -> list[str]:
    """The deck of deal number `deal` (1, 2, ...), dealt from `pack`: the operator's entry for the deal
    when it is an ordering of that pack, else the pack shuffled by the match seed."""
    if deal - 1 < len(table.decks) and Counter(table.decks[deal - 1]) == Counter(pack):
        return list(table.decks[deal - 1])
    deck = list(pack)
    random.Random(f"{table.seed}:{deal - 1}").shuffle(deck)
    return deck


def _pack(table: Table) -> list[str]:
    """The pack of the deal the table awaits or plays (tables change hands only when a deal is scored)."""
    return table.rules.deal_pack(table.options, table.state)


def committed_deck(table: Table) -> list[str]:
    """The deck the latest deal committed to, which its reveal publishes: its deck (`deck_of_deal`), or -
    for a deal committed before Fifty-Six 56.2, when that commitment shows it - the first pack's deck."""
    deal = table.deals
    deck, salt = deck_of_deal(table, deal, _pack(table)), deal_salt(table.seed, deal)
    if table.commitment is not None and deal_commitment(salt, deck) != table.commitment:
        older = _first_pack_deck(table, deal)
        if deal_commitment(salt, older) == table.commitment:
            return older
    return deck


def first_pack_deal(table: Table) -> list[Event]:
    """The deal step as the table took it before Fifty-Six 56.2, where it differs from `system_events`:
    a deal after an elimination committed to the match's first pack (the operator's entry or the seeded
    shuffle, 64 cards), and the engine dealt only its cards of the smaller pack. [] where nothing differs.
    Logs written then hold such deals; the audit's replay accepts them through this step."""
    action = table.rules.pending_system_action(table.state)
    if action is None or action["type"] != "deal":
        return []
    pack = _pack(table)
    deck = _first_pack_deck(table, table.deals + 1)
    if Counter(deck) == Counter(pack):
        return []
    return _deal_events(table, action, deck, cards_within(deck, pack))


def _first_pack_deck(table: Table, deal: int) -> list[str]:
    return deck_of_deal(table, deal, table.rules.deck(table.options))


def cards_within(deck: list[str], pack: list[str]) -> list[str]:
    """The cards of `deck` that `pack` holds, in the deck's order, each as often as the pack holds it
    (Fifty-Six's first pack holds both copies of each card of the smaller one: its 8s and 7s drop out)."""
    left = Counter(pack)
    kept: list[str] = []
    for card in deck:
        if left[card]:
            left[card] -= 1
            kept.append(card)
    return kept


def deal_salt(seed: int, deal: int) -> str:
    """The secret salt of one deal's commitment: derived from the operator-only seed, revealed with the deck."""
    return hmac.new(str(seed).encode(), f"talon-deal-salt:{deal}".encode(), hashlib.sha256).hexdigest()


def deal_commitment(salt: str, deck: list[str]) -> str:
    """sha256 of `<salt>:<card>,<card>,...` in hex: what `deal_committed` publishes before the deal."""
    return hashlib.sha256(f"{salt}:{','.join(deck)}".encode()).hexdigest()


def _reveal_pending(table: Table) -> list[Event]:
    """The reveal of the current deal if it has not been revealed yet (the deal is over)."""
    if table.revealed >= table.deals:
        return []
    deal = table.deals
    return [DEAL_REVEALED(None, {"deal": deal, "deck": committed_deck(table), "salt": deal_salt(table.seed, deal)})]


def owed_work(table: Table) -> list[tuple[str, int | None]]:
    """Work the workers must do now: ("advance", None) for a system step, ("bot", seat) for a seat a
    bot plays, ("timeout", seat) for a human whose turn timer runs."""
    if table.status != "active":
        return []
    if table.rules.pending_system_action(table.state) is not None:
        return [("advance", None)]
    work: list[tuple[str, int | None]] = []
    for s in table.rules.to_act(table.state):
        if table.seats[s].played_by_bot:
            work.append(("bot", s))
        elif table.turn_timeout_s:
            work.append(("timeout", s))
    return work


def _start_when_full(table: Table) -> list[Event]:
    return system_step(table) if table.deals == 0 and not any(s.open for s in table.seats) else []


# ---------------------------------------------------------------------------------------------------
# Evolving: the fold

Changes = dict[str, object]  # the fields an event changes in a table, by name


def evolve(table: Table | None, event: Event) -> Table:
    kind = event["type"]
    if kind == "match_created":
        return _created(MATCH_CREATED.data_of(event))
    assert table is not None, "a table starts with match_created"
    # One `replace` per event, with every field it changes: copying the table is most of a fold's cost.
    changes: Changes = {"version": table.version + 1}
    table_event = _TABLE_EVENTS.get(kind)
    if table_event is not None:
        changes.update(table_event(table, event["data"]))
    else:
        actor = event.get("actor")
        if isinstance(actor, int) and table.seats[actor].timeouts:
            # the seat moved: its timeouts are no longer in a row
            changes["seats"] = _seats_with(table.seats, actor, timeouts=0)
        changes["state"] = table.rules.evolve(table.state, event)
        if kind == "dealt":
            changes["deals"] = table.deals + 1
        elif kind == "match_ended":
            changes["finished"] = True
    return replace(table, **changes)


# What each table event but match_created changes in the table.


def _seat_changed(table: Table, seat: int, **changes: object) -> Changes:
    return {"seats": _seats_with(table.seats, seat, **changes)}


def _claimed(table: Table, d: SeatClaimedData) -> Changes:
    return _seat_changed(
        table,
        d["seat"],
        name=d["name"],
        token_hash=d["token_hash"],
        timeouts=0,
        taken_over=False,
        player_id=d.get("player_id"),
        more_tokens=(),
    )


def _resumed(table: Table, d: SeatResumedData) -> Changes:
    seat = table.seats[d["seat"]]
    return _seat_changed(table, d["seat"], more_tokens=(*seat.more_tokens, d["token_hash"]))


def _timed_out(table: Table, d: TurnTimedOutData) -> Changes:
    return _seat_changed(table, d["seat"], timeouts=d["consecutive"])


def _taken_over(table: Table, d: SeatData) -> Changes:
    return _seat_changed(table, d["seat"], taken_over=True)


def _returned(table: Table, d: SeatData) -> Changes:
    return _seat_changed(table, d["seat"], taken_over=False, timeouts=0)


def _reset(table: Table, d: SeatData) -> Changes:
    return _seat_changed(
        table,
        d["seat"],
        name=None,
        token_hash=None,
        timeouts=0,
        taken_over=False,
        reserved=False,
        player_id=None,
        more_tokens=(),
    )


def _abandoned(table: Table, d: MatchAbandonedData) -> Changes:
    return {"finished": True, "abandoned": True}


def _revealed(table: Table, d: DealRevealedData) -> Changes:
    return {"revealed": d["deal"]}


def _committed(table: Table, d: DealCommittedData) -> Changes:
    return {"commitment": d["commitment"]}


def _rematch_offered(table: Table, d: RematchOfferedData) -> Changes:
    return {"rematch": d["game_id"]}


# `folded_by` has mypy check that each function takes its event type's data.
_SEAT_EVENTS: dict[str, Callable[[Table, EventData], Changes]] = dict(
    [
        SEAT_CLAIMED.folded_by(_claimed),
        TURN_TIMED_OUT.folded_by(_timed_out),
        SEAT_TAKEN_OVER.folded_by(_taken_over),
        SEAT_RETURNED.folded_by(_returned),
        SEAT_RESET.folded_by(_reset),
        SEAT_RESUMED.folded_by(_resumed),
    ]
)
_TABLE_EVENTS = {
    **_SEAT_EVENTS,
    **dict(
        [
            MATCH_ABANDONED.folded_by(_abandoned),
            DEAL_REVEALED.folded_by(_revealed),
            DEAL_COMMITTED.folded_by(_committed),
            REMATCH_OFFERED.folded_by(_rematch_offered),
        ]
    ),
}


def _created(data: MatchCreatedData) -> Table:
    rules = rules_for(data["game"])
    seats = tuple(
        Seat(kind=s["kind"], level=s.get("level"), name=s.get("name"), reserved=bool(s.get("reserved")))
        for s in data["seats"]
    )
    return Table(
        game_id=data["game_id"],
        game=data["game"],
        options=data["options"],
        seats=seats,
        first_dealer=data["first_dealer"],
        seed=int(data["seed"]),
        private=bool(data.get("private")),
        join_code_hash=data.get("join_code_hash"),
        decks=tuple(tuple(d) for d in data.get("decks") or ()),
        turn_timeout_s=data.get("turn_timeout_s"),
        takeover_after=data.get("takeover_after") or DEFAULT_TAKEOVER_AFTER,
        rematch_of=data.get("rematch_of"),
        state=rules.new_state(data["options"], len(seats), data["first_dealer"]),
        version=1,
    )


def _seats_with(seats: tuple[Seat, ...], seat: int, **changes: object) -> tuple[Seat, ...]:
    changed = list(seats)
    changed[seat] = replace(seats[seat], **changes)
    return tuple(changed)


# ---------------------------------------------------------------------------------------------------
# Views: what one seat (or a spectator, seat None) may know


def seat_view(table: Table, seat: int | None) -> View:
    rules = table.rules
    game_part = rules.view(table.state, seat)
    standing = game_part.get("standing", [])
    legal = rules.legal_actions(table.state, seat) if seat is not None and table.status == "active" else []
    options = {
        **table.options,
        "first_dealer": table.first_dealer,
        "turn_timeout_s": table.turn_timeout_s,
        "takeover_after": table.takeover_after,
    }
    return {
        "game_id": table.game_id,
        "game": table.game,
        "options": options,
        "version": table.version,
        "status": table.status,
        "seat": seat,
        "private": table.private,
        "players": [_player(table, i, team) for i, team in enumerate(_teams(standing, len(table.seats)))],
        "rematch": None if table.rematch is None else {"game_id": table.rematch},
        "rematch_of": table.rematch_of,
        "to_act": rules.to_act(table.state) if table.status == "active" else [],
        **game_part,
        "legal_actions": legal,
    }


def event_view(table_game: str, event: Event, seat: int | None, operator: bool = False) -> Event:
    """The event data as the caller may see it. Operators see everything."""
    if operator:
        return event
    if event["type"] in OPERATOR_ONLY:
        hidden = OPERATOR_ONLY[event["type"]]
        return {**event, "data": {k: v for k, v in event["data"].items() if k not in hidden}}
    if event["type"] in _SEAT_EVENTS or event["type"] in PUBLIC_TABLE_EVENTS:
        return event
    return rules_for(table_game).event_view(event, seat)


def bot_choice(table: Table, seat: int) -> Action:
    """The bot's action, chosen from exactly the view its seat gets, with a seed fixed by the position."""
    view = seat_view(table, seat)
    level = table.seats[seat].level if table.seats[seat].kind == "bot" else STAND_IN_LEVEL
    assert level is not None  # match_created gives every bot seat its level
    return bots.choose(view, level, seed=f"{table.seed}:{table.version}:{seat}")


def seat_of_token(table: Table, token_hash: str) -> int | None:
    found = None
    for i, s in enumerate(table.seats):
        # Compare against every token of every seat, in constant time, so timing says nothing about which
        # matched.
        for held in (s.token_hash, *s.more_tokens):
            if held is not None and hmac.compare_digest(held, token_hash):
                found = i
    return found


# ---------------------------------------------------------------------------------------------------


def _seat_spec(index: int, seat: dict[str, Any]) -> SeatSpec:
    kind = seat.get("kind")
    if kind not in SEAT_KINDS:
        raise OptionError("seats", f"seat {index}: kind must be one of {', '.join(SEAT_KINDS)}")
    if kind == "human":
        return {"kind": "human", "reserved": True} if seat.get("reserved") else {"kind": "human"}
    level = seat.get("level", "basic")
    if level not in BOT_LEVELS:
        raise OptionError("seats", f"seat {index}: bot level must be one of {', '.join(BOT_LEVELS)}")
    return {"kind": "bot", "level": level, "name": f"Bot {index} ({level})"}


def _check_decks(packs: list[list[str]], decks: list[list[str]]) -> None:
    """Deck 0 is the first deal's: exactly its pack. Later ones are each an ordering of a pack the match
    can use; which one a deal needs is only known at that deal (see Decks in the module docstring)."""
    for i, deck in enumerate(decks):
        allowed = packs[:1] if i == 0 else packs
        if not any(Counter(deck) == Counter(pack) for pack in allowed):
            sizes = " or ".join(str(len(pack)) for pack in allowed)
            if len(packs) == 1:
                what = "this game's pack"
            else:
                what = "the first deal's pack" if i == 0 else "one of this game's packs"
            raise OptionError("decks", f"deck {i} must hold exactly the {sizes} cards of {what}")


class Player(TypedDict):
    """A seat as every view shows it (`players`)."""

    seat: int
    kind: str
    name: str | None
    level: str | None
    team: int | None  # the index of the seat's side in `standing`, where a side has several seats
    claimed: bool
    taken_over: bool
    reserved: bool  # an open seat of a rematch kept for its player of the match it follows
    player_id: str | None  # the registered player holding the seat; null for a guest, a bot or an open seat


def _teams(standing: list[Side], seats: int) -> list[int | None]:
    """Each seat's team: the index of its side in `standing` where the side has several seats, else None."""
    teams: list[int | None] = [None] * seats
    for index, side in enumerate(standing):
        if len(side["seats"]) > 1:
            for seat in side["seats"]:
                teams[seat] = index
    return teams


def _player(table: Table, seat: int, team: int | None) -> Player:
    s = table.seats[seat]
    return {
        "seat": seat,
        "kind": s.kind,
        "name": s.name,
        "level": s.level,
        "team": team,
        "claimed": s.kind == "bot" or s.token_hash is not None,
        "taken_over": s.taken_over,
        "reserved": s.open and s.reserved,
        "player_id": s.player_id,
    }


# ---------------------------------------------------------------------------------------------------
# Snapshots: a table as plain data and back

_TABLE_FIELDS = (
    "game_id",
    "game",
    "options",
    "first_dealer",
    "seed",
    "version",
    "deals",
    "revealed",
    "commitment",
    "finished",
    "abandoned",
    "turn_timeout_s",
    "takeover_after",
)
_NEWER_FIELDS = ("rematch", "rematch_of")  # absent from snapshots taken before rematches: None


def dump(table: Table) -> Snapshot:
    # The seed as text: a generated one has 128 bits, more than JSON codecs keep in an integer.
    return {
        **{name: getattr(table, name) for name in _TABLE_FIELDS + _NEWER_FIELDS},
        "seed": str(table.seed),
        "private": table.private,
        "join_code_hash": table.join_code_hash,
        "seats": [dict(vars(s)) for s in table.seats],
        "decks": [list(d) for d in table.decks],
        "state": table.rules.dump_state(table.state),
    }


def load(data: Snapshot) -> Table:
    """A table from `dump`'s data; a snapshot from before private matches or rematches has none of their
    fields."""
    fields = {name: data[name] for name in _TABLE_FIELDS}
    fields["seed"] = int(fields["seed"])
    return Table(
        **fields,
        private=bool(data.get("private", False)),
        join_code_hash=data.get("join_code_hash"),
        rematch=data.get("rematch"),
        rematch_of=data.get("rematch_of"),
        seats=tuple(Seat(**{**s, "more_tokens": tuple(s.get("more_tokens", ()))}) for s in data["seats"]),
        decks=tuple(tuple(d) for d in data["decks"]),
        state=rules_for(data["game"]).load_state(data["state"]),
    )


def is_snapshot_point(event: Event) -> bool:
    """Snapshots are taken at deal boundaries: right after each deal, the state a round starts from."""
    return event["type"] == "dealt"
