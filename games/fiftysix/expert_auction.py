"""The rest of an auction, called by basic bidders (expert_hand.Model), on plain values.

The engine's decide/evolve cost about a tenth of a millisecond per call and a simulated auction has a
dozen calls, so the expert finishes auctions here, with the same rules as evolve.called and
rules.auction_end (RULES §1.5, §1.11a): a bid resets the passes and the double, a double resets the
passes, a redouble ends the auction; N-1 passes after a bid end it; N passes without a bid give the
all-pass contract (28 NT for dealer+1) or a throw-in. tests/unit/fiftysix/test_expert.py checks it
against the engine.
"""

from __future__ import annotations

from games.fiftysix.expert_hand import Bid, Model
from games.fiftysix.state import PLAY, Contract, State, next_active
from games.records import replace

MAX_CALLS = 200  # basic bidders only raise, so an auction ends well before; a guard against a loop


def finish(state: State, model: Model) -> Contract | None:
    """The contract the auction ends in (None: thrown in), from the state's auction so far."""
    rnd = state.round
    assert rnd is not None
    if rnd.contract is not None:
        return rnd.contract
    final = state.options.pass_is_final
    active = rnd.active
    high: Bid | None = None
    if rnd.high_bid is not None:
        standing = rnd.high_bid
        assert standing.value is not None and standing.suit is not None  # the standing bid is a bid
        high = (standing.seat, standing.value, standing.suit)
    level, passes, last, passed = rnd.level, rnd.pass_count, rnd.last_caller, set(rnd.passed)
    seat, opening = rnd.to_play, not rnd.calls
    for _ in range(MAX_CALLS):
        action = model.call(seat, high, level, opening)
        opening = False
        kind = action["type"]
        if kind == "bid":
            high, level, passes, last = (seat, action["value"], action["suit"]), 0, 0, seat
        elif kind == "double":
            level, passes, last = 1, 0, seat
        elif kind == "redouble":
            assert high is not None  # a redouble redoubles the standing bid
            return Contract(high[0], high[1], high[2], 2)
        else:
            passes += 1
            if final:
                passed.add(seat)
        bidding = tuple(s for s in active if s not in passed) or active
        seat = next_active(state, seat, bidding)
        if high is None:
            if (len(passed) == len(active)) if final else passes == len(active):
                return _all_pass(state)
        elif (seat == last) if final else passes == len(active) - 1:
            return Contract(high[0], high[1], high[2], level)
    return None


def _all_pass(state: State) -> Contract | None:
    rnd = state.round
    assert rnd is not None
    if state.options.all_pass_contract == "redeal":
        return None
    return Contract(next_active(state, rnd.dealer, rnd.active), 28, "NT", 0, all_pass=True)


def play_state(state: State, contract: Contract) -> State:
    """The state at the first lead of the deal under `contract` (RULES §1.6: dealer+1 leads)."""
    rnd = state.round
    assert rnd is not None
    leader = next_active(state, rnd.dealer, rnd.active)
    return replace(state, phase=PLAY, round=replace(rnd, contract=contract, leader=leader, to_play=leader))
