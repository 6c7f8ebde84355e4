"""Fixtures shared by the scoreboard's browser tests (the demo match on the shared server)."""

import pytest
from playwright.sync_api import expect

from .live_helpers import PageWatch, demo_match_id, ensure_stopped, scorer

# An ``expect`` waits for what a page shows after a live update (a socket message, then often an
# HTTP read of the new panel or sheet): as long as the suite's other waits for one (wait_live and
# wait_seq: 10 s; Playwright's own waits: 30 s), not Playwright's 5 s, which a loaded CI machine
# can use up. A condition met returns at once; only a failure waits longer.
expect.set_options(timeout=15_000)


@pytest.fixture
def watch(page):
    """Fails the test on console errors, failed requests or CSP violations."""
    watch = PageWatch(page)
    yield watch
    assert watch.problems() == []


@pytest.fixture
def match_id(live_server_proc):
    return demo_match_id(live_server_proc)


@pytest.fixture
def official(live_server_proc, match_id):
    client = scorer(live_server_proc)
    yield client
    ensure_stopped(client, match_id)  # leave the shared match with its clock stopped
