"""Issue or revoke a field token (on the tournament's server; matches/field/)::

    manage.py field_token --match ID [--hours 36]     prints the new token (shown once: only its hash is kept)
    manage.py field_token --revoke TOKEN_ID           shuts the field server out (its next push is refused)
    manage.py field_token --list --match ID           the match's tokens

Both are recorded in the match's audit trail.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from matches.field.models import FieldToken
from matches.field.services import TOKEN_HOURS, field_token_issue, field_token_revoke
from matches.models import Match


class Command(BaseCommand):
    help = "Issue (or revoke, or list) the field token of a match kept at the field."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--match", type=int, metavar="ID")
        parser.add_argument("--hours", type=int, default=TOKEN_HOURS, help=f"valid for (default {TOKEN_HOURS})")
        parser.add_argument("--revoke", type=int, metavar="TOKEN_ID")
        parser.add_argument("--list", action="store_true")

    def handle(self, *args, match: int | None, hours: int, revoke: int | None, list: bool, **options) -> None:
        if revoke is not None:
            token = FieldToken.objects.select_related("match").filter(pk=revoke).first()
            if token is None:
                raise CommandError(f"no field token #{revoke}")
            done = field_token_revoke(token=token)
            self.stdout.write(f"field token #{revoke} {'revoked' if done else 'was revoked already'}")
            return
        if match is None:
            raise CommandError("--match ID is required")
        found = Match.objects.select_related("tournament").filter(pk=match).first()
        if found is None:
            raise CommandError(f"no match {match}")
        if list:
            for token in FieldToken.objects.filter(match=found):
                state = "revoked" if token.revoked_at else "expired" if token.expires_at <= timezone.now() else "usable"
                heard = f", last heard {token.heard_at:%Y-%m-%d %H:%M}" if token.heard_at else ""
                self.stdout.write(f"#{token.pk} {state}, expires {token.expires_at:%Y-%m-%d %H:%M}{heard}")
            return
        if not 1 <= hours <= 24 * 14:
            raise CommandError("--hours must be between 1 and 336")
        token, secret = field_token_issue(match=found, hours=hours)
        self.stdout.write(secret)
        self.stderr.write(
            f"field token #{token.pk} for match {found.pk}, expires {token.expires_at:%Y-%m-%d %H:%M} UTC. "
            "It is shown once: give it to the field's laptop (manage.py field_pair)."
        )
