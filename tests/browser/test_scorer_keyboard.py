"""The scorer's laptop, driven by the keyboard alone: a whole chukker, from the throw-in to the
stoppage that ends it after 7:00 (Rule 14.b), with the score, the restart, the timers and the log
shown as the rules service has them."""

from __future__ import annotations

import pytest

from .officials_helpers import (
    PageWatch,
    game_events,
    log_in,
    module_server,
    new_match,
    open_screen,
    press,
    state,
    wait_listed,
    wait_seq,
)

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from module_server(tmp_path_factory, "scorer-keys")


def restart_shown(page) -> dict:
    return page.evaluate("""() => { const r = document.getElementById('restart');
      return {kind: r.dataset.kind, team: r.dataset.team, text: r.textContent}; }""")


def score_shown(page) -> tuple[str, str]:
    return (page.inner_text('[data-score="home"]'), page.inner_text('[data-score="away"]'))


def test_a_whole_chukker_is_logged_with_the_keyboard_alone(server, context, page):
    match_id = new_match(server)
    log_in(context, server, "scorer")
    watch = PageWatch(page)
    open_screen(page, server, match_id)
    home = state(server, match_id)["match"]["home"]["name"]

    press(page, "Space")  # the throw-in: play
    wait_listed(page, 1)
    assert page.inner_text("[data-status-text]") == "In play"

    # Ball over the north end line (home defends it), last hit by away: knock-in by home.
    press(page, "o", "e", "Enter", "a", "Enter")
    wait_listed(page, 2)
    truth = state(server, match_id)["state"]["restart"]
    assert truth["kind"] == "knock_in" and truth["team"] == "home"
    shown = restart_shown(page)
    assert (shown["kind"], shown["team"]) == ("knock_in", "home") and truth["message"] in shown["text"]

    press(page, "Space")  # "Play" for the knock-in: its 10 seconds run, then the timer turns red
    wait_listed(page, 3)
    timer = page.wait_for_selector('#timers [data-kind="knock_in"]')
    assert timer.get_attribute("data-expired") == "false"
    page.wait_for_selector('#timers [data-kind="knock_in"].expired')
    assert timer.query_selector(".timer-left").inner_text() == "0:00"

    press(page, "g", "h", "1")  # goal, home #1
    wait_listed(page, 4)
    assert score_shown(page) == ("1", "0")
    scorer_of_the_goal = page.inner_text('#log .log-entry[data-type="goal"]')
    assert "#1 Adolfo Cambiaso" in scorer_of_the_goal and scorer_of_the_goal.count("La Dolfina Blue") == 1
    assert restart_shown(page)["kind"] == "throw_in"
    page.wait_for_selector('#timers [data-kind="goal_return"]')  # 25 s back to the centre

    press(page, "Space")  # throw-in
    wait_listed(page, 5)
    press(page, "f", "a", "3", "2", "Enter", "Enter", "Enter")  # foul by away #3, Penalty 2, no spot, log it
    wait_listed(page, 6)
    shown = restart_shown(page)
    assert (shown["kind"], shown["team"]) == ("penalty", "home") and "Penalty 2" in shown["text"]

    press(page, "Space")  # the penalty is taken
    wait_listed(page, 7)
    page.wait_for_selector('#timers [data-kind="foul_shot"]')

    press(page, "o", "s", "Enter", "h", "Enter")  # over the side, last hit by home
    wait_listed(page, 8)
    truth = state(server, match_id)["state"]["restart"]
    shown = restart_shown(page)
    assert (shown["kind"], shown["team"]) == (truth["kind"], truth["team"] or "") and truth["team"] == "away"

    page.wait_for_selector('#timers [data-kind="count"]')  # the umpire's 8-second count before dropping the ball
    press(page, "Space")  # the ball is dropped: the count is over, 5 s to play it (Rules 22.f, 22.h)
    wait_listed(page, 9)
    page.wait_for_selector('#timers [data-kind="count"]', state="detached")
    page.wait_for_selector('#timers [data-kind="to_play"]')
    press(page, "w", "8", "Enter", "h", "2", "Enter")  # whistle: lost helmet, ball at the centre, home #2
    wait_listed(page, 10)
    assert restart_shown(page)["kind"] == "throw_in"

    # The umpires correct the official time to 6:59; play runs past the horn at 7:00, and in a
    # chukker that is not the last the next ball out ends it (Rule 14.b).
    press(page, "t")
    page.keyboard.type("6:59")
    press(page, "Enter")
    page.keyboard.type("stopwatch check")
    press(page, "Enter")
    wait_listed(page, 11)
    assert page.inner_text("[data-clock]") == "6:59"
    press(page, "Space")
    wait_listed(page, 12)
    # Past the horn: 7:01 to 7:29 (7:01 alone shows for a second, which a slow frame can skip).
    page.wait_for_function("() => /^7:(0[1-9]|[12][0-9])$/.test(document.querySelector('[data-clock]').textContent)")
    press(page, "o", "s", "Enter", "a", "Enter")
    page.wait_for_function("() => document.querySelector('[data-status-text]').dataset.value === 'interval'")

    truth = state(server, match_id)["state"]
    assert truth["status"] == "interval" and truth["score"] == {"home": 1, "away": 0}
    assert score_shown(page) == ("1", "0")
    assert page.inner_text("[data-period]") == "Chukker 1"
    page.wait_for_selector('#timers [data-kind="interval"]')
    logged = game_events(server, match_id)  # the clock holds of the entries aside
    types = [e["type"] for e in logged]
    assert types == [
        "play",
        "ball_out",
        "play",
        "goal",
        "play",
        "foul",
        "play",
        "ball_out",
        "play",
        "whistle",
        "clock_set",
        "play",
        "horn",
        "ball_out",
    ]  # the horn at 7:00 is the clock's own
    assert logged[12]["event"]["kind"] == "seven"
    wait_seq(page, logged[-1]["seq"])
    shown = page.eval_on_selector_all("#log .log-entry", "els => els.map(e => e.dataset.type)")
    assert shown == list(reversed(types))  # newest first
    goal = logged[3]["event"]
    assert (goal["team"], goal["number"]) == ("home", 1)
    assert home in page.inner_text("#log")
    assert watch.problems() == []


def test_every_event_type_is_in_the_palette(server, context, page):
    match_id = new_match(server)
    log_in(context, server, "scorer")
    open_screen(page, server, match_id)
    press(page, "Control+k")
    page.wait_for_selector("#palette[open]")
    listed = page.eval_on_selector_all("#palette-list li", "els => els.map(e => e.dataset.type)")
    assert set(listed) == {
        "play",
        "goal",
        "foul",
        "ball_out",
        "whistle",
        "restart_violation",
        "horn",
        "clock_set",
        "card",
        "mount",
        "substitution",
        "suspend",
        "resume",
        "abandon",
        "overtime",
        "shootout_start",
        "shootout_attempt",
        "forfeit",
        "void",
    }
    page.keyboard.type("card")
    assert page.eval_on_selector_all("#palette-list li", "els => els.map(e => e.dataset.type)") == ["card"]
    press(page, "Enter")
    page.wait_for_selector('#command[data-type="card"][data-step="team"]')


def test_the_help_lists_the_keys(server, context, page):
    match_id = new_match(server)
    log_in(context, server, "scorer")
    open_screen(page, server, match_id)
    press(page, "?")
    page.wait_for_selector("#help[open]")
    text = page.inner_text("#help")
    for phrase in ("Goal", "Foul", "Ball out", "Whistle", "Void", "Knock-in", "Injured player"):
        assert phrase in text
    press(page, "Escape")
    page.wait_for_selector("#help:not([open])", state="attached")
