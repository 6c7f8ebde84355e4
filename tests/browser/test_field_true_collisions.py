"""Field-true recording (issue 9): officials never collide silently. An entry is logged on the log
as it stood when the official began it; when another official's event arrived meanwhile, the
scorer sees what arrived and who logged it, and chooses: keep the entry on the new state (offered
only when the server says it is still valid there) or drop it. Nothing typed is lost until then."""

from __future__ import annotations

import pytest

from .officials_helpers import (
    PageWatch,
    clock_stopped,
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
    yield from module_server(tmp_path_factory, "field-true-collisions", matches=3)


def queued(page, n: int) -> None:
    page.wait_for_selector(f'#conn[data-queued="{n}"]', state="attached")


def test_an_umpires_foul_meanwhile_is_shown_and_the_ball_out_can_only_be_dropped(server, context, page):
    match_id = new_match(server)
    post(official(server, "scorer"), match_id, {"type": "play"})
    log_in(context, server, "scorer")
    watch = PageWatch(page)
    open_screen(page, server, match_id)

    press(page, "o", "s", "Enter")  # the scorer begins a ball out …
    clock_stopped(page)
    page.wait_for_function("() => (PoloLive.instances[0].state.holds || []).length === 1")
    post(
        official(server, "umpire1"),
        match_id,  # … and an umpire logs a foul meanwhile
        {"type": "foul", "against": "away", "number": 3, "penalty": "2"},
    )
    press(page, "a", "Enter")  # the ball out is finished: it was begun before the foul

    box = page.wait_for_selector('#conflict[data-kind="conflict"]')
    arrived = box.query_selector('.arrived li[data-type="foul"]')
    assert arrived is not None
    text = arrived.inner_text()
    assert "Foul by Ellerstina Red #3" in text and "Ulises Umpire (umpire)" in text
    assert box.query_selector('.arrived li[data-type="hold"]') is None  # holds are not news
    keep = box.query_selector('[data-action="resend"]')
    assert keep.is_disabled()  # a ball out is not valid once play has stopped
    would = box.query_selector(".would-be")
    assert would.get_attribute("data-code") == "not_in_play"
    assert "The ball is not in play" in would.inner_text()
    queued(page, 1)  # nothing typed is lost until the scorer drops it
    press(page, "r")  # not offered: nothing happens
    queued(page, 1)

    page.click('#conflict [data-action="discard"]')
    page.wait_for_selector("#conflict", state="hidden")
    queued(page, 0)
    page.wait_for_function("() => (PoloLive.instances[0].state.holds || []).length === 0")
    logged = events(server, match_id)
    assert [e["type"] for e in logged] == ["play", "hold", "foul", "release"]
    assert logged[3]["event"]["target"] == logged[1]["id"]  # the scorer's hold went with the entry
    assert state(server, match_id)["state"]["status"] == "stopped"
    assert watch.problems(ignore=("http 409", "status of 409")) == []  # the conflict's own answer, and nothing else


def test_an_entry_still_valid_on_the_new_state_is_kept_at_its_first_key(server, context, page):
    match_id = new_match(server)
    post(official(server, "scorer"), match_id, {"type": "play"})
    log_in(context, server, "scorer")
    open_screen(page, server, match_id)

    press(page, "g", "a")  # a goal for away, the hitter still to give …
    page.wait_for_function("() => (PoloLive.instances[0].state.holds || []).length === 1")
    held_at = state(server, match_id)["state"]["clock"]["elapsed"]
    post(official(server, "umpire2"), match_id, {"type": "mount", "team": "home", "number": 2, "horse": "Lucera"})
    press(page, "2")

    box = page.wait_for_selector('#conflict[data-kind="conflict"]')
    mount = box.query_selector('.arrived li[data-type="mount"]')
    assert mount is not None and "Lucera" in mount.inner_text() and "(umpire)" in mount.inner_text()
    keep = box.query_selector('[data-action="resend"]')
    assert not keep.is_disabled()
    assert box.query_selector(".would-be") is None
    press(page, "r")  # keep it on the new state
    page.wait_for_selector('#log .log-entry[data-type="goal"]')
    page.wait_for_selector("#conflict", state="hidden")
    logged = events(server, match_id)
    assert [e["type"] for e in logged] == ["play", "hold", "mount", "goal"]
    goal = logged[3]["event"]
    assert (goal["team"], goal["number"], goal["hold"]) == ("away", 2, logged[1]["id"])
    assert abs(goal["clock"] - held_at) < 0.01  # at the first key, not when it was kept
    assert page.inner_text('[data-score="away"]') == "1"
