"""Helpers of the officials' screens' browser tests (scorer's laptop, umpires' tablet, offline
queue): a private server per test module, a fresh match per test (so no test depends on where
another left the demo), browsers logged in as a demo official, and reads of the truth over HTTP."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from polo.testing import HttpClient, ServerProcess

from .live_helpers import DEMO_PASSWORD, PageWatch

# A copy of the demo's match in progress, without its log: same teams, field and officials
# (scorer: "scorer"; umpires: "umpire1", "umpire2"; referee: "referee"), no handicap goals.
NEW_MATCHES = """
from matches.models import Match
demo = Match.objects.filter(last_seq__gt=0).order_by("starts_at", "pk").first()
for _ in range({n}):
    new = Match.objects.create(tournament=demo.tournament, field=demo.field, starts_at=demo.starts_at,
                               home=demo.home, away=demo.away, periods=demo.periods, scorer=demo.scorer,
                               referee=demo.referee)
    new.umpires.set(demo.umpires.all())
    print(new.pk)
"""


def module_server(tmp_path_factory, name: str, matches: int = 4):
    """One server (own database, demo loaded) for a whole test module, with ``matches`` fresh
    matches made at once (a management command costs seconds): ``new_match`` hands them out."""
    server = ServerProcess(tmp_path_factory.mktemp(name), name).start()
    printed = server.manage("shell", "-c", NEW_MATCHES.format(n=matches)).splitlines()
    server.fresh_matches = [int(line) for line in printed if line.strip().isdigit()]
    yield server
    server.close()


def new_match(server: ServerProcess) -> int:
    """A match of the demo's teams and officials with an empty log, used by no other test."""
    assert server.fresh_matches, "module_server(..., matches=n): make enough fresh matches for the module"
    return server.fresh_matches.pop(0)


def official(server: ServerProcess, username: str) -> HttpClient:
    client = server.client()
    client.login(username, DEMO_PASSWORD)
    return client


def log_in(context, server: ServerProcess, username: str) -> HttpClient:
    """Log the browser context in as ``username`` (the cookies of an HTTP client that logged in)."""
    client = official(server, username)
    context.add_cookies(client.session_cookies())
    return client


def state(server: ServerProcess, match_id: int) -> dict[str, Any]:
    status, data = server.client().request("GET", f"/api/matches/{match_id}/state")
    assert status == 200, data
    return data


def events(server: ServerProcess, match_id: int, since: int = 0) -> list[dict[str, Any]]:
    status, data = server.client().request("GET", f"/api/matches/{match_id}/events?since={since}")
    assert status == 200, data
    return data["events"]


def game_events(server: ServerProcess, match_id: int) -> list[dict[str, Any]]:
    """The log without the clock holds of entries in progress (``hold``/``release``, issue 9):
    the events of the game as the officials' screens list them."""
    return [e for e in events(server, match_id) if e["type"] not in ("hold", "release")]


def post(client: HttpClient, match_id: int, event: dict[str, Any]) -> dict[str, Any]:
    status, data = client.request("POST", f"/api/matches/{match_id}/events", {"id": str(uuid.uuid4()), **event})
    assert status in (200, 201), (status, data)
    return data


def open_screen(page, server: ServerProcess, match_id: int, screen: str = "scorer") -> None:
    page.goto(f"{server.url}/matches/{match_id}/{screen}/")
    page.wait_for_selector('#conn[data-status="live"]')


def wait_seq(page, seq: int) -> None:
    """The log on screen has reached ``seq``."""
    page.wait_for_selector(f'#log [data-seq="{seq}"], #recent [data-seq="{seq}"]', state="attached")


def wait_listed(page, n: int) -> None:
    """The screen's log lists at least ``n`` events (the holds of entries in progress are not
    listed: with them, the n-th event listed is no longer seq n)."""
    page.wait_for_function("(n) => document.querySelectorAll('#log .log-entry, #recent .log-entry').length >= n", arg=n)


def press(page, *keys: str) -> None:
    for key in keys:
        page.keyboard.press(key)


def marker(page) -> dict[str, float]:
    """The restart's spot as drawn: the shared diagram's circle and our label's data."""
    return page.evaluate("""() => {
      const c = document.querySelector('#field .pf-restart circle:last-of-type');
      const m = document.querySelector('#field .restart-marker');
      return c && m ? {cx: +c.getAttribute('cx'), cy: +c.getAttribute('cy'), x: +m.dataset.x, y: +m.dataset.y} : null;
    }""")


def click_field(page, x: float, y: float) -> None:
    """Click the field diagram at the point (x, y) in yards."""
    point = page.evaluate(
        """([x, y]) => {
      const svg = document.getElementById('field');
      const p = svg.createSVGPoint(); p.x = x; p.y = y;
      const s = p.matrixTransform(svg.getScreenCTM());
      return {x: s.x, y: s.y};
    }""",
        [x, y],
    )
    page.mouse.click(point["x"], point["y"])


def clock_stopped(page) -> None:
    """The official clock on an officials' screen (scorer or tablet) shows it stopped."""
    page.wait_for_selector('[data-clock][data-running="false"]', state="attached")


def clock_running(page) -> None:
    page.wait_for_selector('[data-clock][data-running="true"]', state="attached")


def live_clock_stopped(page) -> None:
    """Any page of PoloLive (the public scoreboard too): its clock has stopped."""
    page.wait_for_function(
        "() => { const l = PoloLive.instances[0]; return !!(l && l.state && l.state.clock && !l.state.clock.running); }"
    )


def live_clock(page) -> dict[str, float]:
    """The clock as the page's live connection has it now, with the synced server time."""
    return page.evaluate(
        "() => { const l = PoloLive.instances[0]; return {clock: l.clockElapsed(), at: l.serverNow()}; }"
    )


def watch_first_key(page) -> None:
    """Note the official clock as the next key reaches the page (before the page's own handlers):
    the clock at the first key of an entry, read by ``first_key_clock``."""
    page.evaluate("""() => {
      window.__firstKey = null;
      window.addEventListener('keydown', (e) => {
        if (window.__firstKey) return;
        const l = PoloLive.instances[0];
        window.__firstKey = {key: e.key, clock: l.clockElapsed(), at: l.serverNow()};
      }, {capture: true});
    }""")


def first_key_clock(page) -> dict[str, Any]:
    return page.evaluate("() => window.__firstKey")


def clock_past(page, seconds: float) -> None:
    """Wait until the page's official clock has run past ``seconds``."""
    page.wait_for_function("(s) => PoloLive.instances[0].clockElapsed() > s", arg=seconds)


def time_passes(page, seconds: float) -> None:
    """Wait until the synced server time is ``seconds`` later than now: an official taking that
    long over an entry (a condition on the clock, not a sleep)."""
    start = page.evaluate("() => PoloLive.instances[0].serverNow()")
    page.wait_for_function("(t) => PoloLive.instances[0].serverNow() > t", arg=start + seconds)


def projected_clock(data: dict[str, Any]) -> float:
    """The official clock of a /state answer at its server_time (the state is projected already)."""
    clock = data["state"]["clock"]
    elapsed = clock["elapsed"]
    if clock.get("running") and clock.get("anchor") is not None:
        elapsed += data["server_time"] - clock["anchor"]
    return elapsed


__all__ = [
    "DEMO_PASSWORD",
    "PageWatch",
    "click_field",
    "clock_past",
    "clock_running",
    "clock_stopped",
    "events",
    "first_key_clock",
    "game_events",
    "live_clock",
    "live_clock_stopped",
    "log_in",
    "marker",
    "module_server",
    "new_match",
    "official",
    "open_screen",
    "post",
    "press",
    "projected_clock",
    "pytest",
    "state",
    "time_passes",
    "wait_listed",
    "wait_seq",
    "watch_first_key",
]
