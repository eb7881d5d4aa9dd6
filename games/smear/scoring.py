"""The end of a deal (RULES §3.6–§3.8): High, Low, Jack, Game, set or made, caps, and the match end.

Pure functions of a state whose six tricks are played. Teams are 0 = {0,2}, 1 = {1,3}.
"""

from __future__ import annotations

from collections.abc import Sequence

from games import cards
from games.events import Side
from games.smear.options import N_SEATS, RANK_ORDER, SIDES, game_value
from games.smear.state import Point, Round, RoundResult, State, pair, team_of, trick_cards

# Scoring reads a deal played out after its auction: it has a bidder, a bid and a trump (the first lead's
# suit), as the asserts below tell the type checker.


def other(team: int) -> int:
    return 1 - team


def trumps_played(rnd: Round) -> list[tuple[str, int]]:
    """(card, seat) of every trump played in a trick, in play order."""
    return [(p.card, p.seat) for t in rnd.tricks for p in t.plays if cards.suit_of(p.card) == rnd.trump]


def trumps_discarded(state: State) -> list[tuple[str, int]]:
    """Discarded trumps that score like played ones (discards_count_for_high_low_jack, §3.10a.3)."""
    rnd = state.round
    assert rnd is not None and rnd.bidder is not None
    bidder = rnd.bidder
    if not state.options.discards_count_for_high_low_jack:
        return []
    return [(c, bidder) for c in rnd.discards if cards.suit_of(c) == rnd.trump]


def _credited(point: str, found: tuple[str, int] | None, how: str, rnd: Round) -> Point:
    if found is None:
        return Point(point, None, None, None, how)
    card, seat = found
    where = "discarded by the bidder" if card in rnd.discards else f"played by seat {seat}"
    return Point(point, team_of(seat), seat, card, f"{card} {where}")


def high_low(state: State) -> tuple[Point, Point]:
    """§3.6 and §3.10 item 1: the trump A and 7 (default) or the highest and lowest trump in play."""
    rnd = state.round
    assert rnd is not None and rnd.trump is not None
    candidates = trumps_played(rnd) + trumps_discarded(state)
    if state.options.high_low_rule == "ace_seven":
        ace, seven = "A" + rnd.trump, "7" + rnd.trump
        find = {card: (card, seat) for card, seat in candidates}
        return (
            _credited("high", find.get(ace), f"{ace} was not played", rnd),
            _credited("low", find.get(seven), f"{seven} was not played", rnd),
        )
    by_rank = sorted(candidates, key=lambda cs: RANK_ORDER.index(cards.rank_of(cs[0])))
    # The first lead is a trump, so at least one trump is always in play; one trump gives both (§3.10a.4).
    return _credited("high", by_rank[0], "", rnd), _credited("low", by_rank[-1], "", rnd)


def jack(state: State) -> Point:
    """§3.6: the team that wins the trick holding the trump Jack (or the bidders for a counted discard)."""
    rnd = state.round
    assert rnd is not None and rnd.trump is not None and rnd.bidder is not None
    card = "J" + rnd.trump
    for trick in rnd.tricks:
        if card in trick_cards(trick):
            return Point(
                "jack", team_of(trick.winner), trick.winner, card, f"{card} in a trick won by seat {trick.winner}"
            )
    if any(c == card for c, _ in trumps_discarded(state)):
        return Point("jack", team_of(rnd.bidder), rnd.bidder, card, f"{card} discarded by the bidder")
    return Point("jack", None, None, None, f"{card} was not played")


def game_counts(rnd: Round) -> tuple[int, int]:
    """§3.7: values of the cards in tricks won, plus the bidder's discards for the bidding team."""
    assert rnd.bidder is not None
    counts = [0, 0]
    for trick in rnd.tricks:
        counts[team_of(trick.winner)] += sum(game_value(c) for c in trick_cards(trick))
    counts[team_of(rnd.bidder)] += sum(game_value(c) for c in rnd.discards)
    return counts[0], counts[1]


def game(state: State, counts: tuple[int, int]) -> Point:
    assert state.round is not None and state.round.bidder is not None
    bidders = team_of(state.round.bidder)
    said = f"Game count {counts[0]} to {counts[1]}"
    if counts[0] != counts[1]:
        return Point("game", 0 if counts[0] > counts[1] else 1, None, None, said)
    tie = state.options.game_tie
    team = {"none": None, "bidders": bidders, "non_bidders": other(bidders)}[tie]
    return Point("game", team, None, None, f"{said}: a tie ({tie})")


def round_result(state: State) -> RoundResult:
    rnd, opts = state.round, state.options
    assert rnd is not None and rnd.bidder is not None and rnd.bid is not None and rnd.trump is not None
    counts = game_counts(rnd)
    points = (*high_low(state), jack(state), game(state, counts))
    won = pair([sum(p.team == t for p in points) for t in (0, 1)])
    bidders = team_of(rnd.bidder)
    made = won[bidders] >= rnd.bid
    gains = [0, 0]
    gains[bidders] = won[bidders] if made else -rnd.bid  # §3.7: set = minus the bid
    gains[other(bidders)] = won[other(bidders)]
    scores, capped = [s + g for s, g in zip(state.scores, gains)], [False, False]
    if opts.cap_non_bidder_at_15:
        o = other(bidders)
        limit = max(state.scores[o], opts.match_target)  # only the gain beyond the target is lost
        if scores[o] > limit:
            scores[o], capped[o] = limit, True
    return RoundResult(
        round=rnd.number,
        dealer=rnd.dealer,
        bidder=rnd.bidder,
        bid=rnd.bid,
        bidding_team=bidders,
        trump=rnd.trump,
        points=points,
        points_won=won,
        game_counts=counts,
        made=made,
        deltas=pair([s - p for s, p in zip(scores, state.scores)]),
        capped=pair(capped),
        scores=pair(scores),
        next_dealer=(rnd.dealer + 1) % N_SEATS,
    )


def may_win(state: State, result: RoundResult, team: int) -> bool:
    """§3.8: at or past the target, and not barred by win_only_on_successful_bid or the cap (§3.10a.5)."""
    opts, bidding = state.options, team == result.bidding_team
    if result.scores[team] < opts.match_target:
        return False
    if opts.win_only_on_successful_bid and not (bidding and result.made):
        return False
    return bidding or not opts.cap_non_bidder_at_15


def match_winner(state: State, result: RoundResult) -> tuple[int | None, str]:
    """The team that wins the match after this deal (or None), and why."""
    able = [t for t in (0, 1) if may_win(state, result, t)]
    target = state.options.match_target
    if not able:
        return None, ""
    if len(able) == 1:
        return able[0], f"reached {target}"
    bidders = result.bidding_team
    a, b = result.scores
    if state.options.both_reach == "bidder_wins" or a == b:
        return bidders, f"both reached {target}: the bidding team wins"
    return (0 if a > b else 1), f"both reached {target}: the higher score wins"


def standing(scores: Sequence[int]) -> list[Side]:
    return [{"seats": list(side), "score": score} for side, score in zip(SIDES, scores)]
