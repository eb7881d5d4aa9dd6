"""The end of a deal (RULES §2.9): totals, the case A1 … C2, game points, and the next dealer.

Pure functions of a state whose round has ended (declared out, or all cards played). Written for two
sides; `other` is the one place that assumes it.
"""
from __future__ import annotations

from dataclasses import dataclass

from games.sixtysix.state import (
    RoundResult, State, card_points, meld_points, side_of, tricks_won,
)


@dataclass(frozen=True)
class Outcome:
    case: str
    side: int | None  # the side that scores; None for a drawn deal
    points: int
    why: str


def other(side: int) -> int:
    return 1 - side


def win_scale(tricks: int, total: int, half: int) -> int:
    """Game points for beating a side with these tricks and total (RULES §2.9 win scale)."""
    if tricks == 0:
        return 3
    return 2 if total < half else 1


def last_trick_points(state: State) -> tuple[int, ...]:
    """+10 for the last trick of a deal played out with the stock exhausted (plus10 rule only)."""
    rnd = state.round
    points = [0] * len(state.sides)
    played_out = rnd.declarer is None and bool(rnd.tricks)
    if played_out and rnd.closer is None and state.options.last_trick_rule == "plus10":
        points[side_of(state, rnd.tricks[-1].winner)] = 10
    return tuple(points)


def round_result(state: State) -> RoundResult:
    rnd = state.round
    cards, melds, last = card_points(state, rnd), meld_points(state, rnd), last_trick_points(state)
    totals = tuple(c + m + b for c, m, b in zip(cards, melds, last))
    tricks = tricks_won(state, rnd)
    outcome = _outcome(state, totals, tricks)
    game = _per_side(state, outcome.side, outcome.points)
    bonus = _per_side(state, outcome.side, state.draw_bonus if outcome.side is not None else 0)
    scores = tuple(s + g + b for s, g, b in zip(state.scores, game, bonus))
    return RoundResult(
        round=rnd.number, case=outcome.case, reason=outcome.why, declarer=rnd.declarer,
        closer=rnd.closer, card_points=cards, meld_points=melds, last_trick_points=last,
        totals=totals, tricks=tricks, game_points=game, bonus_points=bonus, scores=scores,
        next_dealer=next_dealer(state, outcome.side),
    )


def _per_side(state: State, side: int | None, points: int) -> tuple[int, ...]:
    return tuple(points if i == side else 0 for i in range(len(state.sides)))


def _outcome(state: State, totals: tuple[int, ...], tricks: tuple[int, ...]) -> Outcome:
    rnd = state.round
    if rnd.declarer is not None:
        return _declared(state, side_of(state, rnd.declarer), totals, tricks)
    if rnd.closer is not None:
        return _closed_played_out(state, totals, tricks)
    return _exhausted_played_out(state, totals, tricks)


def _closer_wins(state: State, side: int, totals, tricks) -> int:
    """The win scale for a declarer who closed or never saw a close (A1)."""
    rnd, o, half = state.round, other(side), state.options.schneider_threshold
    by_closer = rnd.closer is not None and side_of(state, rnd.closer) == side
    if by_closer and state.options.closed_scoring == "at_closing":
        return win_scale(rnd.tricks_at_close[o], rnd.totals_at_close[o], half)
    return win_scale(tricks[o], totals[o], half)


def _declared(state: State, d: int, totals, tricks) -> Outcome:
    rnd, opts, o = state.round, state.options, other(d)
    closer = None if rnd.closer is None else side_of(state, rnd.closer)
    target = opts.spec.target
    said = f"seat {rnd.declarer} declared out with {totals[d]}"
    if totals[d] >= target and closer in (None, d):
        return Outcome("A1", d, _closer_wins(state, d, totals, tricks),
                       f"{said}; opponent has {tricks[o]} trick(s) and {totals[o]} points")
    if totals[d] >= target:
        none_then = rnd.tricks_at_close[d] == 0
        return Outcome("A2", d, 3 if none_then else 2,
                       f"{said} against the closer; {'no' if none_then else 'some'} tricks when the stock was closed")
    if closer == d:
        none_then = rnd.tricks_at_close[o] == 0
        return Outcome("B1", o, 3 if none_then else 2,
                       f"{said}, short of {target}, after closing; opponent had "
                       f"{'no' if none_then else 'some'} tricks at closing")
    if opts.false_declaration == "mirror":
        return Outcome("B2", o, win_scale(tricks[o], totals[o], opts.schneider_threshold),
                       f"{said}, short of {target}; opponent scores what the declarer would have (mirror)")
    return Outcome("B2", o, 3 if tricks[o] == 0 else 2,
                   f"{said}, short of {target}; opponent has {tricks[o]} trick(s)")


def _closed_played_out(state: State, totals, tricks) -> Outcome:
    rnd, target = state.round, state.options.spec.target
    c = side_of(state, rnd.closer)
    o = other(c)
    if side_of(state, rnd.tricks[-1].winner) == c and totals[c] >= target:
        return Outcome("C1", c, _closer_wins(state, c, totals, tricks),
                       f"closer seat {rnd.closer} took the last trick with {totals[c]}: counted as declared")
    none_then = rnd.tricks_at_close[o] == 0
    return Outcome("C1", o, 3 if none_then else 2,
                   f"closer seat {rnd.closer} failed with {totals[c]}; opponent had "
                   f"{'no' if none_then else 'some'} tricks at closing")


def _exhausted_played_out(state: State, totals, tricks) -> Outcome:
    rnd, opts = state.round, state.options
    last = side_of(state, rnd.tricks[-1].winner)
    if opts.last_trick_rule == "last_trick_wins_one_point":
        return Outcome("C2", last, 1, "all cards played: the last trick wins the deal")
    if totals[0] == totals[1]:
        return Outcome("C2", None, 0, f"all cards played, {totals[0]}-{totals[1]}: drawn deal")
    w = 0 if totals[0] > totals[1] else 1
    return Outcome("C2", w, win_scale(tricks[other(w)], totals[other(w)], opts.schneider_threshold),
                   f"all cards played, higher total {totals[w]} against {totals[other(w)]}")


def next_dealer(state: State, winner: int | None) -> int:
    """RULES §2.11 and §2.13a.7: a drawn deal passes the deal on under every rule."""
    rule, dealer, n = state.options.dealer_rule, state.round.dealer, state.n_seats
    if winner is None or rule == "alternate":
        return (dealer + 1) % n
    chosen = state.sides[winner] if rule == "winner_deals" else state.sides[other(winner)]
    return next((dealer + k) % n for k in range(n) if (dealer + k) % n in chosen)
