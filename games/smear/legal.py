"""Who may do what, and when: the phase table, the checks beside it, and `legal_actions`.

* PHASES says which action types a phase allows at all. A player action is only ever taken by the
  seat in `to_act`; system actions (deal, score_round) only by the system (seat None).
* CHECKS holds, per action type, the conditions that need code. A check raises RuleError naming the
  rule; it returns nothing when the action is allowed.
* `legal_actions` is exactly the candidates that pass the same checks `decide` applies, so a client
  that knows no rules can play from that list alone (every discard, with every trump it may name).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations

from games import cards
from games.engine import Action, TurnTable
from games.errors import RuleError
from games.smear.options import HAND_SIZE, RANK_ORDER
from games.smear.state import AUCTION, AWAIT_DEAL, DISCARD, MATCH_OVER, PLAY, ROUND_OVER, State

PHASES: dict[str, frozenset[str]] = {
    AWAIT_DEAL: frozenset({"deal"}),  # system
    AUCTION: frozenset({"bid", "pass"}),  # each seat once, from dealer+1 to the dealer (§3.3)
    DISCARD: frozenset({"discard"}),  # the bidder, when widow_size > 0 (§3.4)
    PLAY: frozenset({"play"}),  # the bidder leads the first trick, then each trick's winner (§3.5)
    ROUND_OVER: frozenset({"score_round"}),  # system
    MATCH_OVER: frozenset(),
}
PLAYER_PHASES = (AUCTION, DISCARD, PLAY)
BID_VALUES = (2, 3, 4)

RULE = {"bid": "Smear §3.3", "pass": "Smear §3.3", "discard": "Smear §3.4", "play": "Smear §3.5"}
WRONG_PHASE = {
    "bid": "bids are made only during the auction",
    "pass": "passing is only for the auction",
    "discard": "only the bidder discards, right after the auction, when the match plays with a widow",
    "play": "cards are played only after the auction (and the discard)",
}


# --- derived facts the checks share -----------------------------------------------------------------


def high_bid(state: State) -> int | None:
    assert state.round is not None
    return max((c.value for c in state.round.calls if c.value is not None), default=None)


def dealer_is_stuck(state: State, seat: int) -> bool:
    """stick_dealer: the dealer, when everyone before has passed, may not pass (§3.3, §3.10a.1)."""
    rnd = state.round
    assert rnd is not None
    return state.options.all_pass == "stick_dealer" and seat == rnd.dealer and all(c.value is None for c in rnd.calls)


def follow_options(hand: Sequence[str], led: str | None, trump: str | None) -> list[str]:
    """Cards a player may play (§3.5): a led-suit card or a trump while able to follow, else anything."""
    if led is None or not any(cards.suit_of(c) == led for c in hand):
        return list(hand)
    return [c for c in hand if cards.suit_of(c) in (led, trump)]


def trumps_discard_limit(hand: Sequence[str], trump: str) -> int:
    """How many trumps the bidder may discard: only those beyond six (§3.4, §3.10 item 5)."""
    return max(0, sum(cards.suit_of(c) == trump for c in hand) - HAND_SIZE)


# --- checks that need code --------------------------------------------------------------------------
# A check runs for a seat the game waits for: within a deal, as the asserts tell the type checker.


def check_bid(state: State, seat: int, action: Action) -> None:
    value, high = action["value"], high_bid(state)
    if value not in BID_VALUES:
        raise RuleError("Smear §3.3", f"a bid is 2, 3 or 4, not {value}")
    if high is not None and value <= high:
        raise RuleError("Smear §3.3", f"a bid must be higher than {high}")


def check_pass(state: State, seat: int, action: Action) -> None:
    if dealer_is_stuck(state, seat):
        raise RuleError("Smear §3.10a.1", "everyone passed: the dealer must bid (stick_dealer)")


def check_discard(state: State, seat: int, action: Action) -> None:
    assert state.round is not None
    hand, trump, chosen = state.round.hands[seat], action["trump"], action["cards"]
    size = state.options.widow_size
    if len(chosen) != size or len(set(chosen)) != size:
        raise RuleError("Smear §3.4", f"discard exactly {size} different card(s)")
    missing = [c for c in chosen if c not in hand]
    if missing:
        raise RuleError("Smear §3.4", f"you do not hold {', '.join(missing)}")
    thrown = sum(cards.suit_of(c) == trump for c in chosen)
    limit = trumps_discard_limit(hand, trump)
    if thrown > limit:
        raise RuleError(
            "Smear §3.4",
            f"you may discard {limit} trump(s) of {trump} here, not {thrown}: "
            f"trumps go only when you hold more than six",
        )
    if not any(cards.suit_of(c) == trump for c in hand if c not in chosen):
        raise RuleError("Smear §3.10a.2", f"keep at least one {trump} to lead as trump")


def check_play(state: State, seat: int, action: Action) -> None:
    rnd, card = state.round, action["card"]
    assert rnd is not None
    if card not in rnd.hands[seat]:
        raise RuleError("Smear §3.5", f"you do not hold {card}")
    first_lead = not rnd.tricks and not rnd.trick
    if first_lead and rnd.named_trump is not None and cards.suit_of(card) != rnd.named_trump:
        raise RuleError("Smear §3.5", f"the first lead must be the trump you named, {rnd.named_trump}")
    led = cards.suit_of(rnd.trick[0].card) if rnd.trick else None
    allowed = follow_options(rnd.hands[seat], led, rnd.trump)
    if card not in allowed:
        raise RuleError(
            "Smear §3.5", f"you hold {led}: play {led}" + (f" or a trump ({rnd.trump})" if rnd.trump != led else "")
        )


CHECKS = {"bid": check_bid, "pass": check_pass, "discard": check_discard, "play": check_play}


def sorted_cards(held: Iterable[str]) -> list[str]:
    return sorted(held, key=cards.sort_key(RANK_ORDER))


def candidates(state: State, seat: int) -> list[Action]:
    """Every action of the phase, in a stable order; `legal_actions` keeps those that pass the checks."""
    assert state.round is not None
    hand = sorted_cards(state.round.hands[seat])
    if state.phase == AUCTION:
        return [{"type": "pass"}] + [{"type": "bid", "value": v} for v in BID_VALUES]
    if state.phase == DISCARD:
        # Trump suit first (S H D C), then the discards in hand order: at most 4 × C(9,3) = 336.
        return [
            {"type": "discard", "cards": list(combo), "trump": suit}
            for suit in cards.SUITS
            for combo in combinations(hand, state.options.widow_size)
        ]
    return [{"type": "play", "card": c} for c in hand]


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
)
to_act, check, legal_actions = TURNS.to_act, TURNS.check, TURNS.legal_actions
pending_system_action = TURNS.pending_system_action
