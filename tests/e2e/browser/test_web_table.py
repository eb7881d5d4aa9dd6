"""The browser client at / played in headless Chromium against the real service (Redis, gunicorn, worker).

Each test drives the page by clicking, like a person, and waits on the page's `data-state` and
`data-version` (table_driver.py), never on sleeps. The table's pace is "no pauses" except where a test
looks at the pacing itself.
"""

from __future__ import annotations

import re

import pytest

from games import table as tables
from tests.e2e.browser.conftest import PHONE, screenshot_dir
from tests.e2e.browser.table_driver import (
    MAX_ACTIONS,
    api_match,
    click_and_wait,
    create_match,
    default_move,
    has,
    join_by_link,
    next_deal,
    open_lobby,
    quick_play,
    scored_rows,
    state,
    version,
    wait_ready,
    wait_turn,
)

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


def test_sixty_six_to_the_end_with_deal_end_dialogs_and_a_rematch(service, new_page):
    page = new_page()
    open_lobby(page, service)
    # The bot deals first, so Ana leads the first trick and may close the stock there.
    game_id = create_match(
        page, "sixty-six", "Ana", seats={1: "bot:basic"}, options={"match_target": 2, "first_dealer": 1}
    )
    wait_turn(page)
    view = view_of(page, game_id)
    # Only bots at the table: no turn timer unless asked for.
    assert view["options"]["turn_timeout_s"] is None and view["options"]["match_target"] == 2
    page.wait_for_selector("#trump-card")
    assert "12" in page.inner_text("#stock")
    assert page.locator("#hand .card.playable").count() == 6  # the first lead: every card may be played
    page.screenshot(path=str(screenshot_dir() / "sixty-six.png"))
    # Closing is a guarded move: it asks, with what it costs, then closes.
    click_and_wait(page, '[data-action="close"]', confirm=True)
    assert "closed by Ana" in page.inner_text("#stock")
    deal_ends = 0
    for _ in range(MAX_ACTIONS):
        current = state(page)
        if current == "finished":
            break
        if current == "deal-over":
            deal_ends += 1
            dialog = page.inner_text("#deal-end")
            assert re.search(r"End of deal \d", dialog, re.I) and ("game point" in dialog or "drawn" in dialog)
            page.screenshot(path=str(screenshot_dir() / f"sixty-six-deal-end-{deal_ends}.png"))
        default_move(page)
    assert state(page) == "finished" and deal_ends >= 1
    # The match's end: who won, the final score, Rematch and New match.
    page.wait_for_selector("#match-end")
    assert "won the match" in page.inner_text("#match-end-h")
    assert page.locator("#match-end .final li").count() == 2
    page.screenshot(path=str(screenshot_dir() / "sixty-six-match-end.png"))
    page.click("#rematch")
    page.wait_for_function("id => location.hash.startsWith('#/g/') && !location.hash.endsWith(id)", arg=game_id)
    rematch_id = page.url.rsplit("/", 1)[1]
    wait_turn(page)
    old, new = view_of(page, game_id), view_of(page, rematch_id)
    # The same seats (Ana in hers, the same bot in its) and the same rules.
    assert new["seat"] == old["seat"] == 0
    assert [(p["kind"], p["level"], p["name"]) for p in new["players"]] == [
        (p["kind"], p["level"], p["name"]) for p in old["players"]
    ]
    same = lambda options: {k: v for k, v in options.items() if k != "first_dealer"}  # noqa: E731
    assert same(new["options"]) == same(old["options"])
    assert new["status"] == "active" and scored_rows(page) == 0
    # The finished match, opened again, still offers a rematch and a new match.
    page.goto(service.url(f"/#/g/{game_id}"))
    page.wait_for_selector("#rematch-button")
    assert page.locator("#new-match-link").count() == 1


# ----------------------------------------------------------------------------------------------------
# Fifty-Six: a deal known in advance (the operator's seed), so both a double and a redouble come up

SEATS_56 = [
    {"kind": "human"},
    {"kind": "bot", "level": "random"},
    {"kind": "bot", "level": "basic"},
    {"kind": "bot", "level": "random"},
]
OPTIONS_56 = {"first_dealer": 3}


def choice_56(view: dict, bid_yet: bool) -> dict:
    """The test's player: redouble, else double, else bid the lowest (once a deal), else pass, else
    play the first playable card. The browser test clicks the same choices."""
    legal = view["legal_actions"]
    types = {a["type"] for a in legal}
    for kind in ("redouble", "double"):
        if kind in types:
            return {"type": kind}
    bids = [a for a in legal if a["type"] == "bid"]
    if bids and not bid_yet:
        low = min(b["value"] for b in bids)
        return next(b for b in bids if b["value"] == low)
    if "pass" in types:
        return {"type": "pass"}
    plays = {a["card"] for a in legal if a["type"] == "play"}
    return {"type": "play", "card": next(c for c in view["round"]["hand"] if c in plays)}


def seed_with_double_and_redouble(max_seed: int = 2000) -> int:
    """A seed whose match, played by choice_56 against these bots, has Ana double and redouble within
    its first deals: found with the pure engine, which the service runs the same way."""
    for seed in range(max_seed):
        table = None
        for event in tables.create("g", "fifty-six", dict(OPTIONS_56), SEATS_56, seed):
            table = tables.evolve(table, event)
        for event in tables.claim_seat(table, 0, "Ana", "h"):
            table = tables.evolve(table, event)
        done, bid_deal = set(), None
        for _ in range(600):
            if table.status != "active" or table.state.round and table.state.round.number > 3:
                break
            if table.rules.pending_system_action(table.state) is not None:
                events = tables.system_events(table)
            elif (seat := table.rules.to_act(table.state)[0]) == 0:
                view = tables.seat_view(table, 0)
                action = choice_56(view, bid_deal == view["round"]["number"])
                bid_deal = view["round"]["number"] if action["type"] == "bid" else bid_deal
                done.add(action["type"])
                events = tables.act(table, 0, action)
            else:
                events = tables.bot_move(table, seat)
            for event in events:
                table = tables.evolve(table, event)
            if {"double", "redouble"} <= done:
                return seed
    raise AssertionError("no seed found")


def test_fifty_six_labelled_bids_a_double_and_a_redouble_each_confirmed(service, new_page):
    seed = seed_with_double_and_redouble()
    game_id = api_match(service, "fifty-six", SEATS_56, OPTIONS_56, seed=seed)
    page = new_page()
    join_by_link(page, service, game_id, "Ana")
    current = wait_turn(page)
    done, bid_deal = [], None
    for _ in range(MAX_ACTIONS):
        if current == "finished" or ({"double", "redouble"} <= set(done) and scored_rows(page) >= 1):
            break
        if current == "deal-over":
            next_deal(page)
            current = wait_turn(page)
            continue
        deal = page.inner_text("#head").split("Deal ")[1].split(" ")[0]
        if has(page, '[data-action="redouble"]') or has(page, '[data-action="double"]'):
            kind = "redouble" if has(page, '[data-action="redouble"]') else "double"
            page.click(f'[data-action="{kind}"]')
            words = page.inner_text("#confirm")
            assert re.search(r"pays \d+ tables instead of \d+", words), words
            page.screenshot(path=str(screenshot_dir() / f"fifty-six-{kind}-confirm.png"))
            before = version(page)
            page.click("#confirm-ok")
            current = wait_ready(page, before)
            done.append(kind)
        elif has(page, "#bid-send") and bid_deal != deal:
            assert page.inner_text("#bid-send") == "Choose a suit" and page.is_disabled("#bid-send")
            page.click("#bid-box [data-bid-suit] >> nth=0")
            label = page.inner_text("#bid-send")
            assert re.fullmatch(r"Bid \d\d (♠|♥|♦|♣|No trump)", label), label  # the bid says what it is
            current = click_and_wait(page, "#bid-send")
            bid_deal = deal
            assert "You bid" in page.inner_text("#bidding-history")
        elif has(page, '[data-action="pass"]'):
            current = click_and_wait(page, '[data-action="pass"]')
        else:
            current = click_and_wait(page, "#hand .card.playable >> nth=0")
        if current == "deal-over":
            page.screenshot(path=str(screenshot_dir() / "fifty-six-deal-end.png"))
    assert {"double", "redouble"} <= set(done), done
    assert scored_rows(page) >= 1 or has(page, "#round-summary")
    page.screenshot(path=str(screenshot_dir() / "fifty-six-scored.png"))


def test_smear_bid_widow_discard_first_lead_names_trump_to_a_scored_deal(service, new_page):
    page = new_page()
    open_lobby(page, service)
    # Bot 3 deals, so Ana speaks first; a bid of 4 ends the bidding with Ana as the bidder.
    create_match(
        page,
        "smear",
        "Ana",
        seats={1: "bot:basic", 2: "bot:expert", 3: "bot:basic"},
        options={"widow_size": 2, "first_dealer": 3},
    )
    wait_turn(page)
    page.wait_for_selector("#bid-box")
    assert sorted(page.locator("#bid-box [data-bid]").evaluate_all("bs => bs.map(b => b.dataset.bid)")) == [
        "2",
        "3",
        "4",
    ]
    # The hand is not dimmed while bidding.
    assert page.locator("#hand .card.unplayable").count() == 0
    click_and_wait(page, '#bid-box [data-bid="4"]')
    # The widow joins Ana's hand: name trump, pick two cards (the trumps must stay), discard.
    page.wait_for_selector("#discard-box")
    assert page.locator("#hand .card").count() == 8
    assert "You took" in page.inner_text("#round-info")
    page.click("#discard-box [data-trump] >> nth=0")
    trump = page.get_attribute('#discard-box [aria-checked="true"]', "data-trump")
    trumps = page.locator(f'#hand .card[data-card$="{trump}"]').count()
    assert page.locator("#hand .card.kept").count() == (trumps if trumps <= 6 else 0)
    assert page.is_disabled("#discard")
    page.click("#hand .card.selectable >> nth=0")
    page.click("#hand .card.selectable >> nth=1")
    page.click("#hand .card.selectable:not(.picked) >> nth=0")  # a third pick is not taken
    assert page.locator("#hand .card.picked").count() == 2
    assert page.inner_text("#discard").startswith("Discard ")
    click_and_wait(page, "#discard")
    assert "You discarded" in page.inner_text("#round-info")
    # Ana leads, and her first card names trump for everyone (till then only she knows it).
    assert "first card" in page.inner_text("#caption")
    assert "only you know" in page.inner_text("#trump")
    led = page.get_attribute("#hand .card.playable >> nth=0", "data-card")
    current = click_and_wait(page, "#hand .card.playable >> nth=0")
    assert "only you know" not in page.inner_text("#trump")
    symbol = "♠♥♦♣"["SHDC".index(led[1])]
    assert f"You lead {led[0].replace('T', '10')}{symbol}: trump is {symbol}" in page.text_content("#log")
    # The expert's hint: ranked choices, the suggestion first, numbers on demand.
    if current == "my-turn":
        page.click("#hint")
        page.wait_for_selector("#hint-text li")
        assert page.inner_text("#hint-text li >> nth=0").startswith("best")
        assert not re.search(r"\d\.\d\d", page.inner_text("#hint-text"))  # numbers only on demand
        page.click("#hint-numbers")
        assert re.search(r"[+-]?\d+\.\d\d", page.inner_text("#hint-text"))
    for _ in range(MAX_ACTIONS):
        if current == "deal-over":
            break
        current = default_move(page)
    words = page.inner_text("#deal-end")
    assert re.search(r"Your bid of 4 was set|You made your bid of 4", words), words
    assert all(point in words for point in ("High", "Low", "Jack", "Game"))
    assert "seat" not in words.lower() and not re.search(r"\b[AKQJT987][SHDC]\b", words)  # names and symbols, no codes
    page.screenshot(path=str(screenshot_dir() / "smear-deal-end.png"))
    next_deal(page)
    assert scored_rows(page) == 1


def test_a_trick_your_card_completes_stays_on_the_table(service, new_page):
    page = new_page(pace=None)  # the normal pace: this is what it is about
    open_lobby(page, service)
    # Ana deals: the bot leads, Ana's card completes the trick, and the bot answers at once.
    create_match(page, "sixty-six", "Ana", seats={1: "bot:basic"}, options={"first_dealer": 0})
    wait_turn(page)
    assert page.locator("#trick .card").count() == 1
    page.evaluate("""() => {
        window.__trick = [];
        const log = () => window.__trick.push([performance.now(), document.querySelectorAll('#trick .card').length,
                                               document.querySelectorAll('#trick .card.winner').length]);
        new MutationObserver(log).observe(document.getElementById('ring'), {subtree: true, childList: true, attributes: true});
        document.getElementById('hand').addEventListener('click', () => { window.__clicked = performance.now(); }, true);
    }""")
    page.click("#hand .card.playable >> nth=0")
    wait_turn(page)
    clicked, samples = page.evaluate("[window.__clicked, window.__trick]")
    both = [t for t, n, _ in samples if t >= clicked and n == 2]
    assert both, samples
    gone = [t for t, n, _ in samples if t > both[0] and n < 2]
    assert gone and gone[0] - both[0] >= 1000, (both[0], gone[:1])
    assert any(w == 1 for t, n, w in samples if both[0] <= t < gone[0])  # the winner is marked meanwhile
    # With reduced motion nothing moves, and the trick still stays.
    still = new_page(pace=None, reduced_motion="reduce")
    open_lobby(still, service)
    create_match(still, "sixty-six", "Ben", seats={1: "bot:basic"}, options={"first_dealer": 0})
    wait_turn(still)
    still.click("#hand .card.playable >> nth=0")
    still.wait_for_function("document.querySelectorAll('#trick .card').length === 2")
    assert still.evaluate("document.getAnimations().length") == 0
    still.wait_for_timeout(900)  # checking that the trick is still there after this long, not waiting for it
    assert still.locator("#trick .card").count() == 2


def test_declare_out_asks_first_and_cancelling_sends_nothing(service, new_page):
    page = new_page()
    open_lobby(page, service)
    create_match(page, "sixty-six", "Ana", seats={1: "bot:basic"}, options={"first_dealer": 1})
    wait_turn(page)
    posted = []
    page.on("request", lambda r: posted.append(r.url) if r.method == "POST" and r.url.endswith("/actions") else None)
    before = version(page)
    button = page.locator('[data-action="declare_out"]')
    assert "primary" not in button.get_attribute("class")  # a secondary button, not the main one
    button.click()
    words = page.inner_text("#confirm")
    assert re.search(
        r"You have 0, short of 66: declaring out now loses the deal and gives Bot 1 3 game points", words
    ), words
    page.screenshot(path=str(screenshot_dir() / "declare-out-confirm.png"))
    page.click("#confirm-cancel")
    page.wait_for_selector("#confirm", state="detached")
    assert posted == [] and version(page) == before and state(page) == "my-turn"
    # Esc is a cancel too.
    button.click()
    page.keyboard.press("Escape")
    page.wait_for_selector("#confirm", state="detached")
    assert posted == [] and version(page) == before
    # Confirmed, the deal ends at once, and the dialog says why.
    click_and_wait(page, '[data-action="declare_out"]', confirm=True)
    assert len(posted) == 1
    assert state(page) == "deal-over"
    assert "You declared out with only 0 of 66" in page.inner_text("#deal-end")


def test_friend_joins_through_the_share_link_and_a_reload_continues(service, new_page):
    ana, ben = new_page(), new_page(viewport=PHONE)  # Ben is on a phone
    open_lobby(ana, service)
    game_id = create_match(ana, "sixty-six", "Ana", seats={1: "human"}, options={"first_dealer": 1})
    # A friend at the table: a turn timer by default.
    assert view_of(ana, game_id)["options"]["turn_timeout_s"] == 120
    link = ana.input_value("#share-link")
    assert link.endswith(f"/#/g/{game_id}") and "token" not in link
    ben.goto(link)
    ben.wait_for_selector("#join")
    assert "Ana invites you" in ben.inner_text("#join-h")
    top = ben.locator("#join-button").bounding_box()
    assert top["y"] + top["height"] <= PHONE["height"]  # "Take a seat" is in view at once
    join_by_link(ben, service, game_id, "Ben")
    assert ben.evaluate("window.scrollY") == 0
    # Ana sees Ben sit down and the deal, live.
    wait_turn(ana)
    assert "Ben" in ana.inner_text("#seats")
    ana.wait_for_selector("#seat-0 .timer")  # her countdown runs
    # A dropped stream catches up from the last event it saw: Ben's reply arrives after the drop.
    ana.evaluate("window.talonTable.feed.drop()")
    before = version(ana)
    ana.click("#hand .card.playable >> nth=0")
    wait_turn(ben)
    ben.click(play_selector(ben))
    ana.wait_for_function("v => Number(document.body.dataset.version) > v + 1", arg=before)
    ana.wait_for_function("document.body.dataset.live === 'live'")
    # Reload mid-match: the seat token is in localStorage, so Ana is still seated and can go on.
    ana.reload()
    ana.wait_for_selector("#hand .card")
    assert "Ana" in ana.inner_text("#seat-0") and "you" in ana.inner_text("#seat-0")
    assert ana.evaluate(f"JSON.parse(localStorage.getItem('talon.seat.{game_id}')).seat") == 0
    ana.wait_for_function("['my-turn', 'waiting'].includes(document.body.dataset.state)")
    mover = ana if state(ana) == "my-turn" else ben
    wait_turn(mover)
    before = version(mover)
    mover.click(play_selector(mover))
    for page in (ana, ben):  # the move reaches both tables
        page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=before)
    ben.screenshot(path=str(screenshot_dir() / "sixty-six-phone-friend.png"))


def play_selector(page) -> str:
    return '[data-action="draw"]' if page.locator('[data-action="draw"]').count() else "#hand .card.playable >> nth=0"


def test_the_connection_badge_and_banner_tell_the_truth(service, new_page):
    page = new_page()
    quick_play(page, service, "sixty-six")
    wait_ready(page)
    page.wait_for_function("document.body.dataset.live === 'live'")
    # The server becomes unreachable: the stream drops and no new ticket can be had.
    page.route("**/v1/**", lambda route: route.abort("connectionrefused"))
    page.evaluate("window.talonTable.feed.drop()")
    page.wait_for_function("['offline', 'reconnecting'].includes(document.body.dataset.live)", timeout=1000)
    page.wait_for_selector('[data-notice="connection"] [data-notice-action="connection"]')
    assert page.inner_text("#live") != "● Live"
    page.screenshot(path=str(screenshot_dir() / "connection-lost.png"))
    # Back again: Retry reconnects, and the banner clears itself.
    page.unroute("**/v1/**")
    page.click('[data-notice-action="connection"]')
    page.wait_for_function("document.body.dataset.live === 'live'", timeout=5000)
    page.wait_for_selector('[data-notice="connection"]', state="detached", timeout=1000)
    # Without a click too: the next attempt of the backoff finds the server and clears the banner.
    page.route("**/v1/**", lambda route: route.abort("connectionrefused"))
    page.evaluate("window.talonTable.feed.drop()")
    page.wait_for_selector('[data-notice="connection"]')
    page.unroute("**/v1/**")
    page.wait_for_selector('[data-notice="connection"]', state="detached", timeout=10_000)
    assert page.evaluate("document.body.dataset.live") == "live"


def test_turn_timer_counts_down_and_a_bot_playing_for_you_is_told(service, new_page):
    page = new_page()
    open_lobby(page, service)
    create_match(page, "sixty-six", "Ana", seats={1: "bot:basic"}, options={"first_dealer": 1, "turn_timeout_s": 3})
    wait_turn(page)
    countdown = page.inner_text("#seat-0 .timer")
    assert re.fullmatch(r"0:0[0-3]", countdown), countdown
    assert "Your turn" in page.title()
    # Ana lets the time run out: a bot plays for her, and she is told so.
    page.wait_for_selector('[data-notice="timed-out"]', timeout=15_000)
    assert "a bot played this turn for you" in page.inner_text('[data-notice="timed-out"]')
    # After the second time in a row the bot keeps the seat until Ana moves again, and says so.
    page.wait_for_selector('[data-notice="takeover"]', timeout=15_000)
    page.wait_for_function("document.querySelector('#seat-0 .role').textContent.includes('away')")
    page.screenshot(path=str(screenshot_dir() / "timer-bot-played.png"))


def test_focus_stays_on_the_hand_after_a_move_by_keyboard(service, new_page):
    page = new_page()
    open_lobby(page, service)
    create_match(page, "sixty-six", "Ana", seats={1: "bot:basic"}, options={"first_dealer": 1})
    wait_turn(page)
    page.focus("#hand .card[tabindex='0']")
    page.keyboard.press("ArrowRight")
    focused = page.evaluate("document.activeElement.dataset.card")
    before = version(page)
    page.keyboard.press("Enter")
    wait_turn(page, before)
    assert page.evaluate("document.getElementById('hand').contains(document.activeElement)")
    assert page.locator(f'#hand .card[data-card="{focused}"]').count() == 0  # that card was played
    # A spoken line for every move of the others, and a title that says whose turn it is.
    assert page.locator("#announce p").count() >= 1
    assert page.title().startswith("● Your turn")
    # Hearts and diamonds apart with the four-colour deck (a setting), and nothing wrong in the console
    # (no missing icon, no refused hint).
    diamond = (
        "document.querySelector('#hand .card.suit-D, #trump-card.suit-D') || document.querySelector('.card.suit-D')"
    )
    colour = f"(() => {{ const c = {diamond}; return c ? getComputedStyle(c).color : null; }})()"
    before_colour = page.evaluate(colour)
    page.click(".settings summary")
    page.check("#four-colour")
    after_colour = page.evaluate(colour)
    assert before_colour is None or after_colour != before_colour
    assert page.evaluate("document.documentElement.classList.contains('four-colour')")
    assert page.console_errors == [], page.failed_responses


def test_quick_play_and_the_lobby_lists(service, new_page):
    page = new_page()
    game_id = quick_play(page, service, "smear", name="Ana")
    wait_turn(page)
    view = view_of(page, game_id)
    assert [p["kind"] for p in view["players"]] == ["human", "bot", "bot", "bot"] and view["options"][
        "turn_timeout_s"
    ] is None
    page.goto(service.url("/"))
    page.wait_for_selector(f'#my-matches li[data-game-id="{game_id}"]')
    row = page.inner_text(f'#my-matches li[data-game-id="{game_id}"]')
    assert "Smear" in row and "Bot 1" in row and "You & Bot 2 0" in row and "Resume" in row
    page.wait_for_selector(f'#running-matches li[data-game-id="{game_id}"]')
    assert "Resume" in page.inner_text(f'#running-matches li[data-game-id="{game_id}"]')
    other = new_page()
    open_lobby(other, service)
    other.wait_for_selector(f'#running-matches li[data-game-id="{game_id}"]')
    assert "Watch" in other.inner_text(f'#running-matches li[data-game-id="{game_id}"]')
    # Create sits high on the page, rules folded away under their game.
    assert page.locator("#create").bounding_box()["y"] < 1000
    assert page.locator("details#rules[open]").count() == 0


STRICT_CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; "
    "object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)


def test_the_page_plays_under_a_strict_content_security_policy(service, new_page):
    """No inline script, handler or style, no eval: the page works with the policy a deployment sets."""
    page = new_page(bypass_csp=False)
    page.add_init_script("""window.__violations = [];
        document.addEventListener('securitypolicyviolation', e => {
            window.__violations.push(e.violatedDirective + ' ' + e.blockedURI);
            document.documentElement.dataset.violations = String(window.__violations.length);
        });""")

    def with_policy(route):
        response = route.fetch()
        route.fulfill(response=response, headers={**response.headers, "content-security-policy": STRICT_CSP})

    page.route(service.url("/"), with_policy)
    # Waits by selector only: under this policy the page refuses the test tool's own eval, too.
    ready = 'body[data-state="my-turn"]:not([data-version="{v}"]), body[data-state="deal-over"], body[data-state="finished"]'
    page.goto(service.url("/"))
    page.click("#quick-sixty-six")
    page.wait_for_selector(ready.format(v=-1))
    for _ in range(6):  # a few moves, the trick animation and a guarded move's dialog included
        if page.get_attribute("body", "data-state") != "my-turn":
            break
        if has(page, '[data-action="close"]'):
            page.click('[data-action="close"]')
            page.click("#confirm-cancel")
        before = page.get_attribute("body", "data-version")
        page.click('[data-action="draw"]' if has(page, '[data-action="draw"]') else "#hand .card.playable >> nth=0")
        page.wait_for_selector(ready.format(v=before))
    assert page.evaluate("window.__violations") == []
    assert page.console_errors == []
    assert page.locator("#hand .card").count() > 0
    # The policy was in force: an inline script is refused.
    page.evaluate(
        "() => { const s = document.createElement('script'); s.textContent = 'window.__ran = 1'; document.body.append(s); }"
    )
    page.wait_for_selector('html[data-violations="1"]', state="attached")
    assert page.evaluate("window.__ran") is None
