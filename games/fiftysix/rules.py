"""`decide(state, seat, action) -> events`: check an action, then say what happened.

Order of refusal: a malformed action -> ActionShapeError; a seat the game is not waiting for ->
NotYourTurn; a move the rules forbid -> RuleError (legal.py). Nothing here mutates: where one action
leads to several events (the call that ends the auction, the last card of a trick), the later ones are
worked out on states that `evolve` returns.
`decide` itself is games/engine.py's dispatch over this file's check_shape, SYSTEM and PLAYER.
"""

from __future__ import annotations

from collections import Counter

from games import cards
from games.engine import Action, OptionDict, decider
from games.errors import ActionShapeError, NotYourTurn
from games.events import MATCH_ENDED, PLAYED, ROUND_ENDED, TRICK_TAKEN, Event, Side
from games.fiftysix.events import AUCTION_ENDED, CALLED, DEALT, ROUND_SCORED, THROWN_IN, CalledData
from games.fiftysix.evolve import evolve
from games.fiftysix.legal import DENOMINATIONS, check
from games.fiftysix.options import BATCH, CARD_POINTS, RANK_ORDER, pack_for
from games.fiftysix.scoring import round_result
from games.fiftysix.state import (
    AWAIT_DEAL,
    ROUND_OVER,
    Contract,
    State,
    active_seats,
    dump_contract,
    dump_result,
    next_active,
)

# Bidding conventions (RULES §1.5): talk to the partner, shown to everyone, no rules effect.
CONVENTIONS = {
    "number_first": 'said number first, "28 diamonds"',
    "suit_first": 'said suit first, "diamonds 28"',
    "plus_one": "a raise of one over the standing bid",
    "plus_two": "a raise of two over the standing bid",
    "plus_three": "a raise of three over the standing bid",
    "plus_four": "a raise of four over the standing bid",
    "no": 'the informative "No": void in the suit bid last',
}
SHAPES = {  # action type -> (required fields, optional fields) besides "type"
    "bid": ({"value", "suit"}, {"convention"}),
    "pass": (set(), set()),
    "double": (set(), set()),
    "redouble": (set(), set()),
    "play": ({"card"}, set()),
    "deal": ({"deck"}, set()),
    "score_round": (set(), set()),
}


def check_shape(action: object) -> str:
    if not isinstance(action, dict) or action.get("type") not in SHAPES:
        raise ActionShapeError(f"unknown action; one of {', '.join(SHAPES)}")
    kind: str = action["type"]
    required, optional = SHAPES[kind]
    fields = set(action) - {"type"}
    if not required <= fields <= required | optional:
        raise ActionShapeError(
            f"{kind} takes the fields {sorted(required | {'type'})}"
            + (f" and optionally {sorted(optional)}" if optional else "")
        )
    if kind == "play" and not cards.is_card(action["card"]):
        raise ActionShapeError(f"not a card: {action['card']!r} (rank then suit, e.g. 'JS')")
    if kind == "bid":
        _check_bid_shape(action)
    return kind


def _check_bid_shape(action: Action) -> None:
    value = action["value"]
    if not isinstance(value, int) or isinstance(value, bool):
        raise ActionShapeError(f"a bid's value is a whole number, not {value!r}")
    if action["suit"] not in DENOMINATIONS:
        raise ActionShapeError(f"a bid's suit is one of {' '.join(DENOMINATIONS)}, not {action['suit']!r}")
    if "convention" in action and action["convention"] not in CONVENTIONS:
        raise ActionShapeError(f"unknown convention {action['convention']!r}; one of {', '.join(CONVENTIONS)}")


# --- system actions ---------------------------------------------------------------------------------


def deal_pack(options: OptionDict, state: State) -> list[str]:
    """The pack of the deal `state` awaits or is playing: that of the seats whose team holds tables
    (RULES §1.2, §1.9: 64 cards for eight, 48 for six or four). Tables change hands only when a deal is
    scored, so until then these are also the seats of the deal in play."""
    return pack_for(len(active_seats(state)))


def deal_cards(state: State, pack: list[str]) -> tuple[tuple[int, ...], list[list[str]]]:
    """RULES §1.4: the whole pack in batches of 4, in play order from dealer+1, active seats only."""
    active = active_seats(state)
    hands: list[list[str]] = [[] for _ in range(state.n_seats)]
    seat = state.dealer
    for start in range(0, len(pack), BATCH):
        seat = next_active(state, seat, active)
        hands[seat] += pack[start : start + BATCH]
    return active, hands


def deal(state: State, action: Action) -> list[Event]:
    if state.phase != AWAIT_DEAL:
        raise NotYourTurn("no deal is due now")
    pack, players = action["deck"], len(active_seats(state))
    expected = pack_for(players)
    if not isinstance(pack, list) or Counter(map(str, pack)) != Counter(expected):
        raise ActionShapeError(
            f"deck must be an ordering of the {len(expected)}-card pack of the {players} players at this deal"
        )
    active, hands = deal_cards(state, pack)
    return [
        DEALT(None, {"round": state.rounds_dealt + 1, "dealer": state.dealer, "active": list(active), "hands": hands})
    ]


def standing(state: State, tables: tuple[int, ...]) -> list[Side]:
    return [{"seats": list(team), "score": score} for team, score in zip(state.teams, tables)]


def score_round(state: State, action: Action) -> list[Event]:
    if state.phase != ROUND_OVER:
        raise NotYourTurn("no deal is waiting to be scored")
    result = round_result(state)
    table = standing(state, result.tables)
    events = [ROUND_SCORED(None, {**dump_result(result), "standing": table})]
    left = [t for t, tables in enumerate(result.tables) if tables > 0]
    if len(left) == 1:  # RULES §1.9: the last team with tables wins
        events.append(MATCH_ENDED(None, {"winner": list(state.teams[left[0]]), "standing": table}))
    return events


SYSTEM = {"deal": deal, "score_round": score_round}


# --- player actions ---------------------------------------------------------------------------------


def call(state: State, seat: int, action: Action) -> list[Event]:
    data: CalledData = {"seat": seat, "call": action["type"]}
    if action["type"] == "bid":  # in this order, as the log has always held them
        data["value"] = action["value"]
        data["suit"] = action["suit"]
        data["convention"] = action.get("convention")
    events = [CALLED(seat, data)]
    after = evolve(state, events[-1])
    ending = auction_end(after, action["type"])
    if ending is not None:
        events.append(ending)
    return events


def auction_end(state: State, last: str) -> Event | None:
    """The event that closes the auction after this call, or None while it goes on (RULES §1.5)."""
    rnd = state.round
    assert rnd is not None
    if last == "redouble":  # the redouble ends the auction at once
        return _contract_event(state)
    if rnd.high_bid is None:
        everyone_passed = (
            len(rnd.passed) == len(rnd.active) if state.options.pass_is_final else rnd.pass_count == len(rnd.active)
        )
        return _all_pass_event(state) if everyone_passed else None
    if state.options.pass_is_final:  # §1.11a.1: over when the turn comes back to the last bidder/doubler
        return _contract_event(state) if rnd.to_play == rnd.last_caller else None
    return _contract_event(state) if rnd.pass_count == len(rnd.active) - 1 else None


def _contract_event(state: State) -> Event:
    rnd = state.round
    assert rnd is not None
    high = rnd.high_bid
    # Called once a bid stands (a redouble, or the passes after a bid): a bid has its value and suit.
    assert high is not None and high.value is not None and high.suit is not None
    contract = Contract(high.seat, high.value, high.suit, rnd.level)
    return AUCTION_ENDED(None, {"contract": dump_contract(contract)})


def _all_pass_event(state: State) -> Event:
    rnd = state.round
    assert rnd is not None
    if state.options.all_pass_contract == "redeal":  # §1.11a.3: the same dealer deals again
        return THROWN_IN(None, {"dealer": rnd.dealer})
    first = next_active(state, rnd.dealer, rnd.active)  # dealer+1 counts as the declarer
    contract = Contract(first, 28, "NT", 0, all_pass=True)
    return AUCTION_ENDED(None, {"contract": dump_contract(contract)})


def play(state: State, seat: int, action: Action) -> list[Event]:
    events = [PLAYED(seat, {"seat": seat, "card": action["card"]})]
    after = evolve(state, events[-1])
    rnd = after.round
    assert rnd is not None and rnd.contract is not None  # cards are played under a contract
    plays = rnd.trick
    if len(plays) < len(rnd.active):
        return events
    trump = rnd.contract.trump
    winner = plays[cards.winning_index([p.card for p in plays], trump, RANK_ORDER)].seat
    points = sum(CARD_POINTS[cards.rank_of(p.card)] for p in plays)
    events.append(
        TRICK_TAKEN(
            None, {"winner": winner, "cards": [{"seat": p.seat, "card": p.card} for p in plays], "points": points}
        )
    )
    after = evolve(after, events[-1])
    assert after.round is not None
    if not any(after.round.hands):
        events.append(ROUND_ENDED(None, {}))
    return events


PLAYER = {"bid": call, "pass": call, "double": call, "redouble": call, "play": play}


decide = decider(check_shape, SYSTEM, PLAYER, check)
