"""The end of a deal (RULES §2.9, §2.10): totals, the case A1 … C2, game points, and the next dealer.

Pure functions of a state whose round has ended (declared out, or all cards played). Written for any
number of sides: two (2p, and the 4p partnerships) or three (3p, everyone for themselves). With three
sides every rule is applied to each opponent separately and added up (§2.9 header, §2.10): a win
scores against each opponent, and "the opponent scores 2/3" pays each other player by its own test.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from games.sixtysix.state import (
    Round,
    RoundResult,
    State,
    card_points,
    meld_points,
    side_of,
    tricks_won,
)

Points = tuple[int, ...]  # per side
PerOpponent = Callable[[int], int]  # side index -> game points


@dataclass(frozen=True)
class Outcome:
    case: str
    points: tuple[int, ...]  # game points per side by §2.9 (all zero for a drawn deal)
    why: str


def win_scale(tricks: int, total: int, half: int) -> int:
    """Game points for beating a side with these tricks and total (RULES §2.9 win scale)."""
    if tricks == 0:
        return 3
    return 2 if total < half else 1


def two_or_three(tricks: int) -> int:
    """What a side scores when the other side fails: 3 if it had no tricks (at the moment named)."""
    return 3 if tricks == 0 else 2


def last_trick_points(state: State) -> tuple[int, ...]:
    """+10 for the last trick of a deal played out with the stock exhausted (plus10 rule only)."""
    rnd = _ended(state)
    points = [0] * len(state.sides)
    played_out = rnd.declarer is None and bool(rnd.tricks)
    if played_out and rnd.closer is None and state.options.last_trick_rule == "plus10":
        points[side_of(state, rnd.tricks[-1].winner)] = 10
    return tuple(points)


def _ended(state: State) -> Round:
    """The deal being scored (the state of a match before its first deal has none)."""
    assert state.round is not None
    return state.round


def _at_close(rnd: Round) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Tricks and totals per side when the stock was closed: only read once it has been."""
    assert rnd.tricks_at_close is not None and rnd.totals_at_close is not None
    return rnd.tricks_at_close, rnd.totals_at_close


def round_result(state: State) -> RoundResult:
    rnd = _ended(state)
    cards, melds, last = card_points(state, rnd), meld_points(state, rnd), last_trick_points(state)
    totals = tuple(c + m + b for c, m, b in zip(cards, melds, last))
    tricks = tricks_won(state, rnd)
    outcome = _outcome(state, totals, tricks)
    game = outcome.points
    # draw_bonus: every side that scores in the first decided deal after a draw takes the bonus.
    bonus = tuple(state.draw_bonus if g else 0 for g in game)
    scores = tuple(s + g + b for s, g, b in zip(state.scores, game, bonus))
    return RoundResult(
        round=rnd.number,
        case=outcome.case,
        reason=outcome.why,
        declarer=rnd.declarer,
        closer=rnd.closer,
        card_points=cards,
        meld_points=melds,
        last_trick_points=last,
        totals=totals,
        tricks=tricks,
        game_points=game,
        bonus_points=bonus,
        scores=scores,
        next_dealer=next_dealer(state, game),
    )


def opponents(state: State, side: int) -> list[int]:
    return [i for i in range(len(state.sides)) if i != side]


def _winner_takes(state: State, side: int, per_opponent: PerOpponent) -> tuple[int, ...]:
    """`side` scores per_opponent(o) from each opponent o, added up."""
    total = sum(per_opponent(o) for o in opponents(state, side))
    return tuple(total if i == side else 0 for i in range(len(state.sides)))


def _each_opponent_takes(state: State, side: int, per_opponent: PerOpponent) -> tuple[int, ...]:
    """Every opponent o of `side` scores per_opponent(o)."""
    return tuple(0 if i == side else per_opponent(i) for i in range(len(state.sides)))


def _outcome(state: State, totals: tuple[int, ...], tricks: tuple[int, ...]) -> Outcome:
    rnd = _ended(state)
    if rnd.declarer is not None:
        return _declared(state, side_of(state, rnd.declarer), totals, tricks)
    if rnd.closer is not None:
        return _closed_played_out(state, totals, tricks)
    return _exhausted_played_out(state, totals, tricks)


def _closer_wins(state: State, side: int, totals: Points, tricks: Points) -> tuple[int, ...]:
    """The win scale against each opponent for a declarer who closed or never saw a close (A1)."""
    rnd, half = _ended(state), state.options.schneider_threshold
    by_closer = rnd.closer is not None and side_of(state, rnd.closer) == side
    if by_closer and state.options.closed_scoring == "at_closing":
        tricks_then, totals_then = _at_close(rnd)
        return _winner_takes(state, side, lambda o: win_scale(tricks_then[o], totals_then[o], half))
    return _winner_takes(state, side, lambda o: win_scale(tricks[o], totals[o], half))


def _declared(state: State, d: int, totals: Points, tricks: Points) -> Outcome:
    rnd, opts = _ended(state), state.options
    closer = None if rnd.closer is None else side_of(state, rnd.closer)
    target = opts.spec.target
    said = f"seat {rnd.declarer} declared out with {totals[d]}"
    if totals[d] >= target and closer in (None, d):
        return Outcome(
            "A1",
            _closer_wins(state, d, totals, tricks),
            f"{said}; opponents have {_list(tricks, d)} trick(s) and {_list(totals, d)} points",
        )
    if totals[d] >= target:  # another side closed
        tricks_then = _at_close(rnd)[0]
        none_then = tricks_then[d] == 0
        return Outcome(
            "A2",
            _winner_takes(state, d, lambda o: two_or_three(tricks_then[d])),
            f"{said} against the closer; {'no' if none_then else 'some'} tricks when the stock was closed",
        )
    if closer == d:
        tricks_then = _at_close(rnd)[0]
        return Outcome(
            "B1",
            _each_opponent_takes(state, d, lambda o: two_or_three(tricks_then[o])),
            f"{said}, short of {target}, after closing; opponents had {_list(tricks_then, d)} trick(s) at closing",
        )
    if opts.false_declaration == "mirror":
        half = opts.schneider_threshold
        return Outcome(
            "B2",
            _each_opponent_takes(state, d, lambda o: win_scale(tricks[o], totals[o], half)),
            f"{said}, short of {target}; each opponent scores what the declarer would have (mirror)",
        )
    return Outcome(
        "B2",
        _each_opponent_takes(state, d, lambda o: two_or_three(tricks[o])),
        f"{said}, short of {target}; opponents have {_list(tricks, d)} trick(s)",
    )


def _closed_played_out(state: State, totals: Points, tricks: Points) -> Outcome:
    rnd, target = _ended(state), state.options.spec.target
    assert rnd.closer is not None
    c = side_of(state, rnd.closer)
    if side_of(state, rnd.tricks[-1].winner) == c and totals[c] >= target:
        return Outcome(
            "C1",
            _closer_wins(state, c, totals, tricks),
            f"closer seat {rnd.closer} took the last trick with {totals[c]}: counted as declared",
        )
    tricks_then = _at_close(rnd)[0]
    return Outcome(
        "C1",
        _each_opponent_takes(state, c, lambda o: two_or_three(tricks_then[o])),
        f"closer seat {rnd.closer} failed with {totals[c]}; opponents had {_list(tricks_then, c)} trick(s) at closing",
    )


def _exhausted_played_out(state: State, totals: Points, tricks: Points) -> Outcome:
    rnd, opts = _ended(state), state.options
    last = side_of(state, rnd.tricks[-1].winner)
    if opts.last_trick_rule == "last_trick_wins_one_point":
        return Outcome("C2", _winner_takes(state, last, lambda o: 1), "all cards played: the last trick wins the deal")
    best = max(totals)
    if totals.count(best) > 1:  # 65-65, or a tie for the highest of three
        return Outcome("C2", (0,) * len(totals), f"all cards played, {'-'.join(map(str, totals))}: drawn deal")
    w = totals.index(best)
    half = opts.schneider_threshold
    return Outcome(
        "C2",
        _winner_takes(state, w, lambda o: win_scale(tricks[o], totals[o], half)),
        f"all cards played, higher total {best} against {_list(totals, w)}",
    )


def _list(values: Sequence[int], side: int) -> str:
    """The opponents' values, for the reason text: "14", or "14 and 30" with three players."""
    return " and ".join(str(v) for i, v in enumerate(values) if i != side)


def next_dealer(state: State, game_points: tuple[int, ...]) -> int:
    """RULES §2.11 and §2.13a.7: a drawn deal passes the deal on under every rule.

    `winner_deals` gives the deal to the scoring side, `loser_deals` to the side(s) that did not score;
    when that is a partnership or two players, the first of them from the current dealer on deals
    (so a dealer on that side keeps the deal).
    """
    rule, dealer, n = state.options.dealer_rule, _ended(state).dealer, state.n_seats
    if not any(game_points) or rule == "alternate":
        return (dealer + 1) % n
    scoring = rule == "winner_deals"
    chosen = {seat for side, g in zip(state.sides, game_points) if bool(g) == scoring for seat in side}
    return next((dealer + k) % n for k in range(n) if (dealer + k) % n in chosen)
