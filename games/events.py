"""Events as typed records: the shape every event has, the type of each event's data, and the records
more than one game writes alike.

At run time an event is the plain JSON-able dict `{"type": str, "actor": int | None, "data": {...}}`
that the event store keeps, the API shows and old logs hold; nothing here changes that. For the type
checker each event type is an `EventType`: its name paired with a TypedDict of its data. A game's
`decide` makes its events by calling them (`DEALT(None, {...})`: mypy checks the data against the
TypedDict), and its `evolve` and `event_view` find their handler in tables built by `folded_by` and
`handled_by` (mypy checks that the handler takes that same TypedDict). So what is produced and what is
folded are checked against one declaration. Each game lists its event types in `EVENTS` (its
`events.py`), the registry the engine contract exposes as `event_types`. Only events made by an
EventType are checked so: an `Event` dict written out by hand passes mypy with any type and data, which
is why none is, and why tests/unit/test_event_types.py holds whole matches' events to the registries.

No `from __future__ import annotations` in the modules that declare event data: under Python 3.11 a
TypedDict only sees `NotRequired` in annotations it can evaluate, and the registry's
`__required_keys__`/`__optional_keys__` must say which keys may be left out.
"""

from collections.abc import Callable, Mapping
from typing import Any, Concatenate, Generic, ParamSpec, TypedDict, TypeVar, cast

# An event's data as the store and the generic code (the table, the views) hold it: a JSON object whose
# record type only the event's `type` tells, at run time.
EventData = Mapping[str, object]


class Event(TypedDict):
    type: str
    actor: int | None  # the seat that acted; None: the system
    data: EventData


D = TypeVar("D", bound=EventData)
S = TypeVar("S")
R = TypeVar("R")
P = ParamSpec("P")


class EventType(Generic[D]):
    """One event type: its name and the TypedDict of its data. Calling it makes an event."""

    __slots__ = ("name", "data")

    def __init__(self, name: str, data: type[D]):
        self.name = name
        self.data = data

    def __repr__(self) -> str:
        return f"EventType({self.name!r}, {self.data.__name__})"

    def __call__(self, actor: int | None, data: D) -> Event:
        return {"type": self.name, "actor": actor, "data": data}

    def folded_by(self, mutator: Callable[[S, D], R]) -> tuple[str, Callable[[S, EventData], R]]:
        """This type's entry in a fold table: the function of a state (a game's, the table) and this type's
        data that applies its events (a game's mutators return the new state)."""
        # The table is looked up by the event's `type`, which picks this entry only for this type's
        # data: the data's record type is known at run time alone, so mypy is told it here, once.
        return self.name, cast(Callable[[S, EventData], R], mutator)

    def handled_by(self, handler: Callable[Concatenate[D, P], R]) -> tuple[str, Callable[Concatenate[EventData, P], R]]:
        """This type's entry in a table of functions of its data first (a view's hiders)."""
        # As in folded_by: the lookup by `type` is what makes the data this type's record.
        return self.name, cast(Callable[Concatenate[EventData, P], R], handler)

    def data_of(self, event: Event) -> D:
        """The data of `event`, an event of this type, as its record (checked: AssertionError for another type)."""
        assert event["type"] == self.name, f"a {event['type']} event is not a {self.name} event"
        # Checked just above: this type's events carry this type's data record.
        return cast(D, event["data"])


# A registry takes event types of any data record: their TypedDicts differ, and EventType is invariant.
def registry(*types: EventType[Any]) -> dict[str, type]:
    """event type name -> the TypedDict of its data."""
    return {t.name: t.data for t in types}


# --- records several games write alike --------------------------------------------------------------


class CardPlay(TypedDict):
    """One card of a trick: who played it."""

    seat: int
    card: str


class Side(TypedDict):
    """One entry of a match's standing: a side's (or team's) seats and its score."""

    seats: list[int]
    score: int


class PlayedData(TypedDict):
    seat: int
    card: str


class TrickTakenData(TypedDict):
    """Sixty-Six and Fifty-Six: the trick's cards in play order and the card points it took."""

    winner: int
    cards: list[CardPlay]
    points: int


class NoData(TypedDict):
    """`round_ended`: the last trick is taken; the system scores the deal next."""


class SeatData(TypedDict):
    seat: int


class MatchEndedData(TypedDict):
    """Sixty-Six and Fifty-Six: the winning side's seats and the final standing."""

    winner: list[int]
    standing: list[Side]


PLAYED = EventType("played", PlayedData)
TRICK_TAKEN = EventType("trick_taken", TrickTakenData)
ROUND_ENDED = EventType("round_ended", NoData)
MATCH_ENDED = EventType("match_ended", MatchEndedData)
