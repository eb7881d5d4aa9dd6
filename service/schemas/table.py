"""What every game's view and event log share: players, sides, cards on the table, the view's common
fields, and the table's own events (games/table.py), which stand between each game's events."""

from __future__ import annotations

from marshmallow import fields

from games.registry import BOT_LEVELS
from service.schemas.base import (
    Model,
    SeedField,
    boolean,
    card,
    cards,
    constant,
    integer,
    integers,
    many,
    nested,
    seat,
    seats,
    text,
)

STATUSES = ("waiting", "active", "finished")


class Side(Model):
    """A side of the match's standing: its seats (one seat, or a team's) and its score (game points in
    Sixty-Six, tables in Fifty-Six, points in Smear), in the order the game's per-side lists use."""

    seats = seats("The seats of this side")
    score = integer("The side's score")


class CardPlay(Model):
    """One card a seat put on the table."""

    seat = seat()
    card = card()


class Player(Model):
    """One seat of the table and who plays it."""

    seat = seat()
    kind = text("`human`, or `bot` (a seat a bot plays from the start)", enum=("human", "bot"))
    name = text("The player's name; null for an open human seat", nullable=True)
    level = text("The bot's level (bots only)", nullable=True, enum=BOT_LEVELS)
    team = integer(
        "Index of the player's side in `standing` when sides have several seats; else null", nullable=True, minimum=0
    )
    claimed = boolean("A bot's seat, or a human seat someone holds the token of")
    taken_over = boolean(
        "A bot plays this human seat after its turn timer ran out; the human takes it back by "
        "acting with the seat's token"
    )
    reserved = boolean(
        "An open seat of a rematch kept for its player of the match before, who takes it with "
        "`POST /v1/games/{id}/rematch` on that match; nobody else may claim it"
    )
    player_id = text(
        "The registered player who claimed the seat with their player key; null for a guest, a bot or an open seat",
        nullable=True,
        pattern="^[0-9a-f]{16}$",
    )


class RematchLink(Model):
    """The rematch of a finished match: a new match with the same options and seats."""

    game_id = text(
        "The rematch's id: its seats take their places with `POST /v1/games/{id}/rematch` on this match",
        example="9f0e1d2c3b4a5968",
    )


class ViewBase(Model):
    """The fields every game's view has; each game's view adds `game`, `options`, `round`, `last_result`
    and `legal_actions` of its own."""

    abstract = True
    game_id = text("The match's id", example="5d1c0e7f9a2b4c3d")
    version = integer("The number of the last event (the view's ETag, quoted)", minimum=1)
    status = text(
        "`waiting` until the first deal (a human seat is open), `active`, `finished` after the match "
        "ended or was abandoned",
        enum=STATUSES,
    )
    seat = seat("The seat this view is for; null for a spectator (or the operator)", nullable=True)
    private = boolean("A private match: not listed in the lobby; its seats are claimed with its join code only")
    join_code = text(
        "Only in the answer to the creation of a private match, and only there: the code its seats "
        "are claimed with (`join_code` of the claim). Shown once: pass it on to the players",
        required=False,
    )
    players = many(Player, "Every seat, in seat order")
    to_act = seats("The seats the game waits for now (empty while it deals or scores, and once it is over)")
    standing = many(Side, "The match's standing, one entry per side")
    winner = seats("The seats of the side that won the match; null until it is over", nullable=True)
    rematch = nested(
        RematchLink,
        "A finished match's rematch, once a seat has asked for it (null until then): "
        "the other seats join it with the same call",
        nullable=True,
    )
    rematch_of = text("The finished match this one is the rematch of; null for a match created anew", nullable=True)


# -- the table's events (games/table.py) -----------------------------------------------------------------


class SeatSpecShown(Model):
    """A seat as the match was created with: a human seat, or a bot with its level and name."""

    kind = text(enum=("human", "bot"))
    level = text("Bots only", required=False, enum=BOT_LEVELS)
    name = text("Bots only: the bot's name", required=False)
    reserved = boolean("Humans only, in a rematch: the seat is kept for its player of the match before", required=False)


def match_created_data(options_schema, game: str) -> type[Model]:
    """`match_created`'s data for one game (its options are that game's)."""
    name = {"sixty-six": "SixtySix", "fifty-six": "FiftySix", "smear": "Smear"}[game]
    schema = Model.from_dict(
        {
            "game_id": text("The match's id"),
            "game": constant(game),
            "options": nested(options_schema, "The game's options in force (the table's own are beside them)"),
            "seats": many(SeatSpecShown, "One entry per seat, in seat order"),
            "first_dealer": seat("The seat that deals first"),
            "turn_timeout_s": integer("Seconds a human has to act; null: no timer", nullable=True),
            "takeover_after": integer("Timeouts in a row after which a bot keeps the seat"),
            "seed": SeedField(
                required=False,
                metadata={
                    "description": "Operators only: the match's secret seed (the shuffles and the deal salts): an integer, "
                    "or for a seed past 63 bits (a generated seed has 128) its decimal digits as a string"
                },
            ),
            "private": boolean("Present (true) for a private match", required=False),
            "join_code_hash": text("Operators only: sha256 of a private match's join code", required=False),
            "decks": fields.List(
                fields.List(card()),
                required=False,
                metadata={"description": "Operators only: the deck orders given at creation, one per deal"},
            ),
            "rematch_of": text("A rematch only: the finished match it follows", required=False),
        },
        name=f"{name}MatchCreatedData",
    )
    schema.__doc__ = (
        "The match was created (always event 1). `seed`, `decks` and `join_code_hash` are shown to "
        "operators only; others get the event without them."
    )
    return schema


class SeatClaimedData(Model):
    """A player took a human seat (with a token only they hold). `token_hash` is shown to operators only."""

    seat = seat()
    name = text("The player's name")
    token_hash = text("Operators only: sha256 of the seat's token", required=False)
    player_id = text(
        "The registered player who claimed it with their player key (absent for a guest)",
        required=False,
        pattern="^[0-9a-f]{16}$",
    )


class SeatResumedData(Model):
    """The seat's registered player took a fresh token for it (another device); the seat's earlier tokens
    keep working. `token_hash` is shown to operators only."""

    seat = seat()
    player_id = text("The seat's registered player", pattern="^[0-9a-f]{16}$")
    token_hash = text("Operators only: sha256 of the new token", required=False)


class TurnTimedOutData(Model):
    """The human at `seat` let the turn time run out; the stand-in bot moved for it (the event before)."""

    seat = seat()
    consecutive = integer("Timeouts in a row of this seat", minimum=1)


class SeatOnlyData(Model):
    """The seat concerned: `seat_taken_over` (a bot keeps playing it until its human acts again),
    `seat_returned` (its human acted again) or `seat_reset` (the operator revoked its token; the seat is
    open again and a bot plays it meanwhile)."""

    seat = seat()


class MatchAbandonedData(Model):
    """The match was closed: by the sweeper after no event for `idle_s` seconds, or by an operator
    (`by`); it is finished, without a winner."""

    idle_s = integer("Seconds without an event", minimum=0)
    by = text(
        "`operator` when an operator ended the match; absent when the sweeper closed it",
        required=False,
        enum=("operator",),
    )


class DealCommittedData(Model):
    """Published right before each deal: sha256 (hex) of `<salt>:<card>,<card>,...`, the deck top first.
    Everyone can check it against `deal_revealed` once the deal is over."""

    deal = integer("The deal's number (1, 2, ...)", minimum=1)
    commitment = text("sha256 of the salted deck, in hex", pattern="^[0-9a-f]{64}$")


class RematchOfferedData(Model):
    """A seat of the finished match asked for its rematch: the one event after the match's end, once."""

    game_id = text("The rematch's id")


class DealRevealedData(Model):
    """After a deal is over (scored, thrown in, or the match abandoned): its deck and salt, which hash to
    the deal's commitment."""

    deal = integer("The deal's number", minimum=1)
    deck = cards("The deck, top first")
    salt = text("The deal's salt (secret until now)")


# Events of the table, with the data schema of each (match_created's depends on the game).
TABLE_EVENTS = {
    "seat_claimed": (SeatClaimedData, "A player claimed a human seat"),
    "turn_timed_out": (TurnTimedOutData, "A human's turn timer ran out; a bot moved for the seat"),
    "seat_taken_over": (SeatOnlyData, "A bot keeps the seat until its human acts again"),
    "seat_returned": (SeatOnlyData, "The human took the seat back by acting"),
    "seat_reset": (SeatOnlyData, "The operator revoked the seat's token; the seat is open again"),
    "seat_resumed": (SeatResumedData, "The seat's player took a fresh token for it"),
    "match_abandoned": (MatchAbandonedData, "The match was closed (long idle, or by an operator)"),
    "deal_committed": (DealCommittedData, "The next deck's commitment, before the deal"),
    "deal_revealed": (DealRevealedData, "A finished deal's deck and salt"),
    "rematch_offered": (RematchOfferedData, "A seat asked for the finished match's rematch"),
}


def round_number() -> fields.Integer:
    return integer("The deal's number in the match (1, 2, ...; a thrown-in deal counts)", minimum=1)


def hand_sizes() -> fields.List:
    return integers("Cards in each seat's hand, by seat")


def plays(description: str) -> fields.List:
    return many(CardPlay, description)


def standing_field() -> fields.List:
    return many(Side, "The match's standing after this deal, one entry per side")


__all__ = [
    "Side",
    "CardPlay",
    "Player",
    "ViewBase",
    "TABLE_EVENTS",
    "match_created_data",
    "round_number",
    "hand_sizes",
    "plays",
    "standing_field",
    "STATUSES",
]
