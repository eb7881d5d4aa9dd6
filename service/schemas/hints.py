"""The expert's hint for a seat's decision (`GET /v1/games/{id}/hint`), per game."""

from __future__ import annotations

from marshmallow import fields

from games.registry import BOT_LEVELS
from service.schemas.actions import BY_GAME
from service.schemas.base import Model, OneOf, Union, boolean, constant, integer, seat, text

VALUE = (
    "The expert's estimate of this action, higher is better, per game: Sixty-Six (2 players) 2 x the chance to "
    "win the match after the deal, minus 1 (-1..1); Sixty-Six (3-4 players) game points of the deal, own side "
    "minus all other sides' together; Fifty-Six tables the seat's team gains in the deal plus 0.03 per card "
    "point; Smear the deal's points, own team minus the other (a failed bid counts as its loss). Null where "
    "the expert has no search for this position, or for an action it never plays because another is always "
    "better (Sixty-Six: leading the King or Queen of a marriage it could show first, keeping the trump 9 it "
    "could exchange)"
)
PREFIX = {"sixty-six": "SixtySix", "fifty-six": "FiftySix", "smear": "Smear"}


def _value_schema(game: str) -> type[Model]:
    schema = Model.from_dict(
        {
            "action": OneOf(BY_GAME[game], required=True, metadata={"description": "One of the view's legal_actions"}),
            "value": fields.Float(required=True, allow_none=True, metadata={"description": VALUE}),
        },
        name=f"{PREFIX[game]}ActionValue",
    )
    schema.__doc__ = "One legal action and the expert's value of it."
    return schema


def _hint_schema(game: str) -> type[Model]:
    schema = Model.from_dict(
        {
            "game": constant(game),
            "version": integer("The game version the hint is for", minimum=1),
            "seat": seat(),
            "level": text("The bot level that made the suggestion", enum=BOT_LEVELS),
            "suggestion": OneOf(
                BY_GAME[game],
                required=True,
                metadata={"description": "The suggested action, as listed in legal_actions"},
            ),
            "searched": boolean(
                "true: values come from search over worlds consistent with the seat's view; false: no "
                "search for this position, and the basic rules chose"
            ),
            "values": fields.List(
                fields.Nested(_value_schema(game)),
                required=True,
                metadata={"description": "Every legal action with its value, in the order of legal_actions"},
            ),
        },
        name=f"{PREFIX[game]}Hint",
    )
    schema.__doc__ = f"The expert's suggestion for a {game} seat's current decision."
    return schema


HINT = Union(
    "Hint",
    {game: _hint_schema(game) for game in BY_GAME},
    by="game",
    description="The expert's suggestion for the seat's current decision, told apart by `game`.",
)
