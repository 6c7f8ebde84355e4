"""The public pages and the officials' pages as the accessibility and overflow checks (and
``tools/screenshots``) visit them: their URLs, the widths and languages they are read at, the long
team names a phone must hold, and how to know a page has drawn what it was sent.

    PUBLIC_PER_MATCH    {page: URL pattern}: the pages that show one match (one per phase)
    PUBLIC_PER_DAY      {page: URL pattern}: the pages of a tournament or a day (all phases at once)
    WIDTHS, LANGUAGES   phone, tablet, TV; English, Spanish
    LONG_NAMES          two 30-character team names
    settle(page)        wait until the page's live connections are live and it has drawn a frame
"""

from __future__ import annotations

from typing import Any

# {m}: a match id, {t}: its tournament's id.
PUBLIC_PER_MATCH = {
    "scoreboard": "/matches/{m}/",
    "tv": "/matches/{m}/?tv=1",
    "overlay": "/matches/{m}/overlay/",
    "play_by_play": "/matches/{m}/play-by-play/",
}
PUBLIC_PER_DAY = {
    "home": "/",
    "tournament_live": "/tournaments/{t}/live/",
    "start_day": "/tournaments/{t}/start/",
    "start_match": "/matches/{m}/start/",
    "overlay_builder": "/matches/{m}/overlay/builder/",
}
WIDTHS = {"phone": 390, "tablet": 1024, "tv": 1920}
HEIGHTS = {"phone": 844, "tablet": 768, "tv": 1080}
LANGUAGES = ("en", "es")
# 30 characters each, the longest a team's name may be and still be held on one line by a phone.
LONG_NAMES = {"home": "Ellerstina Piaget Red Veterans", "away": "La Dolfina Polo Ranch Blue Sky"}
assert all(len(name) == 30 for name in LONG_NAMES.values())

# Every live connection of the page has its state (static/js/live.js: PoloLive.instances).
ALL_LIVE = "() => !window.PoloLive || PoloLive.instances.every((l) => l.status === 'live' && l.state)"


def new_context(browser, width: str, lang: str, **kwargs: Any):
    return browser.new_context(
        viewport={"width": WIDTHS[width], "height": HEIGHTS[width]},
        locale=lang,
        extra_http_headers={"Accept-Language": lang},
        **kwargs,
    )


def settle(page, timeout: float = 15_000) -> None:
    """Until every live connection of the page has its state (a live page draws each state as it
    comes), the web fonts are in and two more animation frames are drawn: the page shows what it
    was sent, laid out."""
    page.wait_for_function(ALL_LIVE, timeout=timeout)
    page.evaluate(
        "async () => { await document.fonts.ready;"
        " await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))); }"
    )


def url(pattern: str, match_id: int, tournament_id: int) -> str:
    return pattern.format(m=match_id, t=tournament_id)
