"""A private match in the browser: made from the lobby's form, not listed in the lobby, its seat taken
through the invitation link (the join code in the URL's fragment) and by no one without it.

Pages are fresh browser contexts (each its own localStorage), like three people's browsers.
"""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
import requests

from tests.e2e.browser.conftest import screenshot_dir
from tests.e2e.browser.table_driver import api_match, game_id_of, open_lobby, wait_turn
from tests.e2e.browser.test_web_audits import axe_violations

pytestmark = pytest.mark.slow


def view_of(page, game_id: str) -> dict:
    """The seat's view, read the way the page reads it (its token from localStorage)."""
    return page.evaluate(
        """id => {
        const seat = JSON.parse(localStorage.getItem('talon.seat.' + id));
        return fetch('/v1/games/' + id, {headers: {Authorization: 'Bearer ' + seat.token}}).then(r => r.json());
    }""",
        game_id,
    )


def public_view(service, game_id: str) -> dict:
    response = requests.get(service.url(f"/v1/games/{game_id}"), timeout=10)
    assert response.status_code == 200, response.text
    return response.json()


def create_private(page, service) -> str:
    """Ana makes a private two-human Sixty-Six match from the lobby's form; the game id."""
    open_lobby(page, service)
    page.fill("#player-name", "Ana")
    page.click('[data-game="sixty-six"]')
    page.select_option("#seat-1", "human")
    assert "invitation link" in page.inner_text(".private-row")
    page.check("#private-table")
    page.locator("#new-match").screenshot(path=str(screenshot_dir() / "private-create-form.png"))
    page.click("#create")
    return game_id_of(page)


def test_a_private_match_is_joined_through_its_invitation_link_only(service, new_page):
    ana, ben, carol = new_page(), new_page(), new_page()
    listed = api_match(service, "sixty-six", [{"kind": "human"}, {"kind": "human"}])  # a public one, for contrast
    game_id = create_private(ana, service)
    ana.wait_for_selector("#share-link")
    view = view_of(ana, game_id)
    assert view["private"] is True and view["seat"] == 0 and view["status"] == "waiting"
    assert "join_code" not in view  # shown once, in the creation's answer
    # The code is kept next to the seat token, and the share link is an invitation carrying it in the fragment.
    code = ana.evaluate(f"localStorage.getItem('talon.join.{game_id}')")
    assert code
    link = ana.input_value("#share-link")
    parts = urlsplit(link)
    assert parts.query == "" and parts.fragment == f"/g/{game_id}?join={code}"
    assert "token" not in link
    assert "Invitation" in ana.inner_text("#share-h") and "invitation to a private table" in ana.inner_text(
        "#share-help"
    )
    assert ana.get_attribute(".share", "data-invitation") == "true"
    ana.screenshot(path=str(screenshot_dir() / "private-invitation.png"))

    # Not in the lobby: the public match waiting beside it is listed, the private one is not.
    open_lobby(carol, service)
    carol.wait_for_selector(f'#open-matches [data-game-id="{listed}"]')
    assert carol.locator(f'[data-game-id="{game_id}"]').count() == 0
    waiting = requests.get(service.url("/v1/games?status=waiting&limit=100"), timeout=10).json()["games"]
    assert listed in [g["game_id"] for g in waiting] and game_id not in [g["game_id"] for g in waiting]

    # The plain link: no seat to take, and a sentence saying why and what to do.
    carol.goto(service.url(f"/#/g/{game_id}"))
    carol.wait_for_selector("#private-note")
    assert carol.locator("#join-button").count() == 0 and carol.locator("#join-name").count() == 0
    assert "private" in carol.inner_text("#private-note") and "invitation link" in carol.inner_text("#private-note")
    assert carol.get_attribute(".share", "data-invitation") == "false"
    assert "?join=" not in carol.input_value("#share-link")
    assert axe_violations(carol) == []
    carol.screenshot(path=str(screenshot_dir() / "private-no-invitation.png"))

    # A wrong code: the seat is refused with a plain message, and stays open.
    carol.goto(service.url(f"/#/g/{game_id}?join=not-the-code"))
    carol.wait_for_selector("#join-name")
    carol.fill("#join-name", "Carol")
    carol.click("#join-button")
    carol.wait_for_selector('[data-notice="action"]')
    assert "invitation does not open a seat" in carol.inner_text('[data-notice="action"]')
    assert carol.evaluate(f"localStorage.getItem('talon.seat.{game_id}')") is None
    assert [p["claimed"] for p in public_view(service, game_id)["players"]] == [True, False]

    # The invitation link: Ben sits down, and the match starts.
    ben.goto(link)
    ben.wait_for_selector("#join-name")
    assert "Ana invites you" in ben.inner_text("#join-h")
    assert axe_violations(ben) == []
    ben.fill("#join-name", "Ben")
    ben.click("#join-button")
    ben.wait_for_selector("#hand .card")
    assert view_of(ben, game_id)["seat"] == 1
    assert public_view(service, game_id)["status"] == "active"
    wait_turn(ana if view_of(ana, game_id)["to_act"] == [0] else ben)
    assert "Ben" in ana.inner_text("#seats")
    # Carol's page, still without a seat, now only watches.
    carol.goto(service.url(f"/#/g/{game_id}"))
    carol.wait_for_selector("#seat-1")
    assert "You are watching" in carol.inner_text("#app") and "Ben" in carol.inner_text("#seat-1")
    assert carol.locator("#join-button").count() == 0 and carol.locator("#private-note").count() == 0
