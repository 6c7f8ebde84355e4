"""A whole match at a human pace (issue 38), what a look at every screenshot still found: the TV in an
interval fits its screen in Spanish too, "Not started" keeps clear of the team names, the officials'
field says the clock is held while a stoppage is typed, the shootout has one Spanish name on every
screen, the log records the committee's shootout as its decision, and the overlay counts the
interval down as the TV and the scoreboard do. Each at the moment of the match where it shows, on
the screen where it shows, in English and Spanish (test_match_pace.py has the rest of the issue).
"""

from __future__ import annotations

import re

import pytest

from .live_helpers import PageWatch
from .officials_helpers import (
    events,
    log_in,
    module_server,
    new_match,
    official,
    open_screen,
    post,
    press,
    projected_clock,
    state,
)
from .paced_matches import paced_matches
from .phases import phase_matches
from .screens import HEIGHTS, LONG_NAMES, new_context, settle

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1440, "height": 900}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    for server in module_server(tmp_path_factory, "match-pace-words", matches=4):
        server.made = paced_matches(server, ["shootout", "interval_over"])
        server.long = phase_matches(server, ["scheduled"], **LONG_NAMES)  # (30-character names)
        yield server


def public(browser, width: str, lang: str, address: str):
    """A spectator's browser at that width and language, the page at ``address`` drawn."""
    context = new_context(browser, width, lang)
    page = context.new_page()
    page.goto(address)
    settle(page)
    return context, page


def officials(browser, server, username: str, lang: str, viewport: dict | None = None):
    context = new_context(browser, "tablet", lang) if viewport is None else browser.new_context(
        viewport=viewport, locale=lang, extra_http_headers={"Accept-Language": lang})  # fmt: skip
    log_in(context, server, username)
    return context, context.new_page()


# The horizontal extent of an element's text (its lines' boxes), not of its box.
TEXT_EXTENT = """(e) => { const r = document.createRange(); r.selectNodeContents(e);
  const rects = Array.from(r.getClientRects()).filter((x) => x.width > 0);
  return {left: Math.min(...rects.map((x) => x.left)), right: Math.max(...rects.map((x) => x.right)),
          top: Math.min(...rects.map((x) => x.top)), bottom: Math.max(...rects.map((x) => x.bottom))}; }"""


# --- 1. The TV in an interval: one screen, whatever the language ----------------------------------


@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("phase", ["interval", "halftime"])
def test_the_tv_in_an_interval_fits_its_screen_with_long_names_in_both_languages(browser, server, phase, lang):
    match_id = phase_matches(server, [phase], **LONG_NAMES)[phase]  # (made now: its countdown runs)
    context, page = public(browser, "tv", lang, f"{server.url}/matches/{match_id}/?tv=1")
    countdown = page.locator('[data-role="interval"]')
    assert re.fullmatch(r"(Next chukker in|Próximo chukker en) \d:\d\d", countdown.inner_text())
    # The countdown on one line ("Próximo chukker en 2:44" wrapped at 1920 px) …
    one_line = countdown.evaluate("(e) => parseFloat(getComputedStyle(e).lineHeight)")
    assert countdown.bounding_box()["height"] < 1.5 * one_line
    # … and the whole page on the screen: the field ran 56 px past the bottom of a 1080-px TV.
    assert page.evaluate("() => document.documentElement.scrollHeight") <= HEIGHTS["tv"]
    field = page.locator('[data-role="field"]').bounding_box()
    assert field["y"] + field["height"] <= HEIGHTS["tv"] and field["height"] >= 200, field
    context.close()


# --- 2. "Not started" and the team names on the TV -----------------------------------------------


@pytest.mark.parametrize("lang", ["en", "es"])
def test_not_started_keeps_clear_of_the_team_names_on_the_tv(browser, server, lang):
    context, page = public(browser, "tv", lang, f"{server.url}/matches/{server.long['scheduled']}/?tv=1")
    status = page.locator('[data-role="status"]')
    assert status.inner_text() == ("Not started" if lang == "en" else "Sin comenzar")
    words = status.evaluate(TEXT_EXTENT)
    home = page.locator('.sb-team[data-team="home"] .sb-name').evaluate(TEXT_EXTENT)
    away = page.locator('.sb-team[data-team="away"] .sb-name').evaluate(TEXT_EXTENT)
    # (it stood 13 px from "Ellerstina Piaget Red" in Spanish)
    assert words["left"] - home["right"] >= 40 and away["left"] - words["right"] >= 40, (home, words, away)
    context.close()


# --- 3. The officials' field while a stoppage is typed -------------------------------------------

# The box of an element's outline (its ring), and whether two boxes overlap.
HELD_RING = """(e) => { const r = e.getBoundingClientRect(), s = getComputedStyle(e);
  const o = parseFloat(s.outlineOffset) + parseFloat(s.outlineWidth);
  return {left: r.left - o, right: r.right + o, top: r.top - o, bottom: r.bottom + o}; }"""


def overlaps(a: dict, b: dict) -> bool:
    return a["left"] < b["right"] and b["left"] < a["right"] and a["top"] < b["bottom"] and b["top"] < a["bottom"]


HELD = {"en": ("In play — clock held", "Ball in play"), "es": ("En juego — reloj detenido", "Bocha en juego")}


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_officials_field_says_the_clock_is_held_while_a_stoppage_is_typed(browser, server, lang):
    held, in_play = HELD[lang]
    match_id = new_match(server)
    scorer = official(server, "scorer")
    post(scorer, match_id, {"type": "play"})
    laptop_context, laptop = officials(browser, server, "scorer", lang, LAPTOP)
    tablet_context, tablet = officials(browser, server, "umpire1", lang)
    watch = PageWatch(laptop)
    open_screen(laptop, server, match_id)
    open_screen(tablet, server, match_id, "referee")
    for page in (laptop, tablet):
        assert page.inner_text("#restart") == in_play

    press(laptop, "f")  # the first key of a foul holds the clock: at once on the scorer's own screen …
    laptop.wait_for_function("(w) => document.getElementById('restart').textContent === w", arg=held)
    assert laptop.inner_text("[data-status-text]") == held  # the board's words, under the field too
    # … and on the umpire's tablet once the server has the hold.
    tablet.wait_for_function("(w) => document.getElementById('restart').textContent === w", arg=held)
    assert tablet.inner_text("[data-status-text]") == held
    for page in (laptop, tablet):
        ring = page.locator("[data-clock]").evaluate(HELD_RING)  # the dashed ring round the held clock …
        for words in ("[data-period]", "[data-status-text]"):  # … covers neither the chukker nor the status
            assert not overlaps(ring, page.locator(words).evaluate(TEXT_EXTENT)), (words, ring)

    press(laptop, "Escape")  # abandoned: the clock runs on as if it had not stopped
    for page in (laptop, tablet):
        page.wait_for_function("(w) => document.getElementById('restart').textContent === w", arg=in_play)
    assert watch.problems() == []
    laptop_context.close()
    tablet_context.close()


def test_the_officials_field_says_the_clock_is_held_after_a_voided_goal(browser, server):
    match_id = new_match(server)
    scorer = official(server, "scorer")
    post(scorer, match_id, {"type": "play"})
    post(scorer, match_id, {"type": "hold", "kind": "goal", "clock": projected_clock(state(server, match_id))})
    post(scorer, match_id, {"type": "goal", "team": "home", "number": 1, "hold": events(server, match_id)[-1]["id"]})
    context, tablet = officials(browser, server, "umpire1", "en")
    open_screen(tablet, server, match_id, "referee")
    assert tablet.inner_text("#restart").startswith("Throw-in")
    goal_id = events(server, match_id)[-1]["id"]
    voided = post(official(server, "umpire1"), match_id, {"type": "void", "target": goal_id, "reason": "wide"})
    assert voided["state"]["clock"]["held"] is True  # the goal's hold is back
    tablet.wait_for_function("() => document.getElementById('restart').textContent === 'In play — clock held'")
    context.close()


# --- 4. The shootout's name in Spanish, and 5. the committee's decision in the log --------------

SHOOTOUT_LINE = {"en": "Shootout · Round 1 · 40-yard line", "es": "Shootout · Ronda 1 · línea de 40 yardas"}
DECISION = {
    "en": "Committee: shootout · Ellerstina Red hit first",
    "es": "Comité: shootout · patea primero Ellerstina Red",
}


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_scorer_and_the_public_screens_name_the_shootout_alike(browser, server, lang):
    match_id = server.made["shootout"]
    context, laptop = officials(browser, server, "scorer", lang, LAPTOP)
    open_screen(laptop, server, match_id)
    assert laptop.inner_text("#restart .restart-what") == SHOOTOUT_LINE[lang]
    context.close()
    phone_context, phone = public(browser, "phone", lang, f"{server.url}/matches/{match_id}/")
    assert " ".join(phone.inner_text('[data-role="shootout"] h3').split()) == SHOOTOUT_LINE[lang]
    phone_context.close()
    overlay_context, overlay = public(browser, "tv", lang, f"{server.url}/matches/{match_id}/overlay/")
    assert overlay.inner_text('[data-role="so-title"]') == SHOOTOUT_LINE[lang]
    overlay_context.close()


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_log_records_the_committees_shootout_as_its_decision(browser, server, lang):
    context, laptop = officials(browser, server, "scorer", lang, LAPTOP)
    open_screen(laptop, server, server.made["shootout"])
    entry = laptop.wait_for_selector('#log .log-entry[data-type="shootout_start"] .log-text')
    assert entry.evaluate("(e) => e.firstChild.textContent") == DECISION[lang]  # (then who decided it)
    assert "Start a shootout" not in entry.inner_text() and "Iniciar" not in entry.inner_text()
    context.close()


# --- 6. The overlay's interval countdown ---------------------------------------------------------


@pytest.mark.parametrize(("lang", "words"), [("en", "Next chukker in"), ("es", "Próximo chukker en")])
def test_the_overlay_counts_the_interval_down_as_the_tv_does(browser, server, lang, words):
    match_id = paced_matches(server, ["halftime"])["halftime"]  # half-time began 10 s ago: 4:50 to go
    overlay_context, overlay = public(browser, "tv", lang, f"{server.url}/matches/{match_id}/overlay/")
    tv_context, tv = public(browser, "tv", lang, f"{server.url}/matches/{match_id}/?tv=1")
    countdown = re.compile(rf"{words} (4:[345]\d)")
    shown = overlay.inner_text('[data-role="clock"]')
    assert overlay.locator('[data-role="clock-box"]').is_visible() and countdown.fullmatch(shown), shown
    assert overlay.locator('[data-role="clock-label"]').is_hidden()  # the words say what it counts
    on_tv = countdown.fullmatch(tv.inner_text('[data-role="interval"]'))
    assert on_tv, "the TV's countdown"
    seconds = [int(m) * 60 + int(s) for m, s in (t.split(":") for t in (countdown.fullmatch(shown)[1], on_tv[1]))]
    assert abs(seconds[0] - seconds[1]) <= 2  # one state, one countdown
    overlay_context.close()
    tv_context.close()

    # Once it has run out the umpires throw in when ready: no "0:00" on the bar.
    context, overlay = public(browser, "tv", lang, f"{server.url}/matches/{server.made['interval_over']}/overlay/")
    assert overlay.locator('[data-role="clock-box"]').is_hidden()
    assert overlay.inner_text('[data-role="status"]') == ("Interval" if lang == "en" else "Intervalo")
    context.close()
