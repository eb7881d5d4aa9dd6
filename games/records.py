"""`replace(record, **changes)`: `dataclasses.replace` for the engines' frozen dataclasses, without
running `__init__` again.

Folding an event copies the table, the game state and the round with a few fields changed, a few times
per event. `dataclasses.replace` makes each copy through the class's `__init__`, which in a frozen
dataclass sets every field through `object.__setattr__`: that was most of what folding one event cost.
For a plain frozen dataclass (every field set by `__init__`, no `__post_init__`, no `__slots__`) the copy
is its instance dict with the changes, which is what this makes; any other class goes through
`dataclasses.replace`. Unknown field names are refused as `dataclasses.replace` refuses them.
"""

from __future__ import annotations

import dataclasses
import functools
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from _typeshed import DataclassInstance  # typeshed's protocol of a dataclass instance: no run-time name

R = TypeVar("R", bound="DataclassInstance")

_FIELDS: dict[type, frozenset[str] | None] = {}  # per class: its field names, or None if not plain


def replace(record: R, /, **changes: object) -> R:
    cls = type(record)
    names = _FIELDS.get(cls, ...)
    if names is ...:
        names = _FIELDS[cls] = _plain_fields(cls)
    if names is None:
        return dataclasses.replace(record, **changes)
    if not names.issuperset(changes):
        unknown = ", ".join(sorted(set(changes) - names))
        raise TypeError(f"{cls.__name__} has no field {unknown}")
    copy = object.__new__(cls)
    state = copy.__dict__
    state.update(record.__dict__)
    state.update(changes)
    return copy


def _plain_fields(cls: type) -> frozenset[str] | None:
    """The field names of a dataclass whose instance dict is all its state, else None."""
    if not dataclasses.is_dataclass(cls) or hasattr(cls, "__slots__") or hasattr(cls, "__post_init__"):
        return None
    fields = dataclasses.fields(cls)
    # A cached_property keeps its value in the instance dict: a copy would carry it over, stale.
    cached = any(
        isinstance(attribute, functools.cached_property) for klass in cls.__mro__ for attribute in vars(klass).values()
    )
    if cached or any(not f.init for f in fields):
        return None
    return frozenset(f.name for f in fields)
