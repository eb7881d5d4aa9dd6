"""Who may do what, and when: the phase table, the checks beside it, and `legal_actions`.

* PHASES says which action types a phase allows at all. A player action is only ever taken by the
  seat in `to_act`; system actions (deal, score_round) only by the system (seat None).
* CHECKS holds, per action type, the conditions that need code. A check raises RuleError naming the
  rule; it returns nothing when the action is allowed.
* `legal_actions` is exactly the candidates that pass the same checks `decide` applies, so a client
  that knows no rules can play from that list alone.

| phase      | who                     | actions                              |
|------------|-------------------------|--------------------------------------|
| await_deal | system                  | deal                                 |
| auction    | the seat to call        | bid, pass, double, redouble          |
| play       | the seat to play        | play                                 |
| round_over | system                  | score_round                          |
| match_over | nobody                  | -                                    |
"""

from __future__ import annotations

from games import cards
from games.engine import Action, TurnTable
from games.errors import RuleError
from games.fiftysix.options import RANK_ORDER
from games.fiftysix.state import AUCTION, AWAIT_DEAL, MATCH_OVER, PLAY, ROUND_OVER, State, same_team

PHASES: dict[str, frozenset[str]] = {
    AWAIT_DEAL: frozenset({"deal"}),
    AUCTION: frozenset({"bid", "pass", "double", "redouble"}),
    PLAY: frozenset({"play"}),
    ROUND_OVER: frozenset({"score_round"}),
    MATCH_OVER: frozenset(),
}
PLAYER_PHASES = (AUCTION, PLAY)
DENOMINATIONS = ("S", "H", "D", "C", "NT")
MIN_BID, MAX_BID = 28, 56

RULE = {"bid": "56 §1.5", "pass": "56 §1.5", "double": "56 §1.5", "redouble": "56 §1.5", "play": "56 §1.6"}
WRONG_PHASE = {
    "bid": "the auction is over",
    "pass": "the auction is over",
    "double": "the auction is over",
    "redouble": "the auction is over",
    "play": "cards are played only after the auction",
}


# --- checks that need code --------------------------------------------------------------------------
# A check runs for a seat the game waits for: within a deal, as the asserts tell the type checker.


def check_pass(state: State, seat: int, action: Action) -> None:
    rnd = state.round
    assert rnd is not None
    if state.options.first_bidder_must_bid and not rnd.calls:
        raise RuleError("56 §1.10", "first_bidder_must_bid: the opening call must be a bid of 28 or more")


def check_bid(state: State, seat: int, action: Action) -> None:
    assert state.round is not None
    value, high = action["value"], state.round.high_bid
    if not MIN_BID <= value <= MAX_BID:
        raise RuleError("56 §1.5", f"a bid is a number from {MIN_BID} to {MAX_BID}, not {value}")
    if high is not None and value <= high.value:
        # Only the number counts: suits and NT have no ranking (30 NT does not beat 30 S).
        raise RuleError("56 §1.5", f"a bid must be higher than {high.value}; suits do not rank")


def check_double(state: State, seat: int, action: Action) -> None:
    rnd = state.round
    assert rnd is not None
    if rnd.high_bid is None:
        raise RuleError("56 §1.5", "there is no bid to double")
    if same_team(state, seat, rnd.high_bid.seat):
        raise RuleError("56 §1.5", "only an opponent of the bidding team may double")
    if rnd.level != 0:
        raise RuleError("56 §1.5", "the bid is already doubled")


def check_redouble(state: State, seat: int, action: Action) -> None:
    rnd = state.round
    assert rnd is not None
    if rnd.level != 1:
        raise RuleError("56 §1.5", "only a doubled bid can be redoubled")
    assert rnd.high_bid is not None  # a doubled bid stands
    if not same_team(state, seat, rnd.high_bid.seat):
        raise RuleError("56 §1.5", "only the team that made the bid may redouble")


def follow_options(hand: tuple[str, ...], trick: list[str]) -> list[str]:
    """RULES §1.6: a card of the led suit if the hand has one, else any card (no duty to trump)."""
    if not trick:
        return list(hand)
    led = cards.suit_of(trick[0])
    suited = [c for c in hand if cards.suit_of(c) == led]
    return suited or list(hand)


def check_play(state: State, seat: int, action: Action) -> None:
    rnd, card = state.round, action["card"]
    assert rnd is not None
    if card not in rnd.hands[seat]:
        raise RuleError("56 §1.6", f"you do not hold {card}")
    trick = [p.card for p in rnd.trick]
    if card not in follow_options(rnd.hands[seat], trick):
        raise RuleError("56 §1.6", f"you must follow suit to {trick[0]}")


CHECKS = {"bid": check_bid, "pass": check_pass, "double": check_double, "redouble": check_redouble, "play": check_play}


def candidates(state: State, seat: int) -> list[Action]:
    rnd = state.round
    assert rnd is not None
    if state.phase == PLAY:
        hand = sorted(set(rnd.hands[seat]), key=cards.sort_key(RANK_ORDER))
        return [{"type": "play", "card": c} for c in hand]
    high, lowest = rnd.high_bid, MIN_BID
    if high is not None:
        assert high.value is not None  # the standing bid is a bid: it has a value
        lowest = high.value + 1
    bids = [{"type": "bid", "value": v, "suit": d} for v in range(lowest, MAX_BID + 1) for d in DENOMINATIONS]
    return [{"type": "pass"}, *bids, {"type": "double"}, {"type": "redouble"}]


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
