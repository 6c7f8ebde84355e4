"""The event log is append-only: the ORM refuses changes, and on PostgreSQL the app's database
role may insert and read events but never update or delete them (``grant_app_role``)."""

import uuid

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.db import ProgrammingError, connection, transaction
from django.utils import timezone

from matches.models import MatchEvent

from .personas import make_match

pytestmark = pytest.mark.django_db


def _event(match, seq: int) -> MatchEvent:
    return MatchEvent.objects.create(
        match=match,
        seq=seq,
        client_id=str(uuid.uuid4()),
        type="play",
        payload={"type": "play"},
        received_at=timezone.now(),
    )


def test_the_orm_refuses_to_change_or_delete_an_event():
    event = _event(make_match(), 1)
    event.type = "goal"
    with pytest.raises(ValidationError):
        event.save()
    with pytest.raises(ValidationError):
        event.delete()
    with pytest.raises(ValidationError):
        MatchEvent.objects.filter(pk=event.pk).update(type="goal")
    with pytest.raises(ValidationError):
        MatchEvent.objects.filter(pk=event.pk).delete()
    assert MatchEvent.objects.get(pk=event.pk).type == "play"


def test_two_events_cannot_share_a_sequence_number_or_a_client_id():
    from django.db import IntegrityError

    match = make_match()
    first = _event(match, 1)
    with pytest.raises(IntegrityError), transaction.atomic():
        _event(match, 1)
    with pytest.raises(IntegrityError), transaction.atomic():
        MatchEvent.objects.create(
            match=match, seq=2, client_id=first.client_id, type="play", payload={}, received_at=timezone.now()
        )


def test_the_app_database_role_may_insert_events_but_never_update_or_delete_them():
    """On PostgreSQL (CI's second pass) this is the real role check; on SQLite, which has no roles,
    the same guarantee comes from the ORM guard and the command refuses to run."""
    from django.core.management.base import CommandError

    match = make_match()
    event = _event(match, 1)
    if connection.vendor != "postgresql":
        with pytest.raises(CommandError, match="PostgreSQL"):
            call_command("grant_app_role", "polo_app")
        with pytest.raises(ValidationError):
            MatchEvent.objects.filter(pk=event.pk).update(type="goal")
        return

    import psycopg

    role = f"polo_app_test_{uuid.uuid4().hex[:8]}"
    with connection.cursor() as cursor:
        cursor.execute(f'CREATE ROLE "{role}" NOLOGIN')
    try:
        call_command("grant_app_role", role)
        table = MatchEvent._meta.db_table
        with connection.cursor() as cursor:
            cursor.execute(f'SET ROLE "{role}"')
            try:
                # What the app does: read and append.
                cursor.execute(f"SELECT count(*) FROM {table}")
                assert cursor.fetchone()[0] == 1
                cursor.execute(
                    f"INSERT INTO {table} (match_id, seq, client_id, type, payload, received_at) "
                    "VALUES (%s, 2, %s, 'goal', '{}'::jsonb, now())",
                    [match.pk, str(uuid.uuid4())],
                )
                # What it may never do.
                for sql in (
                    f"UPDATE {table} SET type = 'goal' WHERE id = %s",
                    f"DELETE FROM {table} WHERE id = %s",
                    f"TRUNCATE {table}",
                ):
                    with pytest.raises(ProgrammingError) as refused, transaction.atomic():
                        cursor.execute(sql, [event.pk] if "%s" in sql else None)
                    assert isinstance(refused.value.__cause__, psycopg.errors.InsufficientPrivilege)
                # Other tables stay writable for it (the match's cached state, say).
                cursor.execute("UPDATE matches_match SET last_seq = 2 WHERE id = %s", [match.pk])
            finally:
                cursor.execute("RESET ROLE")
        assert MatchEvent.objects.filter(match=match).count() == 2
    finally:
        with connection.cursor() as cursor:
            cursor.execute(f'DROP OWNED BY "{role}"')
            cursor.execute(f'DROP ROLE "{role}"')
