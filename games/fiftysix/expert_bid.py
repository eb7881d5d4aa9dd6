"""The expert's calls: each candidate call is tried in sampled worlds, the auction finished by basic
bidders, and the deal played out (expert_sim); a call is worth the tables it brings on average.

So a bid is valued by how often its contract makes and what failing costs, a pass by what the others
then bid (or the 28 NT all-pass contract), a double by how often the opponents' contract fails.
Only a handful of calls are tried: pass, double, redouble, and the cheapest bid in the hand's two best
denominations (by the basic bidder's worth), plus one raise of two in the best. The call itself goes
through the engine (decide/evolve); the rest of the auction is finished fast (expert_auction).
"""

from __future__ import annotations

from games.engine import Action, View
from games.fiftysix.evolve import evolve
from games.fiftysix.expert_auction import finish, play_state
from games.fiftysix.expert_hand import Model, tricks
from games.fiftysix.expert_sim import Deal
from games.fiftysix.legal import DENOMINATIONS, MAX_BID
from games.fiftysix.rules import decide
from games.fiftysix.state import State, team_of


def candidates(view: View) -> list[Action]:
    """The calls worth trying: every non-bid call, and a few bids. Over the own team's bid only the
    cheapest, to give "bid" a value (`may_bid` forbids choosing it)."""
    legal: list[Action] = view["legal_actions"]
    out = [a for a in legal if a["type"] != "bid"]
    bids = [a for a in legal if a["type"] == "bid"]
    if not bids:
        return out
    lowest = min(a["value"] for a in bids)
    ranked = _denominations(view)
    if not may_bid(view):
        return out + [{"type": "bid", "value": lowest, "suit": ranked[0]}]
    picks = [(lowest, ranked[0]), (lowest, ranked[1]), (lowest + 2, ranked[0])]
    for value, suit in picks:
        bid = {"type": "bid", "value": value, "suit": suit}
        if value <= MAX_BID and bid in bids and bid not in out:
            out.append(bid)
    return out


def may_bid(view: View) -> bool:
    """Not over the own team's bid: the simulated partner bids like a basic player, so the search
    overrates a takeover, and two experts would outbid each other for ever."""
    high = view["round"]["high_bid"]
    team: list[int] = next(t["seats"] for t in view["standing"] if view["seat"] in t["seats"])
    return high is None or high["seat"] not in team


def _denominations(view: View) -> list[str]:
    """Denominations from the best for this hand (basic bidder's worth) to the worst."""
    estimate = tricks(view["round"]["hand"])
    return sorted(DENOMINATIONS, key=lambda d: -estimate[d])


def apply(state: State, seat: int, action: Action) -> State:
    for event in decide(state, seat, action):
        state = evolve(state, event)
    return state


def call_value(world: State, me: int, call: Action, model: Model) -> float:
    """Tables my team gains when I make `call` in this world (through the engine), the others (and I,
    later) call as basic bidders, and the deal is played out."""
    state = apply(world, me, call)
    contract = finish(state, model)
    if contract is None:  # thrown in (all_pass_contract = redeal): nothing changes hands
        return 0.0
    deal = Deal.from_state(play_state(state, contract))
    deal.play_out()
    return deal.outcome(team_of(state, me))
