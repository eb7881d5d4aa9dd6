"""Four-Point Northeastern Wisconsin Smear (RULES §3): the pure rules engine behind `RULES`
(contract: docs/ARCHITECTURE.md §1). Four players, partners opposite: team 0 = {0,2}, team 1 = {1,3}.

Modules, one job each:
  options   options, the pack, card values          state     frozen state, snapshots
  legal     phase table, checks, legal_actions      rules     decide (action -> events)
  evolve    apply one event                         scoring   §3.6-§3.8 results as pure functions
  view      view, event_view, system hooks          bots      random and basic players
  events    each event type's data record (a TypedDict), and EVENTS, their registry

Events: {"type", "actor", "data"}; `actor` is the seat that acted, or None for the system. The type of
each one's data is declared in events.py.

| type         | data                                                          | who sees what |
|--------------|---------------------------------------------------------------|---------------|
| dealt        | round, dealer, hands [per seat], undealt [top first]          | a seat sees only its own hand (others None) plus hand_sizes and undealt_size; the undealt pile never |
| bid          | seat, value (2..4)                                            | public |
| passed       | seat                                                          | public |
| auction_won  | bidder, bid (emitted with the call that ends the auction)     | public |
| thrown_in    | dealer, rule (all_pass), next_dealer (all four passed)        | public |
| widow_taken  | seat, cards (top of the undealt pile; widow_size > 0)         | the bidder sees the cards; others {seat, count} |
| discarded    | seat, cards, trump (named, hidden until the first lead)       | the bidder sees all; others {seat, count} |
| played       | seat, card (the first card led fixes trump)                   | public |
| trick_taken  | winner, cards [{seat, card}], game_count                      | public; emitted with the last card of a trick |
| round_ended  | {} (six tricks played)                                        | public |
| round_scored | round, dealer, bidder, bid, bidding_team, trump, points [{point, team, seat, card, why}], points_won, game_counts, made, deltas, capped, scores (per team), next_dealer, standing | public (a discarded trump that scores under discards_count_for_high_low_jack is named) |
| match_ended  | winner [seats], standing, reason                              | public |
"""

from __future__ import annotations

# Modules are imported whole so that `games.smear.view` and `.evolve` stay the modules, not the
# functions of the same name.
from games.engine import Rules, rules_of
from games.smear import events as _events
from games.smear import evolve as _evolve
from games.smear import legal as _legal
from games.smear import options as _options
from games.smear import rules as _rules
from games.smear import state as _state
from games.smear import view as _view
from games.smear.state import State

RULES: Rules[State] = rules_of(
    "smear",
    "smear.1",
    options=_options,
    state=_state,
    rules=_rules,
    evolve=_evolve,
    legal=_legal,
    view=_view,
    events=_events,
)

__all__ = ["RULES", "State"]
