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


def test_an_official_who_logged_events_cannot_be_deleted_and_the_admin_says_to_deactivate(client):
    """The append-only log keeps its authors (``MatchEvent.sent_by`` is PROTECT): deleting the
    scorer is refused with a clear message, changes nothing, and the events still name him; making
    the account inactive is the way, and an official who logged nothing may still be deleted."""
    from django.contrib.auth import get_user_model
    from django.db.models import ProtectedError

    load_demo()
    user_model = get_user_model()
    admin_user = user_model.objects.create_superuser("root", "root@example.com", "pw-root-123")
    assert client.login(username="root", password="pw-root-123")
    scorer = user_model.objects.get(username="scorer")
    logged = MatchEvent.objects.filter(sent_by=scorer).count()
    assert logged > 0
    url = reverse("admin:auth_user_delete", args=[scorer.pk])

    page = client.get(url)
    assert page.status_code == 200
    text = page.content.decode()
    assert "A match&#x27;s log keeps its authors, and scorer logged events" in text
    assert "Make the account inactive instead" in text
    refused = client.post(url, {"post": "yes"})
    assert refused.status_code == 200  # the confirmation page again, listing what protects him
    assert user_model.objects.filter(pk=scorer.pk).exists()
    assert MatchEvent.objects.filter(sent_by=scorer).count() == logged

    bulk = client.post(
        reverse("admin:auth_user_changelist"), {"action": "delete_selected", "_selected_action": [scorer.pk]}
    )
    assert "Make the account inactive instead" in bulk.content.decode()
    assert user_model.objects.filter(pk=scorer.pk).exists()

    with pytest.raises(ProtectedError):  # outside the admin too
        scorer.delete()
    assert MatchEvent.objects.filter(sent_by=scorer).count() == logged

    idle = user_model.objects.create_user("idle-official")
    gone = client.post(reverse("admin:auth_user_delete", args=[idle.pk]), {"post": "yes"})
    assert gone.status_code == 302
    assert not user_model.objects.filter(pk=idle.pk).exists()
    assert admin_user.is_active


def test_the_author_of_an_event_is_protected_by_the_database_schema():
    from django.db.models import PROTECT

    field = MatchEvent._meta.get_field("sent_by")
    assert field.remote_field.on_delete is PROTECT
