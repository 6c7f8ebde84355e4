"""Matches at the moments of a whole match played at a human pace (issue 38), made in a test
server's database with one ``manage.py shell``: the demo's teams and officials (scorer: "scorer";
umpires: "umpire1", "umpire2"; referee: "referee"; committee: "committee"), each event logged
through ``match_event_log`` by the official who would log it, at a time given in seconds before
now (so a clock or a countdown runs from it as it would have).

    SPECS                       {name: (periods, home team, [(seconds ago, username, event), …])}
    paced_matches(server, names) -> {name: match id}
"""

from __future__ import annotations

import json
from typing import Any

from polo.testing import ServerProcess

FINAL_HORN = {"type": "horn", "kind": "final", "clock": 450, "ball": {"x": 150, "y": 80}}
HOME = "Ellerstina Red"  # the demo match's home; its away is La Dolfina Blue
GREEN = "Alegría Green"  # the colour of the grass (#15803d)


def _tie(ago: float) -> list[tuple[float, str, dict[str, Any]]]:
    """One chukker (``periods=1``) ending 1–1 at the final horn, ``ago`` seconds ago."""
    return [
        (ago + 40, "scorer", {"type": "play"}),
        (ago + 30, "scorer", {"type": "goal", "team": "home", "number": 1, "clock": 10}),
        (ago + 25, "scorer", {"type": "play"}),
        (ago + 15, "scorer", {"type": "goal", "team": "away", "number": 2, "clock": 20}),
        (ago + 10, "scorer", {"type": "play"}),
        (ago, "scorer", FINAL_HORN),
    ]


SHOOTOUT_START = {"type": "shootout_start", "format": "team", "first": "home",
                  "order": {"home": [1, 2, 3, 4], "away": [1, 2, 3, 4]}}  # fmt: skip


def _attempts(*scored: bool) -> list[tuple[float, str, dict[str, Any]]]:
    out = []
    for i, hit in enumerate(scored):
        team = "home" if i % 2 == 0 else "away"
        out.append((50 - i, "scorer", {"type": "shootout_attempt", "team": team, "number": i // 2 + 1, "scored": hit}))
    return out


SPECS: dict[str, tuple[int, str, list[tuple[float, str, dict[str, Any]]]]] = {
    # Chukker 1 of 2 is over: half-time (Rule 14.a's longer interval, 5:00) began 10 s ago.
    "halftime": (2, HOME, [(50, "scorer", {"type": "play"}), (10, "scorer", FINAL_HORN)]),
    # An interval of 3:00 that ended 20 s ago: the umpires have not thrown in yet.
    "interval_over": (4, HOME, [(250, "scorer", {"type": "play"}), (200, "scorer", FINAL_HORN)]),
    # The ball in play for 7:05: five seconds of extra time (Rule 14.b(1)).
    "extra_time": (4, HOME, [(425, "scorer", {"type": "play"})]),
    # In play; a goal at 0:30 then the throw-in: the restart timers and the clock of Play.
    "in_play": (4, HOME, [(60, "scorer", {"type": "play"})]),
    # A goal a few seconds ago: the throw-in at the centre (Rule 22.e(1)).
    "after_goal": (
        4,
        HOME,
        [(60, "scorer", {"type": "play"}), (5, "scorer", {"type": "goal", "team": "home", "number": 1, "clock": 55})],
    ),
    "after_goal_green": (
        4,
        GREEN,
        [(60, "scorer", {"type": "play"}), (5, "scorer", {"type": "goal", "team": "home", "number": 1, "clock": 55})],
    ),
    # Tied 1–1 at the final horn, waiting for the committee (Rule 14.c/d).
    "tied": (1, HOME, _tie(100)),
    # The committee's shootout: home 1 ✓, away 1 ✗, home 2 ✓; next away #2 (Rule 14.d).
    "shootout": (1, HOME, [*_tie(300), (60, "committee", SHOOTOUT_START), *_attempts(True, False, True)]),
    # Won in the shootout: 1–1 after the chukker, 2–1 with the shootout's goal; a yellow card first.
    "final_shootout": (
        1,
        HOME,
        [
            (400, "scorer", {"type": "play"}),
            (395, "scorer", {"type": "whistle", "reason": "rule_check", "ball": {"x": 150, "y": 80}, "clock": 5}),
            (394, "umpire1", {"type": "card", "team": "away", "number": 3, "color": "yellow"}),
            *_tie(300),
            (60, "committee", SHOOTOUT_START),
            *_attempts(True, *[False] * 7),
        ],
    ),
}

_SHELL = """
import json, time, uuid
from django.contrib.auth import get_user_model
from matches.models import Entry, Match
from matches.services import match_event_log
demo = Match.objects.filter(last_seq__gt=0).order_by("pk").first()  # (made first: others may start earlier)
users = {{u.username: u for u in get_user_model().objects.all()}}
specs = json.loads({specs!r})
made = {{}}
for name, (periods, home, events) in specs.items():
    home_entry = Entry.objects.get(tournament=demo.tournament, team__name=home)
    away = demo.away if home_entry != demo.away else demo.home
    m = Match.objects.create(tournament=demo.tournament, field=demo.field, starts_at=demo.starts_at, home=home_entry,
                             away=away, periods=periods, scorer=demo.scorer, referee=demo.referee)
    m.umpires.set(demo.umpires.all())
    now = time.time()
    for ago, who, event in events:
        result = match_event_log(match_id=m.pk, event={{"id": str(uuid.uuid4()), **event}}, user=users[who],
                                 now=now - ago)
        assert result.accepted, (name, event, result.error and result.error.code)
    made[name] = m.pk
print("PACED", json.dumps(made))
"""


def paced_matches(server: ServerProcess, names: list[str] | None = None) -> dict[str, int]:
    specs = {name: SPECS[name] for name in (names or SPECS)}
    out = server.manage("shell", "-c", _SHELL.format(specs=json.dumps(specs)))
    return json.loads(out.split("PACED", 1)[1].strip().splitlines()[0])
