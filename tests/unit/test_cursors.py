"""The paging cursors (service/cursors.py): a page's next_cursor reads back as where it ended, and a
cursor of another list (or none at all) is refused as an invalid request naming `cursor`."""

from __future__ import annotations

import pytest

from service import cursors
from service.problems import Problem


def test_a_cursor_reads_back_as_its_position():
    assert cursors.read(cursors.events("g1", 42), cursors.EVENTS, "g1") == 42
    assert cursors.read(cursors.feed("1764471845123-0"), cursors.FEED, "feed") == "1764471845123-0"
    assert cursors.read(cursors.lobby("waiting", (1764471845123, "ab12")), cursors.LOBBY, "waiting") == (
        1764471845123,
        "ab12",
    )


def test_no_cursor_is_the_start_of_the_list():
    assert cursors.read(None, cursors.EVENTS, "g1") == 0
    assert cursors.read(None, cursors.FEED, "feed") == "0"
    assert cursors.read(None, cursors.LOBBY, "active") is None
    assert cursors.read(cursors.lobby("active", None), cursors.LOBBY, "active") is None


@pytest.mark.parametrize(
    "cursor, kind, scope",
    [
        (cursors.events("g1", 3), cursors.EVENTS, "g2"),  # another match's events
        (cursors.lobby("waiting", None), cursors.LOBBY, "active"),  # another status
        (cursors.events("g1", 3), cursors.FEED, "feed"),  # another list
        ("0", cursors.EVENTS, "g1"),
        ("not base64!", cursors.FEED, "feed"),
        ("", cursors.EVENTS, "g1"),
    ],
)
def test_a_cursor_of_another_list_is_refused(cursor, kind, scope):
    with pytest.raises(Problem) as refused:
        cursors.read(cursor, kind, scope)
    assert refused.value.status == 400 and refused.value.extensions["errors"][0]["field"] == "cursor"
