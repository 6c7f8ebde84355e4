"""Fixtures shared by every test package: a real server process and a real browser."""

from __future__ import annotations

import os

import pytest

from polo.testing import CHROMIUM, CHROMIUM_ARGS, ServerProcess


@pytest.fixture(autouse=True)
def _fresh_game_cache():
    """The per-process cache of folded games is keyed by match id and log position; tests that
    roll back hand the same ids to the next test, so each test starts with an empty cache."""
    from matches.games import forget_all_cached_games

    forget_all_cached_games()
    yield


@pytest.fixture(autouse=True)
def _default_language():
    """A request through the test client activates its language in this thread (LocaleMiddleware)
    and nothing turns it off: each test starts and ends in the default language."""
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(scope="session")
def live_server_proc(tmp_path_factory):
    """One app server (uvicorn, own database, demo loaded) shared by the browser tests."""
    server = ServerProcess(tmp_path_factory.mktemp("server"), "shared").start()
    yield server
    server.close()


@pytest.fixture
def make_server(tmp_path):
    """A private server for tests that stop, restart or scale it; closed at the end of the test."""
    servers: list[ServerProcess] = []

    def make(name: str = "private", **kwargs) -> ServerProcess:
        server = ServerProcess(tmp_path, name, **kwargs)
        servers.append(server)
        return server

    yield make
    for server in servers:
        server.close()


@pytest.fixture(scope="session")
def _playwright():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def browser(_playwright):
    assert os.path.exists(CHROMIUM), "Debian's chromium is required: ./dev test installs it"
    browser = _playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
    yield browser
    browser.close()


@pytest.fixture
def context(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    yield context
    context.close()


@pytest.fixture
def page(context):
    return context.new_page()


def pytest_sessionfinish(session, exitstatus):
    """A skipped test is a failed test here: CI must prove everything, on both backends."""
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = len(reporter.stats.get("skipped", [])) if reporter else 0
    if skipped and session.exitstatus == 0:
        reporter.write_line(f"{skipped} test(s) skipped: a skip counts as a failure", red=True)
        session.exitstatus = 1
