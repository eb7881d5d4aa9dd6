"""bench.requests measures what its drivers play: every request of a measured move answered with
success, each kind counted, and the report's rows made from those counts."""

from __future__ import annotations

from bench import requests


def test_both_drivers_count_every_kind_they_measure_and_the_report_compares_them():
    rounds = requests.measure(moves=60, rounds=1)
    service, bare = rounds[0]["service"], rounds[0]["bare"]
    # Every measured move is one POST and a /livez, and at least one GET (one more when the view shows
    # another seat to act); the measured moves start with a new match, its creation and claims counted.
    assert service["action"][0] == service["livez"][0] == 60
    assert service["view"][0] >= 60
    assert service["creation"][0] >= 1 and service["claim"][0] == 2 * service["creation"][0]
    assert bare["get"][0] == bare["post"][0] == 60
    assert all(ns > 0 for _, ns in [*service.values(), *bare.values()])
    report = requests.report(rounds, moves=60)
    assert "POST (an action / an entry)" in report and "per move" in report and "GET /livez" in report
