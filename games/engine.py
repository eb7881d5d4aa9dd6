"""What the three games' engines share: reading the turn table, dispatching an action, the RULES object.

Each game writes who may do what, and when, as tables in its `legal.py` (h11's way: transitions you can
read): PHASES, the action types a phase allows at all; RULE and WRONG_PHASE, the rule an action type
falls under and why a phase forbids it; CHECKS, per action type, the conditions that need code (a check
raises RuleError naming the rule); and `candidates`, every action a seat might try now. `TurnTable`
reads those tables the same way for every game; `decider` builds a game's `decide` from its shape check
and its system and player actions; `Rules` is the engine contract of docs/ARCHITECTURE.md §1.

Pure, like the games: no I/O, no clock, no randomness.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from games.errors import ActionShapeError, NotYourTurn, RuleError

Check = Callable[[Any, int, dict], None]


@dataclass(frozen=True)
class TurnTable:
    phases: Mapping[str, frozenset[str]]             # phase -> the action types it allows
    player_phases: tuple[str, ...]                   # the phases in which the round's `to_play` seat acts
    rule: Mapping[str, str]                          # action type -> its rule, e.g. "66 §2.3"
    wrong_phase: Mapping[str, str]                   # action type -> why another phase forbids it
    checks: Mapping[str, Check]                      # action type -> its conditions that need code
    candidates: Callable[[Any, int], list[dict]]     # every action the seat might try in this state
    deal_phase: str                                  # the system deals
    scoring_phase: str                               # the system scores the deal
    over_phase: str                                  # nobody acts any more
    scoring: str = "the deal is being scored"        # what a seat hears while the system scores

    def to_act(self, state) -> list[int]:
        return [state.round.to_play] if state.phase in self.player_phases else []

    def pending_system_action(self, state) -> dict | None:
        """What the system owes now without a player: a deal or the scoring of a finished deal, else None."""
        if state.phase == self.deal_phase:
            return {"type": "deal"}
        if state.phase == self.scoring_phase:
            return {"type": "score_round"}
        return None

    def check_turn(self, state, seat: int, kind: str) -> None:
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

    def check(self, state, seat: int, action: dict) -> None:
        """Everything `decide` requires of a player's action besides its shape."""
        self.check_turn(state, seat, action["type"])
        self.checks[action["type"]](state, seat, action)

    def legal_actions(self, state, seat: int | None) -> list[dict]:
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


Decide = Callable[[Any, "int | None", dict], list[dict]]


def event(kind: str, actor: int | None, data: dict) -> dict:
    """An event as a game's `decide` returns it: its type, the seat that acted (None: the system), its data."""
    return {"type": kind, "actor": actor, "data": data}


def decider(check_shape: Callable[[object], str], system: Mapping[str, Callable], player: Mapping[str, Callable],
            check: Check) -> Decide:
    """A game's `decide(state, seat, action) -> events`. Order of refusal: a malformed action →
    ActionShapeError (from `check_shape`, which returns the action's type); a seat for a system action,
    or the system for a player's → ActionShapeError / NotYourTurn; then `check` (NotYourTurn, RuleError)."""
    def decide(state, seat: int | None, action: dict) -> list[dict]:
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


@dataclass(frozen=True)
class Rules:
    """The engine contract as one object (docs/ARCHITECTURE.md §1); every member is a pure function."""
    name: str
    engine_version: str
    normalize_options: Callable
    seat_counts: Callable
    new_state: Callable
    deck: Callable
    packs: Callable
    deal_pack: Callable
    decide: Callable
    evolve: Callable
    legal_actions: Callable
    to_act: Callable
    pending_system_action: Callable
    view: Callable
    event_view: Callable
    dump_state: Callable
    load_state: Callable
    is_round_boundary: Callable


def rules_of(name: str, engine_version: str, *, options: ModuleType, state: ModuleType, rules: ModuleType,
             evolve: ModuleType, legal: ModuleType, view: ModuleType, packs: Callable | None = None,
             deal_pack: Callable | None = None) -> Rules:
    """A game's RULES from its modules, each member found where every game keeps it. A game whose pack
    never changes within a match leaves out `packs` and `deal_pack`: its one pack is `deck(options)`."""
    return Rules(
        name=name, engine_version=engine_version,
        normalize_options=options.normalize_options, seat_counts=options.seat_counts, deck=options.deck,
        packs=packs or (lambda opts: [options.deck(opts)]),
        deal_pack=deal_pack or (lambda opts, _state: options.deck(opts)),
        new_state=state.new_state, dump_state=state.dump_state, load_state=state.load_state,
        decide=rules.decide, evolve=evolve.evolve, legal_actions=legal.legal_actions, to_act=legal.to_act,
        pending_system_action=legal.pending_system_action, view=view.view, event_view=view.event_view,
        is_round_boundary=view.is_round_boundary,
    )
