"""The basic bidder (games/fiftysix/bots.py `_Bidder`) as a fast model of the other seats' calls.

The expert needs it thousands of times per decision: to finish simulated auctions and to judge how
well a sampled hand fits the bids its seat made. A hand's worth per denomination is computed once from
rank counts (the same formula as the basic bidder); `basic_call` then makes the basic bidder's call
from that table and the auction state. tests/unit/fiftysix/test_expert.py checks both against bots.py.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.engine import Action
from games.fiftysix.bots import DOUBLE_MARGIN, REDOUBLE_MARGIN
from games.fiftysix.legal import DENOMINATIONS, MAX_BID, MIN_BID
from games.fiftysix.state import State, same_team, team_of

Bid = tuple[int, int, str]  # a standing bid: (seat, value, suit)


def tricks(hand: Sequence[str]) -> dict[str, float]:
    """The basic bidder's trick estimate of `hand` per denomination (NT = no trump)."""
    counts = {s: [0, 0, 0, 0] for s in "SHDC"}  # jacks, nines, aces, length
    for c in hand:
        row = counts[c[1]]
        row[3] += 1
        if c[0] == "J":
            row[0] += 1
        elif c[0] == "9":
            row[1] += 1
        elif c[0] == "A":
            row[2] += 1
    out: dict[str, float] = {}
    for trump in DENOMINATIONS:
        sure = 0.9 if trump == "NT" else 0.7  # a plain jack can be trumped
        total = 0.0
        for suit, (j, n, a, length) in counts.items():
            if suit == trump:
                total += j + n * (0.9 if j else 0.5) + a * 0.3 + max(0, length - 3) * 0.5
            else:
                total += j * sure + n * (0.5 if j else 0.1)
        out[trump] = total
    return out


def worth(hand: Sequence[str], active: int, partners: int) -> dict[str, float]:
    """Points the basic bidder thinks its team takes, per denomination: its tricks at 56/hand size
    each, plus nine tenths of an average share per partner."""
    per_trick = 56 / len(hand)
    share = 56 / active
    return {d: t * per_trick + 0.9 * share * partners for d, t in tricks(hand).items()}


def partners(state: State, seat: int) -> int:
    assert state.round is not None
    return sum(1 for s in state.round.active if s != seat and same_team(state, s, seat))


class Model:
    """Per seat of one world: the trick and worth tables, computed once (hands do not change in the
    auction)."""

    def __init__(self, state: State):
        rnd = state.round
        assert rnd is not None
        self.tricks: dict[int, dict[str, float]] = {}  # seat -> denomination -> tricks
        self.worth: dict[int, dict[str, float]] = {}  # seat -> denomination -> points
        self.team = [team_of(state, s) for s in range(state.n_seats)]
        self.must_open = state.options.first_bidder_must_bid
        self.sizes = [len(h) for h in rnd.hands]
        for seat in rnd.active:
            hand = rnd.hands[seat]
            self.tricks[seat] = tricks(hand)
            per_trick, share = 56 / len(hand), 56 / len(rnd.active)
            bonus = 0.9 * share * partners(state, seat)
            self.worth[seat] = {d: t * per_trick + bonus for d, t in self.tricks[seat].items()}

    def call(self, seat: int, high: Bid | None, level: int, opening: bool) -> Action:
        """The call the basic bidder makes (bots._Bidder.choose); `high` = (seat, value, suit) of the
        standing bid, `level` its doubling, `opening` whether no call has been made yet."""
        worth = self.worth[seat]
        suit = max(DENOMINATIONS, key=lambda d: (worth[d], d != "NT"))
        value = MIN_BID if high is None else high[1] + 1
        bid: Action | None = {"type": "bid", "value": value, "suit": suit} if value <= MAX_BID else None
        if self.must_open and opening:
            assert bid is not None  # the opening bid is the lowest one
            return bid
        if high is not None and self.team[high[0]] == self.team[seat]:
            if level == 1 and worth[suit] >= high[1] + REDOUBLE_MARGIN:
                return {"type": "redouble"}
            return {"type": "pass"}
        if bid is not None and worth[suit] >= value:
            return bid
        if high is not None and level == 0:
            ours = worth[high[2]]
            if high[2] != "NT":
                ours -= self.tricks[seat][high[2]] * 0.3 * (56 / self.sizes[seat])
            if 56 - ours + DOUBLE_MARGIN < high[1]:
                return {"type": "double"}
        return {"type": "pass"}
