"""Backups (docs/OPERATIONS.md): compose's ``backup`` service runs ``deploy/backup.sh`` in the
postgres image (pg_dump's custom format on a timer, kept ``BACKUP_KEEP_DAYS`` days, on a volume of its
own); the same script lists, takes one now and restores into a fresh database.

There is no Docker engine here: the tests run the script itself, with the machine's pg_dump and
pg_restore, as the service runs it. The restore test is PostgreSQL's (CI's second pass); on SQLite,
the embedded default, it checks what OPERATIONS.md says to do there instead (SQLite's online backup).
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import yaml
from django.db import connection

from matches.models import Match
from matches.scoresheet.hashing import canonical_event, hash_lines, log_hash, seal_holds, signature_message
from matches.scoresheet.models import Signature
from matches.scoresheet.services import scoresheet_sign
from polo.testing import BASE_DIR

SCRIPT = BASE_DIR / "deploy" / "backup.sh"
DAY = 86400


def run_script(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["sh", str(SCRIPT), *args], env={**os.environ, **(env or {})}, capture_output=True, text=True, timeout=120
    )


def copy_is_whole(cursor: Any) -> dict[int, str]:
    """Every match's log in a copy of the database, and every signature in it checked as
    ``verify_report`` checks one (its seal holds and its hash is its match's log hash now). Returns
    each match's log hash in the copy; fails on any signature that is not valid there."""
    cursor.execute("SELECT match_id, seq, client_id, type, payload FROM matches_matchevent ORDER BY match_id, seq")
    lines: dict[int, list[str]] = {}
    for match_id, seq, client_id, event_type, payload in cursor.fetchall():
        payload = json.loads(payload) if isinstance(payload, str) else payload
        lines.setdefault(match_id, []).append(canonical_event(seq, client_id, event_type, payload))
    hashes = {match_id: hash_lines(match_lines) for match_id, match_lines in lines.items()}
    cursor.execute("SELECT match_id, official_id, role, last_seq, log_hash, signed_at, seal FROM matches_signature")
    signatures = cursor.fetchall()
    assert signatures, "the copy has no signature to check"
    for match_id, official_id, role, last_seq, digest, signed_at, sealed in signatures:
        if isinstance(signed_at, str):  # SQLite: text, in UTC
            signed_at = datetime.fromisoformat(signed_at).replace(tzinfo=UTC)
        row = SimpleNamespace(
            match_id=match_id,
            official_id=official_id,
            role=role,
            last_seq=last_seq,
            log_hash=digest,
            signed_at=signed_at,
        )
        assert seal_holds(signature_message(row), sealed), f"the seal of {row} does not hold in the copy"
        assert digest == hashes[match_id], f"{row} does not sign its match's log in the copy"
    return hashes


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_backup_restores_into_a_fresh_database_with_every_event_and_every_signature_valid(finished, tmp_path):
    scoresheet_sign(match_id=finished.match.pk, official=finished.umpire)
    scoresheet_sign(match_id=finished.match.pk, official=finished.referee)
    logs = {match.pk: log_hash(match.pk)[1] for match in Match.objects.all()}
    events = finished.match.events.count()
    assert events > 3 and Signature.objects.count() == 2

    if connection.vendor != "postgresql":
        # The embedded default (one machine, `./dev run`): SQLite's online backup, as the sqlite3
        # shell's `.backup` takes it (docs/OPERATIONS.md), taken while the app has it open.
        connection.ensure_connection()
        copy = sqlite3.connect(tmp_path / "backup.sqlite3")
        connection.connection.backup(copy)
        assert copy_is_whole(copy.cursor()) == logs
        assert copy.execute("SELECT count(*) FROM matches_matchevent").fetchone()[0] == events
        copy.close()
        return

    import psycopg

    db = connection.settings_dict
    libpq = {
        "PGHOST": db["HOST"] or "127.0.0.1",
        "PGPORT": str(db["PORT"] or 5432),
        "PGUSER": db["USER"] or "postgres",
        "PGPASSWORD": db["PASSWORD"] or "",
        "BACKUP_DIR": str(tmp_path / "backups"),
    }
    taken = run_script("once", env={**libpq, "PGDATABASE": db["NAME"]})
    assert taken.returncode == 0, taken.stderr
    (dump,) = (tmp_path / "backups").glob("polo-*.dump")
    assert dump.read_bytes().startswith(b"PGDMP")  # pg_dump's custom format
    assert dump.name in run_script("list", env=libpq).stdout

    fresh = f"{db['NAME']}_restored_{uuid.uuid4().hex[:8]}"
    admin = {k: libpq[v] for k, v in (("host", "PGHOST"), ("port", "PGPORT"), ("user", "PGUSER"))}
    with psycopg.connect(dbname="postgres", password=libpq["PGPASSWORD"], autocommit=True, **admin) as server:
        server.execute(f'CREATE DATABASE "{fresh}"')
    try:
        restored = run_script("restore", dump.name, env={**libpq, "PGDATABASE": fresh})
        assert restored.returncode == 0, restored.stderr
        with psycopg.connect(dbname=fresh, password=libpq["PGPASSWORD"], **admin) as copy:
            assert copy_is_whole(copy.cursor()) == logs
            assert copy.execute("SELECT count(*) FROM matches_matchevent").fetchone()[0] == events
        again = run_script("restore", dump.name, env={**libpq, "PGDATABASE": fresh})
        assert again.returncode == 2 and "restore into a fresh one" in again.stderr
    finally:
        with psycopg.connect(dbname="postgres", password=libpq["PGPASSWORD"], autocommit=True, **admin) as server:
            server.execute(f'DROP DATABASE IF EXISTS "{fresh}" WITH (FORCE)')


def test_backups_older_than_backup_keep_days_are_removed(tmp_path):
    now = time.time()
    ages = {"polo-old.dump": 15, "polo-edge.dump": 14.1, "polo-recent.dump": 13.9, "polo-today.dump": 0}
    ages |= {"polo-stopped.dump.partial": 2, "polo-running.dump.partial": 0.01, "not-a-backup.txt": 400}
    for name, days in ages.items():
        (tmp_path / name).write_bytes(b"PGDMP")
        os.utime(tmp_path / name, (now - days * DAY, now - days * DAY))

    pruned = run_script("prune", env={"BACKUP_DIR": str(tmp_path), "BACKUP_KEEP_DAYS": "14"})

    assert pruned.returncode == 0, pruned.stderr
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == ["not-a-backup.txt", "polo-recent.dump", "polo-running.dump.partial", "polo-today.dump"]
    assert "removed" in pruned.stdout and "polo-old.dump" in pruned.stdout


@pytest.mark.parametrize("value", ["0", "two weeks", "-3", "1.5"])
def test_a_bad_keep_days_stops_the_backup_with_a_clear_message(tmp_path, value):
    (tmp_path / "polo-old.dump").write_bytes(b"PGDMP")
    os.utime(tmp_path / "polo-old.dump", (0, 0))
    refused = run_script("prune", env={"BACKUP_DIR": str(tmp_path), "BACKUP_KEEP_DAYS": value})
    assert refused.returncode == 2
    assert "BACKUP_KEEP_DAYS must be a whole number of at least 1" in refused.stderr
    assert (tmp_path / "polo-old.dump").exists()


def test_compose_backs_up_postgresql_on_a_timer_to_a_volume_of_its_own():
    compose = yaml.safe_load((BASE_DIR / "docker-compose.yml").read_text())
    services = compose["services"]
    backup = services["backup"]
    assert backup["image"] == services["postgres"]["image"]  # pg_dump of the server's own version
    assert backup["command"] == ["polo-backup", "loop"]
    assert "./deploy/backup.sh:/usr/local/bin/polo-backup:ro" in backup["volumes"]
    assert "backups:/backups" in backup["volumes"] and "backups" in compose["volumes"]
    others = [v for name, s in services.items() if name != "backup" for v in s.get("volumes", [])]
    assert not [v for v in others if str(v).startswith("backups:")], "the backups' volume is the backup service's own"
    env = backup["environment"]
    assert env["BACKUP_KEEP_DAYS"] == "${BACKUP_KEEP_DAYS:-14}"
    assert env["BACKUP_INTERVAL_SECONDS"] == "${BACKUP_INTERVAL_SECONDS:-3600}"
    assert env["PGHOST"] == "postgres" and env["PGDATABASE"] == services["postgres"]["environment"]["POSTGRES_DB"]
    assert backup["depends_on"]["postgres"] == {"condition": "service_healthy"}
    assert os.access(SCRIPT, os.X_OK), "compose runs the script by its name: it must be executable"
    assert Path(BASE_DIR / "docs" / "OPERATIONS.md").read_text().count("polo-backup restore") >= 1
