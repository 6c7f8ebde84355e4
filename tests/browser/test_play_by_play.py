"""The public play-by-play in Chromium against the shared server: it follows the match live.

Every test also watches the page's console: no error, no uncaught exception, no CSP violation.
"""

from __future__ import annotations

import pytest

from .live_helpers import ensure_in_play, ensure_stopped, post, wait_live, wait_seq

pytestmark = pytest.mark.browser


def entry(page, seq: int):
    return page.locator(f'#play-by-play .pbp-entries > li[data-seq="{seq}"]')


def test_the_play_by_play_follows_a_live_event(live_server_proc, page, watch, match_id, official):
    page.goto(f"{live_server_proc.url}/matches/{match_id}/play-by-play/")
    wait_live(page)
    ensure_in_play(official, match_id)
    answer = post(official, match_id, {"type": "goal", "team": "home", "number": 1})
    wait_seq(page, answer["last_seq"])

    # The new entry arrives without a reload, in words, with the score after it and the rule.
    row = entry(page, answer["last_seq"])
    row.wait_for(timeout=10_000)
    text = row.inner_text()
    assert "Goal for La Dolfina Blue, hit by Adolfo Cambiaso (La Dolfina Blue, No. 1)." in text
    score = answer["state"]["score"]
    assert f"La Dolfina Blue {score['home']:g} – {score['away']:g} Ellerstina Red" in text
    assert answer["state"]["restart"]["message"] in text
    # The score above the list follows the state, and the list is the last one on the page.
    assert page.locator('#play-by-play [data-role="score-home"]').inner_text() == f"{score['home']:g}"
    assert page.locator('#play-by-play [data-role="log"]').count() == 1
    assert page.locator("#play-by-play").get_attribute("data-seq") == str(answer["last_seq"])


def test_the_spanish_play_by_play_follows_in_spanish(live_server_proc, page, watch, match_id, official):
    page.goto(f"{live_server_proc.url}/matches/{match_id}/play-by-play/")
    page.get_by_role("button", name="Español").click()
    page.wait_for_load_state()
    assert page.locator("html").get_attribute("lang") == "es"
    wait_live(page)
    ensure_in_play(official, match_id)
    answer = ensure_stopped(official, match_id)  # a ball over the side, last hit by La Dolfina Blue
    row = entry(page, answer["last_seq"])
    row.wait_for(timeout=10_000)
    text = row.inner_text()
    assert "La bocha salió por el costado; la golpeó último La Dolfina Blue." in text
    assert "Regla 22.f" in text
