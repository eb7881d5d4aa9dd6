"""The rematch and the replay in the browser, against the real service (Redis, gunicorn, an rq worker).

Two players at a finished match: one clicks Rematch and lands seated in the new match; the other's
match-end dialog turns into "Join the rematch" by itself, and one click seats them too. The replay
viewer steps back and forth through a finished match with its buttons and its slider, every hand shown
as the API's replay gives it. The matches are played out through the API (random legal moves) to keep
the tests short; the pages follow them as they do any match.
"""

from __future__ import annotations

import random

import pytest
import requests

from tests.e2e.browser.table_driver import api_match

pytestmark = pytest.mark.slow

SHORT = {"match_target": 1, "first_dealer": 1}  # one game point: one deal ends the match


def auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def play_out(service, game_id: str, tokens: list[str]) -> dict:
    """Random legal moves for the human seats until the match is over (a long-poll waits for
    what the workers owe). The last spectator's view."""
    rng, url = random.Random(5), service.url(f"/v1/games/{game_id}")
    for _ in range(400):
        views = [requests.get(url, headers=auth(token), timeout=10).json() for token in tokens] or [
            requests.get(url, timeout=10).json()
        ]
        if views[0]["status"] == "finished":
            return views[0]
        mover = next(((token, view) for token, view in zip(tokens, views) if view["legal_actions"]), None)
        if mover is None:
            requests.get(f"{url}?wait=5", headers={"If-None-Match": f'"{views[0]["version"]}"'}, timeout=15)
            continue
        token, view = mover
        posted = requests.post(
            f"{url}/actions", json=rng.choice(view["legal_actions"]), headers=auth(token), timeout=10
        )
        assert posted.status_code in (201, 409), posted.text  # 409: a seat's move raced the worker's step
    raise AssertionError("the match did not finish")


def seated_page(new_page, service, game_id: str, seat: dict):
    """A page holding the seat (its token in localStorage, as after taking the seat) at the table."""
    page = new_page()
    page.goto(service.url("/"))
    page.evaluate(
        "([g, s]) => localStorage.setItem('talon.seat.' + g, JSON.stringify(s))",
        [game_id, {"seat": seat["seat"], "token": seat["token"], "at": 1}],
    )
    page.goto(service.url(f"/#/g/{game_id}"))
    page.wait_for_function("document.body.dataset.state && document.body.dataset.state !== 'loading'")
    return page


def until_match_end(page):
    """Past the last deal's dialog to the match's end."""
    for _ in range(5):
        page.wait_for_function("['deal-over', 'finished'].includes(document.body.dataset.state)", timeout=20_000)
        if page.evaluate("document.body.dataset.state") == "finished":
            break
        page.click("#next-deal")
    page.wait_for_selector("#match-end")


def view_of(page, game_id: str) -> dict:
    return page.evaluate(
        """id => {
        const seat = JSON.parse(localStorage.getItem('talon.seat.' + id));
        return fetch('/v1/games/' + id, {headers: {Authorization: 'Bearer ' + seat.token}}).then(r => r.json());
    }""",
        game_id,
    )


def test_two_players_take_their_seats_in_the_rematch_from_the_match_end(service, new_page):
    game_id = api_match(service, "sixty-six", [{"kind": "human"}, {"kind": "human"}], SHORT)
    seats = [
        requests.post(service.url(f"/v1/games/{game_id}/players"), json={"name": name}, timeout=10).json()
        for name in ("Ana", "Bo")
    ]
    ana, bo = (seated_page(new_page, service, game_id, seat) for seat in seats)
    play_out(service, game_id, [seat["token"] for seat in seats])
    for page in (ana, bo):
        until_match_end(page)
        assert page.inner_text("#rematch") == "Rematch"
        assert page.get_attribute("#watch-replay", "href") == f"#/r/{game_id}"

    # Ana asks for the rematch: she lands in it, seated, waiting for Bo.
    ana.click("#rematch")
    ana.wait_for_function("id => location.hash.startsWith('#/g/') && !location.hash.endsWith(id)", arg=game_id)
    rematch_id = ana.url.rsplit("/", 1)[1]
    # Bo's dialog learns of the offer by itself.
    bo.wait_for_function("document.getElementById('rematch')?.textContent === 'Join the rematch'", timeout=20_000)
    bo.click("#rematch")
    bo.wait_for_function("id => location.hash === '#/g/' + id", arg=rematch_id)
    for page in (ana, bo):
        page.wait_for_selector("#hand .card", timeout=20_000)
    new_ana, new_bo = view_of(ana, rematch_id), view_of(bo, rematch_id)
    assert (new_ana["seat"], new_bo["seat"]) == (0, 1)
    assert new_ana["status"] == "active" and [p["name"] for p in new_ana["players"]] == ["Ana", "Bo"]
    assert new_ana["rematch_of"] == game_id and new_ana["options"]["first_dealer"] == 0
    assert view_of(bo, game_id)["rematch"] == {"game_id": rematch_id}


def test_the_replay_viewer_steps_through_a_finished_match_with_every_hand(service, new_page):
    game_id = api_match(
        service, "sixty-six", [{"kind": "bot", "level": "basic"}, {"kind": "bot", "level": "random"}], SHORT
    )
    last = play_out(service, game_id, [])["version"]

    def replay(version: int) -> dict:
        return requests.get(service.url(f"/v1/games/{game_id}/replay?version={version}"), timeout=10).json()

    def shown(page, version: int) -> list[list[str]]:
        page.wait_for_function(
            "v => document.body.dataset.state === 'replay' && document.body.dataset.version === v", arg=str(version)
        )
        return page.evaluate("""() => [...document.querySelectorAll('.replay-seat')].map(
            seat => [...seat.querySelectorAll('.card')].map(card => card.dataset.card))""")

    page = new_page()
    page.goto(service.url(f"/#/r/{game_id}"))
    assert shown(page, 1) == []  # before the first deal: nobody holds cards yet
    page.wait_for_selector("#replay-no-deal")
    assert page.get_attribute("#replay-slider", "max") == str(last)
    assert page.is_disabled("#replay-previous") and page.is_disabled("#replay-first")
    # Forward, step by step, to the first deal: both hands, as the replay gives them.
    version = 1
    while replay(version)["hands"] is None:
        page.click("#replay-next")
        version += 1
        shown(page, version)
    hands = shown(page, version)
    assert hands == replay(version)["hands"] and [len(h) for h in hands] == [6, 6]
    assert "Step" in page.inner_text("#replay-position")
    # The slider: End goes to the match's end, the arrows one step at a time.
    page.focus("#replay-slider")
    page.keyboard.press("End")
    assert shown(page, last) == replay(last)["hands"]
    assert page.is_disabled("#replay-next")
    final = replay(last)["view"]["standing"]
    assert [s.split()[-1] for s in page.locator("#replay-standing li").all_inner_texts()] == [
        str(side["score"]) for side in final
    ]
    page.keyboard.press("ArrowLeft")
    assert shown(page, last - 1) == replay(last - 1)["hands"]
    # Back with the button, to a card played in the middle of the deal: its sentence and the card on the table.
    events = requests.get(service.url(f"/v1/games/{game_id}/events?limit=500"), timeout=10).json()["events"]
    played = [e["version"] for e in events if e["type"] == "played"]
    target = played[len(played) // 2]
    page.keyboard.press("Home")
    shown(page, 1)
    for _ in range(target):
        page.keyboard.press("ArrowRight")
    assert shown(page, target + 1) == replay(target + 1)["hands"]
    page.click("#replay-previous")
    assert shown(page, target) == replay(target)["hands"]
    trick = replay(target)["view"]["round"]["trick"]
    assert len(trick) >= 1 and page.locator("#replay-trick .card").count() == len(trick)
    assert page.inner_text("#replay-happened").strip()
    # Back to the match's own page, which a spectator leaves for the replay again by its link.
    page.click("#replay-back")
    page.wait_for_function("id => location.hash === '#/g/' + id", arg=game_id)
    page.click("#watch-again")
    page.wait_for_function("document.body.dataset.state === 'replay' && document.body.dataset.version === '1'")
    # A match still running has no replay: the page says so, and leads to the table.
    running = api_match(service, "sixty-six", [{"kind": "human"}, {"kind": "bot", "level": "basic"}], SHORT)
    page.goto(service.url(f"/#/r/{running}"))
    page.wait_for_function("document.body.dataset.state === 'replay-unavailable'")
    assert "once the match is over" in page.inner_text("#replay-h")
    assert page.get_attribute("#replay-back", "href") == f"#/g/{running}"
