"""The rules pages on the real app: every page is HTML, each game's page has an anchor for every option
its match accepts and every event its log can hold (both read from the engines, so a new option or
event without documentation fails here), links between the pages land on anchors that exist, and an
unknown game is a problem."""

from __future__ import annotations

import re
from collections import Counter
from importlib import import_module

import pytest

from games import table
from games.errors import OptionError
from games.registry import game_names, rules_for
from tests.support.talon import make_app

PAGES = ["/rules/", *(f"/rules/{game}" for game in game_names())]
ANCHOR = re.compile(r'\bid="([^"]+)"')


@pytest.fixture(scope="module")
def client(redis_server):
    return make_app(redis_server.url).test_client()


def seat_count(game: str) -> int:
    """The fewest seats the game's default options accept."""
    rules = rules_for(game)
    for n in range(2, 9):
        try:
            if n in rules.seat_counts(rules.normalize_options({}, n)):
                return n
        except OptionError:
            continue
    raise AssertionError(f"{game} accepts no number of seats with its default options")


def accepted_options(game: str) -> set[str]:
    """Every option a match of `game` takes: the match view lists each option in force, the game's own
    (normalize_options fills in all of them) and the table's (first_dealer, turn_timeout_s, ...)."""
    seats = [{"kind": "bot", "level": "random"}] * seat_count(game)
    events = table.create("g", game, {}, seats, seed=7)
    state = None
    for event in events:
        state = table.evolve(state, event)
    return set(table.seat_view(state, None)["options"])


def game_event_types(game: str) -> set[str]:
    """The event types the game's engine folds (its evolve module's table of event handlers)."""
    return set(import_module(rules_for(game).evolve.__module__).MUTATORS)


def table_event_types() -> set[str]:
    """The table's own events, as games/table.py's docstring tables them."""
    return set(re.findall(r"^\| `(\w+)`", table.__doc__, re.MULTILINE))


def anchors(html: str) -> list[str]:
    return ANCHOR.findall(html)


@pytest.mark.parametrize("path", PAGES)
def test_every_page_is_html_with_unique_anchors(client, path):
    page = client.get(path)
    assert page.status_code == 200
    assert page.headers["Content-Type"] == "text/html; charset=utf-8"
    html = page.get_data(as_text=True)
    assert html.startswith("<!doctype html>") and "<h1" in html
    # One asset, the pages' own stylesheet (no inline style: the Content-Security-Policy refuses it).
    assert re.findall(r"<script|<link[^>]*>|<img| src=|<style", html) == [
        '<link rel="stylesheet" href="/rules/style.css">'
    ]
    assert client.get("/rules/style.css").headers["Content-Type"] == "text/css; charset=utf-8"
    duplicates = [name for name, count in Counter(anchors(html)).items() if count > 1]
    assert not duplicates


@pytest.mark.parametrize("game", game_names())
def test_each_game_page_documents_every_option_its_match_accepts(client, game):
    options = accepted_options(game)
    assert {"first_dealer", "turn_timeout_s", "takeover_after"} <= options
    documented = {
        a.removeprefix("option-")
        for a in anchors(client.get(f"/rules/{game}").get_data(as_text=True))
        if a.startswith("option-")
    }
    assert options - documented == set(), "options without documentation"
    assert documented - options == set(), "documented options the game does not accept"


@pytest.mark.parametrize("game", game_names())
def test_each_game_page_lists_every_event_of_its_log(client, game):
    documented = {
        a.removeprefix("event-")
        for a in anchors(client.get(f"/rules/{game}").get_data(as_text=True))
        if a.startswith("event-")
    }
    assert documented == game_event_types(game)


def test_the_index_lists_the_tables_own_events(client):
    documented = {
        a.removeprefix("event-")
        for a in anchors(client.get("/rules/").get_data(as_text=True))
        if a.startswith("event-")
    }
    assert table_event_types() >= {"match_created", "seat_claimed", "deal_committed", "deal_revealed"}
    assert documented == table_event_types()


def test_links_between_the_pages_land_on_existing_anchors(client):
    served = {path: client.get(path).get_data(as_text=True) for path in PAGES}
    checked = 0
    for path, html in served.items():
        for target in re.findall(r'<a [^>]*href="((?:/rules/|#)[^"]*)"', html):  # links, not the stylesheet
            page, _, fragment = target.partition("#")
            page = page or path
            assert page in served, f"{path} links to {target}"
            assert not fragment or fragment in anchors(served[page]), f"{path} links to {target}"
            checked += 1
    assert checked > 3 * len(PAGES)


def test_the_game_pages_link_the_index_and_it_links_each_game(client):
    index = client.get("/rules/").get_data(as_text=True)
    for game in game_names():
        assert f'href="/rules/{game}"' in index
        assert 'href="/rules/"' in client.get(f"/rules/{game}").get_data(as_text=True)


def test_a_page_is_revalidated_by_its_etag(client):
    first = client.get("/rules/smear")
    assert first.headers["Cache-Control"] == "no-cache"
    again = client.get("/rules/smear", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304


@pytest.mark.parametrize("path", ["/rules/chess", "/rules/README", "/rules/sixty-six.md", "/rules/Smear"])
def test_an_unknown_page_is_a_404_problem(client, path):
    answer = client.get(path)
    assert answer.status_code == 404
    assert answer.headers["Content-Type"] == "application/problem+json"
    body = answer.get_json(force=True)
    assert body["status"] == 404 and body["type"].endswith("/not-found")
    assert all(game in body["detail"] for game in game_names())


def test_the_rules_pages_stay_out_of_the_api_spec(client):
    paths = client.application.extensions["talon_api"].spec.to_dict()["paths"]
    assert not [path for path in paths if path.startswith("/rules")]
