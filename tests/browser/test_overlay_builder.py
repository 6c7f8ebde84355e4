"""The stream overlay a streamer sets up (issue 12, item 2): its options in the address (position,
theme, scale, parts), the lower third naming a goal's scorer, the chukker-end summary, a horn that
leaves the bar as it was, and the builder that previews the overlay and gives its address."""

from __future__ import annotations

import pytest

from .committee_browser import module_server
from .live_helpers import LIVE, PageWatch, demo_match_id, ensure_in_play, ensure_stopped, post, scorer, wait_live
from .phases import phase_matches

pytestmark = pytest.mark.browser

HOME = "Ellerstina Red Lions Polo Club"
AWAY = "La Dolfina Blue Sky Polo Teams"
WHITE = "rgb(255, 255, 255)"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from module_server(tmp_path_factory, "overlay")


@pytest.fixture(scope="module")
def ids(server):
    return phase_matches(server, ("in_play", "stopped", "interval"), home=HOME, away=AWAY)


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture
def watch(page):
    watch = PageWatch(page)
    yield watch
    assert watch.problems() == []


def style(page, selector: str, prop: str) -> str:
    return page.locator(selector).first.evaluate(f"(n) => getComputedStyle(n).{prop}")


def stage(page, role: str):
    return page.locator(f'#overlay-stage [data-role="{role}"]')


def test_the_default_overlay_is_a_dark_bar_top_left(server, ids, page, watch):
    page.goto(f"{server.url}/matches/{ids['stopped']}/overlay/")
    page.wait_for_selector("#overlay-stage[data-phase]")
    bar = page.locator("#overlay").bounding_box()
    assert bar["x"] < 20 and bar["y"] < 20
    assert style(page, "#overlay", "backgroundColor") == "rgba(10, 10, 10, 0.82)"
    for part in ("period-line", "clock-box", "score-home"):
        assert stage(page, part).is_visible()
    assert stage(page, "restart").is_hidden() and stage(page, "summary").is_hidden()


def test_the_address_sets_position_theme_scale_and_parts(server, ids, page, watch):
    page.goto(f"{server.url}/matches/{ids['stopped']}/overlay/?pos=br&theme=light&scale=1.5&show=score,clock,restart")
    page.wait_for_selector("#overlay-stage[data-phase='stopped']")
    bar = page.locator("#overlay-stage").bounding_box()
    assert bar["x"] + bar["width"] > 1900 and bar["y"] + bar["height"] > 1060  # bottom right, 8 px in
    assert style(page, "#overlay", "backgroundColor") == "rgba(255, 255, 255, 0.92)"
    assert style(page, ".ov-name", "color") == "rgb(17, 17, 17)"
    assert style(page, "#overlay-stage", "transform") == "matrix(1.5, 0, 0, 1.5, 0, 0)"
    assert stage(page, "period-line").is_hidden()  # chukker left out
    assert stage(page, "clock-box").is_visible() and stage(page, "score-home").is_visible()
    assert "Rule 22.f" in stage(page, "restart").inner_text()  # the restart line while play is stopped


def test_the_transparent_theme_has_no_bar_behind_the_words(server, ids, page, watch):
    page.goto(f"{server.url}/matches/{ids['in_play']}/overlay/?theme=transparent&pos=tc&show=score")
    page.wait_for_selector("#overlay-stage[data-phase='in_play']")
    assert style(page, "#overlay", "backgroundColor") == "rgba(0, 0, 0, 0)"
    box = page.locator("#overlay").bounding_box()
    assert abs(box["x"] + box["width"] / 2 - 960) < 2  # centred
    assert stage(page, "clock-box").is_hidden() and stage(page, "period-line").is_hidden()


def test_the_chukker_end_summary_shows_through_the_interval(server, ids, page, watch):
    page.goto(f"{server.url}/matches/{ids['interval']}/overlay/?show=score,summary&lang=es")
    page.wait_for_selector("#overlay-stage[data-phase='interval']")
    assert stage(page, "summary").inner_text() == f"Fin del chukker 1 · {HOME} 1 – 0 {AWAY}"


def test_a_horn_flashes_the_bar_and_leaves_its_words_white(server, ids, page, watch):
    """After any horn the names, scores and clock kept a near-black colour on the dark bar until a
    reload (``.ov.horn{color:#111}`` was never removed)."""
    page.goto(f"{server.url}/matches/{ids['in_play']}/overlay/")
    wait_live(page)
    page.evaluate(f"{LIVE}.horn('test:seven', 'seven')")
    assert "horn" in page.locator("#overlay").get_attribute("class")
    for sel in (".ov-name", '[data-role="score-home"]', '[data-role="clock"]'):
        assert style(page, f"#overlay {sel}", "color") == WHITE
    page.wait_for_function("() => !document.getElementById('overlay').classList.contains('horn')", timeout=10_000)
    for sel in (".ov-name", '[data-role="score-home"]', '[data-role="clock"]'):
        assert style(page, f"#overlay {sel}", "color") == WHITE


def test_a_goal_puts_its_scorer_in_a_lower_third_for_a_few_seconds(server, page, watch):
    match_id = demo_match_id(server)
    official = scorer(server)
    page.goto(f"{server.url}/matches/{match_id}/overlay/?show=score,clock,scorer")
    wait_live(page)
    assert stage(page, "lower-third").is_hidden()
    ensure_in_play(official, match_id)
    _, data = server.client().request("GET", f"/api/matches/{match_id}/state")
    team = data["match"]["away"]
    answer = post(official, match_id, {"type": "goal", "team": "away", "number": 2})
    name = next(p["name"] for p in team["players"] if p["number"] == 2)
    lower = stage(page, "lower-third")
    page.wait_for_function(
        "([node, text]) => !node.hidden && node.textContent === text",
        arg=[lower.element_handle(), f"Goal · {name} · {team['name']}"],
        timeout=10_000,
    )
    assert page.evaluate(f"{LIVE}.lastSeq") >= answer["last_seq"]
    page.wait_for_function("(node) => node.hidden", arg=lower.element_handle(), timeout=15_000)
    ensure_stopped(official, match_id)


def test_a_goal_puts_no_lower_third_on_an_overlay_without_it(server, page, watch):
    match_id = demo_match_id(server)
    official = scorer(server)
    page.goto(f"{server.url}/matches/{match_id}/overlay/")
    wait_live(page)
    ensure_in_play(official, match_id)
    answer = post(official, match_id, {"type": "goal", "team": "home", "number": 1})
    page.wait_for_function(f"() => {LIVE}.lastSeq >= {answer['last_seq']}", timeout=10_000)
    assert stage(page, "lower-third").is_hidden()
    ensure_stopped(official, match_id)


def test_the_builder_gives_the_address_and_previews_it(server, ids, page, watch):
    match_id = ids["stopped"]
    page.goto(f"{server.url}/matches/{match_id}/overlay/builder/")
    url = page.locator("#overlay-url")
    assert url.input_value() == f"{server.url}/matches/{match_id}/overlay/?lang=en"
    page.select_option('select[name="pos"]', "br")
    page.select_option('select[name="theme"]', "light")
    page.fill('input[name="scale"]', "1.5")
    page.check('input[name="show"][value="restart"]')
    page.uncheck('input[name="show"][value="chukker"]')
    page.select_option('select[name="lang"]', "es")
    want = f"{server.url}/matches/{match_id}/overlay/?pos=br&theme=light&scale=1.5&show=score,clock,restart&lang=es"
    assert url.input_value() == want
    assert page.locator('[data-role="open"]').get_attribute("href") == want
    # The preview is the overlay with the same options, framed by the builder (same origin).
    frame = page.frame_locator('iframe[data-role="preview"]')
    # Each change above reloads the preview, and the frame keeps showing an earlier one (in English,
    # with pos=br and theme=light already) until the last has loaded: wait for the Spanish one.
    stage_in_frame = frame.locator('html[lang="es"] #overlay-stage[data-pos="br"][data-theme="light"]')
    stage_in_frame.wait_for(state="attached", timeout=10_000)
    assert "Regla 22.f" in frame.locator('[data-role="restart"]').inner_text()
    assert frame.locator('[data-role="period-line"]').is_hidden()
    # The builder keeps the choice in its own address: a reload opens with it.
    page.reload()
    assert page.locator("#overlay-url").input_value() == want
    # The address works on its own, as OBS opens it.
    page.goto(want)
    page.wait_for_selector('#overlay-stage[data-pos="br"][data-theme="light"][data-phase="stopped"]')
    assert page.locator("html").get_attribute("lang") == "es"


def test_only_the_preview_is_framed_by_our_own_origin(server, ids):
    """The overlay's own address keeps its policy (framed by none unless OVERLAY_FRAME_ANCESTORS
    names a switcher); the builder's preview of it may be framed by the builder."""
    import urllib.request

    match_id = ids["stopped"]
    with urllib.request.urlopen(f"{server.url}/matches/{match_id}/overlay/") as r:
        assert "frame-ancestors 'none'" in r.headers["Content-Security-Policy"]
        assert r.headers["X-Frame-Options"] == "DENY"
    with urllib.request.urlopen(f"{server.url}/matches/{match_id}/overlay/builder/?preview=1&pos=br") as r:
        assert "frame-ancestors 'self'" in r.headers["Content-Security-Policy"]
        assert r.headers["X-Frame-Options"] == "SAMEORIGIN"
        assert 'id="overlay-stage"' in r.read().decode()
    with urllib.request.urlopen(f"{server.url}/matches/{match_id}/overlay/builder/") as r:
        assert "frame-ancestors 'none'" in r.headers["Content-Security-Policy"]
