"""The view of a match (what `GET /v1/games/{id}` and every move answer): a union of the three games'
views, told apart by `game`; and the answer to claiming a seat."""

from __future__ import annotations

from marshmallow import fields

from service.schemas.base import Model, OneOf, Union, card, integer, seat, text
from service.schemas.fiftysix import FiftySixView
from service.schemas.sixtysix import SixtySixView
from service.schemas.smear import SmearView

VIEW = Union(
    "View",
    {"sixty-six": SixtySixView, "fifty-six": FiftySixView, "smear": SmearView},
    by="game",
    description="A match as one seat (with its token) or a spectator (without) may see it, told apart by "
    "`game`. Post any one of `legal_actions` as it is to play it.",
)


class SeatClaimed(Model):
    """The seat you claimed, its token (shown once) and the seat's view."""

    seat = seat("Your seat")
    token = text("The seat's bearer token: send it as `Authorization: Bearer <token>`. Shown once: keep it.")
    view = OneOf(VIEW, required=True, metadata={"description": "The seat's view"})


class Rematch(Model):
    """Your seat in the rematch: the new match's id, your seat (the one you had), its token (shown once) and
    the seat's view."""

    game_id = text("The rematch's id", example="9f0e1d2c3b4a5968")
    seat = seat("Your seat: the same as in the finished match")
    token = text(
        "The seat's bearer token in the rematch: send it as `Authorization: Bearer <token>`. Asking again "
        "with the same token of the finished match gives the same one."
    )
    view = OneOf(VIEW, required=True, metadata={"description": "The seat's view of the rematch"})


class ReplayStep(Model):
    """A finished match as it stood at `version`, every hand shown: the view is a spectator's, with each
    round field a seat saw and a spectator does not (Smear's widow, discard, and the trump the bidder named)
    filled in, and `hands` holds each seat's hand."""

    game_id = text("The match's id", example="5d1c0e7f9a2b4c3d")
    version = integer("The version shown: the table after this event", minimum=1)
    last_version = integer("The match's last version: a replay's versions are 1 to this", minimum=1)
    view = OneOf(
        VIEW,
        required=True,
        metadata={
            "description": "The table at `version`, as a spectator's view with the seats' hidden round fields filled in"
        },
    )
    hands = fields.List(
        fields.List(card()),
        required=True,
        allow_none=True,
        metadata={
            "description": "Each seat's hand at `version`, by seat, sorted as the seat's own view sorts it; null before "
            "the first deal"
        },
    )
