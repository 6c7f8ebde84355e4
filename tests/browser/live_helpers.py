"""Helpers for the public pages' browser tests: the demo match, the scorer posting events through
the HTTP API, and a watch on each page's console for errors and CSP violations.

The shared server (``live_server_proc``) is shared with other test modules, so nothing here
assumes where the demo match stands: ``ensure_in_play``/``ensure_stopped`` read the state first
and send only the event that the state allows.
"""

from __future__ import annotations

import uuid
from typing import Any

from polo.testing import HttpClient, ServerProcess

DEMO_PASSWORD = "polo-demo"

# Every live page exposes its connections (static/js/live.js, the one debug handle
# window.PoloLive.instances); the first is the page's match.
LIVE = "PoloLive.instances[0]"
IS_LIVE = f"() => window.PoloLive && PoloLive.instances.length > 0 && {LIVE}.status === 'live'"


def page_module(name: str) -> str:
    """A JavaScript expression: a promise of the page's own instance of its module static/js/<name>,
    imported from the very URL the page loaded it from (hashed names with the manifest storage),
    so that a test calls what the page uses: ``f"(await {page_module('horns.js')}).soundHorn('final')"``."""
    return (
        "(() => { const url = Array.from(document.querySelectorAll("
        "'script[type=module][src], link[rel=modulepreload][href]'), (e) => e.src || e.href)"
        f".find((u) => new URL(u).pathname.replace(/[.][0-9a-f]{{12}}[.]js$/, '.js').endsWith('/js/{name}'));"
        f" if (!url) throw new Error('the page does not load {name}'); return import(url); }})()"
    )


def demo_match_id(server: ServerProcess) -> int:
    """The demo match in progress: the first match with events."""
    client = server.client()
    for match_id in range(1, 30):
        status, data = client.request("GET", f"/api/matches/{match_id}/state")
        if status == 200 and data["last_seq"] > 0:
            return match_id
    raise AssertionError("no demo match with events")


def tournament_id(server: ServerProcess, match_id: int) -> int:
    _, data = server.client().request("GET", f"/api/matches/{match_id}/state")
    return data["match"]["tournament"]["id"]


def scorer(server: ServerProcess) -> HttpClient:
    client = server.client()
    client.login("scorer", DEMO_PASSWORD)
    return client


def state(server: ServerProcess, match_id: int, lang: str = "en") -> dict[str, Any]:
    status, data = server.client().request("GET", f"/api/matches/{match_id}/state", headers={"Accept-Language": lang})
    assert status == 200, data
    return data


def post(client: HttpClient, match_id: int, event: dict[str, Any]) -> dict[str, Any]:
    status, data = client.request("POST", f"/api/matches/{match_id}/events", {"id": str(uuid.uuid4()), **event})
    assert status in (200, 201), (status, data)
    return data


def ensure_in_play(client: HttpClient, match_id: int) -> dict[str, Any]:
    _, data = client.request("GET", f"/api/matches/{match_id}/state")
    if data["state"]["status"] != "in_play":
        data = post(client, match_id, {"type": "play"})
    assert data["state"]["status"] == "in_play", data["state"]["status"]
    return data


def ensure_stopped(client: HttpClient, match_id: int) -> dict[str, Any]:
    _, data = client.request("GET", f"/api/matches/{match_id}/state")
    if data["state"]["status"] == "in_play":
        data = post(
            client,
            match_id,
            {
                "type": "ball_out",
                "line": "side",
                "at": {"x": 150, "y": 0},
                "last_hit_by": "home",
                "deflected_off": "none",
            },
        )
    return data


class PageWatch:
    """Console errors, uncaught exceptions and CSP violations of one page."""

    INIT = """
      window.__cspViolations = [];
      document.addEventListener('securitypolicyviolation', (e) => {
        window.__cspViolations.push(e.violatedDirective + ' ' + (e.blockedURI || ''));
      });
    """

    def __init__(self, page) -> None:
        self.page = page
        self.errors: list[str] = []
        page.add_init_script(self.INIT)
        page.on("console", lambda msg: self.errors.append(f"console: {msg.text}") if msg.type == "error" else None)
        page.on("pageerror", lambda exc: self.errors.append(f"pageerror: {exc}"))
        page.on("response", lambda r: self.errors.append(f"http {r.status}: {r.url}") if r.status >= 400 else None)

    def problems(self, *, ignore: tuple[str, ...] = ()) -> list[str]:
        found = list(self.errors)
        try:
            found += [f"csp: {v}" for v in self.page.evaluate("window.__cspViolations || []")]
        except Exception:  # noqa: BLE001 — a closed page has told us all it will
            pass
        return [p for p in found if not any(i in p for i in ignore)]


def shown(score: float) -> str:
    """A score as the pages show it: 3, or 2½ with a half-goal handicap."""
    whole = int(score)
    return str(whole) if float(score).is_integer() else f"{whole}½"


def wait_live(page, timeout: float = 10_000) -> None:
    page.wait_for_function(IS_LIVE, timeout=timeout)


def wait_seq(page, last_seq: int, timeout: float = 10_000) -> None:
    page.wait_for_function(f"() => {LIVE}.lastSeq >= {last_seq}", timeout=timeout)


def wait_for_frame(page) -> None:
    """Until the page's match has been redrawn twice more (``ticks``: at each update, and at least
    every 100 ms) and a frame drawn after it: what it shows now is what it made of everything it
    had received before the call, clocks and horns included."""
    page.wait_for_function(f"(n) => {LIVE}.ticks >= n", arg=page.evaluate(f"{LIVE}.ticks") + 2, timeout=10_000)
    page.evaluate("() => new Promise((done) => requestAnimationFrame(done))")
