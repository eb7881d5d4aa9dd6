"""Sixty-Six: the round as a seat sees it, a deal's result, the view, and the game's events
(games/sixtysix/view.py, evolve.py, rules.py)."""

from __future__ import annotations

from marshmallow import fields

from games.sixtysix.state import AFTER_TRICK, AWAIT_DEAL, FOLLOW, LEAD, MATCH_OVER, ROUND_OVER
from service.schemas.actions import SIXTY_SIX as ACTIONS
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
from service.schemas.table import ViewBase, hand_sizes, plays, round_number, standing_field

PHASES = (LEAD, FOLLOW, AFTER_TRICK, ROUND_OVER, AWAIT_DEAL, MATCH_OVER)


class SixtySixTrick(Model):
    """A finished trick of Sixty-Six."""

    leader = seat("The seat that led")
    cards = plays("The cards in the order played")
    winner = seat("The seat that took the trick")
    points = integer("Card points in the trick (A 11, T 10, K 4, Q 3, J 2)", minimum=0)


class SixtySixMeld(Model):
    """A marriage shown in this deal."""

    seat = seat()
    suit = suit()
    points = integer("40 in trumps, else 20", minimum=20, maximum=40)
    active = boolean("Counts now: the seat's side has won a trick (a marriage counts once its side has one)")


class SixtySixRound(Model):
    """The current deal of Sixty-Six as the seat may see it. The keys are the same in every phase:
    `lead` (the leader may exchange, meld, close, declare out, then plays), `follow` (the next seat
    plays), `after_trick` (stock open: the trick's winner draws, closes or declares out), `round_over`
    (the system scores it), `await_deal` and `match_over` (the last deal stays visible). Per-side lists
    follow the order of `standing`. Nothing here shows another seat's hand, the stock's order or the dead
    cards (3p)."""

    number = round_number()
    dealer = seat("The dealer")
    phase = text("What the deal waits for", enum=PHASES)
    leader = seat("The seat that leads (led) the current trick")
    to_act = integers("The seats the game waits for")
    hand = cards("Your hand, sorted by suit (S H D C) and rank; null for a spectator", nullable=True)
    hand_sizes = hand_sizes()
    trump = suit("The trump suit")
    trump_card = card(
        "The face-up trump card under the stock; null once drawn, after closing, and without a stock (pagat 3p)",
        nullable=True,
    )
    exchange_card = card(
        "The lowest trump, which the leader may exchange for the face-up card; null without a stock", nullable=True
    )
    stock_size = integer("Cards left in the stock, the face-up card included", minimum=0)
    stock_open = boolean("The stock is neither closed nor used up (lenient play, drawing after each trick)")
    closed = boolean("Someone closed the stock")
    closer = seat("The seat that closed the stock", nullable=True)
    tricks_at_close = integers("Tricks per side when the stock was closed", nullable=True)
    trick = plays("The trick on the table")
    tricks = many(SixtySixTrick, "The finished tricks of this deal")
    melds = many(SixtySixMeld, "The marriages shown in this deal")
    turn_meld = suit("The marriage shown at this lead: the lead must be its King or Queen", nullable=True)
    card_points = integers("Card points taken per side")
    meld_points = integers("Points of the active marriages per side")
    tricks_won = integers("Tricks won per side")
    last_trick_bonus = boolean("The last trick can still earn +10 (last_trick_rule plus10, stock not closed)")
    declarer = seat("The seat that declared out", nullable=True)
    target = integer("Card points to reach: 66, or 101 in 4p", minimum=1)
    turned_card = card(
        "pagat 3p: the card dealt face up into the hand of the dealer's left, which set trump; else null", nullable=True
    )


class SixtySixResult(Model):
    """How a deal of Sixty-Six was scored (`round_scored`, and the view's `last_result` until the next
    deal is scored). Per-side lists follow the order of `standing`."""

    round = integer("The deal's number", minimum=1)
    case = text(
        "The scoring case: A1/A2 declared out, B1/B2 a failed declaration, C1 a closed stock played "
        "out, C2 all cards played",
        enum=("A1", "A2", "B1", "B2", "C1", "C2"),
    )
    reason = text("Why, in words", example="seat 1 declared out with 68; opponents have 2 trick(s) and 40 points")
    declarer = seat("The seat that declared out", nullable=True)
    closer = seat("The seat that closed the stock", nullable=True)
    card_points = integers("Card points per side")
    meld_points = integers("Active marriage points per side")
    last_trick_points = integers("The +10 of the last trick, per side")
    totals = integers("Card, marriage and last-trick points per side")
    tricks = integers("Tricks per side")
    game_points = integers("Game points won in this deal per side (0 to 3 each, added up per opponent with 3 players)")
    bonus_points = integers("draw_bonus game points paid out with this deal, per side")
    scores = integers("The match's game points per side after this deal")
    next_dealer = seat("Who deals next")
    standing = standing_field()


class SixtySixView(ViewBase):
    """A Sixty-Six match as one seat (or a spectator) may see it."""

    game = constant("sixty-six")
    options = nested(SHOWN["sixty-six"], "Every option in force")
    round = nested(SixtySixRound, "The current deal; null before the first", nullable=True)
    last_result = nested(SixtySixResult, "How the last deal was scored; null before the first scoring", nullable=True)
    legal_actions = fields.List(
        OneOf(ACTIONS),
        required=True,
        metadata={
            "description": "What this seat may do now, each exactly as it may be posted (empty when it is not "
            "this seat's turn, and for spectators)"
        },
    )


# -- events ------------------------------------------------------------------------------------------


class SixtySixDealtData(Model):
    """The cards were dealt. Everyone sees the trump card and how many cards each hand and the stock hold;
    each seat sees its own hand only (the others are null). Operators see every hand, the stock (top
    first) and the dead cards (3p), and no `hand_sizes`/`stock_size`."""

    round = round_number()
    dealer = seat("The dealer")
    trump_card = card(
        "The card turned face up under the stock (pagat 3p: the card dealt face up into the hand "
        "of the dealer's left), which sets trump"
    )
    hands = fields.List(
        cards("A hand", nullable=True),
        required=True,
        metadata={"description": "Per seat: your own hand; null for every other seat (operators: every hand)"},
    )
    hand_sizes = integers("Cards in each hand (not in the operator's log)", required=False)
    stock_size = integer(
        "Cards in the stock with the face-up card (not in the operator's log)", required=False, minimum=0
    )
    stock = cards("Operators only: the stock, top first, without the face-up card", required=False)
    dead = cards("Operators only, 3p: the two cards set aside", required=False)


class PlayedData(Model):
    """A seat played a card (public)."""

    seat = seat()
    card = card()


class TrickTakenData(Model):
    """A trick was completed and taken (public)."""

    winner = seat("The seat that took the trick")
    cards = plays("The trick's cards in the order played")
    points = integer("Card points in the trick", minimum=0)


class SixtySixDraw(Model):
    """One seat's draw from the stock."""

    seat = seat()
    card = card(
        "The card drawn: shown to the drawing seat, and to everyone when it is the face-up trump card; else null",
        nullable=True,
    )
    face_up = boolean("The face-up trump card (the last card of the stock)")


class SixtySixDrewData(Model):
    """Every seat drew one card, the trick's winner first; each sees its own card."""

    draws = many(SixtySixDraw, "One draw per seat, in drawing order")


class SixtySixMeldedData(Model):
    """A marriage was shown (public)."""

    seat = seat()
    suit = suit()
    points = integer("40 in trumps, else 20", minimum=20, maximum=40)
    pending = boolean("Does not count yet: the side has not won a trick")


class SixtySixExchangedData(Model):
    """The lowest trump was exchanged for the face-up card (public)."""

    seat = seat()
    gave = card("The lowest trump, now face up")
    took = card("The former face-up card")
    at_close = boolean("Made for an opponent when the stock was closed (non_closer_may_exchange_at_close)")


class SixtySixClosedData(Model):
    """The stock was closed (public)."""

    seat = seat("The closer")
    tricks_at_close = integers("Tricks per side at closing")
    totals_at_close = integers("Card and active marriage points per side at closing")
    stock_size = integer("Cards left in the stock", minimum=0)


class SeatData(Model):
    """The seat that acted: `declared_out` (Sixty-Six: the seat says its side reached the target)."""

    seat = seat()


class EmptyData(Model):
    """No data: `round_ended` (the last trick is taken; the system scores the deal next)."""


class MatchEndedData(Model):
    """The match is over: the winning side and the final standing (Sixty-Six, Fifty-Six)."""

    winner = fields.List(fields.Integer(), required=True, metadata={"description": "The winning side's seats"})
    standing = standing_field()


EVENTS = {
    "dealt": (SixtySixDealtData, "The cards were dealt"),
    "played": (PlayedData, "A card was played"),
    "trick_taken": (TrickTakenData, "A trick was taken"),
    "drew": (SixtySixDrewData, "Every seat drew a card"),
    "melded": (SixtySixMeldedData, "A marriage was shown"),
    "exchanged": (SixtySixExchangedData, "The trump card was exchanged"),
    "closed": (SixtySixClosedData, "The stock was closed"),
    "declared_out": (SeatData, "A seat declared out"),
    "round_ended": (EmptyData, "The deal is played out"),
    "round_scored": (SixtySixResult, "The deal was scored"),
    "match_ended": (MatchEndedData, "The match is over"),
}
