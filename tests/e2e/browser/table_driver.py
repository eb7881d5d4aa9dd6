"""Driving the web table like a person: clicks, and waits on the page's own signals.

The page's body carries `data-state` (loading, lobby, my-turn, waiting, busy, animating, deal-over,
finished), `data-version` (the game version the table shows) and `data-phase`; the helpers wait on
those, never on sleeps.
"""

from __future__ import annotations

import requests

TURN_TIMEOUT_MS = 20_000
MAX_ACTIONS = 400
READY = ("my-turn", "deal-over", "finished")


def open_lobby(page, service):
    page.goto(service.url("/"))
    page.wait_for_selector("#quick-sixty-six")


def game_id_of(page) -> str:
    page.wait_for_function("location.hash.startsWith('#/g/')")
    return page.url.rsplit("/", 1)[1]


def quick_play(page, service, game: str, name: str = "Ana") -> str:
    open_lobby(page, service)
    page.fill("#player-name", name)
    page.click(f"#quick-{game}")
    return game_id_of(page)


def create_match(page, game: str, name: str, seats: dict[int, str] | None = None, options: dict | None = None) -> str:
    """Fills the lobby's form (rules and table options unfolded as needed) and creates; the game id."""
    page.fill("#player-name", name)
    page.click(f'[data-game="{game}"]')
    for option, value in (options or {}).items():
        field = page.locator(f"#opt-{option}")
        field.evaluate("e => { e.closest('details').open = true; }")
        if field.get_attribute("type") == "checkbox":
            field.set_checked(bool(value))
        elif field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(str(value))
        else:
            field.fill(str(value))
            field.dispatch_event("change")
    for seat, kind in (seats or {}).items():
        page.select_option(f"#seat-{seat}", kind)
    page.click("#create")
    return game_id_of(page)


def api_match(service, game: str, seats: list[dict], options: dict | None = None, seed: int | None = None) -> str:
    """A match made through the API (with the operator's seed when given, for a deal known in advance)."""
    body = {"game": game, "seats": seats, "options": options or {}}
    headers = {}
    if seed is not None:
        body["seed"] = seed
        headers["Authorization"] = f"Bearer {service.operator_token}"
    response = requests.post(service.url("/v1/games"), json=body, headers=headers, timeout=10)
    assert response.status_code == 201, response.text
    return response.json()["game_id"]


def join_by_link(page, service, game_id: str, name: str):
    """A friend opens the share link and takes the open seat: the page opens on "Take a seat"."""
    page.goto(service.url(f"/#/g/{game_id}"))
    page.wait_for_selector("#join-name")
    assert page.evaluate("document.activeElement.id") == "join-name"
    page.fill("#join-name", name)
    page.click("#join-button")
    page.wait_for_selector("#hand .card")


def state(page) -> str:
    return page.evaluate("document.body.dataset.state")


def version(page) -> int:
    return int(page.evaluate("document.body.dataset.version"))


def wait_ready(page, after: int | None = None) -> str:
    """Until the table waits for this player (a move, the deal-end dialog) or the match is over."""
    page.wait_for_function(
        """([ready, v]) => ready.includes(document.body.dataset.state)
                          && (v === null || Number(document.body.dataset.version) > v)""",
        arg=[list(READY), after],
        timeout=TURN_TIMEOUT_MS,
    )
    return state(page)


def wait_turn(page, after: int | None = None) -> str:
    """Until it is this seat's turn or the match is over, going on past the deal-end dialogs."""
    while (current := wait_ready(page, after)) == "deal-over":
        next_deal(page)
        after = None
    return current


def next_deal(page):
    page.click("#next-deal")
    page.wait_for_function("document.body.dataset.state !== 'deal-over'")


def click_and_wait(page, selector: str, confirm: bool = False) -> str:
    """One move; waits until the table is ready again (which may be the deal-end dialog)."""
    before = version(page)
    page.click(selector)
    if confirm:
        page.click("#confirm-ok")
    return wait_ready(page, before)


def has(page, selector: str) -> bool:
    return page.locator(selector).count() > 0


def default_move(page) -> str:
    """A plain decision for any game and phase: go on after a deal, draw, pass the bidding when
    allowed (else the lowest bid), discard the first cards allowed, else play the first playable card."""
    current = state(page)
    if current == "deal-over":
        next_deal(page)
        return wait_ready(page)
    if has(page, '[data-action="draw"]'):
        return click_and_wait(page, '[data-action="draw"]')
    if has(page, '[data-action="pass"]'):
        return click_and_wait(page, '[data-action="pass"]')
    if has(page, "#bid-send"):  # Fifty-Six: the first suit at the lowest value
        page.click("#bid-box [data-bid-suit] >> nth=0")
        return click_and_wait(page, "#bid-send")
    if has(page, "#bid-box [data-bid]"):
        return click_and_wait(page, "#bid-box [data-bid] >> nth=0")
    if has(page, "#discard-box"):
        return discard_first(page)
    return click_and_wait(page, "#hand .card.playable >> nth=0")


def discard_first(page) -> str:
    """Smear's widow: picks the first cards that may go (the named trump stays) and discards."""
    need = page.locator("#hand .card").count() - 6
    for _ in range(need):
        page.click("#hand .card.selectable:not(.picked) >> nth=0")
    return click_and_wait(page, "#discard")


def scored_rows(page) -> int:
    return page.locator("#score-sheet tbody tr:not(:has(.empty))").count()
