"""Helpers of the committee's browser tests: a private server per module (the demo loaded), a
browser logged in as a demo user, and matches set up in the server's database by its own
``manage.py shell`` (a log with explicit clock values, as the engine allows)."""

from __future__ import annotations

from polo.testing import HttpClient, ServerProcess

from .live_helpers import DEMO_PASSWORD, PageWatch  # noqa: F401  (re-exported for the tests)

# A one-chukker match of the demo's teams and officials (umpires: umpire1, umpire2; referee:
# referee; scorer: scorer), played to a {goals}–{goals} tie an hour ago.
TIED_MATCH = """
import time
from matches.models import Match
from matches.tests.committee_helpers import Clock, tie_one_chukker
demo = Match.objects.filter(last_seq__gt=0).order_by("starts_at", "pk").first()
m = Match.objects.create(tournament=demo.tournament, field=demo.field, starts_at=demo.starts_at, home=demo.home,
                         away=demo.away, periods=1, scorer=demo.scorer, referee=demo.referee)
m.umpires.set(demo.umpires.all())
tie_one_chukker(m, Clock(time.time() - 3600), goals={goals})
print("MATCH", m.pk)
"""

DEMO_MATCH = """
from matches.models import Match
print("MATCH", Match.objects.filter(last_seq__gt=0).order_by("starts_at", "pk").first().pk)
"""


def module_server(tmp_path_factory, name: str):
    server = ServerProcess(tmp_path_factory.mktemp(name), name).start()
    yield server
    server.close()


def shell(server: ServerProcess, code: str) -> int:
    """Run ``code`` in the server's database; it prints ``MATCH <id>``."""
    out = server.manage("shell", "-c", code)
    return int(out.split("MATCH")[1].split()[0])


def log_in(context, server: ServerProcess, username: str) -> HttpClient:
    client = server.client()
    client.login(username, DEMO_PASSWORD)
    context.add_cookies(client.session_cookies())
    return client
