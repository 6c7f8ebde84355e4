"""``manage.py grant_app_role ROLE``: give the role the web and worker processes use in production
what they need, and no more. Run by the owner role after ``migrate`` (see docker-compose.yml).

The event log is append-only in the database itself: the app's role may SELECT and INSERT match
events but never UPDATE, DELETE or TRUNCATE them, so no bug or injected query can rewrite a match.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from matches.models import MatchEvent


def grant_statements(role: str) -> list[str]:
    events = connection.ops.quote_name(MatchEvent._meta.db_table)
    role = connection.ops.quote_name(role)
    return [
        f"GRANT USAGE ON SCHEMA public TO {role}",
        f"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO {role}",
        f"GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO {role}",
        f"REVOKE UPDATE, DELETE, TRUNCATE ON {events} FROM {role}",
    ]


class Command(BaseCommand):
    help = "Grant the app's PostgreSQL role its privileges (match events: insert and read only)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("role")

    def handle(self, *args, role: str, **options) -> None:
        if connection.vendor != "postgresql":
            raise CommandError("grant_app_role is for PostgreSQL")
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", [role])
            if cursor.fetchone() is None:
                raise CommandError(f"no such role: {role}")
            for sql in grant_statements(role):
                cursor.execute(sql)
        self.stdout.write(f"Granted {role}: match events insert/read only")
