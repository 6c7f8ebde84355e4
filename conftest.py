"""Fixtures shared by every test package: a real server process and a real browser."""

from __future__ import annotations

import os
import zlib
from typing import NamedTuple

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


# Tests whose outcome cannot depend on the database or the channel layer. The rules service's own
# tests need neither (pytest-django refuses a database to a test not marked for one); browser modules
# that check only what Chromium draws from the demo's data say so with
# ``pytest.mark.backend_independent``. CI (.ci/run) runs each of them once, three fifths in its first
# pass and two in its second (``--backend-share 1-3/5`` and ``4-5/5``); every other test runs in both.
BACKEND_FREE_PACKAGES = ("officiating",)
DATABASE_FIXTURES = {"db", "transactional_db", "django_db_reset_sequences", "django_db_serialized_rollback"}


def pytest_addoption(parser):
    parser.addoption(
        "--backend-share",
        metavar="K/N",
        help="run the backend-independent tests of share K of N only, or of shares K1-K2 (split by test id);"
        " the rest all run",
    )
    parser.addoption("--cpu-report", metavar="FILE", help="write each test's wall time and machine CPU to FILE")


class _Share(NamedTuple):
    first: int  # the first and the last share to run, of n
    last: int
    n: int


def _share(config) -> _Share | None:
    """``K/N`` or ``K1-K2/N``."""
    value = config.getoption("--backend-share")
    if not value:
        return None
    try:
        shares, n = value.split("/")
        first, _, last = shares.partition("-")
        k1, k2, n = int(first), int(last or first), int(n)
    except ValueError:
        raise pytest.UsageError(f"--backend-share wants K/N or K1-K2/N (say 1/2, or 1-3/5), not {value!r}") from None
    if not 1 <= k1 <= k2 <= n:
        raise pytest.UsageError(f"--backend-share {value}: the shares must run from 1 to N, the first before the last")
    return _Share(k1, k2, n)


def pytest_collection_modifyitems(config, items):
    root = config.rootpath
    share = _share(config)
    kept, dropped = [], []
    for item in items:
        package = item.path.relative_to(root).parts[0] if item.path.is_relative_to(root) else ""
        uses_database = item.get_closest_marker("django_db") or DATABASE_FIXTURES & set(item.fixturenames)
        if package in BACKEND_FREE_PACKAGES and not uses_database:
            item.add_marker(pytest.mark.backend_independent)
        independent = item.get_closest_marker("backend_independent")
        if share and independent and not share.first <= zlib.crc32(item.nodeid.encode()) % share.n + 1 <= share.last:
            dropped.append(item)
        else:
            kept.append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


def pytest_sessionfinish(session, exitstatus):
    """A skipped test is a failed test here: CI must prove everything, on both backends."""
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = len(reporter.stats.get("skipped", [])) if reporter else 0
    if skipped and session.exitstatus == 0:
        reporter.write_line(f"{skipped} test(s) skipped: a skip counts as a failure", red=True)
        session.exitstatus = 1


# ``--cpu-report FILE``: for each test, the wall time and the whole machine's busy CPU (every
# process: the test, its servers, Chromium, PostgreSQL) from /proc/stat around its setup, call and
# teardown, as tab-separated lines. On a quiet machine that is the test's cost; docs/BENCHMARKS.md
# ("CI's minutes") reads where CI's time goes from it.
def _busy_seconds() -> float:
    with open("/proc/stat") as stat:
        fields = [int(value) for value in stat.readline().split()[1:]]
    idle = fields[3] + fields[4]  # idle, iowait
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def pytest_configure(config):
    path = config.getoption("--cpu-report", None)
    if path:
        config.pluginmanager.register(_CpuReport(path), "cpu-report")


class _CpuReport:
    def __init__(self, path: str):
        self.out = open(path, "w")  # closed at the session's end

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item, nextitem):
        import time

        wall, busy = time.monotonic(), _busy_seconds()
        yield
        self.out.write(f"{item.nodeid}\t{time.monotonic() - wall:.2f}\t{_busy_seconds() - busy:.2f}\n")
        self.out.flush()

    def pytest_sessionfinish(self):
        self.out.close()
