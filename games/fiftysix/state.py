"""The immutable state of a Fifty-Six match, and its JSON round trip for snapshots.

Seats are fixed for the whole match (RULES §1.9 "the remaining seats keep their order"): a seat of an
eliminated team stays in every per-seat tuple with an empty hand and is skipped by `next_active`.
Per-team numbers are tuples indexed like `State.teams` (team order = seat order of first members).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import overload

from games.engine import OptionDict, Snapshot
from games.fiftysix.events import ContractData, ResultData
from games.fiftysix.options import Options, teams_for
from games.records import replace
from games.tricks import Play, Trick, dump_plays, dump_trick, load_plays, load_trick

# Phases (what the game waits for). See legal.py for the actions each allows.
AWAIT_DEAL = "await_deal"  # the system deals (before the first deal, after a scored or thrown-in deal)
AUCTION = "auction"  # the seat to act calls: bid, pass, double, redouble
PLAY = "play"  # the seat to act plays a card
ROUND_OVER = "round_over"  # all tricks played: the system scores the deal
MATCH_OVER = "match_over"

DOUBLING = ("none", "doubled", "redoubled")  # index = level (0, 1, 2)


@dataclass(frozen=True)
class Call:
    """One entry of the bidding history. `call` is bid / pass / double / redouble."""

    seat: int
    call: str
    value: int | None = None
    suit: str | None = None  # S H D C or NT, bids only
    convention: str | None = None  # talk to the partner; no rules effect (RULES §1.5)


@dataclass(frozen=True)
class Contract:
    declarer: int
    value: int
    suit: str  # S H D C or NT; the trump suit unless NT
    level: int  # 0 undoubled, 1 doubled, 2 redoubled
    all_pass: bool = False  # RULES §1.5: nobody bid, 28 NT for the team of dealer+1

    @property
    def trump(self) -> str | None:
        return None if self.suit == "NT" else self.suit


@dataclass(frozen=True)
class Round:
    number: int
    dealer: int
    active: tuple[int, ...]  # seats dealt in, in seat order
    hands: tuple[tuple[str, ...], ...]  # per seat; () for eliminated seats
    to_play: int
    calls: tuple[Call, ...] = ()
    high_bid: Call | None = None  # the standing bid (a Call with call == "bid")
    level: int = 0  # doubling of the standing bid
    pass_count: int = 0  # passes in a row since the last bid or double
    last_caller: int | None = None  # who made the last bid or double (pass_is_final ends on them)
    passed: frozenset[int] = frozenset()  # seats out of the auction (pass_is_final only)
    contract: Contract | None = None
    leader: int | None = None
    trick: tuple[Play, ...] = ()
    tricks: tuple[Trick, ...] = ()


@dataclass(frozen=True)
class Payment:
    payer: int  # team index
    payee: int
    owed: int
    paid: int  # less than owed when the payer ran out (RULES §1.8 short payment)


@dataclass(frozen=True)
class RoundResult:
    """What `round_scored` reports; kept in the state as `last_result` until the next scoring."""

    round: int
    contract: Contract
    contract_team: int
    made: bool
    card_points: tuple[int, ...]  # per team (eliminated teams 0)
    base: int  # tables per team from the band (won if made, lost if failed)
    multiplier: str  # "x1" "x2" "x4" or "+0" "+1" "+2"
    per_team: int  # tables owed to / by each other team before short payment
    payments: tuple[Payment, ...]
    tables: tuple[int, ...]  # per team after this deal
    eliminated: tuple[int, ...]  # teams that reached 0 with this deal
    reason: str
    next_dealer: int


@dataclass(frozen=True)
class State:
    options: Options
    n_seats: int
    teams: tuple[tuple[int, ...], ...]
    tables: tuple[int, ...]
    phase: str
    dealer: int  # dealer of the current deal, or of the next one while AWAIT_DEAL
    rounds_dealt: int = 0
    round: Round | None = None
    last_result: RoundResult | None = None
    winner: int | None = None  # team index once the match is over


def new_state(options: OptionDict, n_seats: int, first_dealer: int) -> State:
    opts = Options.from_dict(options)
    teams = teams_for(n_seats, opts.team_format)
    return State(opts, n_seats, teams, (opts.starting_tables,) * len(teams), AWAIT_DEAL, first_dealer)


# --- derived facts ----------------------------------------------------------------------------------


def team_of(state: State, seat: int) -> int:
    return next(i for i, team in enumerate(state.teams) if seat in team)


def same_team(state: State, a: int, b: int) -> bool:
    return team_of(state, a) == team_of(state, b)


def active_seats(state: State) -> tuple[int, ...]:
    """Seats whose team still has tables (RULES §1.9), in seat order."""
    return tuple(s for s in range(state.n_seats) if state.tables[team_of(state, s)] > 0)


def next_active(state: State, seat: int, active: tuple[int, ...]) -> int:
    """The next seat after `seat` in play order that is in `active` (RULES §0.2, §1.11a.4)."""
    n = state.n_seats
    return next((seat + k) % n for k in range(1, n + 1) if (seat + k) % n in active)


def card_points(state: State, rnd: Round) -> tuple[int, ...]:
    points = [0] * len(state.teams)
    for trick in rnd.tricks:
        points[team_of(state, trick.winner)] += trick.points
    return tuple(points)


def with_round(state: State, **changes: object) -> State:
    assert state.round is not None
    return replace(state, round=replace(state.round, **changes))


# --- snapshots --------------------------------------------------------------------------------------
# The functions of a record that may be missing (the standing bid, the contract) say by overloads that
# they give None exactly for None.


@overload
def _call(c: Call) -> Snapshot: ...
@overload
def _call(c: None) -> None: ...
def _call(c: Call | None) -> Snapshot | None:
    return (
        None
        if c is None
        else {"seat": c.seat, "call": c.call, "value": c.value, "suit": c.suit, "convention": c.convention}
    )


@overload
def _load_call(d: Snapshot) -> Call: ...
@overload
def _load_call(d: None) -> None: ...
def _load_call(d: Snapshot | None) -> Call | None:
    return None if d is None else Call(d["seat"], d["call"], d["value"], d["suit"], d["convention"])


@overload
def dump_contract(c: Contract) -> ContractData: ...
@overload
def dump_contract(c: Contract | None) -> ContractData | None: ...
def dump_contract(c: Contract | None) -> ContractData | None:
    return (
        None
        if c is None
        else {
            "declarer": c.declarer,
            "value": c.value,
            "suit": c.suit,
            "doubled": c.level == 1,
            "redoubled": c.level == 2,
            "level": DOUBLING[c.level],
            "all_pass": c.all_pass,
        }
    )


@overload
def load_contract(d: ContractData) -> Contract: ...
@overload
def load_contract(d: ContractData | None) -> Contract | None: ...
def load_contract(d: ContractData | None) -> Contract | None:
    return (
        None if d is None else Contract(d["declarer"], d["value"], d["suit"], DOUBLING.index(d["level"]), d["all_pass"])
    )


def _dump_round(r: Round) -> Snapshot:
    return {
        "number": r.number,
        "dealer": r.dealer,
        "active": list(r.active),
        "hands": [list(h) for h in r.hands],
        "to_play": r.to_play,
        "calls": [_call(c) for c in r.calls],
        "high_bid": _call(r.high_bid),
        "level": r.level,
        "pass_count": r.pass_count,
        "last_caller": r.last_caller,
        "passed": sorted(r.passed),
        "contract": dump_contract(r.contract),
        "leader": r.leader,
        "trick": dump_plays(r.trick),
        "tricks": [dump_trick(t) for t in r.tricks],
    }


def _load_round(d: Snapshot) -> Round:
    return Round(
        number=d["number"],
        dealer=d["dealer"],
        active=tuple(d["active"]),
        hands=tuple(tuple(h) for h in d["hands"]),
        to_play=d["to_play"],
        calls=tuple(_load_call(c) for c in d["calls"]),
        high_bid=_load_call(d["high_bid"]),
        level=d["level"],
        pass_count=d["pass_count"],
        last_caller=d["last_caller"],
        passed=frozenset(d["passed"]),
        contract=load_contract(d["contract"]),
        leader=d["leader"],
        trick=load_plays(d["trick"]),
        tricks=tuple(load_trick(t) for t in d["tricks"]),
    )


def dump_result(r: RoundResult) -> ResultData:
    return {
        "round": r.round,
        "contract": dump_contract(r.contract),
        "contract_team": r.contract_team,
        "made": r.made,
        "card_points": list(r.card_points),
        "base": r.base,
        "multiplier": r.multiplier,
        "per_team": r.per_team,
        "payments": [{"payer": p.payer, "payee": p.payee, "owed": p.owed, "paid": p.paid} for p in r.payments],
        "tables": list(r.tables),
        "eliminated": list(r.eliminated),
        "reason": r.reason,
        "next_dealer": r.next_dealer,
    }


def load_result(d: ResultData) -> RoundResult:
    return RoundResult(
        round=d["round"],
        contract=load_contract(d["contract"]),
        contract_team=d["contract_team"],
        made=d["made"],
        card_points=tuple(d["card_points"]),
        base=d["base"],
        multiplier=d["multiplier"],
        per_team=d["per_team"],
        payments=tuple(Payment(**p) for p in d["payments"]),
        tables=tuple(d["tables"]),
        eliminated=tuple(d["eliminated"]),
        reason=d["reason"],
        next_dealer=d["next_dealer"],
    )


def dump_state(state: State) -> Snapshot:
    return {
        "options": state.options.as_dict(),
        "n_seats": state.n_seats,
        "teams": [list(t) for t in state.teams],
        "tables": list(state.tables),
        "phase": state.phase,
        "dealer": state.dealer,
        "rounds_dealt": state.rounds_dealt,
        "round": _dump_round(state.round) if state.round else None,
        "last_result": dump_result(state.last_result) if state.last_result else None,
        "winner": state.winner,
    }


def load_state(d: Snapshot) -> State:
    return State(
        options=Options.from_dict(d["options"]),
        n_seats=d["n_seats"],
        teams=tuple(tuple(t) for t in d["teams"]),
        tables=tuple(d["tables"]),
        phase=d["phase"],
        dealer=d["dealer"],
        rounds_dealt=d["rounds_dealt"],
        round=_load_round(d["round"]) if d["round"] else None,
        last_result=load_result(d["last_result"]) if d["last_result"] else None,
        winner=d["winner"],
    )
