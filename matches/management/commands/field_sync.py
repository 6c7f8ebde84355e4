"""Push the field's logs to the tournament's server (on the field's laptop; matches/field/)::

manage.py field_sync            the loop (``./dev field`` runs it): retries with backoff, survives restarts
manage.py field_sync --once     one round
manage.py field_sync --status   how each link stands
"""

from __future__ import annotations

import signal

from django.core.management.base import BaseCommand

from matches.field.models import FieldLink
from matches.field.sender import run


class Command(BaseCommand):
    help = "Push the log of each match kept here to the tournament's server."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--once", action="store_true")
        parser.add_argument("--status", action="store_true")

    def handle(self, *args, once: bool, status: bool, **options) -> None:
        if status:
            if not FieldLink.objects.exists():
                self.stdout.write("no match paired yet: ./dev field pair --server URL --match ID --token TOKEN")
            for link in FieldLink.objects.select_related("match"):
                state = f"error {link.error_code}: {link.error_message}" if link.error_code else "ok"
                self.stdout.write(
                    f"match {link.match_id} → {link.server_url} #{link.remote_match_id}: "
                    f"{link.remote_last_seq}/{link.match.last_seq} sent, {state}"
                )
            return
        stopping = []
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, lambda *_: stopping.append(True))
        run(once=once, stop=lambda: bool(stopping))
