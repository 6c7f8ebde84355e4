"""Pair this field server with a match of the tournament's server (on the field's laptop;
matches/field/)::

    manage.py field_pair --server https://polo.example.org --match ID --token TOKEN

Takes everything the match needs (tournament, teams, rosters, handicaps, the match and its log so
far, the officials who may sign in here) over HTTPS with the field token. Run it again to refresh
(a roster changed, a new token): the field's log is kept.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from matches.field.sender import LinkError, pair
from matches.field.wire import PairingError


class Command(BaseCommand):
    help = "Take a match from the tournament's server, to keep it at the field."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--server", required=True, help="the tournament's server (https://…)")
        parser.add_argument("--match", type=int, required=True, metavar="ID", help="the match's id there")
        parser.add_argument("--token", required=True, help="the field token the committee issued")

    def handle(self, *args, server: str, match: int, token: str, **options) -> None:
        try:
            paired = pair(server, token, match)
        except (LinkError, PairingError, ValueError) as failed:
            raise CommandError(str(getattr(failed, "message", failed))) from None
        self.stdout.write(
            f"paired: {paired.title} is match {paired.pk} here ({paired.last_seq} events so far); "
            f"scorer's screen: /matches/{paired.pk}/scorer/"
        )
