"""bench.lines counts the lines the apps run for the measured moves, and only theirs: the same count on
every run, nothing of the driver's, the game's code in the service's count alone."""

from __future__ import annotations

from bench import lines


def test_the_count_is_the_apps_own_the_same_each_run_and_reported_by_excess():
    first, second = lines.measure(moves=20), lines.measure(moves=20)
    service, bare = first["service"], first["bare"]
    assert abs(sum(second["service"].values()) - sum(service.values())) <= 0.01 * sum(service.values())
    assert sum(second["bare"].values()) == sum(bare.values())
    assert not any(name.startswith("werkzeug/test.py") or name.startswith("bench/requests.py") for name in service)
    assert service.get("games/table.py", 0) > 0 and not any(name.startswith("games/") for name in bare)
    assert bare.get("bench/bare.py", 0) > 0
    report = lines.report(first, 20, top=5).splitlines()
    assert report[0].startswith("lines of Python a move runs") and len(report) == 2 + 5
    excesses = [int(row.split()[-1]) for row in report[2:]]
    assert excesses == sorted(excesses, reverse=True)
