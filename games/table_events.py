"""The table's own events (games/table.py's docstring says what each means and who sees what): the data
record of each event type, and `EVENTS`, their registry. A match's log holds these and its game's
events (games/<game>/events.py)."""

# No `from __future__ import annotations`: NotRequired must be read at run time (see games/events.py).
from typing import NotRequired, TypedDict

from games.engine import OptionDict
from games.events import EventType, SeatData, registry


class SeatSpec(TypedDict):
    """A seat as `match_created` records it: a human seat, or a bot's with its level and name."""

    kind: str  # human or bot
    level: NotRequired[str]  # bots only
    name: NotRequired[str]  # bots only
    reserved: NotRequired[bool]  # a rematch's human seat kept for the player of the match it follows


class MatchCreatedData(TypedDict):
    game_id: str
    game: str
    options: OptionDict  # the game's, normalized
    first_dealer: int
    turn_timeout_s: int | None
    takeover_after: int
    seats: list[SeatSpec]
    # Operators only, like decks. A decimal string for a seed past 63 bits (the generated ones have 128):
    # JSON codecs keep integers to 64 bits at most.
    seed: int | str
    decks: list[list[str]]
    private: NotRequired[bool]  # present (true) for a private match: not listed, seats need the join code
    join_code_hash: NotRequired[str]  # operators only: sha256 of the private match's join code
    rematch_of: NotRequired[str]  # the finished match this one is the rematch of


class RematchOfferedData(TypedDict):
    game_id: str  # the rematch: a new match with the same options and seats


class SeatClaimedData(TypedDict):
    seat: int
    name: str
    token_hash: str  # operators only
    player_id: NotRequired[str]  # the registered player who claimed it with their key (absent: a guest)


class SeatResumedData(TypedDict):
    seat: int
    player_id: str  # the seat's player, who asked for a fresh token with their player key
    token_hash: str  # operators only: the new token's (the seat's earlier tokens keep working)


class TurnTimedOutData(TypedDict):
    seat: int
    consecutive: int


class MatchAbandonedData(TypedDict):
    idle_s: int
    by: NotRequired[str]  # "operator": an operator ended it; absent: the sweeper closed an idle match


class DealCommittedData(TypedDict):
    deal: int
    commitment: str  # sha256 hex of `<salt>:<card>,<card>,...`


class DealRevealedData(TypedDict):
    deal: int
    deck: list[str]  # top first
    salt: str


MATCH_CREATED = EventType("match_created", MatchCreatedData)
SEAT_CLAIMED = EventType("seat_claimed", SeatClaimedData)
TURN_TIMED_OUT = EventType("turn_timed_out", TurnTimedOutData)
SEAT_TAKEN_OVER = EventType("seat_taken_over", SeatData)
SEAT_RETURNED = EventType("seat_returned", SeatData)
SEAT_RESET = EventType("seat_reset", SeatData)
SEAT_RESUMED = EventType("seat_resumed", SeatResumedData)
MATCH_ABANDONED = EventType("match_abandoned", MatchAbandonedData)
DEAL_COMMITTED = EventType("deal_committed", DealCommittedData)
DEAL_REVEALED = EventType("deal_revealed", DealRevealedData)
REMATCH_OFFERED = EventType("rematch_offered", RematchOfferedData)

EVENTS = registry(
    MATCH_CREATED,
    SEAT_CLAIMED,
    TURN_TIMED_OUT,
    SEAT_TAKEN_OVER,
    SEAT_RETURNED,
    SEAT_RESET,
    SEAT_RESUMED,
    MATCH_ABANDONED,
    DEAL_COMMITTED,
    DEAL_REVEALED,
    REMATCH_OFFERED,
)
