"""The admin works for a committee member: every model's list and form pages open, and the event
log can be read but never changed."""

import pytest
from django.contrib import admin
from django.urls import reverse

from matches.demo import DEMO_PASSWORD, load_demo
from matches.models import MatchEvent

pytestmark = pytest.mark.django_db


@pytest.fixture
def committee_client(client):
    load_demo()
    assert client.login(username="committee", password=DEMO_PASSWORD)
    return client


def test_every_registered_model_lists_for_the_committee(committee_client):
    for model in admin.site._registry:
        if model._meta.app_label != "matches":
            continue
        url = reverse(f"admin:matches_{model._meta.model_name}_changelist")
        response = committee_client.get(url)
        assert response.status_code == 200, url


def test_the_match_page_shows_its_log_inline_and_roster_search_works(committee_client):
    event = MatchEvent.objects.order_by("seq").first()
    response = committee_client.get(reverse("admin:matches_match_change", args=[event.match_id]))
    assert response.status_code == 200
    assert b"match events" in response.content.lower() or b"match event" in response.content.lower()
    search = committee_client.get(reverse("admin:matches_entry_changelist") + "?q=Dolfina")
    assert b"La Dolfina Blue" in search.content


def test_no_one_can_change_an_event_in_the_admin(committee_client):
    event = MatchEvent.objects.first()
    url = reverse("admin:matches_matchevent_change", args=[event.pk])
    page = committee_client.get(url)
    assert page.status_code == 200  # readable
    before = (event.type, event.payload)
    assert committee_client.post(url, {"type": "goal", "payload": "{}"}).status_code == 403
    event.refresh_from_db()
    assert (event.type, event.payload) == before
    delete = committee_client.post(reverse("admin:matches_matchevent_delete", args=[event.pk]), {"post": "yes"})
    assert delete.status_code == 403
    assert MatchEvent.objects.filter(pk=event.pk).exists()
