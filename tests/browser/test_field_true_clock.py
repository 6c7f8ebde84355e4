"""Field-true recording (issue 9): the clock stops at the first key of a stoppage — on the scorer's
laptop at once, and on the umpire's tablet and the public scoreboard as soon as the hold reaches
them — the finished entry is logged at the clock of that first key, and an entry abandoned with
Esc leaves the clock as if it had never stopped. Each official sees the others' entries in
progress ("Ulises Umpire (umpire): foul…")."""

from __future__ import annotations

import pytest

from .officials_helpers import (
    PageWatch,
    clock_past,
    clock_running,
    clock_stopped,
    events,
    first_key_clock,
    live_clock,
    live_clock_stopped,
    log_in,
    module_server,
    new_match,
    official,
    open_screen,
    post,
    press,
    projected_clock,
    state,
    time_passes,
    watch_first_key,
)

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from module_server(tmp_path_factory, "field-true-clock", matches=3)


@pytest.fixture
def tablet(browser):
    context = browser.new_context(viewport={"width": 1180, "height": 820}, has_touch=True)
    yield context
    context.close()


@pytest.fixture
def public(browser):
    context = browser.new_context()
    yield context
    context.close()


def open_public(page, server, match_id: int) -> None:
    page.goto(f"{server.url}/matches/{match_id}/")
    page.wait_for_function(
        "() => window.PoloLive && PoloLive.instances.length && PoloLive.instances[0].status === 'live'"
    )


def by_type(logged: list[dict], kind: str) -> list[dict]:
    return [e for e in logged if e["type"] == kind]


def test_the_first_key_stops_every_clock_and_the_entry_keeps_its_time(server, context, page, tablet, public):
    match_id = new_match(server)
    post(official(server, "scorer"), match_id, {"type": "play"})
    log_in(context, server, "scorer")
    watch = PageWatch(page)
    open_screen(page, server, match_id)
    umpire = tablet.new_page()
    log_in(tablet, server, "umpire1")
    open_screen(umpire, server, match_id, "referee")
    board = public.new_page()
    open_public(board, server, match_id)
    for screen in (page, umpire):
        clock_running(screen)
    clock_past(page, 1.0)

    # The whistle blows: the scorer's first key (O, ball out) is the moment the clock stops.
    watch_first_key(page)
    press(page, "o")
    clock_stopped(page)
    first_key = first_key_clock(page)
    assert first_key["key"] == "o"
    clock_stopped(umpire)
    live_clock_stopped(board)
    held = state(server, match_id)["state"]
    assert held["clock"]["held"] is True and held["clock"]["running"] is False
    [hold] = held["holds"]
    assert hold["kind"] == "ball_out" and hold["by"]["role"] == "scorer"
    assert abs(hold["clock"] - first_key["clock"]) < 0.3
    # The stopped clock reads the same on the three screens (the tablet and the board from the server).
    shown = [s.evaluate("() => PoloLive.instances[0].clockElapsed()") for s in (umpire, board)]
    assert all(abs(c - hold["clock"]) < 0.01 for c in shown), shown

    time_passes(page, 2.0)  # the scorer takes a while over the rest of the entry
    press(page, "s", "Enter", "a", "Enter")
    page.wait_for_selector('#log .log-entry[data-type="ball_out"]')
    logged = events(server, match_id)
    [ball_out] = [e["event"] for e in by_type(logged, "ball_out")]
    assert abs(ball_out["clock"] - first_key["clock"]) < 0.3, (ball_out["clock"], first_key)
    assert ball_out["hold"] == hold["id"]
    after = state(server, match_id)["state"]
    assert after["status"] == "stopped" and after["holds"] == []
    assert abs(after["clock"]["elapsed"] - first_key["clock"]) < 0.3
    # The hold is the audit trail's, not a line of the scorer's log.
    assert page.query_selector('#log .log-entry[data-type="hold"]') is None
    assert watch.problems() == []


def test_an_entry_abandoned_with_esc_leaves_the_clock_as_if_it_never_stopped(server, context, page, tablet, public):
    match_id = new_match(server)
    post(official(server, "scorer"), match_id, {"type": "play"})
    log_in(context, server, "scorer")
    watch = PageWatch(page)
    open_screen(page, server, match_id)
    umpire = tablet.new_page()
    log_in(tablet, server, "umpire2")
    open_screen(umpire, server, match_id, "referee")
    board = public.new_page()
    open_public(board, server, match_id)
    clock_running(umpire)
    clock_past(page, 1.0)

    first_key = live_clock(page)
    press(page, "w")  # a whistle … that was not one
    page.wait_for_selector('#command[data-type="whistle"]')
    clock_stopped(page)
    clock_stopped(umpire)
    live_clock_stopped(board)
    time_passes(page, 1.5)
    press(page, "Escape")
    clock_running(page)
    clock_running(umpire)
    board.wait_for_function("() => PoloLive.instances[0].state.clock.running")

    data = state(server, match_id)
    assert data["state"]["holds"] == [] and data["state"]["clock"]["held"] is False
    # As if it had never stopped: the clock now is the clock at the key plus all the time since.
    expected = first_key["clock"] + (data["server_time"] - first_key["at"])
    assert abs(projected_clock(data) - expected) < 0.3, (projected_clock(data), expected)
    types = [e["type"] for e in events(server, match_id)]
    assert types == ["play", "hold", "release"]
    assert page.is_hidden("#rejection")  # nothing to report: the release is quiet
    assert watch.problems() == []


def test_the_scorer_sees_the_umpire_logging_and_is_not_stopped_by_it(server, context, page, tablet):
    match_id = new_match(server)
    post(official(server, "scorer"), match_id, {"type": "play"})
    log_in(context, server, "scorer")
    open_screen(page, server, match_id)
    umpire = tablet.new_page()
    log_in(tablet, server, "umpire1")
    open_screen(umpire, server, match_id, "referee")
    clock_running(umpire)

    umpire.tap('[data-command="foul"]')  # the umpire's first tap holds the clock for the foul
    shown = page.wait_for_selector('#presence li.presence-other[data-kind="foul"]')
    text = shown.inner_text()
    assert "Ulises Umpire" in text and "umpire" in text and "foul…" in text
    clock_stopped(page)
    assert umpire.is_hidden("#presence")  # its own entry is not "someone else's"

    # Meanwhile the scorer begins a goal, and the umpire abandons the foul: the goal, begun on a
    # log that only had holds and releases added since, is logged without a conflict to settle.
    press(page, "g")
    page.wait_for_function("() => (PoloLive.instances[0].state.holds || []).length === 2")  # both entries hold it
    umpire.tap("#command .cancel")
    page.wait_for_selector("#presence", state="hidden")
    press(page, "h", "1")
    page.wait_for_selector('#log .log-entry[data-type="goal"]')
    assert page.is_hidden("#conflict")
    logged = events(server, match_id)
    assert [e["type"] for e in logged] == ["play", "hold", "hold", "release", "goal"]
    umpire_hold, scorer_hold = logged[1], logged[2]
    assert umpire_hold["event"]["by"]["role"] == "umpire" and scorer_hold["event"]["by"]["role"] == "scorer"
    goal = logged[4]["event"]
    assert goal["hold"] == scorer_hold["id"] and goal["by"]["role"] == "scorer"
    # The goal happened while the umpire's hold had stopped the clock: it is recorded then.
    assert abs(goal["clock"] - umpire_hold["event"]["clock"]) < 0.01
