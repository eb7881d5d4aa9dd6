"""Sixty-Six (RULES §2): the pure rules engine behind `RULES` (contract: docs/ARCHITECTURE.md §1).

Modules, one job each:
  options   variants and option normalisation      state     frozen state, derived facts, snapshots
  legal     phase table, checks, legal_actions     rules     decide (action -> events)
  evolve    apply one event                        scoring   §2.9 results as pure functions
  view      view, event_view, system hooks         bots      random and basic players
  events    each event type's data record (a TypedDict), and EVENTS, their registry

Events: {"type", "actor", "data"}; `actor` is the seat that acted, or None for the system. The type of
each one's data is declared in events.py.

| type          | data                                                             | who sees what |
|---------------|------------------------------------------------------------------|---------------|
| dealt         | round, dealer, hands [per seat], dead [3p only], trump_card, stock [top first; empty without a talon] | a seat sees only its own hand (others None) plus hand_sizes and stock_size; the stock order and the dead cards never; trump_card is public (pagat 3p: the card dealt face up into dealer+1's hand) |
| played        | seat, card                                                       | public |
| trick_taken   | winner, cards [{seat, card}], points                             | public; emitted with the last card of a trick |
| drew          | draws [{seat, card, face_up}] (trick winner first)               | a seat sees its own card; the face-up trump card drawn last is public; other cards None |
| melded        | seat, suit, points (20/40), pending (side has no trick yet)      | public (both cards are shown) |
| exchanged     | seat, gave (exchange card, now face up), took, at_close          | public |
| closed        | seat, tricks_at_close [per side], totals_at_close [per side], stock_size | public |
| declared_out  | seat                                                             | public |
| round_ended   | {} (all cards played)                                            | public |
| round_scored  | round, case A1..C2, reason, declarer, closer, and per side: card_points, meld_points, last_trick_points, totals, tricks, game_points, bonus_points, scores; next_dealer, standing | public |
| match_ended   | winner [seats], standing                                         | public |

Variants (options.py): 2p24, 2p20, 2p32, 3p (two dead cards, stock of 9; or three_player_mode
pagat_no_talon: 24 cards, no stock), 4p (partnerships {0,2},{1,3}, two identical decks). Sides are
single seats except in 4p; per-side lists follow `standing`. `profile: schnapsen` sets the Schnapsen
defaults.
"""

from __future__ import annotations

# Modules are imported whole so that `games.sixtysix.view` and `.evolve` stay the modules, not
# the functions of the same name.
from games.engine import Rules, rules_of
from games.sixtysix import events as _events
from games.sixtysix import evolve as _evolve
from games.sixtysix import legal as _legal
from games.sixtysix import options as _options
from games.sixtysix import rules as _rules
from games.sixtysix import state as _state
from games.sixtysix import view as _view
from games.sixtysix.state import State

RULES: Rules[State] = rules_of(
    "sixty-six",
    "66.2",
    options=_options,
    state=_state,
    rules=_rules,
    evolve=_evolve,
    legal=_legal,
    view=_view,
    events=_events,
)

__all__ = ["RULES", "State"]
