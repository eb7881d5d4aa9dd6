"""Who may do what, and when: the phase table, the checks beside it, and `legal_actions`.

Rules of this file:
* PHASES says which action types a phase allows at all. A player action is only ever taken by the
  seat in `to_act`; system actions (deal, score_round) only by the system (seat None).
* CHECKS holds, per action type, the conditions that need code (cards held, stock open, ...). A check
  raises RuleError naming the rule; it returns nothing when the action is allowed.
* `legal_actions` is exactly the candidates that pass the same checks `decide` applies, so a client
  that knows no rules can play from that list alone.
"""

from __future__ import annotations

from collections.abc import Sequence

from games import cards
from games.engine import Action, TurnTable
from games.errors import RuleError
from games.sixtysix.options import RANK_ORDER
from games.sixtysix.state import (
    AFTER_TRICK,
    AWAIT_DEAL,
    FOLLOW,
    LEAD,
    MATCH_OVER,
    ROUND_OVER,
    State,
    face_up_card,
    side_of,
    stock_open,
    stock_size,
    tricks_won,
)

PHASES: dict[str, frozenset[str]] = {
    AWAIT_DEAL: frozenset({"deal"}),  # system
    LEAD: frozenset({"exchange", "meld", "close", "declare_out", "play"}),  # leader, any order
    FOLLOW: frozenset({"play"}),  # next seat in play order
    AFTER_TRICK: frozenset({"draw", "close", "declare_out"}),  # trick winner, stock open
    ROUND_OVER: frozenset({"score_round"}),  # system
    MATCH_OVER: frozenset(),
}
PLAYER_PHASES = (LEAD, FOLLOW, AFTER_TRICK)

RULE = {
    "play": "66 §2.3",
    "meld": "66 §2.5",
    "exchange": "66 §2.6",
    "close": "66 §2.7",
    "declare_out": "66 §2.8",
    "draw": "66 §2.4",
}
WRONG_PHASE = {
    "play": "you cannot play a card now",
    "meld": "a marriage is shown only by the leader before leading",
    "exchange": "only the leader may exchange the trump card, before leading",
    "close": "only the leader before leading, or the trick winner before drawing, may close",
    "declare_out": "only the leader before leading, or the trick winner, may declare out",
    "draw": "cards are drawn only right after a trick while the stock is open",
}


# --- checks that need code --------------------------------------------------------------------------


def marriage_cards(suit: str) -> tuple[str, str]:
    return "K" + suit, "Q" + suit


def has_free_marriage(hand: tuple[str, ...], used: tuple[str, ...], suit: str) -> bool:
    """Holds a K and a Q of `suit` not yet used in a marriage (two-deck games: one marriage per card)."""
    return all(hand.count(card) > used.count(card) for card in marriage_cards(suit))


def follow_options(hand: Sequence[str], trick: list[str], trump: str, strict: bool) -> list[str]:
    """Cards a follower may play (RULES §2.3): anything in phase 1, the strict duty in phase 2."""
    if not trick or not strict:
        return list(hand)
    best = trick[cards.winning_index(trick, trump, RANK_ORDER)]
    for must in (cards.suit_of(trick[0]), trump):
        suited = [c for c in hand if cards.suit_of(c) == must]
        beaters = [c for c in suited if cards.beats(c, best, trump, RANK_ORDER)]
        if suited:
            return beaters or suited
    return list(hand)


def _strict(state: State) -> bool:
    assert state.round is not None
    return not stock_open(state.round)


# A check runs for a seat the game waits for: within a deal, as the asserts tell the type checker.


def check_play(state: State, seat: int, action: Action) -> None:
    rnd, card = state.round, action["card"]
    assert rnd is not None
    if card not in rnd.hands[seat]:
        raise RuleError("66 §2.3", f"you do not hold {card}")
    if state.phase == LEAD and rnd.turn_meld and card not in marriage_cards(rnd.turn_meld):
        k, q = marriage_cards(rnd.turn_meld)
        raise RuleError("66 §2.5", f"after showing the marriage you must lead {k} or {q}")
    if state.phase == FOLLOW:
        trick = [p.card for p in rnd.trick]
        allowed = follow_options(rnd.hands[seat], trick, rnd.trump_suit, _strict(state))
        if card not in allowed:
            raise RuleError(
                "66 §2.3",
                f"with the stock closed or exhausted you must play one of "
                f"{', '.join(sorted(set(allowed)))} to {' '.join(trick)}",
            )


def check_meld(state: State, seat: int, action: Action) -> None:
    rnd, suit = state.round, action["suit"]
    assert rnd is not None
    if rnd.turn_meld:
        raise RuleError("66 §2.5", f"one marriage per lead: you already showed {rnd.turn_meld}")
    # Without a talon (pagat 3p) there is no phase 1: marriages are shown at any lead (RULES §2.12).
    if not stock_open(rnd) and not state.options.meld_after_close and state.options.spec.talon:
        raise RuleError("66 §2.5", "no marriages once the stock is closed or exhausted")
    if not has_free_marriage(rnd.hands[seat], rnd.meld_used[seat], suit):
        k, q = marriage_cards(suit)
        raise RuleError("66 §2.5", f"you need {k} and {q}, not used in another marriage, to meld {suit}")


def check_exchange(state: State, seat: int, action: Action) -> None:
    rnd, opts = state.round, state.options
    assert rnd is not None
    exchange_card = opts.spec.exchange_rank + rnd.trump_suit
    if not stock_open(rnd):
        raise RuleError("66 §2.6", "the trump card can be exchanged only while the stock is open")
    if face_up_card(rnd) == exchange_card:
        raise RuleError("66 §2.6", f"{exchange_card} already lies face up")
    if exchange_card not in rnd.hands[seat]:
        raise RuleError("66 §2.6", f"you need {exchange_card} to exchange the trump card")
    if not tricks_won(state, rnd)[side_of(state, seat)]:
        raise RuleError("66 §2.6", "you may exchange only after your side has won a trick")
    if stock_size(rnd) < opts.min_stock_for_exchange:
        raise RuleError("66 §2.6", f"exchanging needs at least {opts.min_stock_for_exchange} cards in the stock")


def check_close(state: State, seat: int, action: Action) -> None:
    rnd, opts = state.round, state.options
    assert rnd is not None
    if not stock_open(rnd):
        raise RuleError("66 §2.7", "the stock is already closed or exhausted")
    if stock_size(rnd) < opts.min_stock_to_close:
        raise RuleError("66 §2.7", f"closing needs at least {opts.min_stock_to_close} cards in the stock")


def check_nothing(state: State, seat: int, action: Action) -> None:
    """declare_out and draw have no condition beyond their phase (RULES §2.13a.3)."""


CHECKS = {
    "play": check_play,
    "meld": check_meld,
    "exchange": check_exchange,
    "close": check_close,
    "declare_out": check_nothing,
    "draw": check_nothing,
}


def candidates(state: State, seat: int) -> list[Action]:
    """The actions of the phase the seat might take, in a stable order (`legal_actions` keeps those that pass
    the checks): each card it holds; a marriage only in a suit it holds the king and queen of (check_meld
    refuses any other); then the actions without a card."""
    assert state.round is not None
    if state.phase == AFTER_TRICK:
        return [{"type": t} for t in ("close", "declare_out", "draw")]
    hand = state.round.hands[seat]
    plays: list[Action] = [{"type": "play", "card": c} for c in sorted(set(hand), key=cards.sort_key(RANK_ORDER))]
    if state.phase != LEAD:
        return plays
    melds: list[Action] = [
        {"type": "meld", "suit": s} for s in cards.SUITS if all(card in hand for card in marriage_cards(s))
    ]
    return plays + melds + [{"type": t} for t in ("exchange", "close", "declare_out")]


# The tables above, read as every game reads them (games/engine.py).
TURNS = TurnTable(
    phases=PHASES,
    player_phases=PLAYER_PHASES,
    rule=RULE,
    wrong_phase=WRONG_PHASE,
    checks=CHECKS,
    candidates=candidates,
    deal_phase=AWAIT_DEAL,
    scoring_phase=ROUND_OVER,
    over_phase=MATCH_OVER,
    scoring="the round is being scored",
)
to_act, check, legal_actions = TURNS.to_act, TURNS.check, TURNS.legal_actions
pending_system_action = TURNS.pending_system_action
