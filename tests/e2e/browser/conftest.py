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
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
ACTION_TIMEOUT_MS = 10_000


def screenshot_dir() -> Path:
    base = Path(os.environ.get("TALON_ARTIFACTS_DIR", REPO / ".artifacts"))
    path = base / "screenshots"
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
    """Pages in fresh browser contexts (each its own localStorage, like another person's browser)."""
    contexts = []

    def make(viewport=None):
        context = chromium.new_context(viewport=viewport or {"width": 1280, "height": 900})
        context.set_default_timeout(ACTION_TIMEOUT_MS)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()
