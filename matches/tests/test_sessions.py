"""Django's database sessions whose row carries its user (``matches/sessions.py``): Django's own
read and checks, and an official's sessions ended by that column."""

from __future__ import annotations

from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from matches.sessions import ModelBackend, SessionStore, UserSession, end_sessions

from .live_helpers import client_for, ev, post_event
from .personas import PASSWORD, make_user

pytestmark = pytest.mark.django_db

USER_TABLE = f'"{get_user_model()._meta.db_table}"'
SESSION_TABLE = f'"{UserSession._meta.db_table}"'


def reads_of(queries, table: str) -> list[str]:
    return [q["sql"] for q in queries.captured_queries if q["sql"].startswith("SELECT") and table in q["sql"]]


def test_signing_in_records_the_user_on_the_session_and_signing_out_ends_it(cast):
    client = Client()
    assert client.post(reverse("login"), {"username": "sam", "password": PASSWORD}).status_code == 302
    row = UserSession.objects.get(session_key=client.cookies["sessionid"].value)
    assert row.user_id == cast.scorer_a.pk
    assert row.get_decoded()["_auth_user_id"] == str(cast.scorer_a.pk)
    client.post(reverse("logout"))
    assert not UserSession.objects.filter(user=cast.scorer_a).exists()


def test_a_visitors_session_has_no_user():
    store = SessionStore()
    store["django_language"] = "es"
    store.save()
    assert UserSession.objects.get(session_key=store.session_key).user_id is None


def test_an_event_post_reads_the_session_then_its_official_as_django_does(cast):
    client = client_for(cast.scorer_a)
    assert post_event(client, cast.match_a, ev("play")).status_code == 201
    with CaptureQueriesContext(connection) as queries:
        assert post_event(client, cast.match_a, ev("whistle", reason="other")).status_code == 201
    sessions = reads_of(queries, SESSION_TABLE)
    assert len(sessions) == 1 and USER_TABLE not in sessions[0], sessions
    assert len(reads_of(queries, USER_TABLE)) == 1  # ModelBackend's read of the user


@pytest.mark.django_db(transaction=True)  # (Channels' read closes old connections around it)
def test_a_websocket_is_served_its_official_by_channels_get_user(cast):
    """Channels' own ``get_user``, as its ``AuthMiddlewareStack`` calls it for a socket's connect."""
    from channels.auth import get_user

    scope = {"session": SessionStore(client_for(cast.scorer_a).cookies["sessionid"].value)}
    assert async_to_sync(get_user)(scope) == cast.scorer_a


def test_a_deactivated_official_is_signed_out_at_the_next_request(cast):
    client = client_for(cast.scorer_a)
    get_user_model().objects.filter(pk=cast.scorer_a.pk).update(is_active=False)
    assert post_event(client, cast.match_a, ev("play")).status_code == 403


def test_a_password_change_elsewhere_signs_the_old_session_out(cast):
    client = client_for(cast.scorer_a)
    assert post_event(client, cast.match_a, ev("play")).status_code == 201
    cast.scorer_a.set_password("a new one, long enough")
    cast.scorer_a.save()
    assert post_event(client, cast.match_a, ev("whistle", reason="other")).status_code == 403


def test_ending_an_officials_sessions_signs_them_out_everywhere_and_nobody_else(cast):
    laptop, tablet = client_for(cast.scorer_a), client_for(cast.scorer_a)
    other = client_for(cast.scorer_b)
    assert end_sessions([cast.scorer_a]) == 2
    for client in (laptop, tablet):
        assert post_event(client, cast.match_a, ev("play")).status_code == 403
    assert post_event(other, cast.match_b, ev("play")).status_code == 201


def test_a_deleted_user_takes_their_sessions_with_them():
    user = make_user("temporary")
    client_for(user)
    assert UserSession.objects.filter(user=user).count() == 1
    user.delete()
    assert UserSession.objects.count() == 0


def test_the_users_admin_signs_the_selected_officials_out_everywhere(cast):
    laptop, tablet, other = client_for(cast.scorer_a), client_for(cast.scorer_a), client_for(cast.scorer_b)
    admin_user = get_user_model().objects.create_superuser("root", password=PASSWORD)
    federation = client_for(admin_user)
    answer = federation.post(
        reverse("admin:auth_user_changelist"),
        {"action": "sign_out_everywhere", "_selected_action": [cast.scorer_a.pk]},
        headers={"accept-language": "es"},
        follow=True,
    )
    assert "2 sesiones cerradas." in answer.content.decode()
    for client in (laptop, tablet):
        assert post_event(client, cast.match_a, ev("play")).status_code == 403
    assert post_event(other, cast.match_b, ev("play")).status_code == 201


def test_the_users_admin_action_is_for_those_who_may_change_users(cast):
    """A committee member uses the admin (staff) but may not change users: the action is refused."""
    laptop = client_for(cast.scorer_a)
    cast.committee.is_staff = True  # as the demo's and the federation's committee members are
    cast.committee.save()
    committee = client_for(cast.committee)
    assert committee.get(reverse("admin:index")).status_code == 200
    answer = committee.post(
        reverse("admin:auth_user_changelist"), {"action": "sign_out_everywhere", "_selected_action": [cast.scorer_a.pk]}
    )
    assert answer.status_code == 403
    assert UserSession.objects.filter(user=cast.scorer_a).count() == 1
    assert post_event(laptop, cast.match_a, ev("play")).status_code == 201


@pytest.mark.parametrize("key", ["expired", "unknown"])
def test_an_expired_or_unknown_session_is_a_miss_that_drops_its_key(cast, key):
    store = SessionStore(client_for(cast.scorer_a).cookies["sessionid"].value)
    if key == "expired":
        UserSession.objects.filter(session_key=store.session_key).update(
            expire_date=timezone.now() - timedelta(seconds=1)
        )
    else:
        store = SessionStore("no-such-session-key-here")
    assert store.load() == {}
    assert store.session_key is None  # (as Django's store: a new key when it is saved)
    with CaptureQueriesContext(connection) as queries:
        assert ModelBackend().get_user(cast.scorer_a.pk) == cast.scorer_a
    assert len(reads_of(queries, USER_TABLE)) == 1  # no user remembered from the miss: read
