"""The committee's match page says where the ball is only while there is a ball to place: never
"Ball: in play" on a finished match (issue 12)."""

from __future__ import annotations

import pytest

from tests.browser.phases import match_in_phase


@pytest.mark.parametrize("phase", ["final", "final_shootout", "final_forfeit", "abandoned"])
def test_a_finished_match_shows_no_ball(admin_client, db, phase):
    match = match_in_phase(phase)
    html = admin_client.get(f"/committee/matches/{match.pk}/").content.decode()
    assert 'data-role="ball"' not in html


@pytest.mark.parametrize(("phase", "shown"), [("in_play", "in play"), ("stopped", "yd from the north end")])
def test_a_match_with_the_ball_in_play_or_placed_shows_where(admin_client, db, phase, shown):
    match = match_in_phase(phase)
    html = admin_client.get(f"/committee/matches/{match.pk}/").content.decode()
    assert 'data-role="ball"' in html and shown in html
