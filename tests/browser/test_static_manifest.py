"""The pages' ES modules as production serves them: DEBUG off, the files collected by
``collectstatic`` into hashed names (polo/staticfiles.py: WhiteNoise's manifest storage, with the
imports between modules rewritten to the hashed names), served by WhiteNoise.

The other browser tests run the server with DEBUG on (plain names, served by the finders); here a
page must load every module under its hashed name, each once (the page's modulepreload links and
the modules' own imports name the same files), with no request failing and nothing in the console.
"""

from __future__ import annotations

import json
import re

import pytest

from polo.testing import ServerProcess

from .live_helpers import IS_LIVE, PageWatch, demo_match_id, tournament_id

# What Chromium draws from the demo's data: the same on either backend (CI runs it once, conftest.py).
pytestmark = [pytest.mark.browser, pytest.mark.backend_independent]

HASHED = re.compile(r"/static/(js/[\w/.-]+)\.[0-9a-f]{12}\.js$")


@pytest.fixture(scope="module")
def production(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("manifest")
    server = ServerProcess(
        tmp,
        "manifest",
        extra_env={
            "DEBUG": "false",
            "SECRET_KEY": "test-only-not-secret",
            "ALLOWED_HOSTS": "127.0.0.1",
            "SECURE_SSL_REDIRECT": "false",
            "SECURE_HSTS_SECONDS": "0",
            "STATIC_ROOT": str(tmp / "static"),
        },
    )
    server.manage("collectstatic", "--noinput")
    server.start()
    server.static_root = tmp / "static"
    yield server
    server.close()


def module_requests(page) -> list[str]:
    return [
        e for e in page.evaluate("performance.getEntriesByType('resource').map((e) => e.name)") if e.endswith(".js")
    ]


@pytest.mark.parametrize("path", ["scoreboard", "overlay", "tournament"])
def test_the_public_pages_load_their_modules_under_hashed_names(production, page, path):
    match_id = demo_match_id(production)
    url = {
        "scoreboard": f"/matches/{match_id}/",
        "overlay": f"/matches/{match_id}/overlay/",
        "tournament": f"/tournaments/{tournament_id(production, match_id)}/live/",
    }[path]
    watch = PageWatch(page)
    page.goto(production.url + url)
    if path == "tournament":  # a card's socket opens once the card is on screen and in progress
        page.wait_for_function("() => window.PoloLive && PoloLive.instances.length > 0")
    page.wait_for_function(IS_LIVE)
    loaded = module_requests(page)
    assert loaded, "no module was loaded"
    names = [HASHED.search(u).group(1) if HASHED.search(u) else u for u in loaded]
    assert all(HASHED.search(u) for u in loaded), loaded  # every module by its hashed name
    assert len(names) == len(set(names)), loaded  # and each once
    assert "js/live" in names
    assert watch.problems() == []


def test_the_officials_modules_resolve_under_hashed_names(production, page):
    """The officials' screens need a login; their modules are imported here from a public page,
    by the manifest's names, the way their page would (every import of the graph resolved)."""
    manifest = json.loads((production.static_root / "staticfiles.json").read_text())["paths"]
    match_id = demo_match_id(production)
    watch = PageWatch(page)
    page.goto(f"{production.url}/matches/{match_id}/")
    page.wait_for_function(IS_LIVE)
    exported = page.evaluate(
        "async (url) => Object.keys(await import(url)).sort()", "/static/" + manifest["js/officials-common.js"]
    )
    assert {"Screen", "Wizard", "screenParts"} <= set(exported)
    names = [HASHED.search(u).group(1) for u in module_requests(page) if HASHED.search(u)]
    assert {"js/officials/screen", "js/officials/holds", "js/offline-queue"} <= set(names)
    assert all(HASHED.search(u) for u in module_requests(page))
    assert len(names) == len(set(names))
    assert watch.problems() == []
