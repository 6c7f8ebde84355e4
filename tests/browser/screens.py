"""The public pages and the officials' pages as the accessibility and overflow checks (and
``tools/screenshots``) visit them: their URLs, the widths and languages they are read at, the long
team names a phone must hold, and how to know a page has drawn what it was sent.

    PUBLIC_PER_MATCH    {page: URL pattern}: the pages that show one match (one per phase)
    PUBLIC_PER_DAY      {page: URL pattern}: the pages of a tournament or a day (all phases at once)
    WIDTHS, LANGUAGES   phone, tablet, TV; English, Spanish
    LONG_NAMES          two 30-character team names
    MATCH_PHASES, MATCH_SCREENS, match_shots()   the moments of a whole match on every screen that
                        shows it, in each language: what ``tools/screenshots`` writes (issue 38)
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

# The moments of a whole match, in order (the set-ups of tests/browser/phases.py, and
# paced_matches.py's "extra_time"), each with the state's status it shows (docs/MATCH-LOG.md).
MATCH_PHASES = {
    "scheduled": "scheduled",  # before the throw-in
    "in_play": "in_play",  # chukker 1, the clock running
    "typing": "in_play",  # the scorer has pressed F (a foul's first key): the clock held
    "stopped": "stopped",  # a stoppage: ball out over the side line, a free hit
    "extra_time": "in_play",  # the seven-minute horn has gone: extra time (Rule 14.b(1))
    "interval": "interval",  # between chukkers 1 and 2
    "halftime": "interval",  # after chukker 2 of 4 (Rule 14.a's longer interval)
    "tied": "tied",  # tied at the final horn, waiting for the committee (Rule 14.c/d)
    "shootout": "shootout",  # a team shootout under way (Rule 14.d)
    "final": "final",  # won in the shootout
}
# Every screen that shows a match: (URL pattern, viewport, who is logged in, the whole page).
MATCH_SCREENS: dict[str, tuple[str, tuple[int, int], str | None, bool]] = {
    "phone": ("/matches/{m}/", (390, 844), None, True),
    "tv": ("/matches/{m}/?tv=1", (1920, 1080), None, False),
    "overlay": ("/matches/{m}/overlay/", (1920, 1080), None, False),
    "tablet": ("/matches/{m}/referee/", (1024, 768), "umpire1", True),
    "laptop": ("/matches/{m}/scorer/", (1440, 900), "scorer", True),
}


def match_shots() -> list[str]:
    """The whole match's screenshots, as paths under the run's folder: ``match/<lang>/<NN>-<phase>-<screen>.png``."""
    return [
        f"match/{lang}/{i:02d}-{phase}-{screen}.png"
        for lang in LANGUAGES
        for i, phase in enumerate(MATCH_PHASES, start=1)
        for screen in MATCH_SCREENS
    ]


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
