"""Read a tournament's export into this server (docs/EXPORT.md): ``manage.py import_tournament t.json``.

All of it or nothing: a file that is not an export, of a newer version, of a tournament already
here, or that contradicts itself is refused with one line saying why, and nothing is written.
The format lives in ``matches/transfer.py``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from matches.transfer import ImportRefused
from matches.transfer_import import read_export, tournament_import


class Command(BaseCommand):
    help = "Import a tournament from its export (export_tournament's JSON), in one transaction."

    def add_arguments(self, parser) -> None:
        parser.add_argument("file", help="the export (JSON)")

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(options["file"])
        try:
            raw = path.read_bytes()
        except OSError as error:
            raise CommandError(f"Cannot read {path}: {error.strerror}") from None
        try:
            imported = tournament_import(read_export(raw))
        except ImportRefused as refused:
            raise CommandError(f"{path}: {refused.message} Nothing was imported.") from None
        t = imported.tournament
        self.stdout.write(
            self.style.SUCCESS(
                f"Imported {t.name} ({t.club}) as tournament {t.pk}: "
                f"{imported.matches} matches, {imported.events} events."
            )
        )
        if imported.people_matched:
            self.stdout.write(
                "Accounts already on this server, now named in it (check that they are the same people): "
                + ", ".join(imported.people_matched)
            )
        if imported.people_created:
            self.stdout.write(
                "Accounts created, inactive and without a password (activate and set one in the admin): "
                + ", ".join(imported.people_created)
            )
