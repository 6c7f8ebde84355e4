"""The stream overlay and the tournament's live page of a match kept at the field (issue 35), in
Chromium, in English and Spanish: each says when the field was last heard from (the server's field
object), that time grows while the link is cut, and comes back once the field reaches the
tournament's server again, with the field's score."""

from __future__ import annotations

import uuid

import pytest
from playwright.sync_api import expect

from matches.demo import DEMO_PASSWORD
from matches.tests.field_link import Paired, manage_json, until

from .live_helpers import PageWatch, shown

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

NOTE = '[data-role="kept-at-field"]'
HEARD = {
    "en": "Kept at the field: last heard from the field",
    "es": "Llevado en la cancha: última noticia de la cancha",
}


def heard_ago_at_least(page, selector: str, seconds: int) -> None:
    page.wait_for_function(
        "([sel, s]) => { const n = document.querySelector(sel); return n && !n.hidden && n.dataset.heardAgo !== '' "
        "&& Number(n.dataset.heardAgo) >= s; }",
        arg=[selector, seconds],
        timeout=20_000,
    )


def heard_ago_below(page, selector: str, seconds: int) -> None:
    page.wait_for_function(
        "([sel, s]) => { const n = document.querySelector(sel); return n && n.dataset.heardAgo !== '' "
        "&& Number(n.dataset.heardAgo) < s; }",
        arg=[selector, seconds],
        timeout=10_000,
    )


def test_the_overlay_and_the_tournaments_page_say_when_the_field_was_last_heard_from(make_server, tmp_path, context):
    link = Paired(make_server, tmp_path / "field.sqlite3")
    try:
        link.field.start()
        link.start_sync()
        tournament, remote_id, match_id = link.tournament, link.remote_id, link.match_id
        at_field = link.field.client()
        at_field.login(link.scorer, DEMO_PASSWORD)

        def log_at_field(event: dict) -> dict:
            status, body = at_field.request(
                "POST", f"/api/matches/{match_id}/events", {"id": str(uuid.uuid4()), **event}
            )
            assert status == 201, body
            return body

        log_at_field({"type": "play"})  # with the link up: the replica is in play
        until(lambda: link.replica_state()["last_seq"] >= 1, what="the throw-in on the tournament's server")
        tournament_id, day = manage_json(
            tournament,
            "import json; from django.utils import timezone; from matches.models import Match; "
            f"m = Match.objects.get(pk={remote_id}); "
            "print(json.dumps([m.tournament_id, timezone.localdate(m.starts_at).isoformat()]))",
        )
        card = f'.tl-match[data-match-id="{remote_id}"] {NOTE}'
        screens = []
        for lang in ("en", "es"):
            overlay = context.new_page()
            overlay.goto(f"{tournament.url}/matches/{remote_id}/overlay/?lang={lang}")
            live_page = context.new_page()
            live_page.set_extra_http_headers({"Accept-Language": lang})
            live_page.goto(f"{tournament.url}/tournaments/{tournament_id}/live/?date={day}")
            screens += [(overlay, NOTE, lang), (live_page, card, lang)]
        watches = [PageWatch(page) for page, _sel, _lang in screens]
        for page, selector, lang in screens:
            expect(page.locator(selector)).to_contain_text(HEARD[lang])

        link.proxy.cut()
        score = log_at_field({"type": "goal", "team": "home", "number": 1})["state"]["score"]["home"]
        # While the link is down: the field's state as last heard, and how long ago, counting on.
        for page, selector, _lang in screens:
            heard_ago_at_least(page, selector, 3)
        overlay_en = screens[0][0]
        assert overlay_en.locator('[data-role="score-home"]').inner_text() != shown(score)

        link.proxy.restore()
        for page, selector, lang in screens:
            heard_ago_below(page, selector, 3)
            expect(page.locator(selector)).to_contain_text(HEARD[lang])
        expect(overlay_en.locator('[data-role="score-home"]')).to_have_text(shown(score))
        live_en = screens[1][0]
        expect(live_en.locator(f'.tl-match[data-match-id="{remote_id}"] [data-role="score-home"]')).to_have_text(
            shown(score)
        )
        for watch in watches:
            assert watch.problems() == []
    finally:
        link.close()
