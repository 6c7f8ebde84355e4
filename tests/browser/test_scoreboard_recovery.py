"""The scoreboard on a private server that the tests stop, kill and start again, and its horns.

A spectator's page must come back by itself after the server restarts (no reload: the same
document carries on), and the horns come from the page's own clock, not from the server.
"""
from __future__ import annotations

import re

import pytest

from .live_helpers import LIVE, PageWatch, demo_match_id, ensure_in_play, post, scorer, shown, wait_live

pytestmark = pytest.mark.browser

# While the server is down the browser logs its failed connections: expected, not a fault.
OUTAGE = ("ERR_CONNECTION_REFUSED", "WebSocket connection to", "Failed to load resource")


def test_the_scoreboard_recovers_after_the_server_restarts(make_server, page):
    server = make_server("restart").start()
    match_id = demo_match_id(server)
    watch = PageWatch(page)
    page.goto(f"{server.url}/matches/{match_id}/")
    wait_live(page)
    page.evaluate("window.__sameDocument = true")

    for kill in (False, True):
        server.stop(kill=kill)
        page.wait_for_function(f"() => {LIVE}.status === 'offline'", timeout=15_000)
        assert page.locator('[data-role="conn"]').get_attribute("data-status") == "offline"
        server.start()
        client = scorer(server)
        ensure_in_play(client, match_id)
        answer = post(client, match_id, {"type": "goal", "team": "away", "number": 4})
        page.wait_for_function(f"(seq) => {LIVE}.lastSeq >= seq", arg=answer["last_seq"], timeout=20_000)
        assert page.locator('#scoreboard [data-role="score-away"]').inner_text() == shown(answer["state"]["score"]["away"])
        page.wait_for_function(f"() => {LIVE}.status === 'live'", timeout=40_000)
        assert page.locator('[data-role="conn"]').get_attribute("data-status") == "live"

    assert page.evaluate("window.__sameDocument") is True, "the page was reloaded"
    first = page.locator('#scoreboard [data-role="goals"] tr').first
    assert first.locator("td").nth(3).inner_text() == "Polito Pieres"
    assert watch.problems(ignore=OUTAGE) == []


SPY_AUDIO = """
  window.__blasts = 0;
  const start = OscillatorNode.prototype.start;
  OscillatorNode.prototype.start = function (...args) { window.__blasts += 1; return start.apply(this, args); };
"""


def test_the_seven_minute_horn_comes_from_the_local_clock(make_server, page):
    """The socket is cut once the clock runs from 7:00 less two seconds: the page still shows and
    sounds the horn at 7:00 (Rule 14.b(1)), from its own clock."""
    server = make_server("horn").start()
    match_id = demo_match_id(server)
    client = scorer(server)
    post(client, match_id, {"type": "clock_set", "clock": 418, "reason": "test: two seconds to the horn"})

    cut = []

    def route(ws):
        upstream = ws.connect_to_server()
        ws.on_message(lambda message: upstream.send(message))
        upstream.on_message(lambda message: None if cut else ws.send(message))

    page.route_web_socket(re.compile(r"/ws/matches/"), route)
    page.add_init_script(SPY_AUDIO)
    watch = PageWatch(page)
    page.goto(f"{server.url}/matches/{match_id}/")
    wait_live(page)
    page.mouse.click(5, 5)  # a user gesture: browsers only let audio start after one
    page.evaluate(f"""() => {{
      window.__horns = [];
      const live = {LIVE};
      live.opts.onHorn = (kind) => window.__horns.push([kind, live.clockElapsed()]);
    }}""")

    answer = post(client, match_id, {"type": "play"})
    page.wait_for_function(f"(seq) => {LIVE}.lastSeq >= seq", arg=answer["last_seq"], timeout=5000)
    cut.append(True)  # from here on the server says nothing to this page
    page.wait_for_function("() => window.__horns.length > 0", timeout=6000)
    kind, at = page.evaluate("window.__horns[0]")
    assert kind == "seven"
    assert 420 <= at < 421
    banner = page.locator(".polo-horn")
    assert banner.is_visible() and banner.inner_text() == "Seven minutes"
    assert page.evaluate("window.__blasts") == 1  # one blast at 7:00

    # The mute toggle silences the next horn, and is remembered.
    page.locator('[data-role="mute"]').click()
    assert page.locator('[data-role="mute"]').get_attribute("aria-pressed") == "true"
    page.evaluate("PoloLive.soundHorn('final')")
    assert page.evaluate("window.__blasts") == 1
    assert page.evaluate("localStorage.getItem('poloMuted')") == "1"
    page.locator('[data-role="mute"]').click()
    page.evaluate("PoloLive.soundHorn('final')")
    assert page.evaluate("window.__blasts") == 3  # two blasts for the double horn
    assert watch.problems() == []
