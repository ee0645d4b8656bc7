"""Waiting for a page's asynchronous answer, for the browser tests.

`page.wait_for_function` does not wait for a promise's answer: a promise is truthy, so a predicate that returns one
passes at its first call whatever it resolves to (checked: a predicate resolving to null returned at once, called
once). A test that waited so for a notification or a cache entry read whatever was there at that instant and raced
the service worker. `wait_until` evaluates the script again until its answer passes the test, up to the suite's
expect timeout."""

import time

from .conftest import EXPECT_TIMEOUT


def wait_until(page, script: str, test, arg=None):
    """Until the answer of the page's async `script` passes `test`; the answer."""
    deadline = time.monotonic() + EXPECT_TIMEOUT / 1000
    while True:
        answer = page.evaluate(script, arg)
        if test(answer):
            return answer
        assert time.monotonic() < deadline, f"still {answer!r}"
        page.wait_for_timeout(50)
