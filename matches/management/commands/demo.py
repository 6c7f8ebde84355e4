"""``manage.py demo``: load the demo tournament (idempotent) and print its URLs and logins."""

import os

from django.core.management.base import BaseCommand

from matches.demo import describe_demo, load_demo


class Command(BaseCommand):
    help = "Load the demo tournament (if not loaded yet) and print its URLs and the demo logins."

    def handle(self, *args, **options) -> None:
        tournament, live = load_demo()
        base = f"http://{os.environ.get('HOST', '127.0.0.1')}:{os.environ.get('PORT', '8000')}"
        self.stdout.write(describe_demo(tournament, live, base))
