"""The sandbox in a real browser: headless Chromium (Debian's ``chromium``, no browser download)
driven by Playwright. One hand of Spades, played with clicks only, by two people on one page."""

from __future__ import annotations

import contextlib
import json
import re
import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, sync_playwright

from bot.model import MOVED_ON
from tests.bot.sandbox.helpers import Process, scaled

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
CARD = re.compile(r"^sp:\d+:c:\d+:\d+$")
LOADED = "img => img.complete && img.naturalWidth > 0"
STALL = 180.0  # seconds without a single thing to click before the test gives up
HOLDS = """([id, card]) => {
  const m = document.querySelector(`.msg[data-id="${id}"]`);
  if (!m) return null;
  const ids = [...m.querySelectorAll("button.dbtn[data-custom-id]")].map((b) => b.dataset.customId);
  return ids.some((cid) => cid.endsWith(":" + card));
}"""

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).is_file(),
    reason="Debian's chromium is not installed (apt-get install chromium; .ci/run installs it)",
)


@pytest.fixture
def page(sandbox_process: Process) -> Iterator[Page]:
    with sync_playwright() as p:
        # "" as user-data-dir: a fresh, empty profile in a temporary directory
        context = p.chromium.launch_persistent_context(
            "", executable_path=CHROMIUM, headless=True, args=ARGS, viewport={"width": 1280, "height": 900}
        )
        errors: list[str] = []
        page = context.pages[0] if context.pages else context.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.set_default_timeout(scaled(15_000))
        page.goto(sandbox_process.url)
        page.wait_for_selector("#messages[data-viewer]:not([data-viewer=''])")
        try:
            yield page
        finally:
            context.close()
        assert errors == [], f"JavaScript errors on the page: {errors}"


def wait_until(what: str, check: Callable[[], bool], timeout: float = 15.0) -> None:
    deadline = time.monotonic() + scaled(timeout)
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def view_as(page: Page, name: str) -> None:
    page.locator(f'.user-switch[data-name="{name}"]').click()
    page.wait_for_selector(f'#messages[data-viewer="{name}"]')


def slash(page: Page, text: str) -> None:
    box = page.locator("#composer-input")
    box.click()
    box.fill(text)
    box.press("Escape")  # close the suggestions: Enter then sends
    box.press("Enter")
    try:
        wait_until("the command to be sent", lambda: box.input_value() == "")
    except AssertionError:
        raise AssertionError(f"{text!r} was not sent: {page.locator('#hint').inner_text()}") from None


def public(page: Page) -> Locator:
    return page.locator(".msg:not(.ephemeral)")


def live_message(page: Page) -> Locator:
    return public(page).filter(has_text="table 1").last


def panels(page: Page, where: str = "#spades") -> Locator:
    """The viewer's hand panels ("Table 1 in #spades · hand …", ephemeral), oldest first; a panel
    may have no buttons at all (the last card played, waiting for the others). ``where``: how the
    panel names the table's channel ("🧵" for a thread)."""
    return page.locator(".msg.ephemeral").filter(
        has_text=re.compile(rf"(Table|Stół) 1 (in|na) {re.escape(where)}")
    )


def newest_id(found: Locator) -> str | None:
    """The newest of ``found``'s messages, by id (None: none)."""
    return found.last.get_attribute("data-id") if found.count() else None


def hand_buttons(panel: Locator) -> list[tuple[str, str, bool]]:
    """(custom_id, label, enabled) of the card buttons on a panel (read at once: the panel is
    redrawn whenever the bot edits it)."""
    found = panel.locator("button.dbtn[data-custom-id]").evaluate_all(
        "els => els.map(e => [e.dataset.customId, e.innerText.trim(), !e.disabled])"
    )
    return [(cid, label, enabled) for cid, label, enabled in found if CARD.match(cid)]


def hand_over(page: Page) -> bool:
    return public(page).filter(has_text="📋 Hand 1 ·").count() > 0  # the hand's post


def act(page: Page, name: str, where: str = "#spades") -> str | None:
    """As ``name``: whatever the hand panel offers now (look, bid, pass, play), by clicking."""
    view_as(page, name)
    for fresh in (False, True):
        if hand_over(page):
            return None
        if fresh or panels(page, where).count() == 0:
            before = newest_id(panels(page, where))
            my_hand = public(page).locator("button.dbtn", has_text="My hand").last
            if not my_hand.count():
                return None  # between hands
            # the live message is redrawn with every move at the table: at the sandbox's pace its
            # button may never stay "stable" for Playwright's click checks on a loaded machine, so the
            # click is dispatched on the button as it is at that instant (as a person's click lands)
            my_hand.dispatch_event("click")
            # (a new panel, not a count: the one it replaces says it moved, no longer a panel)
            wait_until("a hand panel", lambda n=before: newest_id(panels(page, where)) not in (None, n))
        # pinned by id: ".last" would follow whichever panel is newest at each step
        pid = panels(page, where).last.get_attribute("data-id")
        panel = page.locator(f'.msg[data-id="{pid}"]')
        look = panel.locator("button.dbtn", has_text="Show my cards")
        # (panels and the live message are redrawn with every move at the table: at the sandbox's
        # pace a button may never stay "stable" for Playwright's click checks on a loaded machine,
        # so each click is dispatched on the element as it is at that instant, as above)
        if look.count() and look.is_enabled():
            look.dispatch_event("click")
            return "look"
        for select in panel.locator(".dselect").all():
            cid = select.get_attribute("data-custom-id") or ""
            toggle = select.locator(".dselect-toggle")
            if not toggle.is_enabled():
                continue
            if ":b:" in cid:
                toggle.dispatch_event("click")
                options = select.locator(".dopt")
                pick = select.locator('.dopt[data-value="3"]')
                (pick if pick.count() else options.first).dispatch_event("click")
                return "bid"
            if ":p:" in cid:
                toggle.dispatch_event("click")
                for option in select.locator(".dopt").all()[: int(select.get_attribute("data-max") or 1)]:
                    option.dispatch_event("click")
                select.locator(".dselect-done").dispatch_event("click")
                return "pass"
        playable = [cid for cid, _, enabled in hand_buttons(panel) if enabled]
        if playable:
            card = playable[0].rsplit(":", 1)[1]
            shown = panel.inner_text()
            panel.locator(f'button.dbtn[data-custom-id="{playable[0]}"]').dispatch_event("click")

            def gone(pid: str | None = pid, card: str = card) -> bool:
                # the same panel, redrawn in place, no longer holds the card
                holds = page.evaluate(HOLDS, [pid, card])  # None while the panel is being redrawn
                return holds is False

            def refused(panel: Locator = panel, shown: str = shown) -> bool:
                # a panel a moment old: the bot says so on a redrawn panel (the card still there)
                text = panel.inner_text() if panel.count() else ""
                return text != shown and MOVED_ON in text

            # whichever comes first, however long the machine takes (a timeout here is a failure,
            # never a guess that the click was refused)
            wait_until("the card to leave the hand, or the bot's answer", lambda: gone() or refused(), 60)
            return "play" if gone() else "stale"
    return None


@pytest.mark.timeout(600)  # a whole hand at human pace on a busy machine
def test_a_whole_hand_with_clicks_and_hands_stay_private(page: Page, sandbox_process: Process) -> None:
    # the page says plainly what it is
    assert "LOCAL SANDBOX" in page.locator("#banner").inner_text()
    assert "not Discord" in page.locator("#banner").inner_text()

    # Alice opens a table with /spades new, typed in the message box with the bot's autocomplete
    view_as(page, "Alice")
    box = page.locator("#composer-input")
    box.click()
    box.type("/spades new preset:sta")
    page.wait_for_selector('.suggest-item[data-value="standard"]')  # suggested by the bot
    box.press("Enter")  # takes the suggestion
    assert box.input_value() == "/spades new preset:standard "
    box.press("Escape")
    slash(page, box.input_value() + "play_seconds:600 bid_seconds:600")
    live = live_message(page)
    live.wait_for()
    assert "Alice" in live.inner_text()

    # Bob joins with the Join button; Alice starts with bots in the empty seats
    view_as(page, "Bob")
    live_message(page).locator("button.dbtn", has_text="Join").click()
    wait_until("Bob's seat", lambda: "@Bob" in live_message(page).inner_text())
    view_as(page, "Alice")
    live_message(page).locator("button.dbtn", has_text="Start").click()
    fill = page.locator(".msg.ephemeral button.dbtn", has_text="Fill empty seats with bots and start").last
    fill.click()
    wait_until("the deal", lambda: live_message(page).locator("button.dbtn", has_text="My hand").count() > 0)

    # both humans bid and play the whole first hand with clicks, one page, switching player
    actions: dict[str, int] = {"look": 0, "bid": 0, "pass": 0, "play": 0, "stale": 0}
    checked_privacy = False
    progress = time.monotonic()  # the last click that did something: a stall, not slowness, fails
    while not hand_over(page):
        assert time.monotonic() - progress < STALL, f"nothing to do for {STALL} s; actions so far {actions}"
        did_something = False
        for name in ("Alice", "Bob"):
            done = act(page, name)
            if done:
                actions[done] += 1
                did_something = True
            if done == "play" and not checked_privacy and actions["play"] >= 2:
                # Alice's hand (her panel, her cards) is on the page only while it shows Alice
                view_as(page, "Alice")
                panels(page).last.wait_for()
                alice_ids = [m.get_attribute("data-id") for m in panels(page).all()]
                alice_cards = {label for _, label, _ in hand_buttons(panels(page).last)}
                assert alice_ids and len(alice_cards) >= 5
                view_as(page, "Bob")
                for mid in alice_ids:
                    assert page.locator(f'.msg[data-id="{mid}"]').count() == 0
                bob_cards = {label for _, label, _ in hand_buttons(panels(page).last)}
                assert bob_cards and not bob_cards & alice_cards
                shown = page.locator("#messages").inner_text()
                assert not [c for c in alice_cards if re.search(rf"(?<![0-9A-Za-z]){re.escape(c)}", shown)]
                checked_privacy = True
        if did_something:
            progress = time.monotonic()
        else:  # the bots are thinking: wait until the table message changes (or look again soon)
            before = live_message(page).inner_text()
            with contextlib.suppress(AssertionError):
                wait_until("the bots to play", lambda b=before: live_message(page).inner_text() != b, 2)
    assert checked_privacy
    assert actions["bid"] == 2 and actions["play"] == 26, actions  # 13 cards each, all clicked

    # the hand's post shows its picture (loaded, at most Discord's 550x350), not a file name;
    # a click enlarges it
    post = public(page).filter(has_text="📋 Hand 1 ·").last
    picture = post.locator("img.pic").first
    wait_until("the hand's picture", lambda: bool(picture.evaluate(LOADED)))
    box = picture.bounding_box()
    assert box is not None and 0 < box["width"] <= 550 and 0 < box["height"] <= 350
    assert "📎" not in post.inner_text() and ".png" not in post.inner_text()
    picture.click()
    wait_until("the enlarged picture", lambda: bool(page.locator("#lightbox img").evaluate(LOADED)))
    page.locator("#lightbox").click()
    assert not page.locator("#lightbox").is_visible()
    # the deal's proof: its JSON is a download link that gives the file the bot attached
    post.locator("button.dbtn", has_text="Verify deal").click()
    link = page.locator(".msg.ephemeral .file a[download]").last
    link.wait_for()
    name = link.get_attribute("download") or ""
    assert name.endswith(".json")
    proof = page.evaluate("async (url) => (await fetch(url)).text()", link.get_attribute("href"))
    assert json.loads(proof)
    assert "every request matches Discord's API" in page.locator("#problems").inner_text()


def check_in(page: Page, name: str) -> None:
    view_as(page, name)
    public(page).locator("button.dbtn", has_text="Check in").last.click()
    wait_until(
        f"{name}'s check-in",
        lambda: public(page).filter(has_text="Checked in").last.inner_text().count("@") > 0,
    )


def thread_link(page: Page) -> Locator:
    return public(page).locator(".chan-link", has_text="table 1")


@pytest.mark.timeout(600)
def test_a_league_night_in_a_thread_card_emojis_and_a_polish_player(
    page: Page, sandbox_process: Process
) -> None:
    # Alice (Manage Server) runs a league night; she and Bob sign up and check in
    view_as(page, "Alice")
    slash(page, "/league create name:Test weekday:thursday time:8pm timezone:UTC")
    for name in ("Alice", "Bob"):
        view_as(page, name)
        slash(page, "/league signup league:Test")
    view_as(page, "Alice")
    slash(page, "/league admin start league:Test")  # opens check-in early
    for name in ("Alice", "Bob"):
        check_in(page, name)
        wait_until(
            f"{name} on the check-in post",
            lambda n=name: f"@{n}" in public(page).filter(has_text="Checked in").last.inner_text(),
        )
    view_as(page, "Alice")
    slash(page, "/league admin start league:Test")

    # the seating post links the table's thread, which is listed under #spades: follow it
    thread_link(page).first.wait_for()
    assert "#unknown" not in page.locator("#messages").inner_text()
    listed = page.locator("#channels .chan.thread")
    wait_until("the thread in the channel list", lambda: listed.count() == 1)
    thread_link(page).first.click()
    page.wait_for_selector("#header .name.thread")
    assert "table 1" in page.locator("#chan-name").inner_text()
    assert "thread in #spades" in page.locator("#chan-topic").inner_text()
    assert "active" in (listed.first.get_attribute("class") or "")
    page.wait_for_selector("#messages[data-viewer='Alice'] .msg button.dbtn:has-text('My hand')")

    # Alice plays a card there, from her hand panel in the thread (the bot bids for no one: she
    # clicks as soon as the panel offers something, well inside the table's time)
    played = False
    deadline = time.monotonic() + 240
    emoji_checked = False
    while not played:
        assert time.monotonic() < deadline, "Alice never got to play a card in the thread"
        done = act(page, "Alice", where="🧵")
        panel = panels(page, "🧵").last
        if not emoji_checked and panel.count() and hand_buttons(panel):
            # a card button shows the card's emoji as an image (loaded) and its label, no ":name:"
            card = (
                panel.locator("button.dbtn[data-custom-id^='sp:']")
                .filter(has=page.locator("img.emoji"))
                .first
            )
            wait_until("a card emoji", lambda c=card: bool(c.locator("img.emoji").evaluate(LOADED)))
            label = card.inner_text().strip()
            assert ":" not in label and re.fullmatch(r"(10|[2-9JQKA])[♠♥♦♣]", label), label
            emoji_checked = True
        played = done == "play"
        if done is None:
            time.sleep(0.3)
    assert emoji_checked
    # the thread shows only this table's messages: nothing of the channel's league posts
    assert "Checked in" not in page.locator("#messages").inner_text()
    # a reload keeps the thread listed (the page reads it from the sandbox)
    page.reload()
    page.wait_for_selector("#messages[data-viewer]:not([data-viewer=''])")
    assert page.locator("#channels .chan.thread").count() == 1

    # Bob's Discord is in Polish: his hand panel is in Polish, and he types Polish commands
    view_as(page, "Bob")
    page.locator("#channels .chan.thread").first.click()
    page.wait_for_selector("#header .name.thread")
    page.select_option("#user-locale", "pl")
    box = page.locator("#composer-input")
    box.click()
    box.type("/rę")
    page.wait_for_selector(".suggest-item .n:text-is('/ręka')")
    box.press("Enter")  # takes the suggestion
    assert box.input_value() == "/ręka "
    slash(page, "/ręka")
    polish = page.locator(".msg.ephemeral").filter(has_text="Stół 1 na 🧵").last
    polish.wait_for()
    assert "rozdanie" in polish.inner_text() and "hand 1" not in polish.inner_text()
    page.locator("#channels .chan", has_text="spades-2").click()
    page.wait_for_selector("#header .name:not(.thread)")
    box.click()
    box.fill("")
    box.type("/pik")
    page.wait_for_selector(".suggest-item .n:text-is('/piki')")
    box.press("Enter")
    box.type("no")
    page.wait_for_selector(".suggest-item .n:text-is('/piki nowy')")
    slash(page, "/piki nowy")
    answer = page.locator(".reply-wrap").filter(has_text="/piki nowy").last
    answer.wait_for()
    assert "jest otwarty" in answer.inner_text()
    assert "is not a command" not in page.locator("#hint").inner_text()
    # a click on a button the message no longer has (a panel redrawn under the pointer) reads as
    # on Discord, never as the sandbox's own error text
    # (Bob opened it on a server with no language set and no Community: its public messages are in
    # his language)
    live = public(page).filter(has=page.locator("button.dbtn", has_text="Dołącz")).last
    mid = live.get_attribute("data-id")
    page.evaluate("(id) => interact('/api/click', {message: id, custom_id: 'sp:0:gone'}, id)", mid)
    failed = page.locator(f'.msg[data-id="{mid}"] .failed')
    failed.wait_for()
    assert failed.inner_text() == "This interaction failed"
    assert "every request matches Discord's API" in page.locator("#problems").inner_text()


MARKDOWN = "\n".join(
    [
        "# Friday night",
        "-# small print",
        "**bold** *it* __under__ ~~gone~~ ||secret|| `code` \\*literal\\*",
        "- one",
        "  - nested",
        "1. first",
        "2. second",
        "> quoted",
        "```",
        "x = 1",
        "```",
        "at <t:1700000000:t> on <t:1700000000:D>, see </spades new:1> with <@{bob}>",
    ]
)


def test_discord_markdown_as_discord_renders_it(sandbox_process: Process) -> None:
    """A message's markdown (Alice types it) drawn as Discord draws it; timestamps in the viewer's
    time zone (this browser's, set to Warsaw: 22:13 UTC is 23:13 there)."""
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        context = browser.new_context(timezone_id="Europe/Warsaw", viewport={"width": 1280, "height": 900})
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.set_default_timeout(scaled(15_000))
        page.goto(sandbox_process.url)
        page.wait_for_selector("#messages[data-viewer]:not([data-viewer=''])")
        view_as(page, "Alice")
        bob = page.evaluate("S.state.users.find((u) => u.name === 'Bob').id")
        box = page.locator("#composer-input")
        box.fill(MARKDOWN.replace("{bob}", bob))  # (an input keeps no line breaks: typed through the API)
        page.evaluate(
            "(t) => post('/api/say', {channel: S.channel, text: t})", MARKDOWN.replace("{bob}", bob)
        )
        box.fill("")
        msg = page.locator(".msg").filter(has=page.locator(".author", has_text="Alice")).last
        content = msg.locator(".content")
        content.locator("h1").wait_for()
        assert content.locator("h1").inner_text() == "Friday night"
        assert content.locator(".sub").inner_text() == "small print"
        assert [content.locator(t).first.inner_text() for t in ("b", "i", "u", "s", "code")] == [
            "bold",
            "it",
            "under",
            "gone",
            "code",
        ]
        assert "*literal*" in content.inner_text()
        assert content.locator("ul > li > ul > li").inner_text() == "nested"
        assert content.locator("ol > li").all_inner_texts() == ["first", "second"]
        assert content.locator("blockquote").inner_text() == "quoted"
        assert content.locator("pre code").inner_text() == "x = 1"
        spoiler = content.locator(".spoiler")
        assert "shown" not in (spoiler.get_attribute("class") or "")
        spoiler.click()
        assert "shown" in (spoiler.get_attribute("class") or "")
        times = content.locator(".ts").all_inner_texts()
        assert times == ["11:13 PM", "November 14, 2023"], times
        assert content.locator(".mention", has_text="@Bob").count() == 1
        content.locator(".cmd-link").click()  # a command mention fills the message box
        assert box.input_value() == "/spades new "
        context.close()
        browser.close()
    assert errors == []
