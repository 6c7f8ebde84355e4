"""The officials' offline queue (static/js/offline-queue.js) on the scorer's laptop: events logged
without a connection are kept (through a reload), sent in order when it comes back, recorded once
even when an answer is lost, and never dropped silently — a conflict (409) or a refusal (422) on
replay stops the queue until the scorer decides."""

from __future__ import annotations

import json

import pytest

from .officials_helpers import events, log_in, module_server, new_match, official, open_screen, post, press, wait_seq

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from module_server(tmp_path_factory, "offline-queue", matches=6)


def queued(page, match_id: int) -> list[dict]:
    raw = page.evaluate(f"() => localStorage.getItem('polo-queue:{match_id}:scorer:scorer')")
    return json.loads(raw) if raw else []


def wait_queued(page, n: int) -> None:
    page.wait_for_selector(f'#conn[data-queued="{n}"]', state="attached")


def test_events_logged_offline_survive_a_reload_and_land_once_in_order(server, context, page):
    match_id = new_match(server)
    log_in(context, server, "scorer")
    open_screen(page, server, match_id)

    context.set_offline(True)
    press(page, "Space")  # play
    press(page, "g", "h", "1")  # goal, home #1
    press(page, "Space")  # the throw-in after it
    wait_queued(page, 3)
    page.wait_for_selector('#conn[data-status="offline"]')
    kept = queued(page, match_id)
    assert [item["event"]["type"] for item in kept] == ["play", "goal", "play"]
    ids = [item["event"]["id"] for item in kept]
    assert events(server, match_id) == []
    waiting = page.eval_on_selector_all("#log .log-pending", "els => els.map(e => e.dataset.type)")
    assert waiting == ["play", "goal", "play"][::-1]  # on top of the log, newest first, until recorded

    # The connection comes back, but the event API stays unreachable across a reload.
    def unreachable(route):
        if route.request.method == "POST":
            route.abort()
        else:
            route.continue_()

    page.route("**/api/matches/*/events", unreachable)
    context.set_offline(False)
    page.reload()
    page.wait_for_selector("#conn[data-status]")
    wait_queued(page, 3)
    assert [item["event"]["id"] for item in queued(page, match_id)] == ids
    assert events(server, match_id) == []

    # Then it answers — except that the first answer is lost on the way back: the event is
    # recorded, the page retries it with the same id, and the API records it once.
    lost = []

    def first_answer_lost(route):
        if route.request.method == "POST" and not lost:
            lost.append(route.fetch())
            route.abort()
        else:
            route.continue_()

    page.unroute("**/api/matches/*/events")
    page.route("**/api/matches/*/events", first_answer_lost)
    wait_queued(page, 0)
    page.wait_for_selector('#conn[data-status="live"]')
    assert lost and lost[0].status == 201

    logged = events(server, match_id)
    assert [e["id"] for e in logged] == ids  # each once, in the order logged
    assert [e["type"] for e in logged] == ["play", "goal", "play"]
    assert queued(page, match_id) == []
    wait_seq(page, 3)
    assert page.query_selector("#log .log-pending") is None
    assert page.inner_text('[data-score="home"]') == "1"


def test_a_conflict_is_shown_and_resolved_by_re_sending(server, context, page):
    match_id = new_match(server)
    log_in(context, server, "scorer")
    open_screen(page, server, match_id)

    context.set_offline(True)
    press(page, "Space")  # the scorer's play, logged on the log as it stood (empty)
    wait_queued(page, 1)
    post(official(server, "umpire1"), match_id, {"type": "mount", "team": "home", "number": 1, "horse": "Lucera"})
    context.set_offline(False)

    box = page.wait_for_selector('#conflict[data-kind="conflict"]')
    assert "someone else logged" in box.inner_text().lower()
    wait_queued(page, 1)  # kept, not dropped
    assert [e["type"] for e in events(server, match_id)] == ["mount"]

    press(page, "r")  # re-send on the new state
    wait_queued(page, 0)
    page.wait_for_selector("#conflict", state="hidden")
    assert [e["type"] for e in events(server, match_id)] == ["mount", "play"]


def test_a_refusal_on_replay_stops_the_queue_until_discarded(server, context, page):
    match_id = new_match(server)
    log_in(context, server, "scorer")
    open_screen(page, server, match_id)

    context.set_offline(True)
    press(page, "g", "a", "2")  # a goal before the ball is in play: the rules refuse it
    press(page, "Space")
    wait_queued(page, 2)
    context.set_offline(False)

    box = page.wait_for_selector('#conflict[data-kind="rejected"]')
    assert box.query_selector('[data-code="not_in_play"]') is not None
    assert "1 more" in box.inner_text()
    wait_queued(page, 2)  # stopped: the play waits behind the refused goal
    assert events(server, match_id) == []

    page.click('#conflict [data-action="discard"]')
    wait_queued(page, 0)
    assert [e["type"] for e in events(server, match_id)] == ["play"]


def test_an_event_refused_for_a_lost_session_waits_for_the_login(server, context, page):
    match_id = new_match(server)
    log_in(context, server, "scorer")
    open_screen(page, server, match_id)

    context.clear_cookies()  # the session ended (logged out elsewhere)
    press(page, "Space")
    box = page.wait_for_selector('#conflict[data-kind="refused"]')
    assert "queue has stopped" in box.inner_text()
    wait_queued(page, 1)

    log_in(context, server, "scorer")  # logged in again (another tab)
    press(page, "r")  # try again
    wait_queued(page, 0)
    assert [e["type"] for e in events(server, match_id)] == ["play"]


def test_a_second_tab_takes_the_queue_and_nothing_queued_is_lost(server, context, page):
    """One queue per match and official: the tab opened last sends it, the other steps back and
    logs nothing until taken back — with what the other left queued."""
    match_id = new_match(server)
    log_in(context, server, "scorer")
    open_screen(page, server, match_id)
    second = context.new_page()
    open_screen(second, server, match_id)
    banner = page.wait_for_selector('#conflict[data-kind="elsewhere"]')
    assert "open in another tab" in banner.inner_text()

    press(page, "Space")  # the first tab logs nothing now
    press(second, "Space")
    wait_seq(second, 1)
    assert [e["event"]["type"] for e in events(server, match_id)] == ["play"]

    context.set_offline(
        True
    )  # a goal is queued in the second tab (with the clock hold of its first key), which is then closed
    press(second, "g", "h", "1")
    wait_queued(second, 2)
    page.click('[data-action="take-over"]')
    page.wait_for_selector("#conflict", state="hidden")
    wait_queued(page, 2)  # it came with the queue
    second.wait_for_selector('#conflict[data-kind="elsewhere"]')
    second.close()
    context.set_offline(False)
    wait_seq(page, 3)
    wait_queued(page, 0)
    assert [e["event"]["type"] for e in events(server, match_id)] == ["play", "hold", "goal"]


def test_the_same_official_watching_the_tablet_does_not_take_the_scorers_queue(server, context, page):
    match_id = new_match(server)
    log_in(context, server, "scorer")
    open_screen(page, server, match_id)
    tablet = context.new_page()
    open_screen(tablet, server, match_id, "referee")  # the scorer may watch the tablet's view
    press(page, "Space")
    wait_seq(page, 1)
    wait_seq(tablet, 1)
    assert page.is_hidden("#conflict")  # still the scorer's screen: nothing stepped back
    assert [e["event"]["type"] for e in events(server, match_id)] == ["play"]
