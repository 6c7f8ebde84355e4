"""The field keeps the time (issue 34), in Chromium with the network cut (Playwright's offline mode).

The scorer's laptop loses its link in play: its screen goes on as the rules say, run by the server's
own engine in the page (Pyodide): the clock stops at the first key, the restart and the score follow,
the kept entries survive a reload without a link; when the link is back the record is what the field
kept (each entry at its key). Meanwhile the public scoreboard says it is waiting for the field, in
English and in Spanish, and catches up once the record arrives. Two devices cut off at once merge by
the collision rules (the second is shown what arrived and chooses). Every wait is for an event on
the page or the server, never a fixed time.
"""

from __future__ import annotations

import time

import pytest

from polo.testing import ServerProcess

from .officials_helpers import click_field, events, log_in, new_match, open_screen, press, wait_seq

pytestmark = pytest.mark.browser

SILENT = 2  # FIELD_SILENT_SECONDS of this module's server: the public hears of an outage quickly


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    from .officials_helpers import NEW_MATCHES

    server = ServerProcess(
        tmp_path_factory.mktemp("field-outage"), "field-outage", extra_env={"FIELD_SILENT_SECONDS": str(SILENT)}
    ).start()
    printed = server.manage("shell", "-c", NEW_MATCHES.format(n=10)).splitlines()
    server.fresh_matches = [int(line) for line in printed if line.strip().isdigit()]
    yield server
    server.close()


def server_now(page) -> float:
    return page.evaluate("() => PoloLive.instances[0].serverNow()")


def shown(page) -> dict:
    """What the scorer's board shows: the score, and whether the clock runs."""
    return page.evaluate(
        """() => ({
          home: document.querySelector('#board [data-score="home"]').textContent.trim(),
          away: document.querySelector('#board [data-score="away"]').textContent.trim(),
          running: document.querySelector('[data-clock]').dataset.running,
          restart: document.getElementById('restart').dataset.kind,
        })"""
    )


def kept_here(page, entries: int) -> None:
    """The screen shows its own fold of the log and its ``entries`` kept entries (the engine ran)."""
    page.wait_for_selector(f'#conn[data-queued="{entries}"]', state="attached")
    page.wait_for_function(
        "(n) => document.documentElement.dataset.fieldLocal !== undefined && "
        "document.getElementById('conn').dataset.queued === String(n)",
        arg=entries,
        timeout=120_000,  # the first fold loads Pyodide (a few seconds; much longer on a loaded CI machine)
    )


def device_keeps_everything(page) -> None:
    page.wait_for_function("() => document.documentElement.dataset.fieldCached === 'true'", timeout=120_000)


def test_an_outage_at_the_field_loses_nothing_and_the_record_is_what_the_field_kept(server, context, page):
    match_id = new_match(server)
    log_in(context, server, "scorer")
    open_screen(page, server, match_id)
    device_keeps_everything(page)  # (the engine is on the device before the link drops)
    press(page, "Space")  # the throw-in, online
    wait_seq(page, 1)

    context.set_offline(True)
    before_goal = server_now(page)
    press(page, "g", "h", "1")  # goal, home #1: the clock stops at the first key
    kept_here(page, 2)  # its hold and the goal
    page.wait_for_function(
        """() => document.querySelector('#board [data-score="home"]').textContent.trim() === '1'
                 && document.getElementById('restart').dataset.kind === 'throw_in'
                 && document.querySelector('[data-clock]').dataset.running === 'false'"""
    )
    assert events(server, match_id)[-1]["type"] == "play"  # the server has nothing of it yet
    before_play = server_now(page)
    press(page, "Space")  # the throw-in after the goal: the clock runs again, at the field
    kept_here(page, 3)
    page.wait_for_function("() => document.querySelector('[data-clock]').dataset.running === 'true'")

    context.set_offline(False)
    page.wait_for_selector('#conn[data-queued="0"]', state="attached", timeout=60_000)
    logged = [e for e in events(server, match_id) if e["type"] in ("goal", "play")]
    goal, play = logged[-2]["event"], logged[-1]["event"]
    assert goal["type"] == "goal" and play["type"] == "play"
    # At the field's time, within 0.3 s of the key (not when the link came back).
    assert 0 <= goal["server_time"] - before_goal < 0.3
    assert 0 <= play["server_time"] - before_play < 0.3
    assert [e["seq"] for e in events(server, match_id)] == list(range(1, len(events(server, match_id)) + 1))
    page.wait_for_function("() => document.documentElement.dataset.fieldLocal === undefined")
    assert shown(page)["home"] == "1"


def test_a_reload_without_a_link_opens_the_screen_with_what_the_field_kept(server, context, page):
    match_id = new_match(server)
    log_in(context, server, "scorer")
    open_screen(page, server, match_id)
    device_keeps_everything(page)
    press(page, "Space")
    wait_seq(page, 1)

    context.set_offline(True)
    press(page, "g", "a", "2")  # goal, away #2
    kept_here(page, 2)
    page.reload()  # no link: the service worker opens the screen, the queue and the log are on the device
    kept_here(page, 2)
    page.wait_for_function("() => document.querySelector('#board [data-score=\"away\"]').textContent.trim() === '1'")
    assert shown(page)["restart"] == "throw_in"

    context.set_offline(False)
    page.wait_for_selector('#conn[data-queued="0"]', state="attached", timeout=60_000)
    goals = [e for e in events(server, match_id) if e["type"] == "goal"]
    assert len(goals) == 1 and goals[0]["event"]["team"] == "away"  # once, not twice


@pytest.mark.parametrize(
    "lang, words", [("en", "Waiting for the field"), ("es", "Esperando a la cancha")], ids=["en", "es"]
)
def test_the_public_is_told_it_waits_for_the_field_and_catches_up(server, browser, context, page, lang, words):
    match_id = new_match(server)
    log_in(context, server, "scorer")
    open_screen(page, server, match_id)
    press(page, "Space")
    wait_seq(page, 1)

    crowd = browser.new_context(locale=lang, extra_http_headers={"Accept-Language": lang})
    try:
        board = crowd.new_page()
        board.goto(f"{server.url}/matches/{match_id}/?lang={lang}")
        board.wait_for_function("() => PoloLive.instances[0] && PoloLive.instances[0].state.clock.running")

        context.set_offline(True)
        press(page, "g", "h", "1")
        banner = board.wait_for_selector("[data-field-banner]:not([hidden])", timeout=30_000)
        assert words in banner.inner_text()
        # The clock is held where the field was last heard, not run on.
        held = board.evaluate("() => PoloLive.instances[0].clockElapsed()")
        board.wait_for_function("() => PoloLive.instances[0].ticks > 3")
        assert board.evaluate("() => PoloLive.instances[0].clockElapsed()") == held
        assert board.evaluate("() => PoloLive.instances[0].state.score.home") == 0

        context.set_offline(False)
        board.wait_for_function("() => PoloLive.instances[0].state.score.home === 1", timeout=30_000)
        board.wait_for_selector("[data-field-banner]", state="hidden")
    finally:
        crowd.close()


def test_two_devices_cut_off_at_once_merge_by_the_collision_rules(server, browser, context, page):
    match_id = new_match(server)
    log_in(context, server, "scorer")
    open_screen(page, server, match_id)
    press(page, "Space")
    wait_seq(page, 1)
    tablet_context = browser.new_context()
    try:
        log_in(tablet_context, server, "umpire1")
        tablet = tablet_context.new_page()
        open_screen(tablet, server, match_id, screen="referee")
        device_keeps_everything(page)  # (the engine is on the scorer's laptop before the link drops)

        context.set_offline(True)
        tablet_context.set_offline(True)
        press(page, "g", "h", "1")  # the scorer logs a goal
        kept_here(page, 2)
        tablet.click('[data-command="foul"]')  # meanwhile the umpire logs a foul by the other team
        tablet.click('#command [data-team="away"]')
        tablet.click('#command [data-number="3"]')
        tablet.click('#command [data-value="5a"]')  # Penalty 5.a: from the spot
        click_field(tablet, 120, 50)
        tablet.click('#command [data-value="submit"]')
        tablet.wait_for_selector('#conn[data-queued]:not([data-queued="0"])', state="attached")

        context.set_offline(False)
        page.wait_for_selector('#conn[data-queued="0"]', state="attached", timeout=60_000)
        tablet_context.set_offline(False)
        # The tablet's foul was begun before the scorer's goal arrived: it is not dropped, it is shown
        # with what arrived, and the umpire chooses.
        tablet.wait_for_selector('#conflict:not([hidden]) [data-action="discard"]', timeout=60_000)
        arrived = tablet.eval_on_selector_all("#conflict .arrived li", "els => els.map(e => e.dataset.type)")
        assert "goal" in arrived  # what the scorer logged meanwhile, shown with the choice
        goals = [e for e in events(server, match_id) if e["type"] == "goal"]
        assert [g["event"]["team"] for g in goals] == ["home"]
    finally:
        tablet_context.close()


def test_an_outage_across_both_horns_and_the_chukkers_end_leaves_the_record_the_field_kept(server, context, page):
    """The throw-in was 6:40 ago; the link drops, the scorer logs a goal and the throw-in after it, the
    clock runs on past the single and the double horn on the field's own screen (the chukker ends
    there: the interval), then the link returns. The record is what the field kept, with the clock's
    horns at their marks and each entry at its key. (Ten minutes of the same with a test clock, and
    a twin logged with the link up, to the log hash: matches/tests/test_field_time.py.)"""
    match_id = new_match(server)
    scorer = log_in(context, server, "scorer")
    throw_in = {"type": "play", "keyed_at": time.time() - 400.0}  # (the server is on this machine)
    assert scorer.request("POST", f"/api/matches/{match_id}/events", {"id": "throw-in", **throw_in})[0] == 201
    open_screen(page, server, match_id)
    device_keeps_everything(page)  # (the engine is on the device before the link drops)
    context.set_offline(True)
    press(page, "g", "h", "1")
    kept_here(page, 2)
    press(page, "Space")
    kept_here(page, 3)
    # The field's own screen: the horns at 7:00 and 7:30, then the interval (its own fold).
    page.wait_for_function("() => document.documentElement.dataset.fieldStatus === 'interval'", timeout=180_000)
    assert shown(page)["home"] == "1"
    assert events(server, match_id)[-1]["id"] == "throw-in"  # the server appended no horn meanwhile

    context.set_offline(False)
    page.wait_for_selector('#conn[data-queued="0"]', state="attached", timeout=60_000)
    # The horns follow once the field has been heard after their marks: the screen's log gets them.
    page.wait_for_selector('#log [data-id="auto:1:final"]', state="attached", timeout=60_000)
    kept = events(server, match_id)
    assert [e["type"] for e in kept] == ["play", "hold", "goal", "play", "horn", "horn"]
    marks = [e["event"]["server_time"] for e in kept[-2:]]
    play = kept[3]["event"]
    assert marks[0] == pytest.approx(play["server_time"] + 420.0 - kept[2]["event"]["clock"], abs=0.01)
    assert marks[1] == pytest.approx(marks[0] + 30.0, abs=0.01)

    # Each entry landed at the field's key, not when the link came back. (The same entries logged
    # with the link up on a twin match give the same log and log hash, horns included, at the same
    # wall times: matches/tests/test_field_time.py, with the server's clock driven by the test. A
    # twin logged here in real time races its own clock watcher: with no timekeeper heard, its
    # server sounds the seven-minute horn before a late stoppage lands.)
    entries = [e["event"] for e in kept if not e["id"].startswith("auto:")]
    assert [e["type"] for e in entries] == ["play", "hold", "goal", "play"]
    for entry in entries:
        assert entry["server_time"] == pytest.approx(entry["keyed_at"], abs=0.002), entry


def test_an_entry_kept_longer_than_the_window_is_recorded_now_at_the_officials_word(server, context, page):
    """A laptop that kept an entry for more than 30 minutes (the window the record takes as kept): the
    server refuses it with the reason and the way out, the queue stops on it, and the scorer records
    it now at the official clock (N) — never a queue that can only be thrown away."""
    match_id = new_match(server)
    scorer = log_in(context, server, "scorer")
    assert scorer.request("POST", f"/api/matches/{match_id}/events", {"type": "play", "id": "t"})[0] == 201
    assert (
        scorer.request(
            "POST",
            f"/api/matches/{match_id}/events",
            {"type": "whistle", "id": "w", "reason": "other", "ball": {"x": 150, "y": 80}},
        )[0]
        == 201
    )
    stale = {
        "event": {
            "id": "old-card",
            "type": "card",
            "team": "home",
            "number": 1,
            "color": "yellow",
            "keyed_at": time.time() - 2400.0,
        },
        "chained": False,
        "expected_seq": 2,
        "deferred": True,
        "queued_at": time.time() - 2400.0,
    }
    page.goto(f"{server.url}/help/")  # (the origin, to put the kept entry in its storage)
    page.evaluate(
        "([key, item]) => localStorage.setItem(key, JSON.stringify([item]))",
        [f"polo-queue:{match_id}:scorer:scorer", stale],
    )
    open_screen(page, server, match_id)
    page.wait_for_selector('#conflict:not([hidden]) [data-action="record-now"]', timeout=30_000)
    assert "30" in page.inner_text("#conflict")  # the window, in the refusal's words
    assert not [e for e in events(server, match_id) if e["id"] == "old-card"]
    press(page, "n")
    page.wait_for_selector('#conn[data-queued="0"]', state="attached")
    card = [e for e in events(server, match_id) if e["id"] == "old-card"]
    assert len(card) == 1 and card[0]["event"]["server_time"] > time.time() - 60
