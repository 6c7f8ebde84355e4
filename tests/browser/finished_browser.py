"""A finished match for the awards' and the scoresheet's browser tests, made in the server's
database by its own ``manage.py shell``: one chukker of the demo's teams and officials (umpires:
umpire1, umpire2; referee: referee; scorer: scorer), won 1–0 by home an hour ago, in which home #2
rode Lucera and away #1 Pampa."""

from __future__ import annotations

from polo.testing import ServerProcess

FINISHED_MATCH = """
import time
from matches.models import Match
from matches.tests.committee_helpers import Clock, ev, log, win_one_chukker
demo = Match.objects.filter(last_seq__gt=0).order_by("starts_at", "pk").first()
m = Match.objects.create(tournament=demo.tournament, field=demo.field, starts_at=demo.starts_at, home=demo.home,
                         away=demo.away, periods=1, scorer=demo.scorer, referee=demo.referee)
m.umpires.set(demo.umpires.all())
clock = Clock(time.time() - 3600)
lucera = ev("mount", team="home", number=2, horse="Lucera")
log(m, lucera, ev("mount", team="away", number=1, horse="Pampa"), clock=clock)
win_one_chukker(m, clock)
print("MATCH", m.pk)
print("LUCERA", lucera["id"])
print("RIDER", m.home.roster.get(number=2).player.name)
"""


def finished_match(server: ServerProcess) -> dict[str, str]:
    """The match's id (``MATCH``), the id of Lucera's mount (``LUCERA``) and her rider's name
    (``RIDER``)."""
    out = server.manage("shell", "-c", FINISHED_MATCH)
    pairs = (line.split(" ", 1) for line in out.splitlines() if " " in line)
    return {key: value for key, value in pairs if key in ("MATCH", "LUCERA", "RIDER")}
