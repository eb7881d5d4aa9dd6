"""Small HTTP helpers the end-to-end tests share: auth headers, creating a match, reading a whole log."""

from __future__ import annotations

import time
from collections.abc import Callable

import requests

from tests.e2e.conftest import Service

MAX_PAGES = 400
WAIT_S = 5  # one long-poll, while a bot or the worker moves


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def create(http: requests.Session, service: Service, game: str, seats: list[dict], options: dict, seed: int) -> str:
    """A match created by the operator (so it may fix the seed); returns its id."""
    created = http.post(
        service.url("/v1/games"),
        headers=bearer(service.operator_token),
        timeout=5,
        json={"game": game, "options": options, "seed": seed, "seats": seats},
    )
    assert created.status_code == 201, created.text
    return created.json()["game_id"]


def next_view(http: requests.Session, service: Service, game_id: str, view: dict, headers: dict | None = None) -> dict:
    """The view once the version has moved past `view`'s (one long-poll of up to WAIT_S), else `view`."""
    response = http.get(
        service.url(f"/v1/games/{game_id}"),
        params={"wait": WAIT_S},
        timeout=WAIT_S + 5,
        headers={**(headers or {}), "If-None-Match": f'"{view["version"]}"'},
    )
    assert response.status_code in (200, 304), response.text
    return response.json() if response.status_code == 200 else view


def spectator_sees_no_hand(view: dict) -> None:
    """A check for `spectate`: a spectator's view of a round in play shows no hand."""
    assert view["round"]["hand"] is None


def spectate(
    http: requests.Session,
    service: Service,
    game_id: str,
    timeout_s: float,
    check: Callable[[dict], None] = lambda view: None,
) -> dict:
    """Follows the match as a spectator until it is finished (failing after `timeout_s`); `check` sees
    every view that comes in. Returns the last view."""
    deadline = time.monotonic() + timeout_s
    view = http.get(service.url(f"/v1/games/{game_id}"), timeout=5).json()
    while view["status"] != "finished":
        assert time.monotonic() < deadline, f"the match did not finish within {timeout_s} s"
        moved = next_view(http, service, game_id, view)
        if moved is not view:
            check(moved)
        view = moved
    return view


def event_log(
    http: requests.Session, service: Service, game_id: str, headers: dict, ops: bool = False, max_pages: int = MAX_PAGES
) -> list[dict]:
    """Every event the caller may see (the operator's full log with ops=True), page by page."""
    path = f"/v1/ops/games/{game_id}/events" if ops else f"/v1/games/{game_id}/events"
    events, cursor = [], None
    for _ in range(max_pages):
        params = {"limit": 500, **({"cursor": cursor} if cursor else {})}
        page = http.get(service.url(path), params=params, headers=headers, timeout=5)
        assert page.status_code == 200, page.text
        body = page.json()
        events += body["events"]
        cursor = body["next_cursor"]
        if not body["has_more"]:
            return events
    raise AssertionError(f"the event log did not end within {max_pages} pages")
