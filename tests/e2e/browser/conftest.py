"""Headless Chromium (Debian's, never a downloaded one) driven by Playwright, against the real service.

Screenshots go to $TALON_ARTIFACTS_DIR/screenshots (default .artifacts/screenshots, git-ignored).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.support.processes import REPO

CHROMIUM = os.environ.get("TALON_CHROMIUM", "/usr/bin/chromium")
# ENGINEERING.md: the flags Debian's Chromium needs here (as root, no GPU, nothing phoning home).
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ACTION_TIMEOUT_MS = 10_000
DESKTOP = {"width": 1366, "height": 800}
PHONE = {"width": 390, "height": 844}


def artifacts_dir() -> Path:
    return Path(os.environ.get("TALON_ARTIFACTS_DIR", REPO / ".artifacts"))


def screenshot_dir() -> Path:
    path = artifacts_dir() / "screenshots"
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture(scope="session")
def chromium():
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        raise RuntimeError(f"{CHROMIUM} is missing: run the suite with `make test`, which installs Debian's chromium")
    # Playwright gives every launch a fresh temporary profile (it refuses --user-data-dir in args).
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def new_page(chromium):
    """Pages in fresh browser contexts (each its own localStorage, like another person's browser).

    `pace` is the table's pace setting: "0" (no pauses between the moves it shows) unless a test looks
    at the pacing itself (None keeps the player's default). `locale` sets the browser's language.
    `bypass_csp`: the service's Content-Security-Policy refuses eval, which Playwright's
    `wait_for_function` uses in the page; the tests of the policy itself keep it (False) and wait by
    selector only."""
    contexts = []

    def make(viewport=None, locale="en-US", pace="0", reduced_motion="no-preference", bypass_csp=True):
        context = chromium.new_context(
            viewport=viewport or DESKTOP, locale=locale, reduced_motion=reduced_motion, bypass_csp=bypass_csp
        )
        context.set_default_timeout(ACTION_TIMEOUT_MS)
        if pace is not None:
            context.add_init_script(f"localStorage.setItem('talon.pace', '{pace}')")
        contexts.append(context)
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
        # The console names no URL for a failed request: these say which one it was.
        page.failed_responses = failed = []
        page.on(
            "response", lambda r: failed.append(f"{r.status} {r.request.method} {r.url}") if r.status >= 400 else None
        )
        page.console_errors = errors
        return page

    yield make
    for context in contexts:
        context.close()
