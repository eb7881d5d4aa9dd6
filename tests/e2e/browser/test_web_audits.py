"""Accessibility and quality audits of the lobby and the tables: axe-core (its npm package, injected
into the page) and Lighthouse (npm, run with Debian's chromium). Both come from
tests/e2e/browser/js/package-lock.json, installed by scripts/browser-tools (`make test` runs it).

Lighthouse runs with the mobile form factor and simulated throttling (see js/lighthouse-run.mjs for how
it stays independent of this machine's speed); its reports are kept in the test artifacts.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from tests.e2e.browser.conftest import CHROMIUM, CHROMIUM_ARGS, DESKTOP, PHONE, artifacts_dir, screenshot_dir
from tests.e2e.browser.table_driver import api_match, join_by_link, open_lobby, wait_turn
from tests.support.processes import REPO

pytestmark = pytest.mark.slow

TOOLS = Path(os.environ.get("TALON_BROWSER_TOOLS", REPO / "tests" / "e2e" / "browser" / "js"))
SERIOUS = ("serious", "critical")
THRESHOLDS = {"accessibility": 0.95, "best-practices": 0.95, "performance": 0.90}


def tool(path: str) -> Path:
    found = TOOLS / "node_modules" / path
    if not found.exists():
        raise RuntimeError(
            f"{found} is missing: run the suite with `make test`, which installs the tools (scripts/browser-tools)"
        )
    return found


@pytest.fixture
def audited_page(chromium):
    """Pages that accept the injected axe-core script (a strict CSP would refuse an inline script)."""
    contexts = []

    def make(viewport=DESKTOP):
        context = chromium.new_context(viewport=viewport, bypass_csp=True, locale="en-US")
        context.add_init_script("localStorage.setItem('talon.pace', '0')")
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


def axe_violations(page) -> list[dict]:
    page.add_script_tag(content=tool("axe-core/axe.min.js").read_text(encoding="utf-8"))
    result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return [
        {"id": v["id"], "impact": v["impact"], "help": v["help"], "nodes": [n["target"] for n in v["nodes"]][:5]}
        for v in result["violations"]
        if v["impact"] in SERIOUS
    ]


SEATS = {"sixty-six": 2, "fifty-six": 4, "smear": 4}


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_lobby_is_sound_while_its_lists_load(service, audited_page, viewport):
    """The lobby audited with its lists' requests held: each list is a region named by its heading from
    the first paint. (Its heading came with its matches, and an audit that ran before them, as on a slow
    machine, found the empty regions' aria-labelledby pointing at nothing.)"""
    page = audited_page(viewport)
    held = []
    page.route(lambda url: "/v1/games?" in url, lambda route: held.append(route))
    open_lobby(page, service)
    page.wait_for_function("document.body.dataset.state === 'lobby'")
    assert held, "the lobby asked for its lists"
    assert page.locator("#open-h").count() == page.locator("#running-h").count() == 1
    assert axe_violations(page) == []
    for route in held:
        route.continue_()
    page.wait_for_function("!document.querySelector('#open-matches').textContent.includes('Loading')")


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_axe_finds_nothing_serious_on_the_lobby_and_every_table(service, audited_page, viewport):
    page = audited_page(viewport)
    open_lobby(page, service)
    page.wait_for_function("document.body.dataset.state === 'lobby'")
    found = {"lobby": axe_violations(page)}
    for game, n in SEATS.items():
        game_id = api_match(
            service, game, [{"kind": "human"}] + [{"kind": "bot", "level": "basic"}] * (n - 1), {"first_dealer": n - 1}
        )
        page = audited_page(viewport)
        join_by_link(page, service, game_id, "Ana")
        wait_turn(page)
        page.click("#hint")
        page.wait_for_selector("#hint-text")
        found[game] = axe_violations(page)
    # A dialog too: the confirmation of a risky move.
    page = audited_page(viewport)
    game_id = api_match(
        service, "sixty-six", [{"kind": "human"}, {"kind": "bot", "level": "basic"}], {"first_dealer": 1}
    )
    join_by_link(page, service, game_id, "Ana")
    wait_turn(page)
    page.click('[data-action="declare_out"]')
    page.wait_for_selector("#confirm")
    found["confirm dialog"] = axe_violations(page)
    # The replay of a finished match (bots play it out), at its first card played: every hand shown.
    finished = api_match(service, "sixty-six", [{"kind": "bot", "level": "basic"}] * 2, {"match_target": 1})
    played = first_played(service, finished)
    page = audited_page(viewport)
    page.goto(service.url(f"/#/r/{finished}"))
    page.wait_for_function("document.body.dataset.state === 'replay'")
    page.focus("#replay-slider")
    for _ in range(played - 1):
        page.keyboard.press("ArrowRight")
    page.wait_for_function("v => document.body.dataset.version === v", arg=str(played))
    page.wait_for_selector(".replay-seat .card")
    found["replay"] = axe_violations(page)
    assert {where: v for where, v in found.items() if v} == {}


def first_played(service, game_id: str) -> int:
    """The version of the first card played in a match the bots play out, once it is over (waited for
    with long-polls)."""
    import requests

    url = service.url(f"/v1/games/{game_id}")
    for _ in range(200):
        view = requests.get(url, timeout=10).json()
        if view["status"] == "finished":
            events = requests.get(f"{url}/events?limit=500", timeout=10).json()["events"]
            return next(e["version"] for e in events if e["type"] == "played")
        requests.get(f"{url}?wait=5", headers={"If-None-Match": f'"{view["version"]}"'}, timeout=15)
    raise AssertionError("the bots did not finish the match")


def lighthouse(service, url: str, name: str, profile: Path | None = None) -> dict:
    out = artifacts_dir() / "lighthouse"
    out.mkdir(parents=True, exist_ok=True)
    report = out / f"{name}.json"
    command = ["node", str(TOOLS / "lighthouse-run.mjs"), url, str(report)] + ([str(profile)] if profile else [])
    tool("lighthouse")
    done = subprocess.run(
        command, env={**os.environ, "CHROME_PATH": CHROMIUM}, capture_output=True, text=True, timeout=240
    )
    assert done.returncode == 0, done.stderr[-2000:]
    print(done.stdout.strip())
    lhr = json.loads(report.read_text(encoding="utf-8"))
    return lhr


def weak_audits(lhr: dict) -> list[str]:
    return [
        f"{cat['id']}: {ref['id']} {lhr['audits'][ref['id']].get('displayValue', '')}".strip()
        for cat in lhr["categories"].values()
        for ref in cat["auditRefs"]
        if ref.get("weight")
        and (lhr["audits"][ref["id"]].get("score") or 0) < 1
        and lhr["audits"][ref["id"]].get("score") is not None
    ]


def seated_profile(chromium, service, game_id: str, seat: dict) -> Path:
    """A Chromium profile whose localStorage holds the seat's token, as if the player had sat down in it."""
    profile = Path(tempfile.mkdtemp(prefix="talon-lh-"))
    context = chromium.browser_type.launch_persistent_context(
        str(profile), executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
    )
    page = context.new_page()
    page.goto(service.url("/"))
    page.evaluate(
        "([g, s]) => localStorage.setItem('talon.seat.' + g, JSON.stringify(s))",
        [game_id, {"seat": seat["seat"], "token": seat["token"]}],
    )
    context.close()
    return profile


def test_lighthouse_scores_the_lobby_and_a_table_on_a_phone(service, chromium):
    import requests

    game_id = api_match(service, "sixty-six", [{"kind": "human"}, {"kind": "bot", "level": "basic"}])
    seat = requests.post(service.url(f"/v1/games/{game_id}/players"), json={"name": "Ana"}, timeout=10).json()
    profile = seated_profile(chromium, service, game_id, seat)
    try:
        results = {
            "lobby": lighthouse(service, service.url("/"), "lobby"),
            "table": lighthouse(service, service.url(f"/#/g/{game_id}"), "table", profile),
        }
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    # The table was audited seated: its page asked for a stream ticket, which only a seat does.
    requests_made = [r["url"] for r in results["table"]["audits"]["network-requests"]["details"]["items"]]
    assert any(u.endswith("/stream-tickets") for u in requests_made)
    scores = {page: {k: v["score"] for k, v in lhr["categories"].items()} for page, lhr in results.items()}
    (artifacts_dir() / "lighthouse" / "scores.json").write_text(json.dumps(scores, indent=1))
    low = {page: {k: s for k, s in got.items() if s < THRESHOLDS[k]} for page, got in scores.items()}
    assert not any(low.values()), (scores, {page: weak_audits(lhr) for page, lhr in results.items()})
    assert screenshot_dir()  # the phase screenshots of both sizes are kept by test_web_phases
