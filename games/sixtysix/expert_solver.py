"""Exact solver for a two-player deal once the stock is closed or exhausted (perfect information).

From then on the strict duty applies (RULES §2.3: follow suit, head the trick, else trump), no more
marriages are shown (unless meld_after_close, which `applies` excludes), and the leader may declare
out before leading. The solver walks the continuations with memoised negamax and alpha-beta. A position is the
hands, the seat to play, the open trick and the score so far (card points and tricks per seat); leaves
are scored by `deal_points`, RULES §2.9 for two seats (the solver check holds it to the engine).

A position's value is for the seat to move: `utility` of the deal's game points (seat 0's, seat 1's)
is seat 0's value and seat 1's is its negative (zero-sum, as negamax needs). By default it is seat 0's
game points minus seat 1's, so `solve` can be compared with a plain minimax; the expert passes a
match-aware utility instead.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from games import cards
from games.engine import Action
from games.sixtysix.legal import follow_options
from games.sixtysix.options import CARD_POINTS, RANK_ORDER, Options
from games.sixtysix.scoring import two_or_three, win_scale
from games.sixtysix.state import FOLLOW, LEAD, Meld, State, stock_open
from games.tricks import Trick

DECLARE = ("declare_out",)
INF = float("inf")
Utility = Callable[[int, int], float]  # (seat 0's game points, seat 1's) -> seat 0's value

Move = tuple[str]  # (card,), or DECLARE
Hands = tuple[tuple[str, ...], ...]  # per seat
OpenTrick = tuple[tuple[int, str], ...]  # (seat, card) in play order
Score = tuple[tuple[int, ...], tuple[int, ...], int | None]  # card points and tricks per seat, last winner
Start = tuple[Hands, int, OpenTrick, Score]  # the position: hands, seat to play, open trick, score


class Closing(Protocol):
    """What `deal_points` reads of a deal besides the score: the engine's Round, or a playout's Deal."""

    @property
    def melds(self) -> Sequence[Meld]: ...
    @property
    def closer(self) -> int | None: ...
    @property
    def tricks_at_close(self) -> tuple[int, ...] | None: ...
    @property
    def totals_at_close(self) -> tuple[int, ...] | None: ...


def difference(first: int, second: int) -> float:
    return first - second


def value_for(utility: Utility, game: Sequence[int], seat: int) -> float:
    value = utility(game[0], game[1])
    return value if seat == 0 else -value


def applies(state: State) -> bool:
    rnd = state.round
    return (
        state.n_seats == 2
        and state.phase in (LEAD, FOLLOW)
        and rnd is not None
        and not stock_open(rnd)
        and not state.options.meld_after_close
        and rnd.turn_meld is None
    )


def action_of(move: Move) -> Action:
    return {"type": "declare_out"} if move == DECLARE else {"type": "play", "card": move[0]}


def summary(tricks: Sequence[Trick]) -> Score:
    """What the score depends on, besides the cards still to play: points and tricks per seat, and
    the last trick's winner."""
    points, won = [0, 0], [0, 0]
    for t in tricks:
        points[t.winner] += t.points
        won[t.winner] += 1
    return tuple(points), tuple(won), (tricks[-1].winner if tricks else None)


class Solver:
    """`Solver(state)` for an engine state; `rules` and `start` let a playout solve its own positions:
    rules is anything with the engine round's melds, closer, tricks_at_close and totals_at_close,
    start is (hands, seat to play, open trick as ((seat, card), ...), summary)."""

    def __init__(
        self, state: State, utility: Utility = difference, rules: Closing | None = None, start: Start | None = None
    ):
        rnd = state.round
        assert rnd is not None
        self.options, self.rules = state.options, rules or rnd
        self.trump = rnd.trump_suit
        self.utility = utility
        self.start: Start = start or (
            rnd.hands,
            rnd.to_play,
            tuple((p.seat, p.card) for p in rnd.trick),
            summary(rnd.tricks),
        )
        # position (without the last winner) -> the bounds proven on its value
        self.memo: dict[tuple[Hands, int, OpenTrick, tuple[tuple[int, ...], tuple[int, ...]]], tuple[float, float]] = {}
        self.leaves: dict[tuple[Score, int | None, int], float] = {}  # (score, declarer, seat) -> value

    def root_values(self) -> dict[Move, float]:
        """Each legal move of the seat to act, with its exact value for that seat."""
        return {move: self._after(move, *self.start, -INF, INF) for move in self._moves(*self.start[:3])}

    def best(self) -> float:
        return self._value(*self.start, -INF, INF)

    def _moves(self, hands: Hands, to_play: int, trick: OpenTrick) -> list[Move]:
        hand = hands[to_play]
        if not trick:
            return [DECLARE] + [(c,) for c in sorted(set(hand))]
        allowed = follow_options(hand, [c for _, c in trick], self.trump, strict=True)
        return [(c,) for c in sorted(set(allowed))]

    def _value(self, hands: Hands, to_play: int, trick: OpenTrick, score: Score, alpha: float, beta: float) -> float:
        """Negamax with alpha-beta: exact when the value lies inside (alpha, beta), else a bound on
        the right side of the window. The memo keeps the bounds proven so far for each position."""
        if not any(hands):
            return self._leaf(score, to_play, declarer=None)
        key = (hands, to_play, trick, score[:2])
        low, high = self.memo.get(key, (-INF, INF))
        if low >= beta or low == high:
            return low
        if high <= alpha:
            return high
        lo, hi = max(alpha, low), min(beta, high)
        best = -INF
        for move in self._moves(hands, to_play, trick):
            best = max(best, self._after(move, hands, to_play, trick, score, max(lo, best), hi))
            if best >= hi:
                break
        if best <= lo:
            high = best  # failed low: only an upper bound
        elif best >= hi:
            low = best  # failed high: only a lower bound
        else:
            low = high = best
        self.memo[key] = (low, high)
        return best

    def _after(
        self, move: Move, hands: Hands, to_play: int, trick: OpenTrick, score: Score, alpha: float, beta: float
    ) -> float:
        """The value for `to_play` of making `move` (a bound outside (alpha, beta))."""
        if move == DECLARE:
            return self._leaf(score, to_play, declarer=to_play)
        card = move[0]
        hand = list(hands[to_play])
        hand.remove(card)
        hands = (tuple(hand), hands[1]) if to_play == 0 else (hands[0], tuple(hand))
        trick = trick + ((to_play, card),)
        if len(trick) < 2:
            return -self._value(hands, 1 - to_play, trick, score, -beta, -alpha)
        winner = trick[cards.winning_index([c for _, c in trick], self.trump, RANK_ORDER)][0]
        gained = sum(CARD_POINTS[cards.rank_of(c)] for _, c in trick)
        points, won = list(score[0]), list(score[1])
        points[winner] += gained
        won[winner] += 1
        after: Score = (tuple(points), tuple(won), winner)
        if winner == to_play:
            return self._value(hands, winner, (), after, alpha, beta)
        return -self._value(hands, winner, (), after, -beta, -alpha)

    def _leaf(self, score: Score, seat: int, declarer: int | None) -> float:
        key = (score, declarer, seat)
        if key not in self.leaves:
            game = deal_points(self.rules, self.options, *score, declarer)
            self.leaves[key] = value_for(self.utility, game, seat)
        return self.leaves[key]


def deal_points(
    rnd: Closing, opts: Options, points: Sequence[int], won: Sequence[int], last: int | None, declarer: int | None
) -> tuple[int, int]:
    """RULES §2.9 for two seats, as scoring.round_result computes it (the solver check holds them
    equal). `rnd` gives the melds, the closer and what was counted at closing."""
    target, half = opts.spec.target, opts.schneider_threshold
    melds = [0, 0]
    for m in rnd.melds:
        melds[m.seat] += m.points if won[m.seat] else 0
    totals = [points[s] + melds[s] for s in (0, 1)]
    if declarer is None and rnd.closer is None and last is not None and opts.last_trick_rule == "plus10":
        totals[last] += 10
    closer = rnd.closer
    tricks_then, totals_then = rnd.tricks_at_close, rnd.totals_at_close  # set once the stock is closed

    def wins(side: int) -> tuple[int, int]:
        o = 1 - side
        if closer == side and opts.closed_scoring == "at_closing":
            assert tricks_then is not None and totals_then is not None
            g = win_scale(tricks_then[o], totals_then[o], half)
        else:
            g = win_scale(won[o], totals[o], half)
        return _to(side, g)

    if declarer is not None:
        d, o = declarer, 1 - declarer
        if totals[d] >= target and closer in (None, d):
            return wins(d)
        if totals[d] >= target:  # the other seat closed
            assert tricks_then is not None
            return _to(d, two_or_three(tricks_then[d]))
        if closer == d:
            assert tricks_then is not None
            return _to(o, two_or_three(tricks_then[o]))
        if opts.false_declaration == "mirror":
            return _to(o, win_scale(won[o], totals[o], half))
        return _to(o, two_or_three(won[o]))
    assert last is not None  # nobody declared: the deal was played out, so its last trick has a winner
    if closer is not None:
        if last == closer and totals[closer] >= target:
            return wins(closer)
        assert tricks_then is not None
        return _to(1 - closer, two_or_three(tricks_then[1 - closer]))
    if opts.last_trick_rule == "last_trick_wins_one_point":
        return _to(last, 1)
    if totals[0] == totals[1]:
        return 0, 0
    w = 0 if totals[0] > totals[1] else 1
    return _to(w, win_scale(won[1 - w], totals[1 - w], half))


def _to(side: int, points: int) -> tuple[int, int]:
    return (points, 0) if side == 0 else (0, points)


def solve(state: State) -> dict[str, float]:
    """Exact values of the legal moves at `state` for the seat to act, keyed like the API's actions
    (whole numbers: the difference of the two seats' game points)."""
    from games.bots import action_key

    return {action_key(action_of(m)): v for m, v in Solver(state).root_values().items()}
