"""The scoreboard where websockets are blocked (issue 14): the page's sockets fail without ever
opening (an init script stands in for a proxy that refuses the upgrade), so it follows the match
over Server-Sent Events; with EventSource gone too, it polls the state (with its ETag). Either
way a goal the scorer posts reaches the screen, and the page says it is live."""

from __future__ import annotations

import pytest

from .live_helpers import LIVE, ensure_in_play, post, shown, state, wait_live, wait_seq

pytestmark = pytest.mark.browser

# Every socket the page opens fails as a blocked upgrade does: an error, then a close, never open.
BLOCK_WEBSOCKETS = """
  window.__socketsTried = 0;
  window.WebSocket = class BlockedWebSocket {
    constructor(url) {
      window.__socketsTried += 1;
      this.url = url; this.readyState = 0;
      setTimeout(() => {
        this.readyState = 3;
        if (this.onerror) this.onerror(new Event("error"));
        if (this.onclose) this.onclose({code: 1006, reason: "", wasClean: false});
      }, 5);
    }
    send() { throw new Error("not open"); }
    close() {}
  };
"""
NO_EVENT_SOURCE = "delete window.EventSource;"


def score_shown(page, side: str) -> str:
    return page.locator(f'#scoreboard [data-role="score-{side}"]').inner_text().strip()


def follow_a_goal(server, page, match_id: int, official) -> None:
    before = state(server, match_id)
    wait_seq(page, before["last_seq"], timeout=15_000)
    answer = post(official, match_id, {"type": "goal", "team": "home", "number": 1})
    wait_seq(page, answer["last_seq"], timeout=15_000)
    page.wait_for_function(
        "(want) => document.querySelector('#scoreboard [data-role=\"score-home\"]').innerText.trim() === want",
        arg=shown(answer["state"]["score"]["home"]),
        timeout=5_000,
    )
    assert score_shown(page, "home") == shown(answer["state"]["score"]["home"])


def test_with_websockets_blocked_the_scoreboard_follows_the_match_over_server_sent_events(
    live_server_proc, page, watch, match_id, official
):
    ensure_in_play(official, match_id)
    page.add_init_script(BLOCK_WEBSOCKETS)
    page.goto(f"{live_server_proc.url}/matches/{match_id}/")
    wait_live(page, timeout=15_000)
    assert page.evaluate(f"{LIVE}.transport") == "sse"
    assert page.evaluate("window.__socketsTried") >= 2
    assert page.locator('[data-role="conn"]').get_attribute("data-status") == "live"
    follow_a_goal(live_server_proc, page, match_id, official)
    # Still the stream that carried it (no socket got through meanwhile).
    assert page.evaluate(f"{LIVE}.transport") == "sse" and page.evaluate(f"{LIVE}.ws") is None


def test_with_websockets_and_event_streams_blocked_the_scoreboard_polls(
    live_server_proc, page, watch, match_id, official
):
    ensure_in_play(official, match_id)
    polls: list[str] = []
    page.on("request", lambda r: polls.append(r.url) if "/state" in r.url else None)
    page.add_init_script(BLOCK_WEBSOCKETS + NO_EVENT_SOURCE)
    page.goto(f"{live_server_proc.url}/matches/{match_id}/")
    page.wait_for_function("() => window.__socketsTried >= 2", timeout=15_000)
    follow_a_goal(live_server_proc, page, match_id, official)
    assert page.evaluate(f"{LIVE}.status") != "live"  # it says so: no live connection, polling
    assert polls, "the page did not poll the state"
