"""The immutable state of a Sixty-Six match, and its JSON round trip for snapshots.

Shaped for N seats in play order and for sides (a side is a tuple of seats: one seat each with two
or three players, the partnerships {0,2},{1,3} with four). Per-side numbers are tuples indexed like
`State.sides`. Hands are tuples that may hold two equal strings (two-deck games); `meld_used` keeps,
per seat, the cards of the hand already used in a marriage, so a K or Q counts in one marriage only.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from games.engine import OptionDict, Snapshot
from games.records import replace
from games.sixtysix.events import ResultData
from games.sixtysix.options import Options
from games.tricks import Play, Trick, dump_plays, load_plays

# Phases (what the game waits for). See legal.py for the actions each allows.
AWAIT_DEAL = "await_deal"  # the system deals (before the first deal and after a scored round)
LEAD = "lead"  # the leader may exchange, meld, close, declare out, then must play
FOLLOW = "follow"  # the next seat plays to the trick
AFTER_TRICK = "after_trick"  # stock open: the trick winner draws, closes or declares out
ROUND_OVER = "round_over"  # declared out or all cards played: the system scores the round
MATCH_OVER = "match_over"


@dataclass(frozen=True)
class Meld:
    seat: int
    suit: str
    points: int


@dataclass(frozen=True)
class Round:
    number: int
    dealer: int
    trump_suit: str
    trump_card: str | None  # the card under the stock (face up unless closed); None once drawn
    stock: tuple[str, ...]  # face-down stock, top first, without the trump card
    hands: tuple[tuple[str, ...], ...]
    leader: int
    to_play: int
    trick: tuple[Play, ...] = ()
    tricks: tuple[Trick, ...] = ()
    melds: tuple[Meld, ...] = ()
    meld_used: tuple[tuple[str, ...], ...] = ()
    turn_meld: str | None = None  # suit melded at this lead: the lead must be its K or Q
    closer: int | None = None
    tricks_at_close: tuple[int, ...] | None = None  # per side
    totals_at_close: tuple[int, ...] | None = None  # per side, for closed_scoring=at_closing
    declarer: int | None = None
    dead: tuple[str, ...] = ()  # 3p: the two cards set aside face down, out of play (never shown)
    turned_card: str | None = None  # pagat 3p: the card dealt face up into dealer+1's hand (public)


@dataclass(frozen=True)
class RoundResult:
    """What `round_scored` reports; kept in the state as `last_result` until the next scoring replaces it."""

    round: int
    case: str  # A1 A2 B1 B2 C1 C2 (RULES §2.9)
    reason: str
    declarer: int | None
    closer: int | None
    card_points: tuple[int, ...]  # per side
    meld_points: tuple[int, ...]  # active marriages only
    last_trick_points: tuple[int, ...]
    totals: tuple[int, ...]
    tricks: tuple[int, ...]
    game_points: tuple[int, ...]  # by §2.9, 0..3 each
    bonus_points: tuple[int, ...]  # draw_bonus paid out with this deal
    scores: tuple[int, ...]  # match standing after this deal
    next_dealer: int


@dataclass(frozen=True)
class State:
    options: Options
    n_seats: int
    sides: tuple[tuple[int, ...], ...]
    scores: tuple[int, ...]
    phase: str
    dealer: int  # dealer of the current round, or of the next deal while AWAIT_DEAL
    rounds_dealt: int = 0
    round: Round | None = None
    last_result: RoundResult | None = None
    draw_bonus: int = 0  # game points the winner of the next decided deal gets extra
    winner: int | None = None  # side index once the match is over


def new_state(options: OptionDict, n_seats: int, first_dealer: int) -> State:
    opts = Options.from_dict(options)
    if opts.spec.partnerships:
        sides = tuple(tuple(range(first, n_seats, 2)) for first in range(2))  # {0,2}, {1,3}
    else:
        sides = tuple((seat,) for seat in range(n_seats))
    return State(opts, n_seats, sides, (0,) * len(sides), AWAIT_DEAL, first_dealer)


# --- derived facts ----------------------------------------------------------------------------------


def side_of(state: State, seat: int) -> int:
    return _side_index(state.sides)[seat]


@lru_cache(maxsize=64)  # views and scoring ask it for every trick and meld; a match has one `sides`
def _side_index(sides: tuple[tuple[int, ...], ...]) -> tuple[int, ...]:
    """The side of each seat, by seat."""
    return tuple(
        next(i for i, side in enumerate(sides) if seat in side) for seat in range(sum(len(side) for side in sides))
    )


def stock_size(rnd: Round) -> int:
    """Cards left in the stock, the trump card under it included (dead cards once closed)."""
    return len(rnd.stock) + (rnd.trump_card is not None)


def stock_open(rnd: Round) -> bool:
    """Phase 1 (RULES §2.3): not closed and not exhausted."""
    return rnd.closer is None and stock_size(rnd) > 0


def face_up_card(rnd: Round) -> str | None:
    return rnd.trump_card if rnd.closer is None else None


def tricks_won(state: State, rnd: Round) -> tuple[int, ...]:
    counts = [0] * len(state.sides)
    for trick in rnd.tricks:
        counts[side_of(state, trick.winner)] += 1
    return tuple(counts)


def card_points(state: State, rnd: Round) -> tuple[int, ...]:
    points = [0] * len(state.sides)
    for trick in rnd.tricks:
        points[side_of(state, trick.winner)] += trick.points
    return tuple(points)


def meld_points(state: State, rnd: Round) -> tuple[int, ...]:
    """Active marriage points per side: a marriage counts once its side has won a trick (§2.5)."""
    tricks = tricks_won(state, rnd)
    points = [0] * len(state.sides)
    for meld in rnd.melds:
        side = side_of(state, meld.seat)
        if tricks[side]:
            points[side] += meld.points
    return tuple(points)


def running_totals(state: State, rnd: Round) -> tuple[int, ...]:
    """Card points plus active marriages, without any last-trick bonus."""
    return tuple(c + m for c, m in zip(card_points(state, rnd), meld_points(state, rnd)))


def with_round(state: State, **changes: object) -> State:
    assert state.round is not None
    return replace(state, round=replace(state.round, **changes))


# --- snapshots --------------------------------------------------------------------------------------


def dump_state(state: State) -> Snapshot:
    return {
        "options": state.options.as_dict(),
        "n_seats": state.n_seats,
        "sides": [list(side) for side in state.sides],
        "scores": list(state.scores),
        "phase": state.phase,
        "dealer": state.dealer,
        "rounds_dealt": state.rounds_dealt,
        "round": _dump_round(state.round) if state.round else None,
        "last_result": dump_result(state.last_result) if state.last_result else None,
        "draw_bonus": state.draw_bonus,
        "winner": state.winner,
    }


def load_state(data: Snapshot) -> State:
    return State(
        options=Options.from_dict(data["options"]),
        n_seats=data["n_seats"],
        sides=tuple(tuple(side) for side in data["sides"]),
        scores=tuple(data["scores"]),
        phase=data["phase"],
        dealer=data["dealer"],
        rounds_dealt=data["rounds_dealt"],
        round=_load_round(data["round"]) if data["round"] else None,
        last_result=load_result(data["last_result"]) if data["last_result"] else None,
        draw_bonus=data["draw_bonus"],
        winner=data["winner"],
    )


def _opt_tuple(value: Iterable[int] | None) -> tuple[int, ...] | None:
    return None if value is None else tuple(value)


def _dump_round(rnd: Round) -> Snapshot:
    return {
        "number": rnd.number,
        "dealer": rnd.dealer,
        "trump_suit": rnd.trump_suit,
        "trump_card": rnd.trump_card,
        "stock": list(rnd.stock),
        "hands": [list(h) for h in rnd.hands],
        "leader": rnd.leader,
        "to_play": rnd.to_play,
        "trick": dump_plays(rnd.trick),
        "tricks": [
            {"leader": t.leader, "plays": dump_plays(t.plays), "winner": t.winner, "points": t.points}
            for t in rnd.tricks
        ],
        "melds": [{"seat": m.seat, "suit": m.suit, "points": m.points} for m in rnd.melds],
        "meld_used": [list(u) for u in rnd.meld_used],
        "turn_meld": rnd.turn_meld,
        "closer": rnd.closer,
        "tricks_at_close": None if rnd.tricks_at_close is None else list(rnd.tricks_at_close),
        "totals_at_close": None if rnd.totals_at_close is None else list(rnd.totals_at_close),
        "declarer": rnd.declarer,
        "dead": list(rnd.dead),
        "turned_card": rnd.turned_card,
    }


def _load_round(d: Snapshot) -> Round:
    return Round(
        number=d["number"],
        dealer=d["dealer"],
        trump_suit=d["trump_suit"],
        trump_card=d["trump_card"],
        stock=tuple(d["stock"]),
        hands=tuple(tuple(h) for h in d["hands"]),
        leader=d["leader"],
        to_play=d["to_play"],
        trick=load_plays(d["trick"]),
        tricks=tuple(Trick(t["leader"], load_plays(t["plays"]), t["winner"], t["points"]) for t in d["tricks"]),
        melds=tuple(Meld(m["seat"], m["suit"], m["points"]) for m in d["melds"]),
        meld_used=tuple(tuple(u) for u in d["meld_used"]),
        turn_meld=d["turn_meld"],
        closer=d["closer"],
        tricks_at_close=_opt_tuple(d["tricks_at_close"]),
        totals_at_close=_opt_tuple(d["totals_at_close"]),
        declarer=d["declarer"],
        dead=tuple(d.get("dead", ())),
        turned_card=d.get("turned_card"),
    )


def dump_result(r: RoundResult) -> ResultData:
    """The result as JSON, its keys in the order of RoundResult's fields (the events keep that order)."""
    return {
        "round": r.round,
        "case": r.case,
        "reason": r.reason,
        "declarer": r.declarer,
        "closer": r.closer,
        "card_points": list(r.card_points),
        "meld_points": list(r.meld_points),
        "last_trick_points": list(r.last_trick_points),
        "totals": list(r.totals),
        "tricks": list(r.tricks),
        "game_points": list(r.game_points),
        "bonus_points": list(r.bonus_points),
        "scores": list(r.scores),
        "next_dealer": r.next_dealer,
    }


def load_result(d: ResultData) -> RoundResult:
    """The result back from `dump_result`'s data (or `round_scored`'s, whose standing it leaves)."""
    return RoundResult(
        round=d["round"],
        case=d["case"],
        reason=d["reason"],
        declarer=d["declarer"],
        closer=d["closer"],
        card_points=tuple(d["card_points"]),
        meld_points=tuple(d["meld_points"]),
        last_trick_points=tuple(d["last_trick_points"]),
        totals=tuple(d["totals"]),
        tricks=tuple(d["tricks"]),
        game_points=tuple(d["game_points"]),
        bonus_points=tuple(d["bonus_points"]),
        scores=tuple(d["scores"]),
        next_dealer=d["next_dealer"],
    )
