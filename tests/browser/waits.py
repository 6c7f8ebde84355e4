"""How the browser tests wait for a page: on a timer, not on every animation frame.

Playwright's ``wait_for_function`` polls on ``requestAnimationFrame`` unless told otherwise, and a
page asked for a frame 60 times a second draws them: headless Chromium without a GPU spent about
0.15 s of CPU per second of such a wait (renderer, compositor and browser process; a page left alone
spent 0.03), and CI's browser tests wait for much of their time. Every wait here polls every 100 ms
instead: a condition met is seen at most 0.1 s later, and no wait is a fixed time window.
"""

from __future__ import annotations

from typing import Any

POLL_MS = 100


def wait_for(page: Any, expression: str, *, arg: Any = None, timeout: float | None = None, polling: Any = POLL_MS):
    """``page.wait_for_function`` (a Page or a Frame), polling every ``POLL_MS``."""
    return page.wait_for_function(expression, arg=arg, timeout=timeout, polling=polling)
