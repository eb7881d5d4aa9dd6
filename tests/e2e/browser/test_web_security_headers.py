"""Finding 9 of the outside review: the web page sent no security headers. Under the headers the service
now sends itself (service/headers.py), the page still plays, and the rules pages and the API reference
render, without one Content-Security-Policy violation."""

from __future__ import annotations

import pytest

from tests.e2e.browser.table_driver import has

pytestmark = pytest.mark.slow

WATCH_VIOLATIONS = """window.__violations = [];
    document.addEventListener('securitypolicyviolation', e => {
        window.__violations.push(e.violatedDirective + ' ' + e.blockedURI);
        document.documentElement.dataset.violations = String(window.__violations.length);
    });"""
READY = (
    'body[data-state="my-turn"]:not([data-version="{v}"]), body[data-state="deal-over"], body[data-state="finished"]'
)


def assert_security_headers(response) -> None:
    headers = response.headers  # Playwright gives them lower-cased
    assert "script-src 'self'" in headers["content-security-policy"]
    assert "frame-ancestors 'none'" in headers["content-security-policy"]
    assert headers["x-frame-options"] == "DENY"
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "no-referrer"


def test_finding_9_the_page_plays_a_match_against_a_bot_under_the_servers_security_headers(service, new_page):
    page = new_page(bypass_csp=False)
    page.add_init_script(WATCH_VIOLATIONS)
    assert_security_headers(page.goto(service.url("/")))
    page.fill("#player-name", "Ana")
    page.click("#quick-sixty-six")  # a match against a bot
    page.wait_for_selector(READY.format(v=-1))
    played = 0
    for _ in range(6):  # a few moves: cards played, the trick animation, a guarded move's dialog
        if page.get_attribute("body", "data-state") != "my-turn":
            break
        if has(page, '[data-action="close"]'):
            page.click('[data-action="close"]')
            page.click("#confirm-cancel")
        before = page.get_attribute("body", "data-version")
        page.click('[data-action="draw"]' if has(page, '[data-action="draw"]') else "#hand .card.playable >> nth=0")
        page.wait_for_selector(READY.format(v=before))
        played += 1
    assert played > 0
    assert page.evaluate("window.__violations") == []
    assert page.console_errors == [], page.failed_responses
    # The server's policy is in force: an inline script is refused, and the page cannot be framed.
    page.evaluate(
        "() => { const s = document.createElement('script'); s.textContent = 'window.__ran = 1'; "
        "document.body.append(s); }"
    )
    page.wait_for_selector('html[data-violations="1"]', state="attached")
    assert page.evaluate("window.__ran") is None


@pytest.mark.parametrize("path, ready", [("/rules/sixty-six", "main h1"), ("/docs", ".swagger-ui .info")])
def test_finding_9_the_rules_and_the_api_reference_render_under_the_security_headers(service, new_page, path, ready):
    page = new_page(bypass_csp=False)
    page.add_init_script(WATCH_VIOLATIONS)
    assert_security_headers(page.goto(service.url(path)))
    page.wait_for_selector(ready)
    assert page.evaluate("window.__violations") == []
    assert page.console_errors == []
