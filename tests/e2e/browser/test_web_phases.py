"""Every phase of every game on a phone (390×844): the hand stays inside the screen, whatever panel is
open (bidding, the widow, the hint, a dialog). Each phase is kept as a screenshot at both sizes
(390×844 and 1366×800) in the test artifacts.
"""

from __future__ import annotations

import pytest

from tests.e2e.browser.conftest import DESKTOP, PHONE, screenshot_dir
from tests.e2e.browser.table_driver import (
    MAX_ACTIONS,
    create_match,
    default_move,
    has,
    next_deal,
    open_lobby,
    quick_play,
    state,
    wait_ready,
    wait_turn,
)

pytestmark = pytest.mark.slow


def hand_inside(page, size: dict) -> list[str]:
    """What sticks out of the screen: the hand, or any card of it."""
    problems = []
    for index, box in enumerate(
        page.locator("#hand, #hand .card").evaluate_all(
            "nodes => nodes.map(n => { const r = n.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; })"
        )
    ):
        x, y, w, h = box
        if w == 0 or h == 0 or x < -0.5 or y < -0.5 or x + w > size["width"] + 0.5 or y + h > size["height"] + 0.5:
            problems.append(f"{'hand' if index == 0 else f'card {index}'} at {[round(v) for v in box]}")
    return problems


def resize(page, size: dict):
    """A new screen size, and the frame after it (the seats are placed again on resize)."""
    page.set_viewport_size(size)
    page.evaluate("new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")


def look(page, label: str, seen: set, failures: list):
    """At each new (state, phase): the hand must be in view on the phone; both sizes are kept."""
    key = (state(page), page.evaluate("document.body.dataset.phase"), page.locator("#hint-text").count() > 0)
    if key in seen:
        return
    seen.add(key)
    name = f"{label}-{key[0]}-{key[1]}{'-hint' if key[2] else ''}"
    page.screenshot(path=str(screenshot_dir() / f"phase-{name}-phone.png"))
    if problems := hand_inside(page, PHONE):
        failures.append(f"{name}: {', '.join(problems)}")
    resize(page, DESKTOP)
    page.screenshot(path=str(screenshot_dir() / f"phase-{name}-desktop.png"))
    if problems := hand_inside(page, DESKTOP):
        failures.append(f"{name} (desktop): {', '.join(problems)}")
    resize(page, PHONE)


def play_one_deal(page, label: str) -> list[str]:
    """Plays until a deal is scored, looking at the hand in every phase it meets (and with the hint open
    once per phase)."""
    seen, failures, hinted = set(), [], set()
    current = wait_ready(page)
    for _ in range(MAX_ACTIONS):
        look(page, label, seen, failures)
        if current == "deal-over":
            next_deal(page)
            look(page, label, seen, failures)
            break
        phase = page.evaluate("document.body.dataset.phase")
        if phase not in hinted and has(page, "#hint"):
            hinted.add(phase)
            page.click("#hint")
            page.wait_for_selector("#hint-text")
            look(page, label, seen, failures)
        current = default_move(page)
    return failures


@pytest.mark.parametrize("game", ["sixty-six", "fifty-six"])
def test_the_hand_stays_on_a_phone_screen_in_every_phase(service, new_page, game):
    page = new_page(viewport=PHONE)
    quick_play(page, service, game)
    assert play_one_deal(page, game) == []


def test_the_hand_stays_on_a_phone_screen_in_smear_with_a_widow(service, new_page):
    page = new_page(viewport=PHONE)
    open_lobby(page, service)
    # Ana speaks first and bids 4, so the widow and the discard are hers.
    create_match(page, "smear", "Ana", options={"widow_size": 3, "first_dealer": 3})
    wait_turn(page)
    page.click('#bid-box [data-bid="4"]')
    wait_ready(page)
    assert has(page, "#discard-box")
    assert play_one_deal(page, "smear-widow") == []


@pytest.mark.parametrize(
    "game, options, players",
    [
        ("sixty-six", {"variant": "3p"}, 3),
        ("sixty-six", {"variant": "4p"}, 4),
        ("fifty-six", {"players": 6}, 6),
        ("fifty-six", {"players": 8}, 8),
    ],
)
def test_seats_sit_around_the_table(service, new_page, game, options, players):
    """3, 4, 6 and 8 players around the table, you at the bottom and your partner opposite."""
    page = new_page(viewport=PHONE)
    open_lobby(page, service)
    create_match(page, game, "Ana", options=options)
    wait_ready(page)
    ring = page.locator("#ring").bounding_box()
    boxes = {int(s): page.locator(f"#seat-{s}").bounding_box() for s in range(players)}
    centre = lambda b: (b["x"] + b["width"] / 2, b["y"] + b["height"] / 2)  # noqa: E731
    me_x, me_y = centre(boxes[0])
    assert me_y > ring["y"] + ring["height"] * 0.7  # you sit at the bottom
    if players % 2 == 0:
        partner = players // 2
        px, py = centre(boxes[partner])
        assert py < ring["y"] + ring["height"] * 0.3 and abs(px - me_x) < 8  # the partner opposite
    for box in boxes.values():  # every seat inside the table
        assert box["x"] >= ring["x"] - 1 and box["x"] + box["width"] <= ring["x"] + ring["width"] + 1
    assert hand_inside(page, PHONE) == []
    page.screenshot(path=str(screenshot_dir() / f"seats-{game}-{players}-phone.png"))
    resize(page, DESKTOP)
    page.screenshot(path=str(screenshot_dir() / f"seats-{game}-{players}-desktop.png"))
