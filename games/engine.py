"""What the three games' engines share: reading the turn table, dispatching an action, the RULES object.

Each game writes who may do what, and when, as tables in its `legal.py` (h11's way: transitions you can
read): PHASES, the action types a phase allows at all; RULE and WRONG_PHASE, the rule an action type
falls under and why a phase forbids it; CHECKS, per action type, the conditions that need code (a check
raises RuleError naming the rule); and `candidates`, every action a seat might try now. `TurnTable`
reads those tables the same way for every game; `decider` builds a game's `decide` from its shape check
and its system and player actions. `Rules` is the engine contract of docs/ARCHITECTURE.md §1, as a
Protocol that callers are typed against; `rules_of` builds a game's RULES (a `GameRules`) from its
modules, each typed by a protocol of what it must define, so mypy checks every game against the contract.

Pure, like the games: no I/O, no clock, no randomness.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from games.errors import ActionShapeError, NotYourTurn, RuleError
from games.events import Event

# JSON objects at the engine's edge. An action comes from a client and is read only after the game's
# `check_shape` has checked it; options are read after `normalize_options` has; views and snapshots are
# made here and read back by bots and `load_state`. Their values are whatever JSON holds, per key.
Action = dict[str, Any]
OptionDict = dict[str, Any]
View = dict[str, Any]
Snapshot = dict[str, Any]


class _ToPlay(Protocol):
    @property
    def to_play(self) -> int: ...


class TurnState(Protocol):
    """What `TurnTable` reads of a game's state: its phase, and in a player's phase the seat to play."""

    @property
    def phase(self) -> str: ...
    @property
    def round(self) -> _ToPlay | None: ...


S = TypeVar("S")
S_in = TypeVar("S_in", contravariant=True)  # a state a protocol's members only take
T = TypeVar("T", bound=TurnState)
Check = Callable[[T, int, Action], None]


@dataclass(frozen=True)
class TurnTable(Generic[T]):
    phases: Mapping[str, frozenset[str]]  # phase -> the action types it allows
    player_phases: tuple[str, ...]  # the phases in which the round's `to_play` seat acts
    rule: Mapping[str, str]  # action type -> its rule, e.g. "66 §2.3"
    wrong_phase: Mapping[str, str]  # action type -> why another phase forbids it
    checks: Mapping[str, Check[T]]  # action type -> its conditions that need code
    candidates: Callable[[T, int], list[Action]]  # every action the seat might try in this state
    deal_phase: str  # the system deals
    scoring_phase: str  # the system scores the deal
    over_phase: str  # nobody acts any more
    scoring: str = "the deal is being scored"  # what a seat hears while the system scores

    def to_act(self, state: T) -> list[int]:
        if state.phase not in self.player_phases:
            return []
        rnd = state.round
        assert rnd is not None  # every player phase is within a deal
        return [rnd.to_play]

    def pending_system_action(self, state: T) -> Action | None:
        """What the system owes now without a player: a deal or the scoring of a finished deal, else None."""
        if state.phase == self.deal_phase:
            return {"type": "deal"}
        if state.phase == self.scoring_phase:
            return {"type": "score_round"}
        return None

    def check_turn(self, state: T, seat: int, kind: str) -> None:
        """NotYourTurn unless `seat` is the one the game waits for; RuleError if the phase forbids `kind`."""
        if state.phase == self.scoring_phase:
            raise NotYourTurn(self.scoring)
        if state.phase == self.over_phase:
            raise NotYourTurn("the match is over")
        waiting = self.to_act(state)
        if seat not in waiting:
            raise NotYourTurn(f"it is seat {waiting[0]}'s turn" if waiting else "waiting for the deal")
        if kind not in self.phases[state.phase]:
            raise RuleError(self.rule[kind], self.wrong_phase[kind])

    def check(self, state: T, seat: int, action: Action) -> None:
        """Everything `decide` requires of a player's action besides its shape."""
        self.check_turn(state, seat, action["type"])
        self.checks[action["type"]](state, seat, action)

    def legal_actions(self, state: T, seat: int | None) -> list[Action]:
        """Exactly the candidates that pass `check`, so a client that knows no rules can play from this
        list alone."""
        if seat is None or seat not in self.to_act(state):
            return []
        # With the seat to act, check_turn passes exactly the phase's types: it is applied once here
        # instead of raising for every candidate of another type.
        allowed, types = [], self.phases[state.phase]
        for action in self.candidates(state, seat):
            if action["type"] not in types:
                continue
            try:
                self.checks[action["type"]](state, seat, action)
            except RuleError:
                continue
            allowed.append(action)
        return allowed


Decide = Callable[[S, int | None, Action], list[Event]]
SystemAction = Callable[[S, Action], list[Event]]  # the system's deal or scoring
PlayerAction = Callable[[S, int, Action], list[Event]]  # a seat's checked action


def event(kind: str, actor: int | None, data: Mapping[str, object]) -> Event:
    """An event as a game's `decide` returns it: its type, the seat that acted (None: the system), its data.
    The games make theirs with their `EventType`s (games/events.py), which also check the data's record."""
    return {"type": kind, "actor": actor, "data": data}


def decider(
    check_shape: Callable[[object], str],
    system: Mapping[str, SystemAction[S]],
    player: Mapping[str, PlayerAction[S]],
    check: Callable[[S, int, Action], None],
) -> Decide[S]:
    """A game's `decide(state, seat, action) -> events`. Order of refusal: a malformed action →
    ActionShapeError (from `check_shape`, which returns the action's type); a seat for a system action,
    or the system for a player's → ActionShapeError / NotYourTurn; then `check` (NotYourTurn, RuleError)."""

    def decide(state: S, seat: int | None, action: Action) -> list[Event]:
        kind = check_shape(action)
        if kind in system:
            if seat is not None:
                raise ActionShapeError(f"{kind} is done by the server, not by a seat")
            return system[kind](state, action)
        if seat is None:
            raise NotYourTurn("the system takes no player actions")
        check(state, seat, action)
        return player[kind](state, seat, action)

    return decide


class Rules(Protocol[S]):
    """The engine contract (docs/ARCHITECTURE.md §1): what the table and the service may ask of a game.
    Every member is pure. `S` is the game's state, which only the same game's members read."""

    @property
    def name(self) -> str:
        """The game's API name, e.g. "sixty-six"."""

    @property
    def engine_version(self) -> str:
        """Bumped whenever a change could change a replayed state: snapshots of another version are ignored."""

    @property
    def event_types(self) -> Mapping[str, type]:
        """The game's own event types -> the TypedDict of each one's data (its events.py `EVENTS`)."""

    def normalize_options(self, options: OptionDict | None, n_seats: int) -> OptionDict:
        """snake_case options with defaults filled in; raises OptionError(field, message)."""

    def seat_counts(self, options: OptionDict) -> set[int]:
        """The numbers of seats these options can be played by."""

    def new_state(self, options: OptionDict, n_seats: int, first_dealer: int) -> S:
        """The match before its first deal."""

    def deck(self, options: OptionDict) -> list[str]:
        """The unshuffled pack of the first deal (two-deck games hold each card twice)."""

    def packs(self, options: OptionDict) -> list[list[str]]:
        """Every pack a deal of the match can use, the first deal's first."""

    def deal_pack(self, options: OptionDict, state: S) -> list[str]:
        """The pack of the deal `state` awaits or plays: `decide` deals exactly an ordering of it."""

    def decide(self, state: S, seat: int | None, action: Action) -> list[Event]:
        """The events an action produces (seat None: the system's deal or scoring), or raises
        RuleError, NotYourTurn or ActionShapeError."""

    def evolve(self, state: S, event: Event) -> S:
        """The state after one event; never raises for an event `decide` produced."""

    def legal_actions(self, state: S, seat: int | None) -> list[Action]:
        """What the seat may do now, each action exactly as it may be posted."""

    def to_act(self, state: S) -> list[int]:
        """The seats whose decision the game waits for."""

    def pending_system_action(self, state: S) -> Action | None:
        """{"type": "deal"} (the caller adds the deck), {"type": "score_round"}, or None."""

    def view(self, state: S, seat: int | None) -> View:
        """The game part of the seat's view (seat None: a spectator)."""

    def event_view(self, event: Event, seat: int | None) -> Event:
        """The event as that seat may see it: hidden cards replaced by what may be shown of them."""

    def dump_state(self, state: S) -> Snapshot:
        """The state as JSON-able data, for snapshots."""

    def load_state(self, data: Snapshot) -> S:
        """The state back from `dump_state`'s data."""

    def is_round_boundary(self, event: Event) -> bool:
        """Whether a snapshot may be taken after this event."""


@dataclass(frozen=True)
class GameRules(Generic[S]):
    """A game's RULES: the members of `Rules`, each a function of the game's modules (`rules_of`)."""

    name: str
    engine_version: str
    event_types: Mapping[str, type]
    normalize_options: Callable[[OptionDict | None, int], OptionDict]
    seat_counts: Callable[[OptionDict], set[int]]
    new_state: Callable[[OptionDict, int, int], S]
    deck: Callable[[OptionDict], list[str]]
    packs: Callable[[OptionDict], list[list[str]]]
    deal_pack: Callable[[OptionDict, S], list[str]]
    decide: Callable[[S, int | None, Action], list[Event]]
    evolve: Callable[[S, Event], S]
    legal_actions: Callable[[S, int | None], list[Action]]
    to_act: Callable[[S], list[int]]
    pending_system_action: Callable[[S], Action | None]
    view: Callable[[S, int | None], View]
    event_view: Callable[[Event, int | None], Event]
    dump_state: Callable[[S], Snapshot]
    load_state: Callable[[Snapshot], S]
    is_round_boundary: Callable[[Event], bool]


# What `rules_of` takes from each module of a game (a module satisfies a Protocol by its functions).


class OptionsModule(Protocol):
    def normalize_options(self, options: OptionDict | None, n_seats: int) -> OptionDict: ...
    def seat_counts(self, options: OptionDict) -> set[int]: ...
    def deck(self, options: OptionDict) -> list[str]: ...


class StateModule(Protocol[S]):
    def new_state(self, options: OptionDict, n_seats: int, first_dealer: int) -> S: ...
    def dump_state(self, state: S) -> Snapshot: ...
    def load_state(self, data: Snapshot) -> S: ...


class DecideModule(Protocol[S_in]):
    def decide(self, state: S_in, seat: int | None, action: Action) -> list[Event]: ...


class EvolveModule(Protocol[S]):
    def evolve(self, state: S, event: Event) -> S: ...


class LegalModule(Protocol[S_in]):
    def legal_actions(self, state: S_in, seat: int | None) -> list[Action]: ...
    def to_act(self, state: S_in) -> list[int]: ...
    def pending_system_action(self, state: S_in) -> Action | None: ...


class ViewModule(Protocol[S_in]):
    def view(self, state: S_in, seat: int | None) -> View: ...
    def event_view(self, event: Event, seat: int | None) -> Event: ...
    def is_round_boundary(self, event: Event) -> bool: ...


class EventsModule(Protocol):
    @property
    def EVENTS(self) -> Mapping[str, type]: ...


def rules_of(
    name: str,
    engine_version: str,
    *,
    options: OptionsModule,
    state: StateModule[S],
    rules: DecideModule[S],
    evolve: EvolveModule[S],
    legal: LegalModule[S],
    view: ViewModule[S],
    events: EventsModule,
    packs: Callable[[OptionDict], list[list[str]]] | None = None,
    deal_pack: Callable[[OptionDict, S], list[str]] | None = None,
) -> GameRules[S]:
    """A game's RULES from its modules, each member found where every game keeps it. A game whose pack
    never changes within a match leaves out `packs` and `deal_pack`: its one pack is `deck(options)`."""

    def one_pack(options: OptionDict) -> list[list[str]]:
        return [deck(options)]

    def the_pack(options: OptionDict, state: S) -> list[str]:
        return deck(options)

    deck = options.deck
    return GameRules(
        name=name,
        engine_version=engine_version,
        event_types=events.EVENTS,
        normalize_options=options.normalize_options,
        seat_counts=options.seat_counts,
        deck=deck,
        packs=packs or one_pack,
        deal_pack=deal_pack or the_pack,
        new_state=state.new_state,
        dump_state=state.dump_state,
        load_state=state.load_state,
        decide=rules.decide,
        evolve=evolve.evolve,
        legal_actions=legal.legal_actions,
        to_act=legal.to_act,
        pending_system_action=legal.pending_system_action,
        view=view.view,
        event_view=view.event_view,
        is_round_boundary=view.is_round_boundary,
    )
