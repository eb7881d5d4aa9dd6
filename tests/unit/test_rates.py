"""Rate limit strings as the configuration gives them (service/limits.py)."""

from __future__ import annotations

import pytest

from service.limits import Rate


@pytest.mark.parametrize(
    "text, rate",
    [
        ("20/second", Rate(20, 1)),
        ("30/minute", Rate(30, 60)),
        ("60 per minute", Rate(60, 60)),
        ("100 per hour", Rate(100, 3600)),
        ("5/10 seconds", Rate(5, 10)),
        ("1000/day", Rate(1000, 86400)),
    ],
)
def test_rates_read_like_the_documented_examples(text, rate):
    assert Rate.parse(text) == rate


@pytest.mark.parametrize("text", ["", "20", "0/second", "20/fortnight", "twenty/second", "-1/minute"])
def test_anything_else_is_refused_with_the_expected_form(text):
    with pytest.raises(ValueError, match="reads like '20/second'"):
        Rate.parse(text)
