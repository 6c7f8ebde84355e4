"""Fixtures shared by the scoreboard's browser tests (the demo match on the shared server)."""

import pytest

from .live_helpers import PageWatch, demo_match_id, ensure_stopped, scorer


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
