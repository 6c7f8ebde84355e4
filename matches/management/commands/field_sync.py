"""Push the field's logs to the tournament's server (on the field's laptop; matches/field/)::

manage.py field_sync            the loop (``./dev field`` runs it): retries with backoff, survives restarts
manage.py field_sync --once     one round
manage.py field_sync --status   how each link stands, what is wrong in ``--lang`` (default: ``LANG``'s, else the site's)
"""

from __future__ import annotations

import signal

from django.core.management.base import BaseCommand
from django.utils import translation
from django.utils.translation import gettext as _

from matches.field.models import FieldLink
from matches.field.sender import command_language, link_error, run


class Command(BaseCommand):
    help = "Push the log of each match kept here to the tournament's server."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--once", action="store_true")
        parser.add_argument("--status", action="store_true")
        parser.add_argument("--lang", help="the language of --status (en, es)")

    def handle(self, *args, once: bool, status: bool, lang: str | None, **options) -> None:
        if status:
            with translation.override(command_language(lang)):
                self._status()
            return
        stopping = []
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, lambda *_: stopping.append(True))
        run(once=once, stop=lambda: bool(stopping))

    def _status(self) -> None:
        if not FieldLink.objects.exists():
            self.stdout.write(_("No match paired yet: ./dev field pair --server URL --token TOKEN"))
        for link in FieldLink.objects.select_related("match"):
            if link.error_code:
                state = _("error %(code)s: %(message)s") % {"code": link.error_code, "message": link_error(link)}
            else:
                state = _("ok")
            line = _("match %(id)s → %(server)s #%(remote)s: %(sent)s/%(all)s sent, %(state)s")
            self.stdout.write(
                line
                % {
                    "id": link.match_id,
                    "server": link.server_url,
                    "remote": link.remote_match_id,
                    "sent": link.remote_last_seq,
                    "all": link.match.last_seq,
                    "state": state,
                }
            )
