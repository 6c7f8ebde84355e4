"""Sessions that carry their user (``matches/sessions.py``): a signed-in request reads its session
and its official in one statement, and Django's checks on both still hold."""

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

from matches.sessions import ModelBackend, SessionStore, UserSession, _session_sql, _statement, end_sessions

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


def test_an_event_post_reads_the_session_and_its_official_in_one_statement(cast):
    client = client_for(cast.scorer_a)
    assert post_event(client, cast.match_a, ev("play")).status_code == 201
    with CaptureQueriesContext(connection) as queries:
        assert post_event(client, cast.match_a, ev("whistle", reason="other")).status_code == 201
    sessions = reads_of(queries, SESSION_TABLE)
    assert len(sessions) == 1 and USER_TABLE in sessions[0], sessions
    assert reads_of(queries, USER_TABLE) == sessions  # no second read of the user


@pytest.mark.django_db(transaction=True)  # (Channels' read closes old connections around it)
def test_a_websocket_reads_the_session_and_its_official_in_one_statement(cast):
    """Channels' own ``get_user``, as its ``AuthMiddlewareStack`` calls it for a socket's connect."""
    from channels.auth import get_user

    scope = {"session": SessionStore(client_for(cast.scorer_a).cookies["sessionid"].value)}
    with CaptureQueriesContext(connection) as queries:
        user = async_to_sync(get_user)(scope)
    assert user == cast.scorer_a
    sessions = reads_of(queries, SESSION_TABLE)
    assert len(sessions) == 1 and USER_TABLE in sessions[0], sessions
    assert reads_of(queries, USER_TABLE) == sessions


def test_with_the_seam_off_djangos_store_reads_the_session_then_the_backend_reads_the_user(cast, monkeypatch):
    """``polo/seams.py``'s ``session-with-user`` off: Django's own read (its queryset) and
    ``ModelBackend``'s read of the user; the request is served the same."""
    from polo import seams

    monkeypatch.setattr(seams.SEAMS["session-with-user"], "enabled", False)
    client = client_for(cast.scorer_a)
    assert post_event(client, cast.match_a, ev("play")).status_code == 201
    with CaptureQueriesContext(connection) as queries:
        assert post_event(client, cast.match_a, ev("whistle", reason="other")).status_code == 201
    assert len(reads_of(queries, SESSION_TABLE)) == 1
    users = [sql for sql in reads_of(queries, USER_TABLE) if SESSION_TABLE not in sql]
    assert len(users) == 1, users  # the user read again by the backend
    store = SessionStore("no-such-session-key-here")
    assert store.load() == {} and store.session_key is None


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


def test_the_backend_returns_the_user_read_with_the_session_for_that_id_only(cast):
    client = client_for(cast.scorer_a)
    store = SessionStore(client.cookies["sessionid"].value)
    assert store["_auth_user_id"] == str(cast.scorer_a.pk)  # loads it, with its user
    backend = ModelBackend()
    with CaptureQueriesContext(connection) as queries:
        assert backend.get_user(cast.scorer_a.pk) == cast.scorer_a
    assert queries.captured_queries == []
    with CaptureQueriesContext(connection) as queries:
        assert backend.get_user(cast.scorer_b.pk) == cast.scorer_b  # another id: read from the table
    assert len(reads_of(queries, USER_TABLE)) == 1


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


def fields_of(instance) -> dict:
    return {f.attname: getattr(instance, f.attname) for f in type(instance)._meta.concrete_fields}


def test_the_stores_read_gives_what_djangos_queryset_gives(cast):
    """The compiled read (``_session_with_user``) against the ORM's ``get`` it replaces, for an
    official's session and a visitor's: the same row, the same user (none for the visitor)."""
    official = SessionStore(client_for(cast.scorer_a).cookies["sessionid"].value)
    visitor = SessionStore()
    visitor["django_language"] = "es"
    visitor.save()
    for key, user in ((official.session_key, cast.scorer_a), (visitor.session_key, None)):
        row = SessionStore(key)._get_session_from_db()
        orm = UserSession.objects.select_related("user").get(session_key=key, expire_date__gt=timezone.now())
        assert fields_of(row) == fields_of(orm)
        assert row._state.adding is False and row._state.db == orm._state.db
        with CaptureQueriesContext(connection) as queries:
            read_user = row.user  # cached by the read: no query
        assert queries.captured_queries == []
        if user is None:
            assert read_user is None
        else:
            assert fields_of(read_user) == fields_of(orm.user) and read_user == user


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


def test_the_async_read_is_the_same_read(cast):
    store = SessionStore(client_for(cast.scorer_a).cookies["sessionid"].value)
    assert async_to_sync(store.aload)()["_auth_user_id"] == str(cast.scorer_a.pk)
    with CaptureQueriesContext(connection) as queries:
        assert ModelBackend().get_user(cast.scorer_a.pk) == cast.scorer_a
    assert queries.captured_queries == []


def test_the_reads_sql_is_built_once_per_database(cast, monkeypatch):
    statement = _statement()
    statement.built.clear()
    built = []
    monkeypatch.setattr(statement, "build_sql", lambda conn, columns: built.append(1) or _session_sql(conn, columns))
    keys = [client_for(user).cookies["sessionid"].value for user in (cast.scorer_a, cast.scorer_b)]
    for key in keys * 2:
        assert SessionStore(key).load()["_auth_user_id"]
    assert built == [1]
    assert list(statement.built) == [connection.alias]
