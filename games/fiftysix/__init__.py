"""Fifty-Six (RULES §1): the pure rules engine behind `RULES` (contract: docs/ARCHITECTURE.md §1).

Modules, one job each:
  options   options, packs, team formats            state     frozen state, derived facts, snapshots
  legal     phase table, checks, legal_actions      rules     decide (action -> events)
  evolve    apply one event                         scoring   §1.8-1.9 settlement as pure functions
  view      view, event_view, system hooks          bots      random and basic players
  events    each event type's data record (a TypedDict), and EVENTS, their registry

Seats are fixed for the match; a seat whose team is eliminated is dealt no cards and never acts.
Events: {"type", "actor", "data"}; `actor` is the seat that acted, or None for the system. The type of
each one's data is declared in events.py.

| type          | data                                                             | who sees what |
|---------------|------------------------------------------------------------------|---------------|
| dealt         | round, dealer, active [seats dealt in], hands [per seat, [] when out] | a seat sees only its own hand (others None) plus hand_sizes |
| called        | seat, call (bid/pass/double/redouble); bids: value, suit, convention | public |
| auction_ended | contract {declarer, value, suit, doubled, redoubled, level, all_pass} | public; emitted with the call that ends the auction |
| thrown_in     | dealer (all passed with all_pass_contract=redeal; same dealer again) | public |
| played        | seat, card                                                       | public |
| trick_taken   | winner, cards [{seat, card}], points                             | public; emitted with the last card of a trick |
| round_ended   | {} (all tricks played)                                           | public |
| round_scored  | round, contract, contract_team, made, card_points [per team], base, multiplier, per_team, payments [{payer, payee, owed, paid}], tables [per team], eliminated [teams], reason, next_dealer, standing | public |
| match_ended   | winner [seats], standing                                         | public |
"""

from __future__ import annotations

# Modules are imported whole so that `games.fiftysix.view` and `.evolve` stay the modules, not
# the functions of the same name.
from games.engine import Rules, rules_of
from games.fiftysix import events as _events
from games.fiftysix import evolve as _evolve
from games.fiftysix import legal as _legal
from games.fiftysix import options as _options
from games.fiftysix import rules as _rules
from games.fiftysix import state as _state
from games.fiftysix import view as _view
from games.fiftysix.state import State

# 56.2: each deal is dealt from the pack of the players at that deal (no longer the first pack trimmed).
RULES: Rules[State] = rules_of(
    "fifty-six",
    "56.2",
    options=_options,
    state=_state,
    rules=_rules,
    evolve=_evolve,
    legal=_legal,
    view=_view,
    events=_events,
    packs=_options.packs,
    deal_pack=_rules.deal_pack,
)

__all__ = ["RULES", "State"]
