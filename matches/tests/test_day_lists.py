"""A day's lists after midnight: a match that started late the day before and is still being
played (or was played past midnight) stays on the new day's lists: the crowd's, the API's, the
home page's, the committee's and each official's own (``matches.selectors.played_on``)."""

from __future__ import annotations

import datetime as dt
from unittest import mock

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from matches.demo import load_demo
from matches.models import Match, MatchEvent
from matches.selectors import day_matches

from .personas import make_match

pytestmark = pytest.mark.django_db

DAY = dt.date(2026, 12, 6)


def at(day: dt.date, hour: int, minute: int = 0) -> dt.datetime:
    return timezone.make_aware(dt.datetime.combine(day, dt.time(hour, minute)), timezone.get_current_timezone())


def logged(match: Match, when: dt.datetime) -> None:
    """An event received at ``when`` (the log's own time; what it says does not matter here)."""
    seq = match.events.count() + 1
    MatchEvent.objects.create(
        match=match, seq=seq, client_id=f"e{seq}", type="play", payload={"type": "play"}, received_at=when
    )


@pytest.fixture
def night():
    """Six matches around midnight of ``DAY``, named by what they did."""
    yesterday, tomorrow = DAY - dt.timedelta(days=1), DAY + dt.timedelta(days=1)
    today = make_match(starts_at=at(DAY, 10))
    t = today.tournament
    still_playing = make_match(tournament=t, field=today.field, starts_at=at(yesterday, 23, 30), status="in_play")
    finished_before_midnight = make_match(tournament=t, field=today.field, starts_at=at(yesterday, 20), status="final")
    logged(finished_before_midnight, at(yesterday, 21, 40))
    finished_after_midnight = make_match(tournament=t, field=today.field, starts_at=at(yesterday, 23), status="final")
    logged(finished_after_midnight, at(yesterday, 23, 50))
    logged(finished_after_midnight, at(DAY, 0, 20))
    two_days_ago = make_match(
        tournament=t, field=today.field, starts_at=at(DAY - dt.timedelta(days=2), 23, 30), status="stopped"
    )
    next_day = make_match(tournament=t, field=today.field, starts_at=at(tomorrow, 0, 10))
    return {
        "today": today,
        "still_playing": still_playing,
        "finished_before_midnight": finished_before_midnight,
        "finished_after_midnight": finished_after_midnight,
        "two_days_ago": two_days_ago,
        "next_day": next_day,
    }


def test_a_day_lists_its_own_matches_and_those_played_past_its_midnight(night):
    listed = [m.pk for m in day_matches(DAY)]
    want = [night[k].pk for k in ("finished_after_midnight", "still_playing", "today")]
    assert listed == want  # in order of their start


def test_the_day_before_lists_its_own_and_the_one_left_under_way_from_the_day_before_it(night):
    listed = {m.pk for m in day_matches(DAY - dt.timedelta(days=1))}
    want = ("still_playing", "finished_before_midnight", "finished_after_midnight", "two_days_ago")
    assert listed == {night[k].pk for k in want}


def test_the_api_and_the_crowds_page_list_a_match_played_past_midnight(night):
    client = Client()
    body = client.get(reverse("api-matches"), {"date": DAY.isoformat()}).json()
    assert [m["id"] for m in body["matches"]] == [
        night[k].pk for k in ("finished_after_midnight", "still_playing", "today")
    ]
    tournament = night["today"].tournament_id
    html = client.get(reverse("tournament_live", args=[tournament]), {"date": DAY.isoformat()}).content.decode()
    for key in ("still_playing", "finished_after_midnight", "today"):
        assert f'data-match-id="{night[key].pk}"' in html, key
    for key in ("finished_before_midnight", "two_days_ago", "next_day"):
        assert f'data-match-id="{night[key].pk}"' not in html, key


def test_just_after_midnight_the_home_pages_keep_the_match_under_way():
    """Loaded at 00:20 the demo's match began at 23:40 the day before: it is still today's match
    in progress on the public home page, on its scorer's own list and on the committee's."""
    now = at(DAY, 0, 20)
    _tournament, live = load_demo(now=now)
    live.refresh_from_db()
    assert timezone.localdate(live.starts_at) == DAY - dt.timedelta(days=1)
    assert live.status in ("in_play", "stopped")
    with mock.patch("django.utils.timezone.now", return_value=now):
        home = Client().get("/").content.decode()
        assert f'data-match-id="{live.pk}"' in home
        scorer = Client()
        scorer.login(username="scorer", password="polo-demo")
        assert f'href="/matches/{live.pk}/scorer/"' in scorer.get("/").content.decode()
        committee = Client()
        committee.login(username="committee", password="polo-demo")
        page = committee.get(reverse("committee:home")).content.decode()
        today = page[page.index('class="plain today"') :]
        assert reverse("committee:match", args=[live.pk]) in today[: today.index("</ul>")]
