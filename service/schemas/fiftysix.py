"""Fifty-Six: the round as a seat sees it, a deal's result, the view, and the game's events
(games/fiftysix/view.py, evolve.py, rules.py)."""

from __future__ import annotations

from marshmallow import fields

from games.fiftysix.rules import CONVENTIONS
from games.fiftysix.state import AUCTION, AWAIT_DEAL, DOUBLING, MATCH_OVER, PLAY, ROUND_OVER
from service.schemas.actions import FIFTY_SIX as ACTIONS
from service.schemas.base import (
    Model,
    OneOf,
    boolean,
    cards,
    constant,
    integer,
    integers,
    many,
    nested,
    seat,
    seats,
    suit,
    text,
)
from service.schemas.options import SHOWN
from service.schemas.sixtysix import EmptyData, MatchEndedData, PlayedData, TrickTakenData
from service.schemas.table import ViewBase, hand_sizes, plays, round_number, standing_field

PHASES = (AUCTION, PLAY, ROUND_OVER, AWAIT_DEAL, MATCH_OVER)
CALLS = ("bid", "pass", "double", "redouble")


class FiftySixCall(Model):
    """One call of the auction, in order."""

    seat = seat()
    call = text("What the seat called", enum=CALLS)
    value = integer("The bid's value (bids only)", nullable=True)
    suit = suit("The bid's trump suit or NT (bids only)", nullable=True, no_trump=True)
    convention = text(
        "How the bid was said to the partner, if the bidder said (bids only)", nullable=True, enum=tuple(CONVENTIONS)
    )


class FiftySixBid(Model):
    """The standing (highest) bid."""

    seat = seat()
    value = integer(minimum=28, maximum=56)
    suit = suit(no_trump=True)


class FiftySixContract(Model):
    """The contract the auction ended with."""

    declarer = seat("The seat whose bid won (after an all-pass: the dealer's left)")
    value = integer("Card points the declarer's team must take", minimum=28, maximum=56)
    suit = suit("Trump suit, or NT", no_trump=True)
    doubled = boolean()
    redoubled = boolean()
    level = text("`none`, `doubled` or `redoubled`", enum=DOUBLING)
    all_pass = boolean("Nobody bid: 28 NT for the team of the dealer's left (all_pass_contract)")


class FiftySixTrick(Model):
    """A finished trick of Fifty-Six."""

    leader = seat("The seat that led")
    cards = plays("The cards in the order played")
    winner = seat("The seat that took the trick")
    points = integer("Card points in the trick (J 3, 9 2, A 1, T 1)", minimum=0)


class FiftySixRound(Model):
    """The current deal of Fifty-Six as the seat may see it. The keys are the same in every phase:
    `auction` (bid, pass, double, redouble), `play`, `round_over` (the system scores it), `await_deal` (the
    last deal stays visible, e.g. after a throw-in) and `match_over`. Before the contract, `contract`,
    `trump` and `leader` are null. Per-team lists follow the order of `standing`."""

    number = round_number()
    dealer = seat("The dealer")
    phase = text("What the deal waits for", enum=PHASES)
    to_act = integers("The seats the game waits for")
    active_seats = seats("The seats dealt in (a team without tables is out)")
    hand = cards(
        "Your hand, sorted by suit and rank (J 9 A T K Q 8 7); null for a spectator; empty for a seat that is out",
        nullable=True,
    )
    hand_sizes = hand_sizes()
    calls = many(FiftySixCall, "The auction so far, in order")
    high_bid = nested(FiftySixBid, "The standing bid", nullable=True)
    doubling = text("Doubling of the standing bid", enum=DOUBLING)
    contract = nested(FiftySixContract, "The contract, once the auction is over", nullable=True)
    trump = suit("The contract's trump suit; null before the contract and in no-trump", nullable=True)
    leader = seat("The seat that leads (led) the current trick; null during the auction", nullable=True)
    trick = plays("The trick on the table")
    tricks = many(FiftySixTrick, "The finished tricks of this deal")
    card_points = integers("Card points taken per team")
    tricks_won = integers("Tricks won per team")


class FiftySixPayment(Model):
    """Tables one team paid another."""

    payer = integer("The paying team (index in `standing`)", minimum=0)
    payee = integer("The receiving team", minimum=0)
    owed = integer("Tables owed", minimum=0)
    paid = integer("Tables paid: less than owed when the payer ran out", minimum=0)


class FiftySixResult(Model):
    """How a deal of Fifty-Six was scored (`round_scored`, and the view's `last_result` until the next
    deal is scored). Per-team lists follow the order of `standing`."""

    round = integer("The deal's number", minimum=1)
    contract = nested(FiftySixContract, "The contract played")
    contract_team = integer("The declarer's team", minimum=0)
    made = boolean("The declarer's team took at least the contract's value")
    card_points = integers("Card points per team")
    base = integer("Tables per team by the bid's band, won if made, lost if not", minimum=0)
    multiplier = text(
        "The doubling: x1, x2, x4 (multiply) or +0, +1, +2 (additive)", enum=("x1", "x2", "x4", "+0", "+1", "+2")
    )
    per_team = integer("Tables owed to or by each other team", minimum=0)
    payments = many(FiftySixPayment, "The payments, in order")
    tables = integers("Tables per team after this deal")
    eliminated = integers("Teams that ran out of tables with this deal")
    reason = text("Why, in words")
    next_dealer = seat("Who deals next")
    standing = standing_field()


class FiftySixView(ViewBase):
    """A Fifty-Six match as one seat (or a spectator) may see it."""

    game = constant("fifty-six")
    options = nested(SHOWN["fifty-six"], "Every option in force")
    round = nested(FiftySixRound, "The current deal; null before the first", nullable=True)
    last_result = nested(FiftySixResult, "How the last deal was scored; null before the first scoring", nullable=True)
    legal_actions = fields.List(
        OneOf(ACTIONS),
        required=True,
        metadata={
            "description": "What this seat may do now, each exactly as it may be posted (empty when it is not "
            "this seat's turn, and for spectators)"
        },
    )


# -- events ------------------------------------------------------------------------------------------


class FiftySixDealtData(Model):
    """The cards were dealt (the whole pack, in fours). Each seat sees its own hand only (the others are
    null) and how many cards each holds; operators see every hand and no `hand_sizes`."""

    round = round_number()
    dealer = seat("The dealer")
    active = seats("The seats dealt in")
    hands = fields.List(
        cards("A hand", nullable=True),
        required=True,
        metadata={
            "description": "Per seat: your own hand; null for every other seat (operators: every hand); empty for a "
            "seat that is out"
        },
    )
    hand_sizes = integers("Cards in each hand (not in the operator's log)", required=False)


class FiftySixCalledData(Model):
    """A seat called in the auction (public)."""

    seat = seat()
    call = text(enum=CALLS)
    value = integer("Bids only", required=False, rule_range=(28, 56))
    suit = suit("Bids only", required=False, no_trump=True)
    convention = text(
        "Bids only: how the bid was said, or null", required=False, nullable=True, enum=tuple(CONVENTIONS)
    )


class FiftySixAuctionEndedData(Model):
    """The auction is over (public)."""

    contract = nested(FiftySixContract)


class FiftySixThrownInData(Model):
    """Everyone passed and the deal is thrown in (all_pass_contract redeal): the same dealer deals again."""

    dealer = seat("The dealer of the next deal")


EVENTS = {
    "dealt": (FiftySixDealtData, "The cards were dealt"),
    "called": (FiftySixCalledData, "A call of the auction"),
    "auction_ended": (FiftySixAuctionEndedData, "The auction is over: the contract"),
    "thrown_in": (FiftySixThrownInData, "Everyone passed: the deal is thrown in"),
    "played": (PlayedData, "A card was played"),
    "trick_taken": (TrickTakenData, "A trick was taken"),
    "round_ended": (EmptyData, "The deal is played out"),
    "round_scored": (FiftySixResult, "The deal was scored"),
    "match_ended": (MatchEndedData, "The match is over"),
}
