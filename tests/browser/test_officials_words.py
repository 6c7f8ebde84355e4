"""The officials' screens read right (issue 12): the scorer's screen in Spanish has no English left
("Play", "play", "foul"), and the field's yard labels never run together ("3040")."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .officials_helpers import log_in
from .screens import new_context, settle

# What Chromium draws from the demo's data: the same on either backend (CI runs it once, conftest.py).
pytestmark = [pytest.mark.browser, pytest.mark.backend_independent]


def test_the_scorer_s_screen_in_spanish_says_juego_and_falta(live_server_proc, browser, match_id):
    context = new_context(browser, "tablet", "es")
    try:
        log_in(context, live_server_proc, "scorer")
        page = context.new_page()
        page.goto(f"{live_server_proc.url}/matches/{match_id}/scorer/")
        page.wait_for_selector('#conn[data-status="live"]')
        hint = page.locator(".idle-hint")
        expect(hint).to_contain_text("juego")
        expect(hint).to_contain_text("falta")
        assert " play " not in f" {hint.inner_text()} " and "foul ·" not in hint.inner_text()
        plays = page.locator('#log .log-entry[data-type="play"] .log-text')
        expect(plays.first).to_have_text("Juego")
    finally:
        context.close()


@pytest.mark.parametrize(("user", "screen"), [("umpire1", "referee"), ("scorer", "scorer")])
def test_the_yard_labels_of_the_field_never_overlap(live_server_proc, browser, match_id, user, screen):
    context = new_context(browser, "tablet", "en")
    try:
        log_in(context, live_server_proc, user)
        page = context.new_page()
        page.goto(f"{live_server_proc.url}/matches/{match_id}/{screen}/")
        page.wait_for_selector("#field .pf-marks text")
        settle(page)
        boxes = page.locator("#field .pf-marks text").evaluate_all(
            "texts => texts.map((t) => { const r = t.getBoundingClientRect();"
            " return {text: t.textContent, left: r.left, right: r.right, top: r.top, bottom: r.bottom}; })"
        )
        assert {b["text"] for b in boxes} >= {"30", "40", "60"}
        # Two labels on one row need a gap of at least a character's height between them to read apart.
        overlaps = [
            (a["text"], b["text"])
            for i, a in enumerate(boxes)
            for b in boxes[i + 1 :]
            if a["top"] < b["bottom"]
            and b["top"] < a["bottom"]
            and a["left"] < b["right"] + (gap := min(a["bottom"] - a["top"], b["bottom"] - b["top"]))
            and b["left"] < a["right"] + gap
        ]
        assert overlaps == []
    finally:
        context.close()
