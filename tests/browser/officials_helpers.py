"""Helpers of the officials' screens' browser tests (scorer's laptop, umpires' tablet, offline
queue): a private server per test module, a fresh match per test (so no test depends on where
another left the demo), browsers logged in as a demo official, and reads of the truth over HTTP."""
from __future__ import annotations

import uuid
from typing import Any

import pytest

from polo.testing import HttpClient, ServerProcess

from .live_helpers import DEMO_PASSWORD, PageWatch  # noqa: F401  (re-exported for the tests)

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
    point = page.evaluate("""([x, y]) => {
      const svg = document.getElementById('field');
      const p = svg.createSVGPoint(); p.x = x; p.y = y;
      const s = p.matrixTransform(svg.getScreenCTM());
      return {x: s.x, y: s.y};
    }""", [x, y])
    page.mouse.click(point["x"], point["y"])


__all__ = ["pytest", "module_server", "new_match", "official", "log_in", "state", "events", "post", "open_screen",
           "wait_seq", "press", "marker", "click_field", "PageWatch", "DEMO_PASSWORD"]
