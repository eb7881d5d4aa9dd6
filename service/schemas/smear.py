"""Smear: the round as a seat sees it, a deal's result, the view, and the game's events
(games/smear/view.py, evolve.py, rules.py)."""

from __future__ import annotations

from marshmallow import fields

from games.smear.options import CHOICES
from games.smear.state import AUCTION, AWAIT_DEAL, DISCARD, MATCH_OVER, PLAY, ROUND_OVER
from service.schemas.actions import SMEAR as ACTIONS
from service.schemas.base import (
    Model,
    OneOf,
    boolean,
    card,
    cards,
    constant,
    integer,
    integers,
    many,
    nested,
    seat,
    suit,
    text,
)
from service.schemas.options import SHOWN
from service.schemas.sixtysix import EmptyData, PlayedData
from service.schemas.table import ViewBase, hand_sizes, plays, round_number, standing_field

PHASES = (AUCTION, DISCARD, PLAY, ROUND_OVER, AWAIT_DEAL, MATCH_OVER)
POINTS = ("high", "low", "jack", "game")


class SmearCall(Model):
    """One call of the auction, in order."""

    seat = seat()
    value = integer("The bid (2, 3 or 4); null for a pass", nullable=True)


class SmearTrick(Model):
    """A finished trick of Smear."""

    leader = seat("The seat that led")
    cards = plays("The cards in the order played")
    winner = seat("The seat that took the trick")
    game_count = integer("The trick's Game count (T 10, A 4, K 3, Q 2, J 1)", minimum=0)


class SmearRound(Model):
    """The current deal of Smear as the seat may see it. The keys are the same in every phase: `auction`,
    `discard` (the bidder, with a widow), `play`, `round_over` (the system scores it), `await_deal` (the
    last deal stays visible, e.g. after a throw-in) and `match_over`. `bidder` and `bid` are null during
    the auction; `trump` until the first card is led (the bidder sees the suit it named from its discard
    on). Per-team lists follow the order of `standing` (seats 0 and 2, then 1 and 3)."""

    number = round_number()
    dealer = seat("The dealer")
    phase = text("What the deal waits for", enum=PHASES)
    to_act = integers("The seats the game waits for")
    hand = cards("Your hand, sorted by suit (S H D C) and rank; null for a spectator", nullable=True)
    hand_sizes = hand_sizes()
    calls = many(SmearCall, "The auction so far, in order")
    high_bid = integer("The highest bid so far", nullable=True, minimum=2, maximum=4)
    bidder = seat("The seat that won the auction", nullable=True)
    bid = integer("The winning bid", nullable=True, minimum=2, maximum=4)
    trump = suit("The trump suit: public once the first card is led; the bidder sees the suit it named", nullable=True)
    trump_public = boolean("The first card has been led, so trump is known to everyone")
    widow_size = integer("Cards the bidder takes after the auction (the widow_size option)", minimum=0, maximum=3)
    widow_taken = integer("How many cards the bidder took", minimum=0)
    widow = cards("The cards the bidder took: the bidder only, else null", nullable=True)
    discarded = integer("How many cards the bidder discarded", minimum=0)
    discard = cards("The cards the bidder discarded: the bidder only, else null", nullable=True)
    undealt_size = integer("Cards out of play (not dealt, not taken)", minimum=0)
    leader = seat("The seat that leads (led) the current trick; null during the auction", nullable=True)
    trick = plays("The trick on the table")
    tricks = many(SmearTrick, "The finished tricks of this deal")
    trick_game_counts = integers("Game count per team from its tricks so far (discards not included)")


class SmearPoint(Model):
    """One of the four points of a deal and who got it."""

    point = text(enum=POINTS)
    team = integer(
        "The team that got it (0: seats 0 and 2, 1: seats 1 and 3); null when nobody did",
        nullable=True,
        minimum=0,
        maximum=1,
    )
    seat = seat("The player credited, where the rule credits one", nullable=True)
    card = card("The card that won it (High, Low, Jack)", nullable=True)
    why = text("Why, in words")


class SmearResult(Model):
    """How a deal of Smear was scored (`round_scored`, and the view's `last_result` until the next deal is
    scored). Per-team lists: seats 0 and 2, then 1 and 3."""

    round = integer("The deal's number", minimum=1)
    dealer = seat("The dealer")
    bidder = seat("The bidder")
    bid = integer("The bid", minimum=2, maximum=4)
    bidding_team = integer("The bidder's team", minimum=0, maximum=1)
    trump = suit("The trump suit")
    points = many(SmearPoint, "High, Low, Jack and Game")
    points_won = integers("Points won per team")
    game_counts = integers("Game count per team (the bidder's discards count for the bidding team)")
    made = boolean("The bidding team took at least its bid")
    deltas = integers("What each team's score moved by (a set bidder loses its bid)")
    capped = fields.List(
        fields.Boolean(), required=True, metadata={"description": "Per team: cap_non_bidder_at_15 cut the team's gain"}
    )
    scores = integers("The match's score per team after this deal")
    next_dealer = seat("Who deals next")
    standing = standing_field()


class SmearView(ViewBase):
    """A Smear match as one seat (or a spectator) may see it."""

    game = constant("smear")
    options = nested(SHOWN["smear"], "Every option in force")
    round = nested(SmearRound, "The current deal; null before the first", nullable=True)
    last_result = nested(SmearResult, "How the last deal was scored; null before the first scoring", nullable=True)
    legal_actions = fields.List(
        OneOf(ACTIONS),
        required=True,
        metadata={
            "description": "What this seat may do now, each exactly as it may be posted (empty when it is not "
            "this seat's turn, and for spectators; in the discard, every discard with every trump "
            "it may name)"
        },
    )


# -- events ------------------------------------------------------------------------------------------


class SmearDealtData(Model):
    """Six cards each were dealt. Each seat sees its own hand only (the others are null) and the counts;
    operators see every hand and the undealt cards, and no `hand_sizes`/`undealt_size`."""

    round = round_number()
    dealer = seat("The dealer")
    hands = fields.List(
        cards("A hand", nullable=True),
        required=True,
        metadata={"description": "Per seat: your own hand; null for every other seat (operators: every hand)"},
    )
    hand_sizes = integers("Cards in each hand (not in the operator's log)", required=False)
    undealt_size = integer("Cards not dealt (not in the operator's log)", required=False, minimum=0)
    undealt = cards("Operators only: the undealt cards, top first (the widow is taken from the top)", required=False)


class SmearBidData(Model):
    """A seat bid (public)."""

    seat = seat()
    value = integer("2, 3 or 4", minimum=2, maximum=4)


class SmearPassedData(Model):
    """A seat passed (public)."""

    seat = seat()


class SmearAuctionWonData(Model):
    """The auction is over: the bidder and its bid (public)."""

    bidder = seat()
    bid = integer(minimum=2, maximum=4)


class SmearThrownInData(Model):
    """Everyone passed and the deal is thrown in (public)."""

    dealer = seat("The dealer of the thrown-in deal")
    rule = text("The all_pass option that applied", enum=CHOICES["all_pass"])
    next_dealer = seat("Who deals next")


class SmearHiddenCardsData(Model):
    """`widow_taken` (the bidder took the widow) and `discarded` (the bidder discarded and named trump):
    the bidder and operators see `cards` (and `trump`, for a discard); everyone else sees only `count`."""

    seat = seat("The bidder")
    cards = cards("The bidder and operators only: the cards", required=False)
    trump = suit("`discarded` only, the bidder and operators only: the trump named", required=False)
    count = integer("Everyone but the bidder and operators: how many cards", required=False, minimum=0)


class SmearTrickTakenData(Model):
    """A trick was completed and taken (public)."""

    winner = seat("The seat that took the trick")
    cards = plays("The trick's cards in the order played")
    game_count = integer("The trick's Game count", minimum=0)


class SmearMatchEndedData(Model):
    """The match is over: the winning team, the final standing and why."""

    winner = fields.List(fields.Integer(), required=True, metadata={"description": "The winning team's seats"})
    standing = standing_field()
    reason = text("Why, e.g. reached 15", example="reached 15")


EVENTS = {
    "dealt": (SmearDealtData, "The cards were dealt"),
    "bid": (SmearBidData, "A seat bid"),
    "passed": (SmearPassedData, "A seat passed"),
    "auction_won": (SmearAuctionWonData, "The auction is over: the bidder and its bid"),
    "thrown_in": (SmearThrownInData, "Everyone passed: the deal is thrown in"),
    "widow_taken": (SmearHiddenCardsData, "The bidder took the widow"),
    "discarded": (SmearHiddenCardsData, "The bidder discarded and named trump"),
    "played": (PlayedData, "A card was played"),
    "trick_taken": (SmearTrickTakenData, "A trick was taken"),
    "round_ended": (EmptyData, "The deal is played out"),
    "round_scored": (SmearResult, "The deal was scored"),
    "match_ended": (SmearMatchEndedData, "The match is over"),
}
