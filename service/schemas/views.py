"""The view of a match (what `GET /v1/games/{id}` and every move answer): a union of the three games'
views, told apart by `game`; and the answer to claiming a seat."""
from __future__ import annotations

from service.schemas.base import Model, OneOf, Union, seat, text
from service.schemas.fiftysix import FiftySixView
from service.schemas.sixtysix import SixtySixView
from service.schemas.smear import SmearView

VIEW = Union("View", {"sixty-six": SixtySixView, "fifty-six": FiftySixView, "smear": SmearView}, by="game",
             description="A match as one seat (with its token) or a spectator (without) may see it, told apart by "
                         "`game`. Post any one of `legal_actions` as it is to play it.")


class SeatClaimed(Model):
    """The seat you claimed, its token (shown once) and the seat's view."""
    seat = seat("Your seat")
    token = text("The seat's bearer token: send it as `Authorization: Bearer <token>`. Shown once: keep it.")
    view = OneOf(VIEW, required=True, metadata={"description": "The seat's view"})
