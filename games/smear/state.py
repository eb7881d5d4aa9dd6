"""The immutable state of a Smear match, and its JSON round trip for snapshots.

Teams are indexed 0 = seats {0,2}, 1 = seats {1,3} (RULES §3.1); per-team numbers are pairs in that
order. The widow (cards the bidder took) and the discards live in the round so that scoring can
count them; views decide who may see them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from games.engine import OptionDict, Snapshot
from games.records import replace
from games.smear.events import PointData, ResultData
from games.smear.options import SIDES, Options
from games.tricks import Play, dump_plays, load_plays

# Phases (what the game waits for). legal.py says which actions each allows.
AWAIT_DEAL = "await_deal"  # the system deals (first deal, after a scored deal, after a throw-in)
AUCTION = "auction"  # the next seat bids or passes
DISCARD = "discard"  # the bidder discards the widow's worth and names trump (widow_size > 0)
PLAY = "play"  # the next seat plays a card
ROUND_OVER = "round_over"  # six tricks played: the system scores the deal
MATCH_OVER = "match_over"


@dataclass(frozen=True)
class Call:
    seat: int
    value: int | None  # None = pass


@dataclass(frozen=True)
class Trick:
    leader: int
    plays: tuple[Play, ...]
    winner: int


@dataclass(frozen=True)
class Round:
    number: int
    dealer: int
    hands: tuple[tuple[str, ...], ...]
    undealt: tuple[str, ...]  # top first; the widow is taken from the top
    to_play: int
    calls: tuple[Call, ...] = ()
    bidder: int | None = None
    bid: int | None = None
    widow: tuple[str, ...] = ()  # what the bidder took (hidden from the others)
    discards: tuple[str, ...] = ()  # what the bidder put away (hidden from the others)
    named_trump: str | None = None  # named at discard, hidden until the first lead
    trump: str | None = None  # public: the suit of the first card led
    leader: int | None = None
    trick: tuple[Play, ...] = ()
    tricks: tuple[Trick, ...] = ()


@dataclass(frozen=True)
class Point:
    """One of High, Low, Jack, Game for one deal: who got it (team None = not awarded) and why."""

    point: str  # high | low | jack | game
    team: int | None
    seat: int | None  # the player credited, where the rule credits a player
    card: str | None
    why: str


@dataclass(frozen=True)
class RoundResult:
    """What `round_scored` reports; kept in the state as `last_result` until the next scoring."""

    round: int
    dealer: int
    bidder: int
    bid: int
    bidding_team: int
    trump: str
    points: tuple[Point, ...]
    points_won: tuple[int, int]  # per team, 0..4 together
    game_counts: tuple[int, int]  # tricks won, plus the discards for the bidding team
    made: bool
    deltas: tuple[int, int]  # what each team's score moved by (after any cap)
    capped: tuple[bool, bool]  # whether cap_non_bidder_at_15 cut the team's gain
    scores: tuple[int, int]
    next_dealer: int


@dataclass(frozen=True)
class State:
    options: Options
    scores: tuple[int, int]
    phase: str
    dealer: int  # dealer of the current round, or of the next deal while AWAIT_DEAL
    rounds_dealt: int = 0
    round: Round | None = None
    last_result: RoundResult | None = None
    winner: int | None = None  # team index once the match is over

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        return SIDES


def new_state(options: OptionDict, n_seats: int, first_dealer: int) -> State:
    return State(Options.from_dict(options), (0, 0), AWAIT_DEAL, first_dealer)


# --- derived facts ----------------------------------------------------------------------------------


def team_of(seat: int) -> int:
    return seat % 2


def with_round(state: State, **changes: object) -> State:
    assert state.round is not None
    return replace(state, round=replace(state.round, **changes))


X = TypeVar("X")


def pair(values: Sequence[X]) -> tuple[X, X]:
    """A per-team list as the pair it is (teams 0 and 1)."""
    first, second = values
    return first, second


def trick_cards(trick: Trick) -> list[str]:
    return [p.card for p in trick.plays]


# --- snapshots --------------------------------------------------------------------------------------


def dump_state(state: State) -> Snapshot:
    return {
        "options": state.options.as_dict(),
        "scores": list(state.scores),
        "phase": state.phase,
        "dealer": state.dealer,
        "rounds_dealt": state.rounds_dealt,
        "round": _dump_round(state.round) if state.round else None,
        "last_result": dump_result(state.last_result) if state.last_result else None,
        "winner": state.winner,
    }


def load_state(data: Snapshot) -> State:
    return State(
        options=Options.from_dict(data["options"]),
        scores=pair(data["scores"]),
        phase=data["phase"],
        dealer=data["dealer"],
        rounds_dealt=data["rounds_dealt"],
        round=_load_round(data["round"]) if data["round"] else None,
        last_result=load_result(data["last_result"]) if data["last_result"] else None,
        winner=data["winner"],
    )


def _dump_round(rnd: Round) -> Snapshot:
    return {
        "number": rnd.number,
        "dealer": rnd.dealer,
        "hands": [list(h) for h in rnd.hands],
        "undealt": list(rnd.undealt),
        "to_play": rnd.to_play,
        "calls": [{"seat": c.seat, "value": c.value} for c in rnd.calls],
        "bidder": rnd.bidder,
        "bid": rnd.bid,
        "widow": list(rnd.widow),
        "discards": list(rnd.discards),
        "named_trump": rnd.named_trump,
        "trump": rnd.trump,
        "leader": rnd.leader,
        "trick": dump_plays(rnd.trick),
        "tricks": [{"leader": t.leader, "plays": dump_plays(t.plays), "winner": t.winner} for t in rnd.tricks],
    }


def _load_round(d: Snapshot) -> Round:
    return Round(
        number=d["number"],
        dealer=d["dealer"],
        hands=tuple(tuple(h) for h in d["hands"]),
        undealt=tuple(d["undealt"]),
        to_play=d["to_play"],
        calls=tuple(Call(c["seat"], c["value"]) for c in d["calls"]),
        bidder=d["bidder"],
        bid=d["bid"],
        widow=tuple(d["widow"]),
        discards=tuple(d["discards"]),
        named_trump=d["named_trump"],
        trump=d["trump"],
        leader=d["leader"],
        trick=load_plays(d["trick"]),
        tricks=tuple(Trick(t["leader"], load_plays(t["plays"]), t["winner"]) for t in d["tricks"]),
    )


def dump_result(r: RoundResult) -> ResultData:
    """The result as JSON, its keys in the order of RoundResult's fields (the events keep that order)."""
    return {
        "round": r.round,
        "dealer": r.dealer,
        "bidder": r.bidder,
        "bid": r.bid,
        "bidding_team": r.bidding_team,
        "trump": r.trump,
        "points": [_dump_point(p) for p in r.points],
        "points_won": list(r.points_won),
        "game_counts": list(r.game_counts),
        "made": r.made,
        "deltas": list(r.deltas),
        "capped": list(r.capped),
        "scores": list(r.scores),
        "next_dealer": r.next_dealer,
    }


def _dump_point(p: Point) -> PointData:
    return {"point": p.point, "team": p.team, "seat": p.seat, "card": p.card, "why": p.why}


def load_result(d: ResultData) -> RoundResult:
    """The result back from `dump_result`'s data (or `round_scored`'s, whose standing it leaves)."""
    return RoundResult(
        round=d["round"],
        dealer=d["dealer"],
        bidder=d["bidder"],
        bid=d["bid"],
        bidding_team=d["bidding_team"],
        trump=d["trump"],
        points=tuple(Point(**p) for p in d["points"]),
        points_won=pair(d["points_won"]),
        game_counts=pair(d["game_counts"]),
        made=d["made"],
        deltas=pair(d["deltas"]),
        capped=pair(d["capped"]),
        scores=pair(d["scores"]),
        next_dealer=d["next_dealer"],
    )
