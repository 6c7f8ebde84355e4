"""Write a tournament as one file (docs/EXPORT.md): ``manage.py export_tournament ID > t.json``.

The same file, byte for byte, from any server holding the same tournament; ``import_tournament``
reads it into another server. The format lives in ``matches/transfer.py``."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from matches.models import Tournament
from matches.transfer import export_text, tournament_export


class Command(BaseCommand):
    help = "Write a tournament (teams, rosters, fields, matches, logs, awards, signatures, audit trail) as JSON."

    def add_arguments(self, parser) -> None:
        parser.add_argument("tournament", type=int, help="the tournament's id")

    def handle(self, *args: Any, **options: Any) -> None:
        tournament = Tournament.objects.filter(pk=options["tournament"]).first()
        if tournament is None:
            raise CommandError(f"No tournament {options['tournament']}.")
        # As it is: no line added by the command (the file is written as it will be read).
        self.stdout.ending = ""
        self.stdout.write(export_text(tournament_export(tournament)))
