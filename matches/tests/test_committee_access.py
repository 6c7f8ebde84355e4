"""Who may open the committee's screens: the committee; others are refused (403), the anonymous
sent to the login page. The shootout screen is also open to the match's own officials."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from .committee_helpers import Committee

pytestmark = pytest.mark.django_db


CAST = Committee  # the cast fixture (conftest.py) makes one per test


def committee_pages(cast: Committee) -> list[str]:
    m, t = cast.match, cast.match.tournament
    entry, line = m.home, m.home.roster.first()
    return [
        reverse("committee:home"),
        reverse("committee:day"),
        reverse("committee:availability"),
        reverse("committee:tournament_new"),
        reverse("committee:tournament", args=[t.pk]),
        reverse("committee:tournament_edit", args=[t.pk]),
        reverse("committee:entry_new", args=[t.pk]),
        reverse("committee:match_new", args=[t.pk]),
        reverse("committee:standings", args=[t.pk]),
        reverse("committee:bracket", args=[t.pk]),
        reverse("committee:field_new"),
        reverse("committee:field_edit", args=[m.field_id]),
        reverse("committee:entry", args=[entry.pk]),
        reverse("committee:roster_line", args=[line.pk]),
        reverse("committee:match", args=[m.pk]),
        reverse("committee:match_edit", args=[m.pk]),
        reverse("committee:match_forfeit", args=[m.pk]),
        reverse("committee:report", args=[m.pk]),
        reverse("committee:report_pdf", args=[m.pk]),
        reverse("committee:log_csv", args=[m.pk]),
        reverse("committee:log_json", args=[m.pk]),
        reverse("committee:webhooks"),
    ]


def test_every_page_opens_for_the_committee(cast):
    client = cast.client()
    for url in [*committee_pages(cast), reverse("committee:shootout", args=[cast.match.pk])]:
        assert client.get(url).status_code == 200, url


def test_it_refuses_the_officials_and_the_public(cast):
    for user in (cast.scorer, cast.umpire, cast.other_umpire):
        client = cast.client(user)
        for url in committee_pages(cast):
            assert client.get(url).status_code == 403, (user.username, url)


def test_it_sends_the_anonymous_to_the_login_page(cast):
    client = Client()
    for url in [*committee_pages(cast), reverse("committee:shootout", args=[cast.match.pk])]:
        response = client.get(url)
        assert response.status_code == 302 and response["Location"].startswith("/accounts/login/"), url


def test_it_refuses_committee_writes_to_others(cast):
    client = cast.client(cast.umpire)
    m = cast.match
    for name in (
        "match_suspend",
        "match_resume",
        "match_abandon",
        "match_overtime",
        "match_officials",
        "match_handicap",
        "shootout_lot",
        "shootout_start",
        "report_rebuild",
    ):
        assert client.post(reverse(f"committee:{name}", args=[m.pk]), {}).status_code == 403, name
    assert m.audit_entries.count() == 0


def test_the_shootout_screen_is_open_to_the_match_officials_only(cast):
    url = reverse("committee:shootout", args=[cast.match.pk])
    assert cast.client(cast.umpire).get(url).status_code == 200
    assert cast.client(cast.referee).get(url).status_code == 200
    assert cast.client(cast.scorer).get(url).status_code == 200
    assert cast.client(cast.other_umpire).get(url).status_code == 403
