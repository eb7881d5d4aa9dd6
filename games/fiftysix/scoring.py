"""The end of a deal (RULES §1.8, §1.9): made or failed, the tables paid, elimination, the next dealer.

Pure functions of a state whose last trick has been taken. Tables only move between teams, so their
total never changes.
"""

from __future__ import annotations

from games.fiftysix.state import (
    DOUBLING,
    Contract,
    Payment,
    RoundResult,
    State,
    card_points,
    next_active,
    team_of,
)

# RULES §1.8: (lowest value, highest value, tables won if made, tables lost if failed)
BANDS = ((28, 39, 1, 2), (40, 47, 2, 3), (48, 55, 3, 4), (56, 56, 4, 5))
MULTIPLY = (1, 2, 4)  # undoubled, doubled, redoubled
ADD = (0, 1, 2)  # double_scoring = additive (56 International tournament rules)


def band(value: int, made: bool) -> int:
    won, lost = next((if_made, if_lost) for low, high, if_made, if_lost in BANDS if low <= value <= high)
    return won if made else lost


def stake(base: int, level: int, double_scoring: str) -> tuple[int, str]:
    """Tables per other team, and how the multiplier reads ("x4", "+2")."""
    if double_scoring == "additive":
        return base + ADD[level], f"+{ADD[level]}"
    return base * MULTIPLY[level], f"x{MULTIPLY[level]}"


def other_teams_in_order(state: State, declarer: int, active: tuple[int, ...]) -> list[int]:
    """Active teams other than the declarer's, in play order from the seat after the declarer (§1.8)."""
    order: list[int] = []
    seat = declarer
    for _ in range(len(active)):
        seat = next_active(state, seat, active)
        team = team_of(state, seat)
        if team != team_of(state, declarer) and team not in order:
            order.append(team)
    return order


def settle(tables: list[int], payer: int, payee: int, owed: int) -> Payment:
    """Short payment: a team that owes more than it has pays everything it has."""
    paid = min(owed, tables[payer])
    tables[payer] -= paid
    tables[payee] += paid
    return Payment(payer, payee, owed, paid)


def round_result(state: State) -> RoundResult:
    rnd = state.round
    assert rnd is not None and rnd.contract is not None  # a deal played out under its contract
    contract: Contract = rnd.contract
    team = team_of(state, contract.declarer)
    points = card_points(state, rnd)
    made = points[team] >= contract.value  # reaching the value exactly counts as made
    base = band(contract.value, made)
    per_team, multiplier = stake(base, contract.level, state.options.double_scoring)
    tables = list(state.tables)
    others = other_teams_in_order(state, contract.declarer, rnd.active)
    if made:
        payments = [settle(tables, other, team, per_team) for other in others]
    else:  # paid one at a time, each in full, until the contract team runs out
        payments = [settle(tables, team, other, per_team) for other in others]
    eliminated = tuple(t for t in range(len(tables)) if state.tables[t] > 0 and tables[t] == 0)
    still_in = tuple(s for s in range(state.n_seats) if tables[team_of(state, s)] > 0)
    return RoundResult(
        round=rnd.number,
        contract=contract,
        contract_team=team,
        made=made,
        card_points=points,
        base=base,
        multiplier=multiplier,
        per_team=per_team,
        payments=tuple(payments),
        tables=tuple(tables),
        eliminated=eliminated,
        reason=_reason(contract, points[team], made, base, multiplier, per_team, len(others)),
        next_dealer=next_active(state, rnd.dealer, still_in) if still_in else rnd.dealer,
    )


def _reason(contract: Contract, taken: int, made: bool, base: int, multiplier: str, per_team: int, others: int) -> str:
    doubling = "" if contract.level == 0 else f" {DOUBLING[contract.level]}"
    bid = f"{contract.value} {contract.suit}{doubling} by seat {contract.declarer}"
    if made:
        return f"{bid} made with {taken}: {base} table(s) {multiplier} = {per_team} from each of {others} other team(s)"
    return f"{bid} failed with {taken}: {base} table(s) {multiplier} = {per_team} to each of {others} other team(s)"
