"""The tournament's server's public scoreboard of a match kept at the field (issue 35), in Chromium:
it says when the field was last heard from, that time grows while the link is cut, and the field's
score arrives within 2 s of the link's return."""

from __future__ import annotations

import time
import uuid

import pytest
from playwright.sync_api import expect

from matches.demo import DEMO_PASSWORD
from matches.tests.field_link import Paired, until

from .live_helpers import PageWatch, shown, wait_live

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]


def test_the_scoreboard_says_when_the_field_was_last_heard_from_and_shows_its_score_after_the_cut(
    make_server, tmp_path, page
):
    link = Paired(make_server, tmp_path / "field.sqlite3")
    try:
        link.field.start()
        link.start_sync()
        until(lambda: link.replica_state()["field"]["heard_at"], what="the field's first heartbeat")
        tournament, remote_id, match_id = link.tournament, link.remote_id, link.match_id

        watch = PageWatch(page)
        page.goto(f"{tournament.url}/matches/{remote_id}/")
        wait_live(page)
        note = page.locator('[data-role="kept-at-field"]')
        expect(note).to_contain_text("last heard from the field")

        link.proxy.cut()
        at_field = link.field.client()
        at_field.login(link.scorer, DEMO_PASSWORD)
        for event in ({"type": "play"}, {"type": "goal", "team": "home", "number": 1}):
            status, body = at_field.request(
                "POST", f"/api/matches/{match_id}/events", {"id": str(uuid.uuid4()), **event}
            )
            assert status == 201, body
        score = body["state"]["score"]["home"]
        # While the link is down the page shows the field's state as last heard, and how long ago.
        page.wait_for_function(
            """() => Number(document.querySelector('[data-role="kept-at-field"]').dataset.heardAgo) >= 3"""
        )
        assert page.locator('[data-role="score-home"]').inner_text() != shown(score)

        link.proxy.restore()
        restored = time.monotonic()
        expect(page.locator('[data-role="score-home"]')).to_have_text(shown(score), timeout=5_000)
        assert time.monotonic() - restored < 2.0
        page.wait_for_function(
            """() => Number(document.querySelector('[data-role="kept-at-field"]').dataset.heardAgo) < 3"""
        )
        assert watch.problems() == []
    finally:
        link.close()
