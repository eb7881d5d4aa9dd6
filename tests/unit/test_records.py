"""games/records.replace: the copies the folds make, as dataclasses.replace would make them."""

from __future__ import annotations

import dataclasses
import functools

import pytest

from games import records
from games.fiftysix.state import Round as Round56
from games.fiftysix.state import State as State56
from games.records import replace
from games.sixtysix.state import Round as Round66
from games.sixtysix.state import State as State66
from games.smear.state import Round as RoundSmear
from games.smear.state import State as StateSmear
from games.table import Table


@dataclasses.dataclass(frozen=True)
class Plain:
    a: int
    b: tuple[str, ...] = ()


@dataclasses.dataclass(frozen=True)
class Checked:
    a: int

    def __post_init__(self):
        if self.a < 0:
            raise ValueError("a must not be negative")


@dataclasses.dataclass(frozen=True)
class Cached:
    a: int

    @functools.cached_property
    def double(self) -> int:
        return 2 * self.a


@dataclasses.dataclass
class Counted:
    a: int
    seen: int = dataclasses.field(default=0, init=False)


def test_a_copy_with_changes_leaves_the_original_as_it_was():
    original = Plain(1, ("x",))
    copy = replace(original, a=2)
    assert copy == Plain(2, ("x",)) == dataclasses.replace(original, a=2)
    assert original == Plain(1, ("x",)) and type(copy) is Plain
    with pytest.raises(dataclasses.FrozenInstanceError):
        copy.a = 3  # still frozen
    assert hash(copy) == hash(Plain(2, ("x",)))


def test_unknown_fields_are_refused():
    with pytest.raises(TypeError, match="Plain has no field c"):
        replace(Plain(1), c=2)


def test_classes_with_more_than_their_fields_go_through_dataclasses_replace():
    with pytest.raises(ValueError, match="negative"):
        replace(Checked(1), a=-1)  # __post_init__ still checks
    cached = Cached(2)
    assert cached.double == 4
    assert replace(cached, a=5).double == 10  # the cached value is not carried over
    counted = Counted(1)
    counted.seen = 7
    assert replace(counted, a=2).seen == 0  # an init=False field starts anew, as dataclasses.replace has it


@pytest.mark.parametrize("cls", [Table, State66, Round66, State56, Round56, StateSmear, RoundSmear])
def test_the_records_the_folds_copy_take_the_fast_copy(cls):
    # Should one of them gain a __post_init__ or a cached property, folding would slow down (by half
    # and more) without anything failing: this says so.
    assert records._plain_fields(cls) == {f.name for f in dataclasses.fields(cls)}
