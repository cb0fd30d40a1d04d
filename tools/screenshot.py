"""README's picture of the sandbox (docs/sandbox.png), taken from the real sandbox.

    python tools/screenshot.py                 # writes docs/sandbox.png
    python tools/screenshot.py --out x.png     # somewhere else

It starts ``python -m bot --sandbox`` on a free port with its own database in a temporary directory
and a fixed deal (``DEAL_SEED``), then drives the page in headless Chromium with Playwright (as
``tests/bot/sandbox/test_sandbox_browser.py`` does): Alice opens a table, Bob joins, the empty seats go
to bots, both bid and play until it is Alice's turn in the second trick; the picture shows the live
table and Alice's hand panel. Needs Debian's ``chromium`` (``apt-get install chromium``) and, for the
emojis, a colour emoji font (``apt-get install fonts-noto-color-emoji``).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator, Page, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
READY = re.compile(r"Sandbox ready: open (http://127\.0\.0\.1:\d+/)")
CARD = re.compile(r"^sp:\d+:c:\d+:\d+$")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]


def wait_until(what: str, check: Callable[[], bool], timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise SystemExit(f"timed out waiting for {what}")
        time.sleep(0.1)


def start_sandbox(workdir: Path) -> tuple[subprocess.Popen[str], str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "DATABASE_PATH", "DEV_GUILD_ID")}
    env |= {"PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1", "DEAL_SEED": "11", "TIME_SCALE": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot", "--sandbox", "--port", "0"],  # (its sandbox.db in workdir)
        cwd=workdir,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        process_group=0,
    )
    out: list[str] = []
    assert proc.stdout is not None
    stdout = proc.stdout
    threading.Thread(target=lambda: out.extend(stdout), daemon=True).start()
    wait_until("the sandbox", lambda: bool(READY.search("".join(out))) or proc.poll() is not None)
    found = READY.search("".join(out))
    if found is None:
        raise SystemExit("the sandbox did not start:\n" + "".join(out))
    return proc, found.group(1)


def view_as(page: Page, name: str) -> None:
    page.locator(f'.user-switch[data-name="{name}"]').click()
    page.wait_for_selector(f'#messages[data-viewer="{name}"]')


def slash(page: Page, text: str) -> None:
    box = page.locator("#composer-input")
    box.click()
    box.fill(text)
    box.press("Escape")
    box.press("Enter")
    wait_until(f"{text} to be sent", lambda: box.input_value() == "")


def live(page: Page) -> Locator:
    return page.locator(".msg:not(.ephemeral)").filter(has_text="table 1").last


def panels(page: Page) -> Locator:
    return page.locator(".msg.ephemeral").filter(has_text="Table 1 in #spades")


def newest_id(found: Locator) -> str | None:
    return found.last.get_attribute("data-id") if found.count() else None


def playable(panel: Locator) -> list[str]:
    found = panel.locator("button.dbtn[data-custom-id]").evaluate_all(
        "els => els.filter(e => !e.disabled).map(e => e.dataset.customId)"
    )
    return [cid for cid in found if CARD.match(cid)]


def act(page: Page, name: str, *, play: bool = True) -> bool:
    """As ``name``: look, bid or (with ``play``) play what the newest hand panel offers (False when
    there was nothing, or the panel was redrawn under the click: the caller tries again)."""
    try:
        return _act(page, name, play=play)
    except PlaywrightError:
        return False


def _act(page: Page, name: str, *, play: bool) -> bool:
    view_as(page, name)
    if panels(page).count() == 0 or (not playable(panels(page).last) and play):
        button = live(page).locator("button.dbtn", has_text="My hand")
        if not button.count():
            return False
        before = newest_id(panels(page))
        button.dispatch_event("click")
        # (a new panel, not a count: the one it replaces says it moved, no longer a panel)
        wait_until("a hand panel", lambda: newest_id(panels(page)) not in (None, before))
    panel = panels(page).last
    look = panel.locator("button.dbtn", has_text="Show my cards")
    if look.count() and look.is_enabled():
        look.click()
        return True
    for select in panel.locator(".dselect").all():
        toggle = select.locator(".dselect-toggle")
        if ":b:" in (select.get_attribute("data-custom-id") or "") and toggle.is_enabled():
            toggle.click()
            pick = select.locator('.dopt[data-value="3"]')
            (pick if pick.count() else select.locator(".dopt").first).click()
            return True
    cards = playable(panel)
    if play and cards:
        panel.locator(f'button.dbtn[data-custom-id="{cards[0]}"]').click()
        return True
    return False


def take(out: Path) -> None:
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    with tempfile.TemporaryDirectory() as tmp:
        proc, url = start_sandbox(Path(tmp))
        try:
            with sync_playwright() as p:
                context = p.chromium.launch_persistent_context(
                    "",
                    executable_path=chromium,
                    headless=True,
                    args=ARGS,
                    viewport={"width": 1280, "height": 800},
                )
                page = context.pages[0]
                page.set_default_timeout(20_000)
                page.goto(url)
                page.wait_for_selector("#messages[data-viewer]:not([data-viewer=''])")
                view_as(page, "Alice")
                slash(page, "/spades new preset:standard")
                live(page).wait_for()
                view_as(page, "Bob")
                live(page).locator("button.dbtn", has_text="Join").click()
                wait_until("Bob's seat", lambda: "@Bob" in live(page).inner_text())
                view_as(page, "Alice")
                live(page).locator("button.dbtn", has_text="Start").click()
                page.locator(".msg.ephemeral button.dbtn", has_text="Fill empty seats").last.click()
                wait_until(
                    "the deal", lambda: live(page).locator("button.dbtn", has_text="My hand").count() > 0
                )
                # both bid and play until the second trick waits for Alice
                deadline = time.monotonic() + 240
                while True:
                    if time.monotonic() > deadline:
                        raise SystemExit("the table never reached Alice's turn in the second trick")
                    second = "trick 2 of 13" in live(page).inner_text()
                    if second and "@Alice to play" in live(page).inner_text():
                        view_as(page, "Alice")
                        act(page, "Alice", play=False)  # her panel, fresh
                        if playable(panels(page).last):
                            break
                    acted = act(page, "Alice", play=not second) | act(page, "Bob")
                    if not acted:
                        time.sleep(0.5)
                view_as(page, "Alice")
                older = page.locator(".msg.ephemeral .eph-note a")
                while older.count() > 1:  # her newest panel only
                    older.first.click()
                page.locator("#composer-input").blur()
                page.wait_for_function("[...document.images].every((i) => i.complete)")
                time.sleep(0.5)
                page.screenshot(path=str(out))
                context.close()
        finally:
            os.killpg(proc.pid, signal.SIGINT)
            proc.wait(30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "sandbox.png")
    args = parser.parse_args()
    take(args.out)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
