"""The test servers' databases (``polo.testing``): each is a copy of one migrated template made once
per run, and none shares anything with another or with the template."""

from __future__ import annotations

import sqlite3

from polo import testing
from polo.testing import ServerProcess


def sql(url: str, query: str, params: tuple = ()) -> list[tuple]:
    """Run ``query`` on the database at ``url`` (SQLite or PostgreSQL) and commit; its rows."""
    if url.startswith("sqlite:///"):
        connection = sqlite3.connect(url.removeprefix("sqlite:///"))
        try:
            rows = connection.execute(query.replace("%s", "?"), params).fetchall()
            connection.commit()
            return rows
        finally:
            connection.close()
    import psycopg

    with psycopg.connect(url, autocommit=True) as connection:
        cursor = connection.execute(query, params)
        return cursor.fetchall() if cursor.description else []


def rows(url: str) -> tuple[list[str], list[str]]:
    """The content types that migrating writes, and the groups (none until the test adds one)."""
    types = sorted(r[0] for r in sql(url, "SELECT model FROM django_content_type"))
    return types, sorted(r[0] for r in sql(url, "SELECT name FROM auth_group"))


def test_each_server_gets_its_own_copy_of_one_migrated_template(tmp_path, monkeypatch):
    migrations = []
    real = testing._manage

    def counted(env, *args):
        migrations.extend(arg for arg in args if "migrate" in arg)
        return real(env, *args)

    monkeypatch.setattr(testing, "_manage", counted)
    made_before = dict(testing._templates)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first = ServerProcess(tmp_path / "a", "a", demo=False)
    second = ServerProcess(tmp_path / "b", "b", demo=False)
    try:
        # One template for the run: made by the first server that needed it (here, or earlier).
        assert len(testing._templates) == 1 and len(migrations) == (0 if made_before else 1), migrations
        template = next(iter(testing._templates.values()))
        assert made_before in ({}, testing._templates)
        assert len({template, first.database_url, second.database_url}) == 3
        migrated, none = rows(template)
        assert {"match", "tournament", "user"} <= set(migrated) and none == []
        assert rows(first.database_url) == rows(second.database_url) == (migrated, [])  # what migrating wrote
        sql(first.database_url, "INSERT INTO auth_group (name) VALUES (%s)", ("only in a",))
        assert rows(first.database_url) == (migrated, ["only in a"])
        assert rows(second.database_url) == rows(template) == (migrated, [])  # copies, not the same database
    finally:
        first.close()
        second.close()
