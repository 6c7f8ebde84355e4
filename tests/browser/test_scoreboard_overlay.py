"""The stream overlay and the tournament's day page, live in Chromium against the shared server."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest
from django.conf import settings

from .live_helpers import LIVE, ensure_in_play, post, shown, state, tournament_id, wait_live

pytestmark = pytest.mark.browser


def test_the_overlay_is_a_transparent_bar_that_follows_the_match(live_server_proc, page, watch, match_id, official):
    page.goto(f"{live_server_proc.url}/matches/{match_id}/overlay/")
    wait_live(page)
    transparent = "rgba(0, 0, 0, 0)"
    assert page.evaluate("getComputedStyle(document.documentElement).backgroundColor") == transparent
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == transparent
    assert page.locator("header").count() == 0
    bar = page.locator("#overlay").bounding_box()
    assert bar["height"] < 80 and bar["width"] < 1280  # compact: a strip, not a page
    word = page.locator('#overlay [data-role="period-label"]').bounding_box()
    number = page.locator('#overlay [data-role="period"]').bounding_box()
    assert number["x"] - (word["x"] + word["width"]) >= 4  # "Chukker 3", not "Chukker3"

    ensure_in_play(official, match_id)
    answer = post(official, match_id, {"type": "goal", "team": "away", "number": 1})
    page.wait_for_function(f"(seq) => {LIVE}.lastSeq >= seq", arg=answer["last_seq"], timeout=10_000)
    assert page.locator('#overlay [data-role="score-away"]').inner_text() == shown(answer["state"]["score"]["away"])
    assert page.locator('#overlay [data-role="period"]').inner_text() == str(answer["state"]["period"]["number"])
    clock = page.locator('#overlay [data-role="clock"]').inner_text()
    assert clock == page.evaluate(f"{LIVE}.clockText()")


def test_the_overlay_speaks_the_language_in_its_address(live_server_proc, page, watch, match_id):
    page.goto(f"{live_server_proc.url}/matches/{match_id}/overlay/?lang=es")
    wait_live(page)
    assert page.locator("html").get_attribute("lang") == "es"
    assert page.evaluate(f"{LIVE}.wsUrl()").endswith(f"/ws/matches/{match_id}/?lang=es")


def test_the_tournament_page_shows_the_day_live(live_server_proc, page, watch, match_id, official):
    tid = tournament_id(live_server_proc, match_id)
    ensure_in_play(official, match_id)
    starts_at = state(live_server_proc, match_id)["match"]["starts_at"]
    day = dt.datetime.fromtimestamp(starts_at, ZoneInfo(settings.TIME_ZONE)).date()  # the server's local day
    _, listing = live_server_proc.client().request("GET", f"/api/tournaments/{tid}/matches?date={day}")
    page.goto(f"{live_server_proc.url}/tournaments/{tid}/live/?date={day}")
    card = page.locator(f'.tl-match[data-match-id="{match_id}"]')
    assert card.count() == 1
    # The match in progress gets a socket (it is on screen), and its clock runs.
    page.wait_for_function(
        "(id) => window.PoloLive && PoloLive.instances.some((l) => l.matchId === id && l.status === 'live')",
        arg=match_id,
        timeout=10_000,
    )
    first = card.locator('[data-role="clock"]').inner_text()
    page.wait_for_function(
        "([sel, t]) => document.querySelector(sel).textContent !== t",
        arg=[f'.tl-match[data-match-id="{match_id}"] [data-role="clock"]', first],
        timeout=10_000,
    )
    answer = post(official, match_id, {"type": "goal", "team": "home", "number": 3})
    page.wait_for_function(
        "([sel, text]) => document.querySelector(sel).textContent === text",
        arg=[
            f'.tl-match[data-match-id="{match_id}"] [data-role="score-home"]',
            shown(answer["state"]["score"]["home"]),
        ],
        timeout=10_000,
    )
    assert card.get_attribute("data-status") == answer["state"]["status"]
    # Only matches in progress hold a socket.
    sockets = page.evaluate("PoloLive.instances.map((l) => l.matchId)")
    statuses = {m["id"]: m["state"]["status"] for m in listing["matches"]}
    assert match_id in sockets
    assert all(statuses.get(i) not in ("scheduled", "final", "abandoned") for i in sockets)
    # A match not started yet names no chukker.
    waiting = [i for i, status in statuses.items() if status == "scheduled"]
    assert waiting
    for i in waiting:
        assert page.locator(f'.tl-match[data-match-id="{i}"] [data-role="period"]').inner_text() == ""
