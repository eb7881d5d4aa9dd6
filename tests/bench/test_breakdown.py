"""bench.breakdown times what its driver plays: the timed blocks are called as often as the moves call
them, and every measured POST is sorted by what its append wrote."""

from __future__ import annotations

from bench import breakdown


def test_the_blocks_count_the_calls_of_the_measured_moves_and_every_post_is_sorted_by_its_append():
    figures = breakdown.measure(moves=60)
    requests, blocks, posts = figures["requests"], figures["blocks"], figures["posts"]
    assert requests["action"][0] == 60
    assert blocks["app.matches.Matches.act"][0] == 60  # one decision per POST
    appends = blocks["events.store.EventStore.append"][0]
    assert appends == 60 + blocks["app.matches.Matches.claim_seat"][0] + blocks["app.matches.Matches.create_match"][0]
    answered = sum(count for count, _ in requests.values())
    assert blocks["service.observability.RequestTelemetry.__call__"][0] == answered
    assert all(ns > 0 for _, ns in blocks.values())
    # Every POST appended once; the seeded matches end deals within 60 moves (a snapshot with the deal).
    assert sum(len(times) for times in posts.values()) == 60
    assert "1 event" in posts and any(written.endswith("+ snapshot") for written in posts)
    report = breakdown.report(figures)
    assert "EventStore.append" in report and "POSTs by what their append wrote" in report
