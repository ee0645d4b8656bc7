"""Two phones in Debian's Chromium (never a downloaded browser), driven by Playwright against the live
server. Set SHITENNO_SCREENSHOTS to a directory to save the main pages there
(`manage.py screenshots` does)."""

import os
import threading
import time
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"  # sync Playwright runs an event loop in this thread

CHROMIUM = "/usr/bin/chromium"
PHONE = {"width": 360, "height": 740}
EXPECT_TIMEOUT = 15_000  # ms: see chromium()


@pytest.fixture(scope="session")
def chromium():
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
            ],
        )
        # An assertion's wait is a ceiling, not a pause: a passing expect returns as soon as the page agrees. Its
        # default of 5 s is less than one server round trip takes on a loaded CI machine (a night's "Open tables"
        # once did not answer within it), so every expect may wait as long as the page's own actions do.
        from playwright.sync_api import expect

        expect.set_options(timeout=EXPECT_TIMEOUT)
        yield browser
        browser.close()


@pytest.fixture(autouse=True)
def _no_request_in_flight_at_teardown(request):
    """The database is emptied (TRUNCATE) after each live-server test, but a page's last request (a poll, the
    result fragment loaded after the page) may still be running in a server thread after its browser context
    closed: the TRUNCATE and that request's reads then deadlock, or the request reaches the next test. This fixture
    is set up after the database fixture, so it is torn down before it: it waits until no request thread is left
    (the phones' contexts, set up later, are closed by then).

    The server's own list of threads cannot be used: socketserver keeps only non-daemon threads there, and
    Django's request threads are daemons. A request thread is found by its name ("Thread-N
    (process_request_thread)"); each pass first gives a connection already sent a moment to be accepted."""
    if "live_server" not in request.fixturenames:
        yield
        return
    request.getfixturevalue("transactional_db")
    request.getfixturevalue("live_server")
    yield
    deadline = time.monotonic() + 30
    while True:
        time.sleep(0.1)
        busy = [t for t in threading.enumerate() if t.name.endswith("(process_request_thread)")]
        if not busy:
            return
        for thread in busy:
            thread.join(timeout=max(0.0, deadline - time.monotonic()))
        assert time.monotonic() < deadline, "a live-server request still runs 30 s after the test's phones closed"


@pytest.fixture
def phone(chromium, live_server):
    """phone(user, dark=False): a new 360x740 browser context, logged in as `user` (None: a visitor). Any
    Content-Security-Policy violation the browser reports on the way fails the test (the site runs no inline
    script)."""
    contexts = []
    violations = []

    def open_phone(user, *, dark: bool = False):
        context = chromium.new_context(
            viewport=PHONE,
            device_scale_factor=2,
            is_mobile=True,
            has_touch=True,
            color_scheme="dark" if dark else "light",
            base_url=live_server.url,
        )
        if user is not None:
            client = Client()
            client.force_login(user)
            context.add_cookies(
                [
                    {
                        "name": settings.SESSION_COOKIE_NAME,
                        "url": live_server.url,
                        "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                    }
                ]
            )
        contexts.append(context)
        context.on(
            "console",
            lambda message: violations.append(message.text) if "Content Security Policy" in message.text else None,
        )
        page = context.new_page()
        page.set_default_timeout(8000)
        return page

    yield open_phone
    for context in contexts:
        context.close()
    assert violations == [], violations


@pytest.fixture
def shoot():
    """shoot(page, name): save a full-page screenshot when SHITENNO_SCREENSHOTS names a directory."""
    folder = os.environ.get("SHITENNO_SCREENSHOTS")

    def save(page, name: str) -> None:
        if folder:
            Path(folder).mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)

    return save
