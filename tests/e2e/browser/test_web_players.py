"""A player's profile and the leaderboards in Chromium, against the real service: two players play
each other by key over HTTP, then the profile shows their rating and the match, and the leaderboard
page says who is on it and why not yet."""

from __future__ import annotations

import random
import time

import pytest
import requests

from tests.e2e.browser import test_web_audits as audits
from tests.e2e.browser.conftest import DESKTOP, PHONE, screenshot_dir

audited_page = audits.audited_page  # the audits' fixture: pages that take the injected axe-core
axe_violations = audits.axe_violations

MATCH = {
    "game": "sixty-six",
    "options": {"match_target": 1, "first_dealer": 0},
    "seats": [{"kind": "human"}, {"kind": "human"}],
}


def _register(service, name: str) -> tuple[str, str]:
    created = requests.post(service.url("/v1/players"), json={"name": name}, timeout=10)
    assert created.status_code == 201, created.text
    return created.json()["player_id"], created.json()["player_key"]


def _play_to_the_end(service, game_id: str, tokens: dict[int, str]) -> dict:
    """Random legal moves by whichever seat the match waits for; the workers do what they owe."""
    rng = random.Random(3)
    url = service.url(f"/v1/games/{game_id}")
    view = requests.get(url, timeout=10).json()
    while view["status"] != "finished":
        if not view["to_act"]:  # the workers' turn: wait for the next version
            view = requests.get(
                url, params={"wait": 5}, headers={"If-None-Match": f'"{view["version"]}"'}, timeout=10
            ).json()
            continue
        seat = view["to_act"][0]
        auth = {"Authorization": f"Bearer {tokens[seat]}"}
        mine = requests.get(url, headers=auth, timeout=10).json()
        played = requests.post(f"{url}/actions", json=rng.choice(mine["legal_actions"]), headers=auth, timeout=10)
        assert played.status_code == 201, played.text
        view = requests.get(url, timeout=10).json()
    return view


def _finished_match(service) -> tuple[str, str, bool]:
    """Ana and Bo play a match by key to its end, recorded in their histories: (Ana's id, Bo's, Ana won)."""
    ana, ana_key = _register(service, "Ana")
    bo, bo_key = _register(service, "Bo")
    game_id = requests.post(service.url("/v1/games"), json=MATCH, timeout=10).json()["game_id"]
    tokens = {}
    for key, name in ((ana_key, "Ana"), (bo_key, "Bo")):
        claimed = requests.post(
            service.url(f"/v1/games/{game_id}/players"),
            json={"name": name},
            headers={"Authorization": f"Bearer {key}"},
            timeout=10,
        ).json()
        tokens[claimed["seat"]] = claimed["token"]
    final = _play_to_the_end(service, game_id, tokens)
    ana_won = final["winner"] == [0]
    deadline = time.monotonic() + 20  # the worker's projection job records the match's end
    while not requests.get(service.url(f"/v1/players/{ana}/matches"), timeout=10).json()["matches"]:
        assert time.monotonic() < deadline, "the match never reached Ana's history"
        time.sleep(0.2)
    return ana, bo, ana_won


def test_a_players_profile_and_the_leaderboard(service, new_page):
    ana, bo, ana_won = _finished_match(service)
    page = new_page()
    page.goto(service.url(f"/#/players/{ana}"))
    page.wait_for_selector("#history-rows tr[data-outcome]")
    assert page.inner_text("#profile-h") == "Ana" and page.title() == "Ana · Talon"
    rating = page.inner_text("#ratings tr[data-game='sixty-six']")
    assert "Sixty-Six" in rating and ("1662" if ana_won else "1338") in rating and "±290" in rating
    row = page.locator("#history-rows tr").first
    assert row.get_attribute("data-outcome") == ("won" if ana_won else "lost")
    assert ("won" if ana_won else "lost") in row.inner_text() and "1500 → " in row.inner_text()
    assert page.is_hidden("#history-more")
    page.screenshot(path=str(screenshot_dir() / "profile.png"), full_page=True)

    row.locator(f"a[href='#/players/{bo}']").click()  # the opponent's profile
    page.wait_for_function("document.querySelector('#profile-h')?.textContent === 'Bo'")
    page.wait_for_selector("#history-rows tr[data-outcome]")
    assert page.locator("#history-rows tr").first.get_attribute("data-outcome") == ("lost" if ana_won else "won")

    page.click("#ratings a[href='#/leaderboards/sixty-six']")
    page.wait_for_selector("#board-threshold")
    assert page.inner_text("#board-h") == "Leaderboard: Sixty-Six"
    assert page.is_visible("#leaderboard-empty")  # one match each: below the thresholds
    assert "10 rated matches" in page.inner_text("#board-threshold") and "110" in page.inner_text("#board-threshold")
    page.click("nav.tabs a[href='#/leaderboards/smear']")
    page.wait_for_function("document.querySelector('#board-h')?.textContent === 'Leaderboard: Smear'")
    page.goto(service.url("/#/"))
    page.click("details.settings summary")  # the top bar's menu links to them
    page.click("#leaderboards-link")
    page.wait_for_function("document.querySelector('#board-h')?.textContent === 'Leaderboard: Sixty-Six'")
    assert page.console_errors == [] and page.failed_responses == []


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_axe_finds_nothing_serious_on_a_profile_and_a_leaderboard(service, audited_page, viewport):
    ana, _, _ = _finished_match(service)
    page = audited_page(viewport)
    page.goto(service.url(f"/#/players/{ana}"))
    page.wait_for_selector("#history-rows tr[data-outcome]")
    found = {"profile": axe_violations(page)}
    page = audited_page(viewport)
    page.goto(service.url("/#/leaderboards/fifty-six"))
    page.wait_for_selector("#board-threshold")
    found["leaderboard"] = axe_violations(page)
    assert {where: v for where, v in found.items() if v} == {}
