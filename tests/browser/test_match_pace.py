"""A whole match at a human pace (issue 38): what the scorer, the umpires and the crowd tripped on,
each at the moment of the match where it shows (``paced_matches``: half-time, an interval run
out, extra time, a goal's throw-in, a tie, a shootout, its final), on the screen where it shows —
the scorer's laptop (1440 × 900), the umpires' tablet (1024 × 768), a phone (390 px), a TV
(1920 px), the stream overlay — in English and Spanish where the words matter."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from .live_helpers import page_module
from .officials_helpers import (
    PageWatch,
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
    wait_listed,
)
from .paced_matches import paced_matches
from .screens import HEIGHTS, WIDTHS, new_context, settle

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1440, "height": 900}


# Moments whose clock or countdown runs: made when a test asks, so that it is still that moment.
RUNNING = ("halftime", "extra_time", "in_play")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    for server in module_server(tmp_path_factory, "match-pace", matches=9):
        server.made = paced_matches(server, ["interval_over", "after_goal", "after_goal_green", "tied", "shootout",
                                             "final_shootout"])  # fmt: skip
        yield server


def paced(server, name: str) -> int:
    """The match at that moment (a running one made now)."""
    return paced_matches(server, [name])[name] if name in RUNNING else server.made[name]


@pytest.fixture
def laptop(browser, server):
    """The scorer's laptop, logged in as the demo's scorer."""
    context = browser.new_context(viewport=LAPTOP, locale="en", extra_http_headers={"Accept-Language": "en"})
    log_in(context, server, "scorer")
    page = context.new_page()
    watch = PageWatch(page)
    yield page
    assert watch.problems(ignore=("http 409", "status of 409")) == []
    context.close()


def tablet(browser, server, username: str = "umpire1", lang: str = "en"):
    context = new_context(browser, "tablet", lang)
    log_in(context, server, username)
    return context, context.new_page()


def box(page, selector: str) -> dict:
    return page.locator(selector).first.evaluate(
        "(e) => { const r = e.getBoundingClientRect();"
        " return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; }"
    )


def overlaps(a: dict, b: dict) -> bool:
    return a["left"] < b["right"] and b["left"] < a["right"] and a["top"] < b["bottom"] and b["top"] < a["bottom"]


# --- The officials ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "asks"),
    [("en", r"Half-time is not over: 4:[45]\d left\."), ("es", r"El descanso no terminó: quedan 4:[45]\d\.")],
)
def test_space_in_half_time_asks_before_the_next_chukker_and_says_how_long_is_left(browser, server, lang, asks):
    context = browser.new_context(viewport=LAPTOP, locale=lang, extra_http_headers={"Accept-Language": lang})
    log_in(context, server, "scorer")
    page = context.new_page()
    watch = PageWatch(page)
    match_id = paced(server, "halftime")
    open_screen(page, server, match_id)
    before = len(events(server, match_id))

    press(page, "Space")  # a reflex press, 4:50 before the throw-in is due
    dialog = page.wait_for_selector("#early-start[open]")
    assert re.search(asks, dialog.inner_text()), dialog.inner_text()
    press(page, "Enter")  # the default waits
    page.wait_for_selector("#early-start", state="hidden")
    press(page, "Space")
    page.wait_for_selector("#early-start[open]")
    press(page, "Escape")  # so does Esc
    page.wait_for_selector("#early-start", state="hidden")
    assert len(events(server, match_id)) == before and state(server, match_id)["state"]["status"] == "interval"

    press(page, "Space")
    page.click('#early-start [data-action="start-early"]')  # the umpires throw in early: on purpose
    page.wait_for_selector('[data-clock][data-running="true"]', state="attached")
    assert state(server, match_id)["state"]["status"] == "in_play"
    assert [e["type"] for e in events(server, match_id)][before:] == ["play"]
    assert watch.problems() == []
    context.close()


def test_the_officials_board_calls_half_time_half_time(browser, server):
    context, page = tablet(browser, server)
    open_screen(page, server, paced(server, "halftime"), "referee")
    assert page.inner_text("[data-status-text]") == "Half-time"
    assert page.locator('#timers [data-kind="halftime"]').inner_text().startswith("Half-time")
    context.close()


def test_enter_in_the_collision_panel_drops_the_entry_rather_than_logging_it_twice(laptop, server):
    match_id = new_match(server)
    post(official(server, "scorer"), match_id, {"type": "play"})
    open_screen(laptop, server, match_id)
    press(laptop, "f", "a", "3")  # the scorer types away #3's foul …
    laptop.wait_for_function("() => (PoloLive.instances[0].state.holds || []).length === 1")
    # … which an umpire logs meanwhile from the tablet: the same foul.
    post(official(server, "umpire1"), match_id, {"type": "foul", "against": "away", "number": 3, "penalty": "2"})
    press(laptop, "2", "Enter", "Enter", "Enter")  # Penalty 2, no spot, log it
    panel = laptop.wait_for_selector('#conflict[data-kind="conflict"]')
    drop = panel.query_selector('[data-action="discard"]')
    keep = panel.query_selector('[data-action="resend"]')
    assert "primary" in drop.get_attribute("class") and "primary" not in keep.get_attribute("class")
    assert laptop.evaluate("() => document.activeElement.dataset.action") == "discard"
    press(laptop, "Enter")  # the reflex
    laptop.wait_for_selector("#conflict", state="hidden")
    fouls = [e for e in events(server, match_id) if e["type"] == "foul"]
    assert len(fouls) == 1


def test_a_restart_timer_that_ran_out_leaves_once_the_ball_is_in_play(laptop, server):
    match_id = new_match(server)
    open_screen(laptop, server, match_id)
    press(laptop, "Space")  # the throw-in
    wait_listed(laptop, 1)
    press(laptop, "o", "e", "Enter", "a", "Enter")  # over the end line: a knock-in
    wait_listed(laptop, 2)
    press(laptop, "Space")  # "Play": 10 s to hit it (Rule 22.a)
    timer = laptop.wait_for_selector('#timers [data-kind="knock_in"]')
    laptop.wait_for_selector('#timers [data-kind="knock_in"].expired', timeout=20_000)  # red at 0:00 …
    assert timer.query_selector(".timer-left").inner_text() == "0:00"
    laptop.wait_for_selector('#timers [data-kind="knock_in"]', state="detached", timeout=20_000)  # … then gone
    assert state(server, match_id)["state"]["status"] == "in_play"


def test_the_log_numbers_run_on_and_play_and_the_scorers_horn_show_their_clock(laptop, server):
    match_id = new_match(server)
    open_screen(laptop, server, match_id)
    press(laptop, "Space")
    wait_listed(laptop, 1)
    press(laptop, "f", "a", "3", "2", "Enter", "Enter", "Enter")  # a foul: its first key holds the clock
    laptop.wait_for_function("() => document.querySelectorAll('#log .log-entry').length >= 2")
    press(laptop, "Space")
    laptop.wait_for_function("() => document.querySelectorAll('#log .log-entry').length >= 3")
    press(laptop, "h", "s", "Enter")  # the scorer's seven-minute horn (early: the clock says when it came)
    laptop.wait_for_selector('#log .log-entry[data-type="horn"]')
    logged = events(server, match_id)
    assert "hold" in [e["type"] for e in logged]
    numbers = laptop.eval_on_selector_all("#log > li[data-seq]", "(lis) => lis.map((li) => +li.dataset.seq)")
    assert sorted(numbers) == list(range(1, len(logged) + 1))  # no gaps where the holds are
    assert laptop.locator("#log .log-hold").count() == [e["type"] for e in logged].count("hold")
    clocks = {
        e["data-type"]: e["clock"]
        for e in laptop.eval_on_selector_all(
            "#log .log-entry",
            "(lis) => lis.map((li) => ({'data-type': li.dataset.type,"
            " clock: li.querySelector('.log-clock').textContent}))",
        )
    }
    assert re.fullmatch(r"0:0\d", clocks["play"]) and re.fullmatch(r"\d:\d\d", clocks["horn"])


def test_help_opens_at_its_first_keys_with_each_key_on_its_descriptions_line(laptop, server):
    open_screen(laptop, server, paced(server, "in_play"))
    press(laptop, "?")
    laptop.wait_for_selector("#help[open]")
    assert laptop.evaluate("() => document.getElementById('help').scrollTop") == 0
    first = box(laptop, "#help table tr")
    assert first["top"] >= 0 and first["bottom"] <= LAPTOP["height"]
    # The first line of each key and of its description share a baseline.
    gaps = laptop.evaluate("""() => Array.from(document.querySelectorAll('#help tr')).map((tr) => {
      const top = (cell) => { const r = document.createRange(); r.selectNodeContents(cell);
                               return r.getClientRects()[0].bottom; };
      return Math.abs(top(tr.cells[0]) - top(tr.cells[1]));
    })""")
    assert max(gaps) <= 3, gaps


def test_typing_shootout_offers_the_scorers_own_action_first(laptop, server):
    open_screen(laptop, server, paced(server, "shootout"))
    press(laptop, "Control+k")
    laptop.fill("#palette-input", "shootout")
    options = laptop.eval_on_selector_all("#palette-list li", "(lis) => lis.map((li) => li.dataset.type)")
    assert options == ["shootout_attempt", "shootout_start"]


@pytest.mark.parametrize(
    ("lang", "tally", "next_hitter"),
    [
        ("en", "Ellerstina Red 2 ✓✓ – ✗ 0 La Dolfina Blue", "Next to hit: La Dolfina Blue #2 Poroto Ruiz"),
        ("es", "Ellerstina Red 2 ✓✓ – ✗ 0 La Dolfina Blue", "Le toca a: La Dolfina Blue #2 Poroto Ruiz"),
    ],
)
def test_the_scorer_sees_the_shootouts_tally_and_next_hitter(browser, server, lang, tally, next_hitter):
    context = browser.new_context(viewport=LAPTOP, locale=lang, extra_http_headers={"Accept-Language": lang})
    log_in(context, server, "scorer")
    page = context.new_page()
    open_screen(page, server, paced(server, "shootout"))
    assert page.inner_text('#restart [data-role="shootout-tally"]') == tally
    assert page.inner_text('#restart [data-role="shootout-next"]') == next_hitter
    context.close()


def test_after_a_tie_no_screen_says_the_restart_opens_the_next_chukker(laptop, server):
    open_screen(laptop, server, paced(server, "tied"))
    assert "Opens the next chukker" not in laptop.inner_text("#restart")


def test_the_tablet_after_a_shootout_confirms_the_chukkers_score_lists_cards_once_and_wraps_the_hash(browser, server):
    context, page = tablet(browser, server)
    open_screen(page, server, paced(server, "final_shootout"), "referee")
    assert state(server, paced(server, "final_shootout"))["state"]["score"] == {"home": 2, "away": 1}
    assert page.inner_text("#confirm p") == "End of chukker 1: Ellerstina Red 1 – 1 La Dolfina Blue"
    assert page.inner_text("#cards li").strip() == "La Dolfina Blue #3 Juan Martin"  # the name once
    page.click("#confirm-score")
    page.wait_for_selector("#confirm .confirmed")
    code = page.wait_for_selector('[data-role="signoff-hash"]:not(:empty)')
    assert re.fullmatch(r"[0-9a-f]{64}", code.inner_text().replace("\n", ""))
    right = code.evaluate("(e) => e.getBoundingClientRect().right")
    assert right <= WIDTHS["tablet"] and page.evaluate("() => document.documentElement.scrollWidth") <= WIDTHS["tablet"]
    context.close()


def test_the_throw_in_label_covers_no_teams_name_on_the_field(browser, server):
    context, page = tablet(browser, server)
    open_screen(page, server, paced(server, "after_goal"), "referee")
    page.wait_for_selector("#field .restart-label")
    label = box(page, "#field .restart-label")
    for team in ("home", "away"):
        name = box(page, f'#field .pf-arrow[data-team="{team}"] text')
        assert not overlaps(label, name), (team, label, name)
    context.close()


def test_the_spanish_officials_field_calls_the_throw_in_lanzamiento(browser, server):
    context, page = tablet(browser, server, lang="es")
    open_screen(page, server, server.made["after_goal"], "referee")
    page.wait_for_selector('#field .restart-marker[data-kind="throw_in"] .restart-label')
    assert page.text_content("#field .restart-label") == "Lanzamiento"
    assert page.inner_text("#restart").startswith("Lanzamiento")  # the line under the field too
    context.close()


def test_a_free_hit_label_at_the_side_line_covers_no_teams_name_or_arrow(browser, server):
    match_id = new_match(server)  # the demo's teams: the label reads "Free hit — La Dolfina Blue"
    scorer = official(server, "scorer")
    post(scorer, match_id, {"type": "play"})
    post(scorer, match_id, {"type": "ball_out", "line": "side", "at": {"x": 150, "y": 0}, "last_hit_by": "home",
                            "deflected_off": "none", "clock": projected_clock(state(server, match_id))})  # fmt: skip
    for screen in ("referee", "scorer"):
        context, page = tablet(browser, server, "umpire1" if screen == "referee" else "scorer")
        open_screen(page, server, match_id, screen)
        page.wait_for_selector('#field .restart-marker[data-kind="free_hit"] .restart-label')
        label = box(page, "#field .restart-label")
        for team in ("home", "away"):
            drawn = box(page, f'#field .pf-arrow[data-team="{team}"]')  # its name and its arrow
            assert not overlaps(label, drawn), (screen, team, label, drawn)
        context.close()


# --- The crowd ----------------------------------------------------------------------------------------


def public(browser, width: str, lang: str, address: str | None = None):
    """A spectator's browser at that width and language; ``address``: a page it has opened, drawn."""
    context = new_context(browser, width, lang)
    page = context.new_page()
    if address:
        page.goto(address)
        settle(page)
    return context, page


def shows(page, role: str, text: str) -> None:
    page.wait_for_function("([role, text]) => document.querySelector(`[data-role=${role}]`).textContent === text",
                           arg=[role, text])  # fmt: skip


@pytest.mark.parametrize(("lang", "held", "restart"), [
    ("en", "In play — clock held", "Clock held: an official is logging a stoppage"),
    ("es", "En juego — reloj detenido", "Reloj detenido: un oficial está registrando una detención"),
])  # fmt: skip
def test_the_crowd_sees_the_clock_held_while_a_stoppage_is_typed_and_after_a_voided_goal(
    browser, server, lang, held, restart
):
    match_id = new_match(server)
    scorer = official(server, "scorer")
    post(scorer, match_id, {"type": "play"})
    screens = []
    for width, path in (("phone", ""), ("tv", "?tv=1"), ("tv", "overlay/")):
        context, page = public(browser, width, lang, f"{server.url}/matches/{match_id}/{path}")
        screens.append((context, page))
    phone = screens[0][1]

    hold = post(scorer, match_id, {"type": "hold", "kind": "goal", "clock": projected_clock(state(server, match_id))})
    assert hold["state"]["clock"]["held"] is True  # the first key of a goal
    for _, page in screens:  # scoreboard, TV and overlay alike
        shows(page, "status", held)
    assert phone.inner_text('[data-role="restart"]') == restart

    hold_id = events(server, match_id)[-1]["id"]
    post(scorer, match_id, {"type": "goal", "team": "home", "number": 1, "hold": hold_id})
    shows(phone, "status", "Stopped" if lang == "en" else "Detenido")
    goal_id = events(server, match_id)[-1]["id"]
    voided = post(official(server, "umpire1"), match_id, {"type": "void", "target": goal_id, "reason": "wide"})
    assert voided["state"]["status"] == "in_play" and voided["state"]["clock"]["held"] is True  # the hold is back
    for _, page in screens:
        shows(page, "status", held)
    for context, _ in screens:
        context.close()


@pytest.mark.parametrize(("lang", "label"), [("en", "extra time"), ("es", "tiempo extra")])
def test_extra_time_is_labelled_extra_time_not_time_left(browser, server, lang, label):
    match_id = paced(server, "extra_time")
    for width, path, role in (
        ("phone", "", "clock-label"),
        ("tv", "?tv=1", "clock-label"),
        ("tv", "overlay/", "clock-label"),
    ):
        context, page = public(browser, width, lang, f"{server.url}/matches/{match_id}/{path}")
        page.wait_for_function("() => /^[+]0:[0-9]{2}$/.test(document.querySelector('[data-role=clock]').textContent)")
        assert page.inner_text(f'[data-role="{role}"]') == label, (width, path)
        context.close()


@pytest.mark.parametrize("width", ["tv", "phone"])
def test_both_scores_stand_at_one_height_when_the_winners_star_takes_a_line(browser, server, width):
    address = f"{server.url}/matches/{server.made['final_shootout']}/{'?tv=1' if width == 'tv' else ''}"
    context, page = public(browser, width, "en", address)
    home, away = (box(page, f'[data-role="score-{team}"]') for team in ("home", "away"))
    assert abs(home["top"] - away["top"]) < 1, (home, away)
    context.close()


def test_the_tv_says_no_next_chukker_in_0_00_once_the_interval_has_run_out(browser, server):
    context, page = public(browser, "tv", "en", f"{server.url}/matches/{paced(server, 'interval_over')}/?tv=1")
    shown = page.inner_text('[data-role="interval"]')
    assert shown == "The next chukker starts at the throw-in" and "0:00" not in shown
    context.close()


def test_the_public_screens_call_half_time_half_time(browser, server):
    context, page = public(browser, "tv", "es", f"{server.url}/matches/{paced(server, 'halftime')}/?tv=1")
    assert page.inner_text('[data-role="status"]') == "Descanso"
    context.close()


def test_the_horn_banner_on_the_tv_covers_neither_the_teams_nor_the_chukker(browser, server):
    context, page = public(browser, "tv", "en", f"{server.url}/matches/{paced(server, 'in_play')}/?tv=1")
    page.evaluate(f"async () => (await {page_module('horns.js')}).showHornBanner('final')")
    banner = box(page, ".polo-horn")
    assert banner["bottom"] <= HEIGHTS["tv"] + 1 and banner["bottom"] - banner["top"] > 10
    for part in (".sb-team[data-team=home] .sb-name", ".sb-team[data-team=away] .sb-name", '[data-role="period-line"]',
                 ".sb-score", '[data-role="clock"]'):  # fmt: skip
        assert not overlaps(banner, box(page, part)), part
    context.close()


def test_the_spanish_restart_line_says_lanzamiento_not_throw_in(browser, server):
    context, page = public(browser, "phone", "es")
    match_id = new_match(server)
    scorer = official(server, "scorer")
    post(scorer, match_id, {"type": "play"})
    post(
        scorer,
        match_id,
        {"type": "goal", "team": "home", "number": 1, "clock": projected_clock(state(server, match_id))},
    )
    page.goto(f"{server.url}/matches/{match_id}/")
    settle(page)
    line = page.inner_text('[data-role="restart"]')
    assert "lanzamiento del umpire en el centro" in line and "throw-in" not in line.lower()
    context.close()


def test_a_green_teams_arrow_stands_out_on_the_green_field(browser, server):
    context, page = public(browser, "phone", "en", f"{server.url}/matches/{paced(server, 'after_goal_green')}/")
    arrow = page.locator('[data-role="field"] .pf-arrow[data-team="home"]')
    fill = arrow.locator("path:not(.pf-arrow-rim)").get_attribute("fill")
    grass = page.locator('[data-role="field"] > rect').nth(1).get_attribute("fill")
    assert fill.lower() == grass.lower() == "#15803d"  # the team wears the grass's colour …
    rim = arrow.locator(".pf-arrow-rim")
    assert rim.get_attribute("stroke") == "#0a0a0a" and float(rim.get_attribute("stroke-width")) >= 4  # … rimmed dark

    def luminance(hex_color: str) -> float:
        channels = [int(hex_color[i : i + 2], 16) / 255 for i in (1, 3, 5)]
        lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    contrast = (luminance(grass) + 0.05) / (luminance("#0a0a0a") + 0.05)
    assert contrast >= 3, contrast
    context.close()


# --- The language -------------------------------------------------------------------------------------


def test_lang_in_the_address_opens_the_scoreboard_in_spanish_scripts_included(browser, server):
    context, page = public(browser, "phone", "en", f"{server.url}/matches/{paced(server, 'in_play')}/?lang=es")
    assert page.get_attribute("html", "lang") == "es"
    assert page.inner_text('[data-role="status"]') == "En juego"
    assert page.inner_text('[data-role="conn"]') == "En vivo"  # a word of the script's catalog
    context.close()


def test_the_tv_layout_has_a_language_switch_that_sticks(browser, server):
    context, page = public(browser, "tv", "en", f"{server.url}/matches/{paced(server, 'in_play')}/?tv=1")
    switch = page.locator('[data-role="lang-switch"]')
    assert switch.is_visible() and switch.inner_text() == "Español"
    switch.click()
    page.wait_for_url(re.compile(r"lang=es"))
    settle(page)
    assert page.inner_text('[data-role="status"]') == "En juego"
    page.reload()
    settle(page)
    assert page.inner_text('[data-role="status"]') == "En juego"
    assert page.locator('[data-role="lang-switch"]').inner_text() == "English"
    context.close()


def test_espanol_chosen_in_the_header_is_still_spanish_in_a_fresh_browser(browser, server):
    context, page = public(browser, "phone", "en")
    page.goto(f"{server.url}/matches/{paced(server, 'in_play')}/")
    page.click(".lang-switch button")
    page.wait_for_function("() => document.documentElement.lang === 'es'")
    [cookie] = [c for c in context.cookies() if c["name"] == "django_language"]
    assert cookie["value"] == "es" and cookie["expires"] > 0  # kept when the browser closes
    fresh = browser.new_context(viewport={"width": 390, "height": 844}, locale="en",
                                extra_http_headers={"Accept-Language": "en"})  # fmt: skip
    fresh.add_cookies([cookie])
    again = fresh.new_page()
    again.goto(f"{server.url}/matches/{paced(server, 'in_play')}/")
    assert again.get_attribute("html", "lang") == "es"
    fresh.close()
    context.close()


# --- The committee -----------------------------------------------------------------------------------


def test_the_committee_makes_a_practice_match_of_short_chukkers_locked_once_play_starts(browser, server):
    match_id = new_match(server)
    context = browser.new_context(viewport=LAPTOP, locale="en", extra_http_headers={"Accept-Language": "en"})
    log_in(context, server, "committee")
    page = context.new_page()
    watch = PageWatch(page)
    page.goto(f"{server.url}/committee/matches/{match_id}/edit/")
    lengths = page.eval_on_selector_all("#id_periods option", "(os) => os.map((o) => o.textContent)")
    assert lengths[0] == "1 × 7:00 (7 minutes of play)" and lengths[-1] == "8 × 7:00 (56 minutes of play)"
    # A slot of its own on the field: noon five days on, within the demo's tournament, where the demo
    # schedules nothing (its day's matches follow the time it was loaded, into the evening).
    day = dt.date.fromisoformat(page.input_value("#id_starts_at")[:10]) + dt.timedelta(days=5)
    page.fill("#id_starts_at", f"{day.isoformat()}T12:00")
    page.select_option("#id_periods", "4")
    page.check("#id_practice")
    page.fill("#id_chukker_length", "1:30")
    page.click("button[type=submit].primary")
    page.wait_for_url(re.compile(rf"/committee/matches/{match_id}/$"))
    assert page.inner_text('[data-role="match-length"]') == "4 chukkers of 1:30 · Practice match (not under the rules)"
    truth = state(server, match_id)
    assert truth["state"]["clock"]["regular_seconds"] == 90 and truth["match"]["periods"] == 4

    with page.expect_navigation():  # the committee's page reloads itself on the throw-in
        post(official(server, "scorer"), match_id, {"type": "play"})
    page.goto(f"{server.url}/committee/matches/{match_id}/edit/")
    for field in ("#id_periods", "#id_practice", "#id_chukker_length"):
        assert page.is_disabled(field), field
    assert watch.problems() == []
    context.close()
