"""A real browser (Debian's Chromium driven by Playwright) against pytest-django's live server.

Every page a test opens is watched: a console error, an uncaught exception or a Content Security
Policy violation fails the test, since the policy forbids inline scripts and styles and a page
that breaks it silently loses its behaviour. Screenshots of the key pages go to
test-artifacts/screenshots/ on every run (not committed), each after an axe-core check of the
page (tests/e2e/accessibility.py).
"""

import os
import re
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "test-artifacts" / "screenshots"
TIMEOUT_MS = 15_000
VIEWPORT = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}

# Reported by the page itself as well as by Chromium's console, so a violation is caught even if
# Chromium ever stops logging it.
CSP_LISTENER = """
document.addEventListener("securitypolicyviolation", function (event) {
  const target = event.target && event.target.outerHTML ? event.target.outerHTML.slice(0, 160) : "";
  console.error("CSP violation: " + event.violatedDirective + " blocked " + event.blockedURI +
    " at " + event.sourceFile + ":" + event.lineNumber + ":" + event.columnNumber + " " + target);
});
"""


@pytest.fixture(scope="module")
def browser():
    """One Chromium per test module; Playwright (and its event loop) stops after the module."""
    if not CHROMIUM.exists():
        pytest.skip(
            f"{CHROMIUM} is missing: the browser tests did not run (.ci/run installs Debian's "
            "chromium package)"
        )
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=TIMEOUT_MS)
    # Playwright's sync API keeps an asyncio loop running in this thread while the browser is
    # open, so Django would refuse ORM calls from the test itself ("You cannot call this from an
    # async context"); the tests and the live server really are synchronous. Only for as long
    # as the browser runs: other tests' subprocesses (`check --deploy`) must not inherit it.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as playwright:
            chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            yield chromium
            chromium.close()
    finally:
        del os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"]


class Watched:
    """A browser page and everything wrong it reported."""

    def __init__(self, page, name):
        self.page = page
        self.name = name
        self.problems = []
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.problems.append(f"uncaught: {error}"))

    def _console(self, message):
        text = message.text
        if message.type == "error" or text.startswith("Refused to"):
            self.problems.append(f"console {message.type} at {self.page.url}: {text}")

    def screenshot(self, step):
        """Photograph the page, after checking it with axe-core: every page the suite shows a
        person is one it has checked."""
        from tests.e2e.accessibility import assert_accessible

        assert_accessible(self.page)
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"{self.name}-{step}.png"
        self.page.screenshot(path=str(path), full_page=True)
        return path

    def assert_clean(self):
        assert not self.problems, "the browser reported:\n" + "\n".join(self.problems)


@pytest.fixture
def open_page(browser, live_server, request):
    """open_page(user=None, label="", viewport=VIEWPORT, timezone_id=None, color_scheme=None) ->
    Watched page in a fresh browser context (in that IANA time zone and "light"/"dark" scheme, if
    given), logged in as `user`."""
    from django.conf import settings
    from django.test import Client

    contexts = []
    pages = []

    def open_(user=None, label="", viewport=VIEWPORT, timezone_id=None, color_scheme=None):
        options = {"timezone_id": timezone_id} if timezone_id else {}
        if color_scheme:
            options["color_scheme"] = color_scheme
        context = browser.new_context(base_url=live_server.url, viewport=viewport, **options)
        context.set_default_timeout(TIMEOUT_MS)
        context.add_init_script(CSP_LISTENER)
        if user is not None:
            client = Client()
            client.force_login(user)
            context.add_cookies(
                [
                    {
                        "name": settings.SESSION_COOKIE_NAME,
                        "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                        "url": live_server.url,
                    }
                ]
            )
        contexts.append(context)
        name = re.sub(r"[^a-z0-9]+", "-", request.node.name.lower()).strip("-")
        watched = Watched(context.new_page(), name + (f"-{label}" if label else ""))
        pages.append(watched)
        return watched

    yield open_
    for context in contexts:
        context.close()
    for watched in pages:
        watched.assert_clean()
