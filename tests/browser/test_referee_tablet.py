"""The umpires' and referee's tablet, by touch: the clock, score, restart and timers as the rules
service has them; a foul with its penalty and spot logged by tapping; the score confirmed at the
end of a chukker; big targets and a high-contrast theme for sunlight."""

from __future__ import annotations

import time

import pytest

from .officials_helpers import (
    PageWatch,
    click_field,
    game_events,
    log_in,
    marker,
    module_server,
    new_match,
    official,
    open_screen,
    post,
    state,
)

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from module_server(tmp_path_factory, "referee-tablet", matches=4)


@pytest.fixture
def tablet(browser):
    """A touch tablet in landscape."""
    context = browser.new_context(viewport={"width": 1180, "height": 820}, has_touch=True, is_mobile=False)
    yield context
    context.close()


def test_the_tablet_counts_down_the_injured_player_and_shows_the_restart(server, tablet):
    match_id = new_match(server)
    scorer = official(server, "scorer")
    post(scorer, match_id, {"type": "play"})
    page = tablet.new_page()
    log_in(tablet, server, "umpire1")
    watch = PageWatch(page)
    open_screen(page, server, match_id, "referee")

    posted_at = time.time()
    post(
        scorer,
        match_id,
        {"type": "whistle", "reason": "injured_player", "ball": {"x": 100, "y": 40}, "team": "away", "number": 2},
    )
    timer = page.wait_for_selector('#timers [data-kind="injured_player"]')
    first = timer.query_selector(".timer-left").inner_text()
    waited = time.time() - posted_at
    minutes, seconds = map(int, first.split(":"))
    # Ten minutes from the whistle (Rule 21.d), less the time the screen took to show it.
    assert 600 - waited - 1 <= minutes * 60 + seconds <= 600, (first, waited)
    assert "Ellerstina Red #2" in timer.inner_text()
    page.wait_for_function(
        "(first) => document.querySelector('#timers [data-kind=\"injured_player\"] .timer-left').textContent !== first",
        arg=first,
    )
    assert timer.get_attribute("data-expired") == "false"

    restart = state(server, match_id)["state"]["restart"]
    page.wait_for_selector(f'#restart[data-kind="{restart["kind"]}"]')
    assert restart["message"] in page.inner_text("#restart")
    drawn = marker(page)
    assert (drawn["cx"], drawn["cy"]) == (restart["spot"]["x"], restart["spot"]["y"])
    assert watch.problems() == []


def test_an_umpire_logs_a_foul_by_tapping(server, tablet):
    match_id = new_match(server)
    post(official(server, "scorer"), match_id, {"type": "play"})
    page = tablet.new_page()
    log_in(tablet, server, "umpire1")
    open_screen(page, server, match_id, "referee")

    page.tap('[data-command="foul"]')
    page.tap('#command [data-team="away"]')  # the fouling team
    page.tap('#command [data-number="3"]')  # its player
    page.tap('#command [data-value="5a"]')  # Penalty 5.a: from the spot
    page.wait_for_selector("#field.picking")
    click_field(page, 120, 50)  # the spot of the foul
    page.tap('#command [data-flag="card"]')  # a yellow card with it
    page.tap('#command [data-value="submit"]')

    page.wait_for_selector('#restart[data-kind="penalty"]')
    [_, foul] = [e["event"] for e in game_events(server, match_id)]  # the foul's clock hold aside
    assert (foul["type"], foul["against"], foul["number"], foul["penalty"], foul["card"]) == (
        "foul",
        "away",
        3,
        "5a",
        "yellow",
    )
    assert abs(foul["spot"]["x"] - 120) < 1 and abs(foul["spot"]["y"] - 50) < 1
    restart = state(server, match_id)["state"]["restart"]
    assert (restart["penalty"], restart["team"]) == ("5a", "home")
    drawn = marker(page)
    assert (drawn["cx"], drawn["cy"]) == (restart["spot"]["x"], restart["spot"]["y"])
    page.wait_for_selector('#cards li[data-team="away"]')
    assert "Ellerstina Red #3" in page.inner_text("#cards")


def test_the_umpire_confirms_the_score_when_the_chukker_ends(server, tablet):
    match_id = new_match(server)
    scorer = official(server, "scorer")
    post(scorer, match_id, {"type": "play"})
    # A device may not stamp a time ahead of the official clock (clock_ahead): the umpires set it.
    post(scorer, match_id, {"type": "clock_set", "clock": 100, "reason": "stopwatch"})
    post(scorer, match_id, {"type": "goal", "team": "away", "number": 1})
    page = tablet.new_page()
    log_in(tablet, server, "referee")
    open_screen(page, server, match_id, "referee")
    assert page.is_hidden("#confirm")

    post(scorer, match_id, {"type": "play"})
    post(scorer, match_id, {"type": "clock_set", "clock": 425, "reason": "stopwatch"})
    post(
        scorer,
        match_id,
        {"type": "ball_out", "line": "side", "at": {"x": 150, "y": 0}, "last_hit_by": "home", "deflected_off": "none"},
    )
    page.tap("#confirm-score")
    page.wait_for_selector('#confirm .confirmed[data-period="1"]')
    page.wait_for_selector('#confirmations li[data-period="1"]')
    status, data = official(server, "umpire2").request("GET", f"/api/matches/{match_id}/confirmations")
    assert status == 200
    [confirmation] = data["confirmations"]
    assert (confirmation["username"], confirmation["period"], confirmation["score"]) == (
        "referee",
        1,
        {"home": 0, "away": 1},
    )


def test_the_tablet_has_big_targets_and_a_high_contrast_theme(server, tablet):
    match_id = new_match(server)
    page = tablet.new_page()
    log_in(tablet, server, "umpire2")
    open_screen(page, server, match_id, "referee")
    page.tap('[data-command="whistle"]')
    sizes = page.eval_on_selector_all(
        "main button:not([hidden])",
        """els => els
        .filter(b => b.offsetParent !== null)
        .map(b => { const r = b.getBoundingClientRect(); return [b.textContent.trim(), r.width, r.height]; })""",
    )
    assert len(sizes) >= 10
    small = [s for s in sizes if s[1] < 48 or s[2] < 48]
    assert small == []

    page.tap("#contrast-toggle")
    assert "high-contrast" in page.get_attribute("body", "class")
    page.reload()
    page.wait_for_selector("body.high-contrast")
    assert page.get_attribute("#contrast-toggle", "aria-pressed") == "true"
