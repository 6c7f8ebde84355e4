"""Hand a match to the field, or take it back (on the tournament's server; matches/field/)::

    manage.py field_keep --match ID --at field      the field server writes the log; this one keeps a replica
    manage.py field_keep --match ID --at server     this server writes the log again

Recorded in the match's audit trail. A match comes back by itself once its final log has arrived.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from matches.field.services import match_keep_at
from matches.models import Match


class Command(BaseCommand):
    help = "Hand a match to the field's server, or take it back."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--match", type=int, required=True, metavar="ID")
        parser.add_argument("--at", required=True, choices=Match.KeptAt.values)
        parser.add_argument("--reason", default="")

    def handle(self, *args, match: int, at: str, reason: str, **options) -> None:
        try:
            changed = match_keep_at(match_id=match, where=at, reason=reason)
        except Match.DoesNotExist:
            raise CommandError(f"no match {match}") from None
        self.stdout.write(f"match {match} is kept at the {at}" + ("" if changed else " (it was already)"))
