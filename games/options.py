"""What the games' options have in common: the frozen `Options` record's round trip through plain dicts
(events and snapshots carry options as JSON), and the checks that refuse a bad value with
OptionError(field, message), worded the same in every game.
"""

from __future__ import annotations

from dataclasses import Field, fields
from typing import Any, ClassVar, Self

from games.engine import OptionDict
from games.errors import OptionError


class OptionRecord:
    """Base of each game's frozen `Options` dataclass."""

    # Set by @dataclass on each subclass; declared here so that the type checker lets `fields` read it.
    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]

    def as_dict(self) -> OptionDict:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, data: OptionDict) -> Self:
        """The record of a normalized options dict; keys it does not name (`first_dealer`) are left out."""
        names = cls.names()
        return cls(**{k: v for k, v in data.items() if k in names})

    @classmethod
    def names(cls) -> frozenset[str]:
        return frozenset(f.name for f in fields(cls))


def choice(name: str, value: object, allowed: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in allowed:
        raise OptionError(name, f"{name} must be one of {', '.join(allowed)}")
    return value


def boolean(name: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise OptionError(name, f"{name} must be true or false")
    return value


def whole_number(name: str, value: object, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise OptionError(name, f"{name} must be a whole number from {low} to {high}")
    return value
