"""Small HTTP helpers the end-to-end tests share: auth headers, creating a match, reading a whole log."""
from __future__ import annotations

import requests

from tests.e2e.conftest import Service

MAX_PAGES = 400


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def create(http: requests.Session, service: Service, game: str, seats: list[dict], options: dict, seed: int) -> str:
    """A match created by the operator (so it may fix the seed); returns its id."""
    created = http.post(service.url("/v1/games"), headers=bearer(service.operator_token), timeout=5, json={
        "game": game, "options": options, "seed": seed, "seats": seats})
    assert created.status_code == 201, created.text
    return created.json()["game_id"]


def event_log(http: requests.Session, service: Service, game_id: str, headers: dict, ops: bool = False,
              max_pages: int = MAX_PAGES) -> list[dict]:
    """Every event the caller may see (the operator's full log with ops=True), page by page."""
    path = f"/v1/ops/games/{game_id}/events" if ops else f"/v1/games/{game_id}/events"
    events, after = [], 0
    for _ in range(max_pages):
        page = http.get(service.url(path), params={"after": after, "limit": 500}, headers=headers, timeout=5)
        assert page.status_code == 200, page.text
        body = page.json()
        events += body["events"]
        after = body["next_after"]
        if not body["has_more"]:
            return events
    raise AssertionError(f"the event log did not end within {max_pages} pages")
