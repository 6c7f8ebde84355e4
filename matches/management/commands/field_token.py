"""Issue or revoke a field token (on the tournament's server; matches/field/)::

    manage.py field_token --match ID [--hours 36]          for one match
    manage.py field_token --date YYYY-MM-DD --field ID     every match on that ground that day
    manage.py field_token --date YYYY-MM-DD --tournament ID [--field ID]
                                                           every match of the tournament that day (on that ground)
    manage.py field_token --revoke TOKEN_ID                shuts the field server out (its next push is refused)
    manage.py field_token --list [--match ID]              the tokens (of the match, and the days' covering it)

The new token is printed once (only its hash is kept). A day's token expires the morning after its
day unless ``--hours`` says otherwise. Each issue and revocation is in the audit trail.
"""

from __future__ import annotations

import datetime as dt

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from matches.field.models import FieldToken
from matches.field.services import field_token_issue, field_token_revoke
from matches.models import Field, Match, Tournament

HOURS_MAX = 24 * 14


def _state(token: FieldToken) -> str:
    return "revoked" if token.revoked_at else "expired" if token.expires_at <= timezone.now() else "usable"


class Command(BaseCommand):
    help = "Issue (or revoke, or list) a field token: for a match, or for a day of a tournament or of a field."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--match", type=int, metavar="ID")
        parser.add_argument("--date", metavar="YYYY-MM-DD", help="a day's token: every match starting that day")
        parser.add_argument("--field", type=int, metavar="ID", help="with --date: the matches on this ground")
        parser.add_argument("--tournament", type=int, metavar="ID", help="with --date: the tournament's matches")
        parser.add_argument("--hours", type=int, help="valid for (default: 36 for a match, to the day's next morning)")
        parser.add_argument("--revoke", type=int, metavar="TOKEN_ID")
        parser.add_argument("--list", action="store_true")

    def handle(self, *args, revoke: int | None, list: bool, **options) -> None:
        if revoke is not None:
            token = FieldToken.objects.filter(pk=revoke).first()
            if token is None:
                raise CommandError(f"no field token #{revoke}")
            done = field_token_revoke(token=token)
            self.stdout.write(f"field token #{revoke} {'revoked' if done else 'was revoked already'}")
            return
        if list:
            self._list(options["match"])
            return
        scope = self._scope(options)
        hours = options["hours"]
        if hours is not None and not 1 <= hours <= HOURS_MAX:
            raise CommandError(f"--hours must be between 1 and {HOURS_MAX}")
        token, secret = field_token_issue(**scope, hours=hours)
        self.stdout.write(secret)
        self.stderr.write(
            f"field token #{token.pk} for {token.scope_text()}, expires {token.expires_at:%Y-%m-%d %H:%M} UTC. "
            "It is shown once: give it to the field's laptop (manage.py field_pair)."
        )

    def _scope(self, options) -> dict:
        match_id, date = options["match"], options["date"]
        if (match_id is None) == (date is None):
            raise CommandError("give --match ID, or --date YYYY-MM-DD with --field ID and/or --tournament ID")
        if match_id is not None:
            if options["field"] is not None or options["tournament"] is not None:
                raise CommandError("--field and --tournament go with --date, not with --match")
            match = Match.objects.select_related("tournament").filter(pk=match_id).first()
            if match is None:
                raise CommandError(f"no match {match_id}")
            return {"match": match}
        try:
            day = dt.date.fromisoformat(date)
        except ValueError:
            raise CommandError("--date must be a day written YYYY-MM-DD") from None
        if options["field"] is None and options["tournament"] is None:
            raise CommandError("a day's token needs --field ID (a ground) and/or --tournament ID")
        ground = tournament = None
        if options["field"] is not None:
            ground = Field.objects.filter(pk=options["field"]).first()
            if ground is None:
                raise CommandError(f"no field {options['field']}")
        if options["tournament"] is not None:
            tournament = Tournament.objects.filter(pk=options["tournament"]).first()
            if tournament is None:
                raise CommandError(f"no tournament {options['tournament']}")
        return {"day": day, "ground": ground, "tournament": tournament}

    def _list(self, match_id: int | None) -> None:
        tokens = FieldToken.objects.select_related("tournament", "field")
        if match_id is not None:
            match = Match.objects.filter(pk=match_id).first()
            if match is None:
                raise CommandError(f"no match {match_id}")
            found = [token for token in tokens if token.covers(match)]
        else:
            found = list(tokens)
        for token in found:
            heard = f", last heard {token.heard_at:%Y-%m-%d %H:%M}" if token.heard_at else ""
            self.stdout.write(
                f"#{token.pk} {token.scope_text()}: {_state(token)}, expires {token.expires_at:%Y-%m-%d %H:%M}{heard}"
            )
