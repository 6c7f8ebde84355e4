"""Pair this field server with the tournament's server (on the field's laptop; matches/field/)::

    manage.py field_pair --server https://polo.example.org --token TOKEN [--match ID]

Takes everything each match needs (tournament, teams, rosters, handicaps, the match and its log so
far, the officials who may sign in here) over HTTPS with the field token: the match ``--match``
names, or, without it, every match the token authorises (a day's token: every match of that day on
that ground). Run it again to refresh (a roster changed, a new token): the field's log is kept.
Its refusals are said in ``--lang`` (default: the language of ``LANG``, else the site's).
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError
from django.utils import translation

from matches.field.sender import LinkError, command_language, pair, pair_all
from matches.field.wire import PairingError


class Command(BaseCommand):
    help = "Take a match (or every match of a day's token) from the tournament's server, to keep it at the field."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--server", required=True, help="the tournament's server (https://…)")
        parser.add_argument("--match", type=int, metavar="ID", help="the match's id there (default: the token's)")
        parser.add_argument("--token", required=True, help="the field token the committee issued")
        parser.add_argument("--lang", help="the language of the messages (en, es)")

    def handle(self, *args, server: str, match: int | None, token: str, lang: str | None, **options) -> None:
        lang = command_language(lang)
        try:
            paired = [pair(server, token, match)] if match is not None else pair_all(server, token)
        except (LinkError, PairingError) as failed:
            raise CommandError(failed.said(lang)) from None
        for one in paired:
            with translation.override(lang):
                title = one.title
            self.stdout.write(
                f"paired: {title} is match {one.pk} here ({one.last_seq} events so far); "
                f"scorer's screen: /matches/{one.pk}/scorer/"
            )
