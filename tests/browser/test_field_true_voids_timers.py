"""Field-true recording (issue 9): who may undo what — the scorer is offered no Void on the
committee's decisions, and voids any other event by its number from the keyboard (``#n``); the
restart timers end when their restart is taken, at the end of the period and on a void; and a
finished or suspended match offers no whistle, foul or card."""

from __future__ import annotations

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
    state,
)

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from module_server(tmp_path_factory, "field-true-voids-timers", matches=6)


@pytest.fixture
def tablet(browser):
    context = browser.new_context(viewport={"width": 1180, "height": 820}, has_touch=True)
    yield context
    context.close()


def seq_of(server, match_id: int, kind: str) -> int:
    return [e["seq"] for e in events(server, match_id) if e["type"] == kind][-1]


def test_the_scorer_may_not_void_the_committees_suspend(server, context, page):
    match_id = new_match(server)
    post(official(server, "scorer"), match_id, {"type": "play"})
    post(official(server, "committee"), match_id, {"type": "suspend", "reason": "weather"})
    log_in(context, server, "scorer")
    watch = PageWatch(page)
    open_screen(page, server, match_id)
    suspend = page.wait_for_selector('#log .log-entry[data-type="suspend"]')
    assert suspend.query_selector(".log-void") is None  # no Void offered on the committee's decision
    assert "(committee)" in suspend.inner_text()
    assert page.query_selector('#log .log-entry[data-type="play"] .log-void') is not None
    # The same rule for every committee decision: a shootout hit the committee logged, say.
    assert page.evaluate(f"""async () => {{
      const {{canVoid}} = await {page_module("officials/permissions.js")};
      return [
        canVoid('scorer', {{type: 'shootout_attempt', event: {{by: {{role: 'committee', name: 'C'}}}}}}),
        canVoid('umpire', {{type: 'forfeit', event: {{}}}}),
        canVoid('scorer', {{type: 'shootout_attempt', event: {{by: {{role: 'scorer', name: 'S'}}}}}}),
        canVoid('committee', {{type: 'suspend', event: {{by: {{role: 'committee', name: 'C'}}}}}})];
    }}""") == [False, False, True, True]

    press(page, "z")  # "void the last" does not reach past it either
    box = page.wait_for_selector('#rejection[data-code="void_not_permitted"]')
    assert "only the committee may void it" in box.inner_text()
    assert page.get_attribute("#command", "data-active") == "false"

    press(page, "#")  # nor by its number
    page.wait_for_selector('#command[data-type="void"][data-step="target"] .cmd-input input')
    page.keyboard.type(str(seq_of(server, match_id, "suspend")))
    press(page, "Enter")
    error = page.wait_for_selector("#command .cmd-error:not(:empty)")
    assert "only the committee may void it" in error.inner_text()
    press(page, "Escape")
    assert [e["type"] for e in events(server, match_id)] == ["play", "suspend"]
    assert state(server, match_id)["state"]["status"] == "suspended"
    assert watch.problems() == []


def test_void_by_number_from_the_keyboard(server, context, page):
    match_id = new_match(server)
    scorer = official(server, "scorer")
    post(scorer, match_id, {"type": "play"})
    post(official(server, "umpire1"), match_id, {"type": "mount", "team": "home", "number": 2, "horse": "Lucera"})
    log_in(context, server, "scorer")
    open_screen(page, server, match_id)
    page.wait_for_selector('#log .log-entry[data-type="mount"]')
    press(page, "g", "h", "1")
    page.wait_for_selector('#log .log-entry[data-type="goal"]')
    mount_seq, hold_seq = seq_of(server, match_id, "mount"), seq_of(server, match_id, "hold")

    press(page, "#")
    page.wait_for_selector('#command[data-type="void"][data-step="target"] .cmd-input input')
    page.keyboard.type(f"#{hold_seq}")  # the clock hold of the goal: not an event to void
    press(page, "Enter")
    assert "clock hold" in page.wait_for_selector("#command .cmd-error:not(:empty)").inner_text()
    page.fill("#command .cmd-input input", str(mount_seq))
    press(page, "Enter")
    page.wait_for_selector('#command[data-type="void"][data-step="reason"]')
    assert f"#{mount_seq}" in page.inner_text("#command .cmd-note") and "Lucera" in page.inner_text(
        "#command .cmd-note"
    )
    page.keyboard.type("wrong horse")
    press(page, "Enter")
    page.wait_for_selector(f'#log .log-entry.voided[data-seq="{mount_seq}"]')

    # Z, then "#" before the reason: another event than the last, by its number.
    press(page, "z")
    page.wait_for_selector('#command[data-type="void"][data-step="reason"]')
    page.keyboard.type("#")
    page.wait_for_selector('#command[data-type="void"][data-step="target"]')
    page.keyboard.type("1")
    press(page, "Enter")
    assert "#1" in page.wait_for_selector('#command[data-step="reason"] .cmd-note').inner_text()
    press(page, "Escape")

    logged = events(server, match_id)
    void = logged[-1]
    assert void["type"] == "void"
    assert (void["event"]["target"], void["event"]["reason"]) == (
        next(e["id"] for e in logged if e["type"] == "mount"),
        "wrong horse",
    )
    assert [e["type"] for e in logged] == ["play", "mount", "hold", "goal", "void"]
    press(page, "?")
    assert "Void event number n" in page.inner_text("#help")


def test_the_count_stops_at_play_and_a_void_ends_the_timers(server, context, page):
    match_id = new_match(server)
    log_in(context, server, "scorer")
    open_screen(page, server, match_id)
    press(page, "Space")
    page.wait_for_selector('[data-status-text][data-value="in_play"]')

    press(page, "o", "s", "Enter", "h", "Enter")  # over the side, last hit by home: a free hit to away
    page.wait_for_selector('#restart[data-kind="free_hit"]')
    page.wait_for_selector('#timers [data-kind="count"]')  # the umpire counts 8 s before dropping the ball
    press(page, "Space")  # the ball is dropped: "Play"
    page.wait_for_selector('#timers [data-kind="count"]', state="detached")  # the count is over
    page.wait_for_selector('#timers [data-kind="to_play"]')  # 5 s to play the ball, from "Play"

    press(page, "z")  # that "Play" was early: void it
    page.wait_for_selector('#command[data-type="void"] .cmd-input input')
    page.keyboard.type("ball not dropped yet")
    press(page, "Enter")
    page.wait_for_selector('#log .log-entry.voided[data-type="play"]')
    page.wait_for_selector('#timers [data-kind="to_play"]', state="detached")

    press(page, "z")  # and the ball out itself: no free hit, no count
    page.wait_for_selector('#command[data-type="void"] .cmd-input input')
    page.keyboard.type("it stayed in")
    press(page, "Enter")
    page.wait_for_selector('#log .log-entry.voided[data-type="ball_out"]')
    page.wait_for_selector('[data-status-text][data-value="in_play"]')
    page.wait_for_selector("#timers [data-kind]", state="detached")


def test_the_foul_shot_timer_ends_with_the_chukker(server, context, page):
    match_id = new_match(server)
    scorer = official(server, "scorer")
    post(scorer, match_id, {"type": "play"})
    post(scorer, match_id, {"type": "foul", "against": "away", "number": 3, "penalty": "2"})
    log_in(context, server, "scorer")
    open_screen(page, server, match_id)
    press(page, "Space")  # the penalty is taken: 20 s to hit it
    page.wait_for_selector('#timers [data-kind="foul_shot"]')
    post(scorer, match_id, {"type": "clock_set", "clock": 449, "reason": "stopwatch"})
    # The double horn at 7:30 ends the chukker (the server appends it): the foul shot is history.
    page.wait_for_selector('[data-status-text][data-value="interval"]')
    page.wait_for_selector('#timers [data-kind="interval"]')
    assert page.query_selector('#timers [data-kind="foul_shot"]') is None
    assert [e["type"] for e in events(server, match_id)][-1] == "horn"


def test_a_finished_or_suspended_match_offers_no_whistle_foul_or_card(server, context, page, tablet):
    match_id = new_match(server)
    post(official(server, "scorer"), match_id, {"type": "play"})
    committee = official(server, "committee")
    umpire = tablet.new_page()
    log_in(tablet, server, "umpire1")
    open_screen(umpire, server, match_id, "referee")
    log_in(context, server, "scorer")
    open_screen(page, server, match_id)
    assert not umpire.is_disabled('[data-command="foul"]')

    post(committee, match_id, {"type": "suspend", "reason": "lightning"})
    umpire.wait_for_selector('[data-command="whistle"]:disabled')
    assert umpire.is_disabled('[data-command="foul"]') and umpire.is_disabled('[data-command="card"]')
    assert "suspended" in umpire.inner_text("#closed")
    post(committee, match_id, {"type": "resume"})
    umpire.wait_for_selector('[data-command="whistle"]:enabled')
    umpire.wait_for_selector("#closed", state="hidden")

    post(committee, match_id, {"type": "forfeit", "team": "away", "reason": "not enough horses"})
    umpire.wait_for_selector('[data-command="foul"]:disabled')
    assert umpire.is_disabled('[data-command="whistle"]') and umpire.is_disabled('[data-command="card"]')
    assert "The match is over" in umpire.inner_text("#closed")
    umpire.tap('[data-command="foul"]', force=True)
    assert umpire.get_attribute("#command", "data-active") == "false"

    page.wait_for_selector('[data-status-text][data-value="final"]')
    assert "The match is over" in page.inner_text("#closed")
    for key in ("f", "w", "c"):
        press(page, key)
        page.wait_for_selector('#rejection[data-code="match_closed"]')
        assert page.get_attribute("#command", "data-active") == "false"
    assert [e["type"] for e in events(server, match_id)] == ["play", "suspend", "resume", "forfeit"]


def test_a_voided_stoppage_holds_the_clock_again_until_the_right_one_is_logged(server, context, page):
    match_id = new_match(server)
    post(official(server, "scorer"), match_id, {"type": "play"})
    log_in(context, server, "scorer")
    open_screen(page, server, match_id)
    page.wait_for_selector('[data-clock][data-running="true"]', state="attached")
    press(page, "g", "h", "1")  # a goal … that was wide
    page.wait_for_selector('#log .log-entry[data-type="goal"]')
    held_at = next(e for e in events(server, match_id) if e["type"] == "goal")["event"]["clock"]

    press(page, "z")
    page.wait_for_selector('#command[data-type="void"] .cmd-input input')
    page.keyboard.type("wide")
    press(page, "Enter")
    # The ball is in play again by the log, but play did stop at the whistle: the clock stays
    # held at the goal's time, and the scorer is told so — it is the scorer's own entry again.
    own = page.wait_for_selector("#presence li.presence-own")
    assert "voided" in own.inner_text()
    assert page.query_selector("#presence li.presence-other") is None
    page.wait_for_selector('[data-clock][data-running="false"]', state="attached")

    press(page, "o", "e", "Enter", "a", "Enter")  # what happened: a ball over the end line
    page.wait_for_selector('#log .log-entry[data-type="ball_out"]')
    page.wait_for_selector("#presence", state="hidden")
    logged = events(server, match_id)
    assert [e["type"] for e in logged] == ["play", "hold", "goal", "void", "ball_out"]
    ball_out = logged[4]["event"]
    assert ball_out["hold"] == logged[1]["id"] and abs(ball_out["clock"] - held_at) < 0.01
    assert state(server, match_id)["state"]["status"] == "stopped"
