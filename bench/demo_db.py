"""A fresh database with the demo for a bench that runs Django in its own process."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def demo_database(name: str, **env: str) -> Iterator[str]:
    """A fresh database, migrated, with the demo, on ``DATABASE_URL``'s server (PostgreSQL at
    127.0.0.1:5432 unless it names another; ``sqlite://``: a file), its pool on; this process's
    Django set up on it with ``env`` added to its settings' environment. Yields the database's URL;
    drops the database after."""
    os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
    with tempfile.TemporaryDirectory(prefix=f"bench-{name}-") as tmp:
        from polo.testing import ServerProcess

        # Not started: it makes the fresh database, migrated, with the demo (and drops it on close).
        prepared = ServerProcess(Path(tmp), name, extra_env={"DATABASE_POOL": "true"})
        try:
            os.environ.update(
                DATABASE_URL=prepared.database_url,
                DATABASE_POOL="true",
                POLO_VAR_DIR=tmp,
                DJANGO_SETTINGS_MODULE="polo.settings",
                **env,
            )
            import django

            django.setup()
            yield prepared.database_url
        finally:
            from django.db import connections

            connections.close_all()
            prepared.close()
