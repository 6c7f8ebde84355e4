"""The public scoreboard in Chromium against the shared server: what a spectator sees change.

Every test also watches the page's console: no error, no uncaught exception, no CSP violation.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .live_helpers import (
    LIVE,
    PageWatch,
    ensure_in_play,
    ensure_stopped,
    post,
    shown as show,
    state,
    wait_for_frame,
    wait_live,
    wait_seq,
)

pytestmark = pytest.mark.browser


def text(page, role: str) -> str:
    return page.locator(f'#scoreboard [data-role="{role}"]').inner_text().strip()


def test_a_goal_posted_by_the_scorer_is_pushed_to_the_scoreboard(live_server_proc, page, watch, match_id, official):
    """The goal reaches the page over its socket, as the update of the goal itself (how fast is
    bench/bench_screens.py's business, not a test's)."""
    ensure_in_play(official, match_id)
    page.goto(f"{live_server_proc.url}/matches/{match_id}/")
    wait_live(page)
    before = state(live_server_proc, match_id)
    wait_seq(page, before["last_seq"])
    expected = before["state"]["score"]["home"] + 1
    shown = show(expected)
    page.evaluate(
        f"""(shown) => {{
      const node = document.querySelector('[data-role="score-home"]');
      const live = {LIVE};
      new MutationObserver(() => {{
        if (node.textContent === shown && !window.__shownBy) window.__shownBy = [live.status, window.__lastSource];
      }}).observe(node, {{childList: true, characterData: true, subtree: true}});
      const onState = live.opts.onState;
      live.opts.onState = (s, info) => {{ window.__lastSource = [info.source, info.lastSeq]; onState(s, info); }};
    }}""",
        shown,
    )

    answer = post(official, match_id, {"type": "goal", "team": "home", "number": 1})
    assert answer["state"]["score"]["home"] == expected
    page.wait_for_function("() => window.__shownBy", timeout=10_000)
    # Shown while the socket was live, by the update that carried the goal (not a poll or a resync).
    status, (source, seq) = page.evaluate("window.__shownBy")
    assert (status, source) == ("live", "update") and seq >= answer["last_seq"]

    # The goal heads the last goals: chukker, team and the hitter's name.
    first = page.locator('#scoreboard [data-role="goals"] tr').first
    cells = [c.strip() for c in first.locator("td").all_inner_texts()]
    assert cells[0] == str(answer["state"]["period"]["number"])
    assert cells[3] == "Adolfo Cambiaso"
    # A goal changes ends (Rule 22.e(1)): the page says so, and the restart is the throw-in.
    assert text(page, "attacks-home") == (
        "Attacks the south goal" if answer["state"]["defends"]["home"] == "north" else "Attacks the north goal"
    )
    assert text(page, "restart") == answer["state"]["restart"]["message"]
    assert page.title().startswith(f"La Dolfina Blue {shown}")


def test_each_event_is_applied_once_and_in_order(live_server_proc, page, watch, match_id, official):
    page.goto(f"{live_server_proc.url}/matches/{match_id}/")
    wait_live(page)
    page.evaluate(f"""() => {{
      window.__seen = [];
      const live = {LIVE};
      const onState = live.opts.onState;
      live.opts.onState = (s, info) => {{ window.__seen.push([info.source, info.lastSeq]); onState(s, info); }};
    }}""")
    ensure_in_play(official, match_id)
    for _ in range(3):
        post(
            official,
            match_id,
            {
                "type": "ball_out",
                "line": "side",
                "at": {"x": 100, "y": 160},
                "last_hit_by": "away",
                "deflected_off": "none",
            },
        )
        last = post(official, match_id, {"type": "play"})["last_seq"]
    wait_seq(page, last)
    seen = page.evaluate("window.__seen")
    seqs = [seq for source, seq in seen if source == "update"]
    assert seqs == sorted(set(seqs)), seen  # nothing doubled, nothing out of order
    assert seqs[-1] == last
    assert page.evaluate(f"{LIVE}.state.status") == "in_play"


def test_a_missed_update_is_noticed_and_resynced(live_server_proc, page, watch, match_id, official):
    """The socket loses one update: the next one's seq shows the gap; the client asks for a
    resync and ends with every goal, none twice."""
    dropped = []

    def route(ws):
        server = ws.connect_to_server()
        ws.on_message(lambda message: server.send(message))

        def from_server(message):
            if '"type":"update"' in message and not dropped:
                dropped.append(message)
                return
            ws.send(message)

        server.on_message(from_server)

    page.route_web_socket(re.compile(r"/ws/matches/"), route)
    ensure_in_play(official, match_id)
    page.goto(f"{live_server_proc.url}/matches/{match_id}/")
    wait_live(page)
    goals_before = page.locator('#scoreboard [data-role="goals"] tr:not(.empty)').count()
    post(official, match_id, {"type": "goal", "team": "away", "number": 2})  # this update is dropped
    post(official, match_id, {"type": "play"})
    last = post(official, match_id, {"type": "goal", "team": "away", "number": 3})
    wait_seq(page, last["last_seq"])
    assert dropped, "the route dropped an update"
    # The list is capped (8 rows), so a count can be reached before the repair lands: wait for the
    # two newest rows themselves, the dropped goal under the last one.
    rows = page.locator('#scoreboard [data-role="goals"] tr:not(.empty)')
    expect(rows.nth(0).locator("td").nth(3)).to_have_text("Nicolas Pieres")
    expect(rows.nth(1).locator("td").nth(3)).to_have_text("Gonzalo Pieres")
    assert rows.count() >= min(goals_before + 2, 8)
    assert text(page, "score-away") == show(last["state"]["score"]["away"])


def test_the_scoreboard_falls_back_to_polling_when_websockets_are_blocked(
    live_server_proc, page, watch, match_id, official
):
    page.route_web_socket(re.compile(r"/ws/matches/"), lambda ws: ws.close(code=1011))
    # No EventSource either (else the page follows over Server-Sent Events: test_live_fallback.py).
    page.add_init_script("delete window.EventSource;")
    page.goto(f"{live_server_proc.url}/matches/{match_id}/")
    page.wait_for_function(f"() => window.PoloLive && {LIVE}.status === 'offline'", timeout=10_000)
    assert page.locator('[data-role="conn"]').get_attribute("data-status") == "offline"
    answer = ensure_in_play(official, match_id)
    answer = post(
        official,
        match_id,
        {"type": "ball_out", "line": "side", "at": {"x": 200, "y": 0}, "last_hit_by": "away", "deflected_off": "none"},
    )
    # Polled every 3 s or so: the new restart shows without a socket.
    page.wait_for_function(f"(seq) => {LIVE}.lastSeq >= seq", arg=answer["last_seq"], timeout=8000)
    assert text(page, "restart") == answer["state"]["restart"]["message"]
    assert page.evaluate(f"{LIVE}.status") != "live"


def test_the_clock_runs_locally_and_stops_with_the_match(live_server_proc, page, watch, match_id, official):
    ensure_in_play(official, match_id)
    page.goto(f"{live_server_proc.url}/matches/{match_id}/")
    wait_live(page)
    first = page.evaluate(f"{LIVE}.clockElapsed()")
    page.wait_for_function(f"(t) => {LIVE}.clockElapsed() > t + 1.2", arg=first, timeout=5000)
    assert "running" in (page.locator('[data-role="clock"]').get_attribute("class") or "")
    stopped = ensure_stopped(official, match_id)
    wait_seq(page, stopped["last_seq"])
    a = page.evaluate(f"{LIVE}.clockElapsed()")
    # Later, an update that changes nothing on the board (a horse change): once the page has it and
    # has drawn a frame since, a clock still running would have moved on.
    later = post(official, match_id, {"type": "mount", "team": "home", "number": 1, "horse": "Clock test"})
    wait_seq(page, later["last_seq"])
    wait_for_frame(page)
    assert page.evaluate(f"{LIVE}.clockElapsed()") == a == stopped["state"]["clock"]["elapsed"]
    assert page.locator('[data-role="clock"]').inner_text() == page.evaluate(f"{LIVE}.clockText()")


def test_the_field_diagram_shows_ends_lines_and_the_restart_spot(live_server_proc, page, watch, match_id, official):
    answer = ensure_in_play(official, match_id)
    answer = post(
        official,
        match_id,
        {"type": "ball_out", "line": "side", "at": {"x": 90, "y": 0}, "last_hit_by": "home", "deflected_off": "none"},
    )
    page.goto(f"{live_server_proc.url}/matches/{match_id}/")
    wait_live(page)
    svg = page.locator('#scoreboard svg[data-role="field"]')
    assert svg.locator(".pf-lines line").count() == 6  # 30, 40, 60 from each end
    assert svg.locator(".pf-centre").count() == 1
    assert svg.locator(".pf-goals circle").count() == 4  # two posts at each end
    spot = answer["state"]["restart"]["spot"]
    dot = svg.locator(".pf-restart circle").nth(1)
    assert float(dot.get_attribute("cx")) == pytest.approx(spot["x"])
    assert float(dot.get_attribute("cy")) == pytest.approx(spot["y"])
    colors = {"home": "#1d4ed8", "away": "#dc2626"}
    assert dot.get_attribute("fill") == colors[answer["state"]["restart"]["team"]]
    # Each team's arrow points away from the end it defends.
    for team in ("home", "away"):
        d = svg.locator(f'.pf-arrow[data-team="{team}"] path:not(.pf-arrow-rim)').get_attribute("d").split()
        x_tail, x_head = float(d[1]), float(d[10])
        attacks_south = answer["state"]["defends"][team] == "north"
        assert (x_head > x_tail) == attacks_south


def test_the_page_is_usable_on_a_phone(live_server_proc, browser, match_id):
    context = browser.new_context(viewport={"width": 375, "height": 740}, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        watch = PageWatch(page)
        page.goto(f"{live_server_proc.url}/matches/{match_id}/")
        wait_live(page)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 375, f"the page scrolls sideways ({width}px)"
        for role in ("score-home", "score-away", "clock"):
            box = page.locator(f'[data-role="{role}"]').bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= 375 and box["height"] >= 40
        assert watch.problems() == []
    finally:
        context.close()


def test_the_tv_layout_fills_the_screen_without_the_header(live_server_proc, page, watch, match_id):
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(f"{live_server_proc.url}/matches/{match_id}/?tv=1")
    wait_live(page)
    assert page.locator(".site-header").count() == 0
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(10, 10, 10)"
    score_height = page.locator('[data-role="score-home"]').bounding_box()["height"]
    assert score_height > 200
    assert page.locator('[data-role="fullscreen"]').is_hidden()  # no buttons on a TV (issue 12)


def test_a_wide_screen_can_ask_for_the_normal_layout(live_server_proc, page, watch, match_id):
    """At 1920 px the TV layout is the default (test_public_phases.py); ``?tv=0`` keeps the page."""
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(f"{live_server_proc.url}/matches/{match_id}/?tv=0")
    wait_live(page)
    assert not page.evaluate("document.body.classList.contains('tv')")
    assert page.locator(".site-header").is_visible() and page.locator('[data-role="mute"]').is_visible()


def test_the_spanish_page_is_in_spanish_live_too(live_server_proc, page, watch, match_id, official):
    page.goto(f"{live_server_proc.url}/matches/{match_id}/")
    page.get_by_role("button", name="Español").click()
    page.wait_for_load_state()
    assert page.locator("html").get_attribute("lang") == "es"
    wait_live(page)
    ensure_in_play(official, match_id)
    answer = post(
        official,
        match_id,
        {
            "type": "ball_out",
            "line": "side",
            "at": {"x": 120, "y": 160},
            "last_hit_by": "home",
            "deflected_off": "none",
        },
    )
    wait_seq(page, answer["last_seq"])
    # The restart arrives over the socket in the reader's language.
    spanish = state(live_server_proc, match_id, lang="es")["state"]["restart"]["message"]
    assert spanish != answer["state"]["restart"]["message"]
    assert text(page, "restart") == spanish
    assert page.get_by_role("button", name="English").is_visible()
