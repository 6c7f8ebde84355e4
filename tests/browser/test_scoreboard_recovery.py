"""The scoreboard on a private server that the test stops, kills and starts again.

A spectator's page must come back by itself after the server restarts (no reload: the same
document carries on) and show what was posted meanwhile.
"""

from __future__ import annotations

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
        assert page.locator('#scoreboard [data-role="score-away"]').inner_text() == shown(
            answer["state"]["score"]["away"]
        )
        page.wait_for_function(f"() => {LIVE}.status === 'live'", timeout=40_000)
        assert page.locator('[data-role="conn"]').get_attribute("data-status") == "live"
        # The last goals follow too (read again from the server when the socket missed the event).
        page.wait_for_function(
            "(id) => (document.querySelector('#scoreboard [data-role=\"goals\"] tr') || {}).dataset?.goalId === id",
            arg=answer["event"]["id"],
            timeout=20_000,
        )

    assert page.evaluate("window.__sameDocument") is True, "the page was reloaded"
    first = page.locator('#scoreboard [data-role="goals"] tr').first
    assert first.locator("td").nth(3).inner_text() == "Polito Pieres"
    assert watch.problems(ignore=OUTAGE) == []


def test_a_device_that_loses_every_network_says_so_at_once_and_reconnects_as_soon_as_it_is_back(
    live_server_proc, context, page
):
    """The browser says it has no network at all (navigator.onLine, a lost Wi-Fi): the page drops its
    socket and says it is offline at once, not after the heartbeat's 35 s of silence, and sends
    nothing into the dead link; back online it reconnects at once, not after its backoff."""
    match_id = demo_match_id(live_server_proc)
    page.goto(f"{live_server_proc.url}/matches/{match_id}/")
    wait_live(page)
    sockets = []
    page.on("websocket", lambda socket: sockets.append(socket))
    context.set_offline(True)
    page.wait_for_function(f"() => {LIVE}.status === 'offline' && {LIVE}.ws === null", timeout=10_000)
    assert page.locator('[data-role="conn"]').get_attribute("data-status") == "offline"
    context.set_offline(False)
    page.wait_for_function(f"() => {LIVE}.status === 'live'", timeout=10_000)
    assert len(sockets) >= 1  # a new socket, opened once the device was back online
