"""Every phase of a match as the public screens show it (issue 12, items 1 and 4): the scoreboard on
a phone, the TV (a 1920 px screen, TV layout without asking), the stream overlay and the
tournament's day, in English and in Spanish, with 30-character team names.

Each phase is a match built through the services (``phases.py``); each screen must say what the
match is doing and nothing it is not doing ("Ball in play" in a shootout, a stopped "+0:30" after
the game).
"""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from .committee_browser import module_server
from .live_helpers import PageWatch
from .phases import PHASES, match_in_phase, phase_matches

# What Chromium draws from the demo's data: the same on either backend (CI runs it once, conftest.py).
pytestmark = [pytest.mark.browser, pytest.mark.backend_independent]

HOME = "Ellerstina Red Lions Polo Club"  # 30 characters: the longest name a phone must hold
AWAY = "La Dolfina Blue Sky Polo Teams"
assert len(HOME) == len(AWAY) == 30

# What each phase says, (English, Spanish). "status": the headline; "result": the winner and how
# (None: no such line); "clock": whether a chukker clock shows; "restart": the restart line (None:
# no line; a string: a part of it).
EXPECTED: dict[str, dict] = {
    "scheduled": {
        "status": ("Not started", "Sin comenzar"),
        "handicap": ("1 on handicap", "1 de hándicap"),
        "clock": False,
        "restart": ("Rule 20", "Regla 20"),
    },
    "in_play": {
        "status": ("In play", "En juego"),
        "period": ("Chukker 1", "Chukker 1"),
        "clock": True,
        "restart": ("Ball in play", "Bocha en juego"),
    },
    "stopped": {
        "status": ("Stopped", "Detenido"),
        "clock": True,
        "restart": ("Rule 22.f", "Regla 22.f"),
        # The tournament card's restart line (phase.js restartText): the ball went out over the side
        # off the home team, a free hit to the away team, citing the finer clause as the
        # scoreboard's restart line does (the state's ``restart.clause``).
        "card_restart": (
            f"Free hit to {AWAY} · Rule 22.f(i)+(iii)",
            f"Tiro libre a favor de {AWAY} · Regla 22.f(i)+(iii)",
        ),
    },
    "interval": {
        "status": ("Interval", "Intervalo"),
        "interval": ("Next chukker in ", "Próximo chukker en ", 180),  # a 3-minute interval, counting down
        "clock": False,
        "restart": ("22.g", "22.g"),
    },
    "halftime": {
        "status": ("Half-time", "Descanso"),
        "interval": ("Next chukker in ", "Próximo chukker en ", 300),  # Rule 14.a: 5 minutes at half-time
        "clock": False,
        "restart": ("22.g", "22.g"),
    },
    "suspended": {"status": ("Suspended", "Suspendido"), "clock": True, "restart": ("22.j", "22.j")},
    "tied": {
        "status": ("Tied — waiting for the committee", "Empatado — a la espera del Comité"),
        "clock": False,
        "restart": None,
    },
    "overtime": {
        "status": ("Overtime · In play", "Suplementario · En juego"),
        "period": ("Overtime 1", "Suplementario 1"),
        "clock": True,
        "restart": ("Ball in play", "Bocha en juego"),
    },
    "shootout": {
        "status": ("Shootout", "Shootout"),
        "shootout": {
            "round": ("· Round 1", "· Ronda 1"),
            "line": ("· 40-yard line", "· línea de 40 yardas"),
            "next": (f"Next: {AWAY} 2 ({AWAY})", f"Próximo: {AWAY} 2 ({AWAY})"),
            "hits": ("✓✗", "✗"),
            "points": ("1", "0"),
        },
        "clock": False,
        "restart": None,
    },
    "final": {
        "status": ("Final", "Final"),
        "result": (f"Winner: {HOME} · in regulation time", f"Ganador: {HOME} · en tiempo reglamentario"),
        "clock": False,
        "restart": None,
    },
    "final_overtime": {
        "status": ("Final", "Final"),
        "result": (f"Winner: {HOME} · in overtime", f"Ganador: {HOME} · en tiempo suplementario"),
        "clock": False,
        "restart": None,
    },
    "final_shootout": {
        "status": ("Final", "Final"),
        "result": (f"Winner: {HOME} · in a shootout", f"Ganador: {HOME} · en un shootout"),
        "shootout": {"hits": ("✓✗✗✗", "✗✗✗✗"), "points": ("1", "0"), "next": ("", "")},
        "clock": False,
        "restart": None,
    },
    "final_forfeit": {
        "status": ("Final", "Final"),
        "result": (f"Winner: {HOME} · by forfeit", f"Ganador: {HOME} · por pérdida del partido del rival"),
        "clock": False,
        "restart": None,
    },
    "abandoned": {"status": ("Abandoned", "Abandonado"), "clock": False, "restart": None},
}
assert set(EXPECTED) == set(PHASES)
LANGS = ("en", "es")


def shown_as(phase: str) -> str:
    """The phase as the screens name it (``data-phase``): a final is a final, however it was won."""
    return "final" if phase.startswith("final") else phase


# A word of the element's text that the browser broke over two lines (the Range of each word has
# one box per line it is drawn on).
SPLIT_WORDS = """(node) => {
  const text = node.firstChild && node.lastChild.nodeType === 3 ? node.lastChild : null;
  if (!text) return ["no text"];
  const split = [];
  for (const m of text.data.matchAll(/\\S+/g)) {
    const range = document.createRange();
    range.setStart(text, m.index);
    range.setEnd(text, m.index + m[0].length);
    if (new Set(Array.from(range.getClientRects(), (r) => Math.round(r.top))).size > 1) split.push(m[0]);
  }
  return split;
}"""

# The line under the title as it reads, one string per drawn line: each shown item's text, with the
# "·" drawn before it (scoreboard.css) unless the line's box clips it away.
META_LINES = """(meta) => {
  const box = meta.getBoundingClientRect(), lines = new Map();
  const clips = ["clip", "hidden"].includes(getComputedStyle(meta).overflowX);
  for (const item of meta.children) {
    if (!item.checkVisibility()) continue;
    const r = item.getBoundingClientRect(), before = getComputedStyle(item, "::before");
    const drawn = before.content !== "none" && before.content !== "normal";
    const left = r.left + (parseFloat(before.left) || 0);  // "auto": the dot starts the item
    const dot = drawn && (!clips || left >= box.left - 0.5) ? "· " : "";
    const middle = Math.round(r.top + r.height / 2);  // the items of a line are centred on it
    lines.set(middle, [...(lines.get(middle) || []), dot + item.textContent.trim()]);
  }
  return [...lines.entries()].sort((a, b) => a[0] - b[0]).map(([, words]) => words.join(" "));
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from module_server(tmp_path_factory, "phases")


# The phases whose screens count down (an interval: 3 minutes, half-time 5) and the most of it a
# test may find gone: a countdown built longer ago than this is built again, so "Next chukker in
# m:ss" still has time left however long the module's earlier tests took on a slow machine.
COUNTDOWNS = tuple(phase for phase, want in EXPECTED.items() if "interval" in want)
COUNTDOWN_AGE = 60.0
# The phases whose clock runs from when they were built (phases.py) age too: about 7 minutes on, the
# double horn ends their chukker (the server appends it), so they are built again with the countdowns.
RUNNING = ("in_play", "overtime")


@pytest.fixture(scope="module")
def built(server):
    return {"ids": phase_matches(server, home=HOME, away=AWAY), "at": time.monotonic()}


@pytest.fixture
def ids(server, built):
    """{phase: match id}, the countdowns' and running clocks' matches no older than ``COUNTDOWN_AGE``."""
    if time.monotonic() - built["at"] > COUNTDOWN_AGE:
        built["ids"] = {**built["ids"], **phase_matches(server, COUNTDOWNS + RUNNING, home=HOME, away=AWAY)}
        built["at"] = time.monotonic()
    return built["ids"]


@pytest.fixture(scope="module")
def open_page(browser, server):
    """A spectator's page per language and screen, kept for the module: each test takes it to the
    match it checks, as a spectator goes from one match to the next (a fresh browser for each of the
    module's hundred checks cost a CPU-second more apiece, its scripts and styles fetched and
    compiled again). The page's watch starts empty for each test."""
    opened: dict = {}

    def page_at(lang: str, width: int, height: int):
        if (lang, width, height) not in opened:
            context = browser.new_context(viewport={"width": width, "height": height})
            context.add_cookies([{"name": "django_language", "value": lang, "url": server.url}])
            page = context.new_page()
            opened[(lang, width, height)] = (context, page, PageWatch(page))
        _, page, watch = opened[(lang, width, height)]
        page.goto("about:blank")  # (the last test's page gone, its requests with it, before the watch starts)
        watch.errors.clear()
        return page, watch

    yield page_at
    for context, _, _ in opened.values():
        context.close()


def sb(page, role: str):
    return page.locator(f'#scoreboard [data-role="{role}"]')


def check_scoreboard(page, phase: str, i: int) -> None:
    """The scoreboard's words for ``phase`` in language ``i`` (0 English, 1 Spanish)."""
    want = EXPECTED[phase]
    assert sb(page, "status").inner_text() == want["status"][i]
    result = sb(page, "result")
    if "result" in want:
        assert result.inner_text() == want["result"][i]
    else:
        assert result.is_hidden()
    assert sb(page, "clock").is_visible() == want["clock"]
    restart = sb(page, "restart")
    if want["restart"] is None:
        assert restart.is_hidden()
    else:
        assert want["restart"][i] in restart.inner_text()
    if "period" in want:
        assert sb(page, "period-line").inner_text() == want["period"][i]
    if "interval" in want:
        # The countdown started when the phase was built and runs on: what is left, not when the test ran.
        text = sb(page, "interval").inner_text()
        assert text.startswith(want["interval"][i]), text
        minutes, _, seconds = text.removeprefix(want["interval"][i]).partition(":")
        assert 0 < int(minutes) * 60 + int(seconds) <= want["interval"][2], text
    if "handicap" in want:
        assert sb(page, "handicap-away").inner_text() == want["handicap"][i]
        assert sb(page, "handicap-home").is_hidden()
    else:
        assert sb(page, "handicap-home").is_hidden() and sb(page, "handicap-away").is_hidden()
    shootout = sb(page, "shootout")
    if "shootout" in want:
        so = want["shootout"]
        for key in ("round", "line"):
            if key in so:
                assert sb(page, "so-" + key).inner_text() == so[key][i]
        assert sb(page, "so-next").inner_text() == so["next"][i]
        assert sb(page, "so-hits-home").inner_text().replace(" ", "") == so["hits"][0]
        assert sb(page, "so-hits-away").inner_text().replace(" ", "") == so["hits"][1]
        assert (sb(page, "so-points-home").inner_text(), sb(page, "so-points-away").inner_text()) == so["points"]
    else:
        assert shootout.is_hidden()


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("phase", PHASES)
def test_the_phone_scoreboard_says_what_the_match_is_doing(server, ids, open_page, phase, lang):
    page, watch = open_page(lang, 390, 844)
    page.goto(f"{server.url}/matches/{ids[phase]}/")
    page.wait_for_selector(f'#scoreboard[data-phase="{shown_as(phase)}"]')
    assert not page.evaluate("document.body.classList.contains('tv')")
    check_scoreboard(page, phase, LANGS.index(lang))
    # 30-character names hold: nothing wider than the phone, no word of a name broken in two.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    for team in ("home", "away"):
        assert page.locator(f'.sb-team[data-team="{team}"] .sb-name').evaluate(SPLIT_WORDS) == []
    # The goals table keeps its team column.
    assert page.locator(".sb-goals thead th").nth(2).is_visible()
    # The date wraps to a line of its own: no line starts with a "·", dots sit between two parts.
    lines = page.locator(".sb-meta").evaluate(META_LINES)
    assert len(lines) > 1 and " · " in lines[0], lines
    for line in lines:
        assert not line.startswith("·") and not line.endswith("·") and "· ·" not in line, lines
    assert watch.problems() == []


# The WCAG contrast ratio of an element's text against the first background behind it.
CONTRAST = """(node) => {
  const channel = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  const lum = (c) => {
    const [r, g, b] = c.match(/[\\d.]+/g).slice(0, 3).map(Number).map(channel);
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const clear = (c) => c === "rgba(0, 0, 0, 0)" || c === "transparent";
  let bg = node;
  while (bg && clear(getComputedStyle(bg).backgroundColor)) bg = bg.parentElement;
  const back = bg ? getComputedStyle(bg).backgroundColor : "rgb(255, 255, 255)";
  const [a, b] = [lum(getComputedStyle(node).color), lum(back)].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}"""
FONT_SIZE = "(n) => parseFloat(getComputedStyle(n).fontSize)"


def contrast(page, selector: str) -> float:
    return page.locator(selector).evaluate(CONTRAST)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("phase", PHASES)
def test_a_wide_screen_gets_the_tv_layout_in_every_phase(server, ids, open_page, phase, lang):
    """At 1920 px the TV layout comes without ?tv=1: no buttons, no header, the state big and
    bright; a stopped clock is not grey, the winner's line is large and high-contrast."""
    page, watch = open_page(lang, 1920, 1080)
    page.goto(f"{server.url}/matches/{ids[phase]}/")
    page.wait_for_selector(f'#scoreboard[data-phase="{shown_as(phase)}"]')
    assert page.evaluate("document.body.classList.contains('tv')")
    assert page.locator(".site-header").is_hidden() and page.locator(".sb-tools").is_hidden()
    assert page.locator("button:visible").count() == 0
    check_scoreboard(page, phase, LANGS.index(lang))
    assert page.evaluate("document.documentElement.scrollWidth") <= 1920
    status = page.locator('#scoreboard [data-role="status"]').bounding_box()
    assert status["height"] >= 40  # 4.5vh of 1080: readable across a field
    if EXPECTED[phase]["clock"]:
        assert contrast(page, '#scoreboard [data-role="clock"]') >= 7
        assert page.locator('#scoreboard [data-role="clock"]').bounding_box()["height"] >= 150
    if "result" in EXPECTED[phase]:
        assert contrast(page, '#scoreboard [data-role="result"]') >= 4.5
        font = page.locator('#scoreboard [data-role="result"]').evaluate(
            "(n) => parseFloat(getComputedStyle(n).fontSize)"
        )
        assert font >= 50
    for team in ("home", "away"):
        attacks = page.locator(f'#scoreboard [data-role="attacks-{team}"]')
        if attacks.is_visible():
            assert attacks.evaluate(FONT_SIZE) >= 30
    assert watch.problems() == []


def ov(page, role: str):
    return page.locator(f'#overlay-stage [data-role="{role}"]')


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("phase", PHASES)
def test_the_overlay_says_what_the_match_is_doing(server, ids, open_page, phase, lang):
    want, i = EXPECTED[phase], LANGS.index(lang)
    page, watch = open_page("en", 1280, 720)
    page.goto(f"{server.url}/matches/{ids[phase]}/overlay/?lang={lang}")
    page.wait_for_selector(f'#overlay-stage[data-phase="{shown_as(phase)}"]')
    status = ov(page, "status")
    if phase in ("in_play", "stopped", "overtime"):
        assert status.is_hidden()  # the ball is simply in play, or its restart is on the scoreboard
    else:
        assert status.inner_text() == want["status"][i]
    if "interval" in want:  # the countdown where the clock was, as the TV and the scoreboard say it (issue 38)
        assert ov(page, "clock").inner_text().startswith(want["interval"][i])
        assert ov(page, "clock-label").is_hidden()
    else:
        assert ov(page, "clock-box").is_visible() == want["clock"]
    if "period" in want:
        assert " ".join(ov(page, "period-line").inner_text().split()) == want["period"][i]
    info = ov(page, "info")
    if "result" in want:
        assert info.inner_text() == want["result"][i]
    elif "handicap" in want:
        assert info.inner_text() == f"{AWAY}: {want['handicap'][i]}"
    else:
        assert info.is_hidden()
    shootout = ov(page, "shootout")
    if "shootout" in want:
        so = want["shootout"]
        assert ov(page, "so-hits-home").inner_text().replace(" ", "") == so["hits"][0]
        assert ov(page, "so-hits-away").inner_text().replace(" ", "") == so["hits"][1]
        assert ov(page, "so-next").inner_text() == so["next"][i]
        assert (ov(page, "so-points-home").inner_text(), ov(page, "so-points-away").inner_text()) == so["points"]
        if "round" in so:  # "Shootout · Round 1 · 40-yard line"
            assert ov(page, "so-title").inner_text() == f"{want['status'][i]} {so['round'][i]} {so['line'][i]}"
    else:
        assert shootout.is_hidden()
    # The bar is one row inside a 720p frame (a 30-character name takes two lines).
    bar = page.locator("#overlay").bounding_box()
    assert bar["x"] + bar["width"] <= 1280 and bar["height"] < 80
    assert watch.problems() == []


@pytest.mark.parametrize("lang", LANGS)
def test_the_tournament_day_says_what_each_match_is_doing(server, ids, open_page, lang):
    i = LANGS.index(lang)
    page, watch = open_page(lang, 1280, 900)
    page.goto(f"{server.url}/matches/{ids['final']}/")
    page.locator(".sb-meta a").first.click()
    page.wait_for_selector(".tl-match")
    for phase, want in EXPECTED.items():
        card = page.locator(f'.tl-match[data-match-id="{ids[phase]}"] [data-role="status"]')
        expected = want["status"][i]
        if "result" in want:
            expected += " · " + want["result"][i]
        if phase == "scheduled":
            expected += f" · {AWAY}: {want['handicap'][i]}"
        if phase == "shootout":
            so = want["shootout"]
            hits = f"({so['hits'][0]} – {so['hits'][1]})"
            expected += f" 1–0 {hits} {so['round'][i]} {so['line'][i]} · {so['next'][i]}"
        if "card_restart" in want:
            expected += " · " + want["card_restart"][i]
        try:
            page.wait_for_function(
                "([node, text]) => node.textContent === text", arg=[card.element_handle(), expected], timeout=10_000
            )
        except PlaywrightTimeout:
            assert card.text_content() == expected, phase
    for phase, want in EXPECTED.items():
        if "interval" not in want:
            continue
        # An interval's card counts down to the next chukker (its live socket opens once the card
        # is on screen), with no "time left" label: the countdown says what it counts.
        match = page.locator(f'.tl-match[data-match-id="{ids[phase]}"]')
        match.scroll_into_view_if_needed()
        prefix, limit = want["interval"][i], want["interval"][2]
        clock = match.locator('[data-role="clock"]')
        try:
            page.wait_for_function(
                "([node, prefix]) => node.textContent.startsWith(prefix)",
                arg=[clock.element_handle(), prefix],
                timeout=10_000,
            )
        except PlaywrightTimeout:
            assert clock.text_content().startswith(prefix), phase
        text = clock.inner_text()
        minutes, _, seconds = text.removeprefix(prefix).partition(":")
        assert 0 < int(minutes) * 60 + int(seconds) <= limit, text
        assert match.locator('[data-role="clock-label"]').is_hidden()
        assert match.locator('[data-role="status"]').inner_text() == want["status"][i]
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280
    assert watch.problems() == []


@pytest.mark.django_db
@pytest.mark.parametrize("phase", PHASES)
def test_the_helper_builds_a_match_in_each_phase(phase):
    """``phases.match_in_phase`` (the other screens' tests build on it) reaches the phase it names."""
    from matches.live.snapshots import match_snapshot

    match = match_in_phase(phase, home="A" * 30, away="B" * 30)
    state = match_snapshot(match.pk)["state"]
    assert state["status"] == {"halftime": "interval", "overtime": "in_play"}.get(phase, shown_as(phase))
    if shown_as(phase) == "final":
        assert state["winner"] == "home" and state["result"] == (phase.partition("_")[2] or "regulation")
    assert match.home.team.name == "A" * 30
