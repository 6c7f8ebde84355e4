"""Every public page stays under 100 KB (issue 12, "How it is shown"): the HTML and every stylesheet
and script it links or preloads, uncompressed, as ``bench/page_weight.py`` weighs them (its
``weigh`` is used here, so the gate and the benchmark count the same bytes).

The pages are the demo's on the shared test server: its match in progress (events, goals, a
handicap goal) and its tournament's day.
"""

from __future__ import annotations

import importlib.util

import pytest

from polo.testing import BASE_DIR

from .live_helpers import demo_match_id, tournament_id
from .screens import PUBLIC_PER_DAY, PUBLIC_PER_MATCH, url

# What Chromium loads of the demo's pages: the same on either backend (CI runs it once, conftest.py).
pytestmark = [pytest.mark.browser, pytest.mark.backend_independent]

LIMIT = 100 * 1024  # bytes, uncompressed
# The spectators', the streamer's and the steward's pages (the guides are documentation: their
# pictures, which ``weigh`` does not count, are most of their bytes).
PAGES = {**PUBLIC_PER_MATCH, **PUBLIC_PER_DAY}


def _page_weight():
    spec = importlib.util.spec_from_file_location("page_weight", BASE_DIR / "bench" / "page_weight.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def weigh(live_server_proc):
    module = _page_weight()
    match = demo_match_id(live_server_proc)
    tournament = tournament_id(live_server_proc, match)
    return lambda pattern: module.weigh(live_server_proc.url, url(pattern, match, tournament))


@pytest.mark.parametrize("name", PAGES)
def test_a_public_page_weighs_under_100_kb(weigh, name):
    page = weigh(PAGES[name])
    assert len(page["parts"]) >= 2, f"{name}: a page with its stylesheet at least ({page['parts']})"
    parts = "\n".join(f"  {p['url']}: {p['raw']} bytes" for p in page["parts"])
    assert page["total_raw"] < LIMIT, f"{name} weighs {page['total_raw']} bytes:\n{parts}"


def test_the_weight_counts_every_file_a_page_loads(weigh):
    """The scoreboard's weight is its HTML and each script, module and stylesheet it names."""
    page = weigh(PUBLIC_PER_MATCH["scoreboard"])
    urls = [p["url"] for p in page["parts"]]
    assert any(u.endswith("/scoreboard.js") for u in urls) and any(u.endswith("/phase.js") for u in urls)
    assert any(u.endswith(".css") for u in urls) and any("jsi18n" in u for u in urls)
    assert page["total_raw"] == sum(p["raw"] for p in page["parts"]) > 30_000
