"""Actions: what a seat posts to `POST /v1/games/{id}/actions`, and what the view lists in `legal_actions`.

Per game, an action is a union told apart by `type`; a request body is an action of any game (`Action`,
an anyOf of the three: `bid` and `pass` mean different things in Fifty-Six and Smear). An action of
another game than the match's is refused with 400 `malformed-action`. Where a value's range is a rule
of the game (a bid's value), a value outside it is refused with 422 `rule-violation` naming the rule and
listing the legal actions, and the range is given as documentation only.
"""

from __future__ import annotations

from games.fiftysix.rules import CONVENTIONS
from service.schemas.base import Model, Union, cards, constant, integer, suit, text
from service.schemas.base import card as card_field


class PlayAction(Model):
    """Play a card from the hand (every game)."""

    type = constant("play")
    card = card_field()


class PassAction(Model):
    """Pass in the auction (Fifty-Six, Smear)."""

    type = constant("pass")


class MeldAction(Model):
    """Sixty-Six: show a marriage (King and Queen of `suit`) before leading; 40 in trumps, else 20. The lead
    must then be one of the two."""

    type = constant("meld")
    suit = suit("The marriage's suit")


class ExchangeAction(Model):
    """Sixty-Six: exchange the lowest trump for the face-up trump card (the leader, stock open)."""

    type = constant("exchange")


class CloseAction(Model):
    """Sixty-Six: close the stock (no more drawing; strict play from now on)."""

    type = constant("close")


class DeclareOutAction(Model):
    """Sixty-Six: declare that your side has reached the target (66, or 101 in 4p); the deal ends and is
    scored."""

    type = constant("declare_out")


class DrawAction(Model):
    """Sixty-Six: after winning a trick with the stock open, draw (every seat draws one card, the winner
    first)."""

    type = constant("draw")


class DoubleAction(Model):
    """Fifty-Six: double the standing bid (an opponent of the bidding team)."""

    type = constant("double")


class RedoubleAction(Model):
    """Fifty-Six: redouble a doubled bid (the bidding team); the auction ends at once."""

    type = constant("redouble")


class FiftySixBidAction(Model):
    """Fifty-Six: bid `value` with `suit` as trump (or NT). Suits do not rank: only a higher number overbids."""

    type = constant("bid")
    value = integer(
        "28 to 56, higher than the standing bid; another number is refused with 422 (56 §1.5)", rule_range=(28, 56)
    )
    suit = suit("The trump suit, or NT for no trump", no_trump=True)
    convention = text(
        "Optional: how the bid was said to the partner; no effect on the rules", required=False, enum=tuple(CONVENTIONS)
    )


class SmearBidAction(Model):
    """Smear: bid how many of the four points (High, Low, Jack, Game) your team will take."""

    type = constant("bid")
    value = integer(
        "2, 3 or 4, higher than the standing bid; another number is refused with 422 (Smear §3.3)", rule_range=(2, 4)
    )


class DiscardAction(Model):
    """Smear with a widow: the bidder discards as many cards as it took and names trump (it must keep a
    trump to lead)."""

    type = constant("discard")
    cards = cards("The cards to discard: exactly widow_size different cards of the hand", max_items=8)
    trump = suit("The trump suit the first lead will show")


SIXTY_SIX = Union(
    "SixtySixAction",
    {
        "play": PlayAction,
        "meld": MeldAction,
        "exchange": ExchangeAction,
        "close": CloseAction,
        "declare_out": DeclareOutAction,
        "draw": DrawAction,
    },
    by="type",
    description="An action of Sixty-Six, told apart by `type`.",
)
FIFTY_SIX = Union(
    "FiftySixAction",
    {
        "play": PlayAction,
        "bid": FiftySixBidAction,
        "pass": PassAction,
        "double": DoubleAction,
        "redouble": RedoubleAction,
    },
    by="type",
    description="An action of Fifty-Six, told apart by `type`.",
)
SMEAR = Union(
    "SmearAction",
    {"play": PlayAction, "bid": SmearBidAction, "pass": PassAction, "discard": DiscardAction},
    by="type",
    description="An action of Smear, told apart by `type`.",
)
ACTION = Union(
    "Action",
    [SIXTY_SIX, FIFTY_SIX, SMEAR],
    by=None,
    description=(
        "One action, exactly as the view's `legal_actions` lists it: an action of Sixty-Six, Fifty-Six or Smear "
        "(each told apart by `type`). The match's game decides which are valid."
    ),
)
BY_GAME = {"sixty-six": SIXTY_SIX, "fifty-six": FIFTY_SIX, "smear": SMEAR}

ACTION_TYPES = tuple(dict.fromkeys(ACTION.values()))
SUITS = ("S", "H", "D", "C", "NT")
_BARE = frozenset(t for u in (SIXTY_SIX, FIFTY_SIX, SMEAR) for t, m in u.members.items() if set(m().fields) == {"type"})
_CARD_CHARS = (frozenset("AKQJT987"), frozenset("SHDC"))


def plain_action(body) -> dict | None:
    """`body` when it has one of the plain shapes nearly every action has - {"type"} of an action without
    fields, {"type": "play", "card"} or {"type": "meld", "suit"}, every value valid - which `ACTION` would
    load unchanged; else None, and `ACTION` decides (with its error messages). Every move's body passes
    here: marshmallow's load of it cost as much as the rest of the request's own Python work besides the
    view. tests/unit/test_schemas.py checks that this accepts nothing `ACTION` refuses or would load
    differently."""
    if type(body) is not dict or type(body.get("type")) is not str:
        return None
    kind = body["type"]
    if len(body) == 1:
        return body if kind in _BARE else None
    if len(body) != 2:
        return None
    if kind == "play":
        card = body.get("card")
        ok = type(card) is str and len(card) == 2 and card[0] in _CARD_CHARS[0] and card[1] in _CARD_CHARS[1]
        return body if ok else None
    if kind == "meld":
        return body if body.get("suit") in ("S", "H", "D", "C") and type(body["suit"]) is str else None
    return None
