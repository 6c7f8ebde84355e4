"""Horns on the scoreboard, from the page's own clock (Rule 14.b): one at 7:00, two at 7:30, and
around an interval a warning at 2:00 left and two when the next chukker is due.

One private server for the module (these tests move the demo match's clock and periods). To see
minutes of interval pass in seconds, the page's clock is moved forward after it has synced: the
client then believes the server's time is later — exactly what the horns are computed from.
"""

from __future__ import annotations

import re
import time

import pytest

from polo.testing import ServerProcess

from .live_helpers import (
    LIVE,
    PageWatch,
    demo_match_id,
    ensure_stopped,
    page_module,
    post,
    scorer,
    state,
    wait_for_frame,
    wait_live,
)

pytestmark = pytest.mark.browser

CONTROLLED_CLOCK = """
  (() => {
    const realNow = Date.now.bind(Date);
    window.__shift = 0;
    window.__realNow = realNow;
    Date.now = () => realNow() + window.__shift;
    window.__blasts = 0;
    const start = OscillatorNode.prototype.start;
    OscillatorNode.prototype.start = function (...args) { window.__blasts += 1; return start.apply(this, args); };
  })();
"""
# Each horn with the clock when it sounded and the clock the page read just before (live.prev:
# the reading of the frame before the one that crossed the horn's time).
RECORD_HORNS = f"""() => {{
  window.__horns = [];
  const live = {LIVE};
  live.opts.onHorn = (kind) => window.__horns.push([kind, live.clockElapsed(), live.intervalRemaining(),
                                                    live.prev && live.prev.elapsed, live.prev && live.prev.interval]);
}}"""
SOUND_FINAL = f"async () => (await {page_module('horns.js')}).soundHorn('final')"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    server = ServerProcess(tmp_path_factory.mktemp("horns"), "horns").start()
    yield server
    server.close()


@pytest.fixture
def match_id(server):
    return demo_match_id(server)


def stopped_in_a_chukker(client, match_id) -> None:
    """The ball dead inside a chukker (not in an interval), whatever the previous test left."""
    _, data = client.request("GET", f"/api/matches/{match_id}/state")
    if data["state"]["status"] in ("interval", "scheduled"):
        post(client, match_id, {"type": "play"})
    ensure_stopped(client, match_id)


def open_scoreboard(page, server, match_id):
    page.add_init_script(CONTROLLED_CLOCK)
    watch = PageWatch(page)
    page.goto(f"{server.url}/matches/{match_id}/")
    wait_live(page)
    page.wait_for_function(f"() => {LIVE}.samples.length >= 4", timeout=5000)  # the connect ping burst is over
    page.mouse.click(5, 5)  # a user gesture: browsers let audio start only after one
    page.evaluate(RECORD_HORNS)
    return watch


def test_the_seven_minute_horn_comes_from_the_local_clock(server, page, match_id):
    """The socket is cut once the clock runs from two seconds before 7:00: the page still shows and
    sounds the single horn at 7:00, from its own clock."""
    client = scorer(server)
    stopped_in_a_chukker(client, match_id)
    post(client, match_id, {"type": "clock_set", "clock": 418, "reason": "test: two seconds to the horn"})
    cut = []

    def route(ws):
        upstream = ws.connect_to_server()
        ws.on_message(lambda message: upstream.send(message))
        upstream.on_message(lambda message: None if cut else ws.send(message))

    page.route_web_socket(re.compile(r"/ws/matches/"), route)
    watch = open_scoreboard(page, server, match_id)

    answer = post(client, match_id, {"type": "play"})
    page.wait_for_function(f"(seq) => {LIVE}.lastSeq >= seq", arg=answer["last_seq"], timeout=5000)
    cut.append(True)  # from here on the server says nothing to this page
    page.wait_for_function("() => window.__horns.length > 0", timeout=6000)
    kind, at, _, before, _ = page.evaluate("window.__horns[0]")
    assert kind == "seven"
    seven = answer["state"]["clock"]["regular_seconds"]
    assert before < seven <= at  # sounded by the first reading of the clock past 7:00
    banner = page.locator(".polo-horn")
    assert banner.is_visible() and banner.inner_text() == "Seven minutes"
    assert page.evaluate("window.__blasts") == 1  # one blast at 7:00

    # The mute toggle silences the next horn, and is remembered.
    page.locator('[data-role="mute"]').click()
    assert page.locator('[data-role="mute"]').get_attribute("aria-pressed") == "true"
    page.evaluate(SOUND_FINAL)
    assert page.evaluate("window.__blasts") == 1
    assert page.evaluate("localStorage.getItem('poloMuted')") == "1"
    page.locator('[data-role="mute"]').click()
    page.evaluate(SOUND_FINAL)
    assert page.evaluate("window.__blasts") == 3  # two blasts for the double horn
    assert watch.problems() == []
    ensure_stopped(client, match_id)


def test_the_half_time_countdown_warns_at_two_minutes_and_sounds_the_next_chukker(server, page, match_id):
    client = scorer(server)
    stopped_in_a_chukker(client, match_id)
    before = state(server, match_id)["state"]
    # End the chukker: past 7:00 in a non-final chukker, the next stoppage ends it (Rule 14.b(1)).
    # A stoppage moved past the seven-minute horn ends the chukker there and then (the engine
    # reads a clock correction that way, Rule 14.b(1)).
    answer = post(client, match_id, {"type": "clock_set", "clock": 421, "reason": "test: past the seven-minute horn"})
    s = answer["state"]
    assert s["period"]["number"] == before["period"]["number"], (before, s)
    assert s["status"] == "interval", s["status"]
    interval = s["interval"]
    # Half-time after the third of six chukkers is 5 minutes; the other intervals 3.
    assert interval["seconds"] == (300 if before["period"]["number"] == 3 else 180)
    assert interval["kind"] == ("halftime" if before["period"]["number"] == 3 else "interval")

    watch = open_scoreboard(page, server, match_id)
    expected_label = "Half-time" if interval["kind"] == "halftime" else "Interval"
    assert page.locator('#scoreboard [data-role="status"]').inner_text() == expected_label
    shown = page.locator('#scoreboard [data-role="interval"]').inner_text()
    assert re.fullmatch(r"Next chukker in \d:\d\d", shown), shown

    def fast_forward_to(left: float) -> None:
        """Move the page's clock so that ``left`` seconds of the interval remain."""
        ends = interval["started_at"] + interval["seconds"]
        # The jump is the test's, not time's: the page's horn timer was aimed by the old clock (up to
        # 10 s ahead, re-aimed at each reading), and a page Chromium counts as hidden reads only then.
        # Read once now, as a page does on each frame, so the timer is aimed by the new clock.
        # The page's clock sync pings again every 30 s; a pong measured after the jump would take the
        # jump back out of the offset (the page would believe the server again), so the periodic
        # pings stop here — the jump is the test's premise.
        page.evaluate(
            "(s) => { window.__shift = s * 1000; PoloLive.instances.forEach((l) => { l.cancel('ping'); l.tick(); }); }",
            (ends - left) - time.time(),
        )

    fast_forward_to(121.0)
    page.wait_for_function("() => window.__horns.length >= 1", timeout=5000)
    kind, _, left, _, left_before = page.evaluate("window.__horns[0]")
    assert kind == "warning" and left <= 120 < left_before  # sounded by the first reading past 2:00 left
    assert page.evaluate("window.__blasts") == 1
    assert page.locator(".polo-horn").inner_text() == "Two minutes to the next chukker"

    fast_forward_to(1.0)
    page.wait_for_function("() => window.__horns.length >= 2", timeout=5000)
    assert page.evaluate("window.__horns[1][0]") == "start"
    assert page.evaluate("window.__blasts") == 3  # two blasts when the chukker is due
    assert page.locator('#scoreboard [data-role="interval"]').inner_text() == "The next chukker starts at the throw-in"

    # The throw-in that starts the chukker does not sound it a second time: not with its update,
    # nor on any frame after it — the page has drawn the later ball out (an update after the
    # throw-in's) by the time the horns are counted.
    answer = post(client, match_id, {"type": "play"})
    assert answer["state"]["period"]["number"] == interval["next_period"]["number"]
    later = ensure_stopped(client, match_id)
    assert later["last_seq"] > answer["last_seq"]
    page.wait_for_function(f"(seq) => {LIVE}.lastSeq >= seq", arg=later["last_seq"], timeout=10_000)
    wait_for_frame(page)
    assert [h[0] for h in page.evaluate("window.__horns")] == ["warning", "start"]
    assert page.locator('#scoreboard [data-role="interval"]').is_hidden()
    assert watch.problems() == []
