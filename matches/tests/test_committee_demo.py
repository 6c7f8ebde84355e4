"""The demo, as a committee member meets it (login ``committee``, password ``polo-demo``): the
tournament, its day on two fields, the game in progress, its provisional report, the standings."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from matches.demo import DEMO_PASSWORD, load_demo

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo():
    tournament, live = load_demo()
    client = Client()
    response = client.post(reverse("login"), {"username": "committee", "password": DEMO_PASSWORD})
    assert response.status_code == 302
    return tournament, live, client


def test_the_home_page_leads_the_committee_to_its_screens(demo):
    tournament, live, client = demo
    assert 'href="/committee/"' in client.get("/").content.decode()
    page = client.get(reverse("committee:home")).content.decode()
    assert reverse("committee:tournament", args=[tournament.pk]) in page
    # Today's matches, the one in progress with its score, each a link to its match page.
    live.refresh_from_db()
    today = page[page.index('class="plain today"') :]
    today = today[: today.index("</ul>")]
    assert f'<a href="{reverse("committee:match", args=[live.pk])}">{live.title}</a>' in today
    score = live.state_cache["score"]
    assert f"{live.get_status_display()} {score['home']}–{score['away']}" in today


def test_the_demo_day_and_tournament(demo):
    tournament, live, client = demo
    page = client.get(reverse("committee:tournament", args=[tournament.pk]))
    assert [row["problems"] for row in page.context["entries"]] == [[]] * 6  # six teams within 0–8
    day = client.get(reverse("committee:day"), {"date": timezone.localdate(live.starts_at).isoformat()})
    shown = {m.pk for row in day.context["grid"] for _, cell in row["cells"] for m in cell}
    assert live.pk in shown
    assert [f.name for f in day.context["fields"]] == ["Field 1", "Field 2"]


def test_the_game_in_progress_its_report_and_the_standings(demo):
    tournament, live, client = demo
    page = client.get(reverse("committee:match", args=[live.pk]))
    assert page.context["board"]["status"] == "Stopped" and page.context["board"]["period"] == "Chukker 3"
    assert 'data-action="suspend"' in page.content.decode()
    report = client.get(reverse("committee:report", args=[live.pk]))
    assert report.context["stored"] is None  # not over: the report is provisional
    assert "Provisional" in report.content.decode()
    goals = [(p["number"], len(p["goals"])) for p in report.context["data"]["periods"]]
    assert goals == [(1, 2), (2, 2), (3, 1)]
    standings = client.get(reverse("committee:standings", args=[tournament.pk]))
    assert len(standings.context["rows"]) == 6 and all(r.played == 0 for r in standings.context["rows"])


@pytest.mark.parametrize("local_time", ["00:20", "09:00", "10:45", "11:15", "12:50", "15:30", "23:50"])
def test_no_demo_official_is_on_two_fields_at_once(local_time):
    """Whatever the time of day the demo is loaded at (it was once loaded at 11:15 with a crew
    due on two fields 85 minutes apart)."""
    from datetime import datetime, time as dtime

    from django.utils import timezone

    from matches.committee.forms import officials_clashes

    hour, minute = map(int, local_time.split(":"))
    now = timezone.make_aware(datetime.combine(timezone.localdate(), dtime(hour, minute)))
    tournament, _ = load_demo(now=now)
    assert {m.pk: officials_clashes(m) for m in tournament.matches.all()} == {
        m.pk: [] for m in tournament.matches.all()
    }
