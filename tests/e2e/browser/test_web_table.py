"""The browser client at / played in headless Chromium against the real service (Redis, gunicorn, worker).

Each test drives the page only by clicking, like a person: the page's body carries `data-state`
(my-turn / waiting / busy / finished) and `data-version`, which the tests wait on instead of sleeping.
"""
from __future__ import annotations

import pytest

from tests.e2e.browser.conftest import screenshot_dir

pytestmark = pytest.mark.slow
TURN_TIMEOUT_MS = 15_000
MAX_ACTIONS = 400


def open_lobby(page, service):
    page.goto(service.url("/"))
    page.wait_for_selector("#create")


def create_match(page, game: str, name: str, seats: dict[int, str] | None = None, options: dict | None = None):
    """Fill the lobby form and create; returns the game id from the table's URL."""
    page.click(f'[data-game="{game}"]')
    page.fill("#player-name", name)
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
    page.wait_for_function("location.hash.startsWith('#/g/')")
    return page.url.rsplit("/", 1)[1]


def wait_turn(page, after_version: int | None = None) -> str:
    """Waits until it is this seat's turn or the match is over (and the version moved past `after_version`)."""
    page.wait_for_function(
        """v => ['my-turn', 'finished'].includes(document.body.dataset.state)
               && (v === null || Number(document.body.dataset.version) > v)""",
        arg=after_version, timeout=TURN_TIMEOUT_MS)
    return page.evaluate("document.body.dataset.state")


def version(page) -> int:
    return int(page.evaluate("document.body.dataset.version"))


def click_and_wait(page, selector: str) -> str:
    before = version(page)
    page.click(selector)
    return wait_turn(page, before)


def play_66_turn(page) -> str:
    """One decision: draw after a won trick, else the first highlighted card."""
    if page.locator('[data-action="draw"]').count():
        return click_and_wait(page, '[data-action="draw"]')
    return click_and_wait(page, "#hand .card.playable >> nth=0")


def test_sixty_six_against_a_basic_bot_to_the_end(service, new_page):
    page = new_page()
    open_lobby(page, service)
    # The bot deals first, so Ana leads the first trick and may close the stock there.
    game_id = create_match(page, "sixty-six", "Ana", seats={1: "bot:basic"},
                           options={"match_target": 2, "first_dealer": 1})
    state = wait_turn(page)
    # A table from the lobby has a turn timer unless its creator empties the field.
    view = page.evaluate("id => fetch('/v1/games/' + id).then(r => r.json())", game_id)
    assert view["options"]["turn_timeout_s"] == 120 and view["options"]["match_target"] == 2
    page.wait_for_selector("#trump-card")
    assert "Stock" in page.inner_text("#round-info")
    # Playable cards are highlighted from legal_actions; in the first lead every card may be played.
    assert page.locator("#hand .card.playable").count() + page.locator("#hand .card.dim").count() == 6
    page.screenshot(path=str(screenshot_dir() / "sixty-six.png"), full_page=True)
    # Buttons as well as cards: close the stock at the first lead (legal by default), draw later on.
    state = click_and_wait(page, '[data-action="close"]')
    assert "closed by Ana" in page.inner_text("#round-info")
    for _ in range(MAX_ACTIONS):
        if state == "finished":
            break
        state = play_66_turn(page)
    assert state == "finished"
    assert "won the match" in page.inner_text("#winner")
    assert page.locator("#score-sheet tbody tr").count() >= 1
    page.wait_for_selector("#round-summary")
    page.screenshot(path=str(screenshot_dir() / "sixty-six-finished.png"), full_page=True)


FIFTY_SIX_MATCHES = 5  # about one match in eight ends before we may double (in-process runs of this policy)


def bid_and_double(page) -> tuple[bool, bool]:
    """Bids once (number-first convention), doubles an opponent's bid when the button shows, passes and
    plays otherwise, until a deal with both has been scored or the match ends."""
    state = wait_turn(page)
    bid = doubled = False
    for _ in range(MAX_ACTIONS):
        rows = page.locator("#score-sheet tbody tr:not(:has(.empty))").count()
        if state == "finished" or (bid and doubled and rows >= 1):
            break
        if page.locator("#bid-box").count() and not bid:
            page.select_option("#bid-convention", "number_first")
            state = click_and_wait(page, "#bid-box [data-bid-suit] >> nth=0")
            bid = True
            assert "number first" in page.inner_text("#bidding-history")  # our call, with its convention tag
        elif page.locator('[data-action="double"]').count() and not doubled:
            state = click_and_wait(page, '[data-action="double"]')
            doubled = True
        elif page.locator('[data-action="pass"]').count():
            state = click_and_wait(page, '[data-action="pass"]')
        else:
            if not page.locator("#hand .card.playable").count():
                page.screenshot(path=str(screenshot_dir() / "fifty-six-stuck.png"), full_page=True)
            if page.locator("#trick figure").count() == 0 and page.locator("#hand .card.playable").count() and bid and doubled:
                page.screenshot(path=str(screenshot_dir() / "fifty-six.png"), full_page=True)
            state = click_and_wait(page, "#hand .card.playable >> nth=0")
    return bid, doubled


def test_fifty_six_with_three_bots_bid_double_and_one_deal(service, new_page):
    # The deal is the server's random one: a match may end before an opponent's bid is ours to double.
    for _ in range(FIFTY_SIX_MATCHES):
        page = new_page()
        open_lobby(page, service)
        # We speak first (dealer = seat 4); random opponents bid eagerly, so a double usually follows our bid.
        create_match(page, "fifty-six", "Ana", seats={1: "bot:random", 2: "bot:basic", 3: "bot:random"},
                     options={"first_dealer": 3})
        bid, doubled = bid_and_double(page)
        if bid and doubled:
            break
    assert bid and doubled
    assert page.locator("#score-sheet tbody tr:not(:has(.empty))").count() >= 1
    history = page.inner_text("#round-summary")
    assert "bid" in history
    page.screenshot(path=str(screenshot_dir() / "fifty-six-scored.png"), full_page=True)


def test_smear_bid_four_take_the_widow_discard_and_play_one_deal(service, new_page):
    page = new_page()
    open_lobby(page, service)
    # Seat 4 deals, so Ana speaks first; a bid of 4 ends the bidding with Ana as the bidder.
    create_match(page, "smear", "Ana", seats={1: "bot:basic", 2: "bot:expert", 3: "bot:basic"},
                 options={"widow_size": 2, "first_dealer": 3})
    state = wait_turn(page)
    page.wait_for_selector("#bid-box")
    assert sorted(page.locator("#bid-box [data-bid]").evaluate_all("bs => bs.map(b => b.dataset.bid)")) == \
        ["2", "3", "4"]
    state = click_and_wait(page, '#bid-box [data-bid="4"]')
    # The widow joins Ana's hand: name trump, pick two cards (the trumps must stay), discard.
    page.wait_for_selector("#discard-box")
    assert page.locator("#hand .card").count() == 8
    page.click("#discard-box [data-trump] >> nth=0")
    trump = page.get_attribute('#discard-box [aria-pressed="true"]', "data-trump")
    trumps = page.locator(f'#hand .card[data-card$="{trump}"]').count()
    # Only the trumps are kept (all may go only from a hand of more than six).
    assert page.locator("#hand .card.dim").count() == (trumps if trumps <= 6 else 0)
    assert page.is_disabled("#discard")
    page.click("#hand .card.selectable >> nth=0")
    page.click("#hand .card.selectable >> nth=1")
    page.click("#hand .card.selectable:not(.picked) >> nth=0")  # a third pick is not taken
    assert page.locator("#hand .card.picked").count() == 2
    state = click_and_wait(page, "#discard")
    assert "You discarded" in page.inner_text("#round-info")
    # The expert's hint is there for a play, with its numbers.
    page.click("#hint")
    page.wait_for_selector("#hint-text")
    assert "Suggested: " in page.inner_text("#hint-text")
    for _ in range(MAX_ACTIONS):
        if state == "finished" or page.locator("#score-sheet tbody tr:not(:has(.empty))").count() >= 1:
            break
        state = click_and_wait(page, "#hand .card.playable >> nth=0")
    assert page.locator("#score-sheet tbody tr:not(:has(.empty))").count() >= 1
    assert "Ana bid 4" in page.inner_text("#round-summary")
    page.screenshot(path=str(screenshot_dir() / "smear-scored.png"), full_page=True)
    if page.locator("#bidding-history li").count():  # the next deal's bidding names its high bidder
        assert "Seat" not in page.inner_text("#round-info")


def test_friend_joins_through_the_share_link_and_a_reload_continues(service, new_page):
    ana, ben = new_page(), new_page(viewport={"width": 390, "height": 844})  # Ben is on a phone
    open_lobby(ana, service)
    game_id = create_match(ana, "sixty-six", "Ana", seats={1: "human"}, options={"first_dealer": 1})
    link = ana.input_value("#share-link")
    assert link.endswith(f"/#/g/{game_id}") and "token" not in link
    ben.goto(link)
    ben.fill("#join-name", "Ben")
    ben.click("#join-button")
    ben.wait_for_selector("#hand .card")
    # Ana (dealer+1 leads) sees the deal live, without reloading.
    wait_turn(ana)
    assert "Ben" in ana.inner_text("#seats")
    # A dropped stream catches up from the last event it saw: Ben's reply arrives after the drop.
    ana.evaluate("window.talonTable.feed.drop()")
    before = version(ana)
    ana.click("#hand .card.playable >> nth=0")
    wait_turn(ben)
    ben.click("#hand .card.playable >> nth=0")
    ana.wait_for_function("v => Number(document.body.dataset.version) > v + 1", arg=before)
    ana.wait_for_function("document.body.dataset.live === 'live'")
    # Reload mid-match: the seat token is in localStorage, so Ana is still seated and can go on.
    ana.reload()
    ana.wait_for_selector("#hand .card")
    assert "Ana (you)" in ana.inner_text("#seats")
    assert ana.evaluate(f"JSON.parse(localStorage.getItem('talon.seat.{game_id}')).seat") == 0
    ana.wait_for_function("['my-turn', 'waiting'].includes(document.body.dataset.state)")
    mover = ana if ana.evaluate("document.body.dataset.state") == "my-turn" else ben
    wait_turn(mover)
    before = version(mover)
    mover.click(play_selector(mover))
    for page in (ana, ben):  # the move reaches both tables
        page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=before)
    ben.screenshot(path=str(screenshot_dir() / "sixty-six-phone.png"), full_page=True)


def play_selector(page) -> str:
    return '[data-action="draw"]' if page.locator('[data-action="draw"]').count() else "#hand .card.playable >> nth=0"
