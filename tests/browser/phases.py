"""A match in each phase a public screen must show (issue 12, item 1), built through the real
services: every event goes through ``matches.services.match_event_log`` as the API's would.

    PHASES                                   the phases' names, in the order a match meets them
    match_in_phase(name, home=…, away=…)     a new Match in that phase (in this process's database)
    phase_matches(server, names, home=…)     {name: match id} built in a test server's database

``match_in_phase`` needs Django set up (pytest-django's ``db``, or ``manage.py shell`` on a
``ServerProcess``: ``phase_matches`` does that). The matches of one database share one tournament
("Phases Cup", today) and its field, so the tournament's day page shows every phase at once.

Team names are the caller's (``home``/``away``, up to the 30 characters a phone must hold); the
players are "<team> 1" … "<team> 4". Phases whose clock runs (``in_play``, ``overtime``) are
logged with wall times ending now, so the clock a screen runs from them is the real one; the
others are logged an hour ago (their clocks are stopped, so the time does not show).
"""

from __future__ import annotations

import json
import uuid
from datetime import datetime, timedelta
from typing import Any

# The phases (docs/MATCH-LOG.md "State": ``status``, ``result``), in the order a match meets them.
PHASES: tuple[str, ...] = (
    "scheduled",  # before the throw-in, away given 1 goal on handicap (shown 0–1, labelled)
    "in_play",  # chukker 1, 1–0, the clock running
    "stopped",  # ball out over the side line: a free hit, Rule 22.f
    "interval",  # between chukkers 1 and 2: "Next chukker in 2:5x"
    "halftime",  # after chukker 2 of 4 (Rule 14.a's longer interval)
    "suspended",  # the committee suspended play (Rule 21.k)
    "tied",  # 1–1 at the final horn, waiting for the committee (Rule 14.c/d)
    "overtime",  # the committee's overtime chukker, in play
    "shootout",  # Rule 14.d, round 1 from the 40-yard line: home ✓, away ✗, home ✗; next away 2
    "final",  # won in regulation, 1–0
    "final_overtime",  # won by the first goal of overtime
    "final_shootout",  # won 1–0 in the shootout (the game 2–1)
    "final_forfeit",  # the away team forfeited (Rule 21.f(5))
    "abandoned",  # suspended, then abandoned (Rule 22.j)
)

HOME = "Ellerstina Red"
AWAY = "La Dolfina Blue"
TOURNAMENT = "Phases Cup"
FIELD = "Field 1"
HOUR = 3600.0
# A full shootout round (team format, four hitters a side): home 1 to 4, away 1 to 4 in turn.
ORDER = {"home": [1, 2, 3, 4], "away": [1, 2, 3, 4]}


def _ev(event_type: str, **fields: Any) -> dict[str, Any]:
    return {"id": str(uuid.uuid4()), "type": event_type, **fields}


def _goal(team: str, clock: float, number: int = 1) -> dict[str, Any]:
    return _ev("goal", team=team, number=number, clock=clock)


FINAL_HORN = {"kind": "final", "clock": 450, "ball": {"x": 150, "y": 80}}


def _tie() -> list[dict[str, Any]]:
    """One chukker (``periods=1``) ending 1–1 at the final horn: status ``tied``."""
    return [_ev("play"), _goal("home", 30), _ev("play"), _goal("away", 60, 2), _ev("play"), _ev("horn", **FINAL_HORN)]


def _shootout_start() -> dict[str, Any]:
    return _ev("shootout_start", format="team", first="home", order=ORDER)


def _attempts(*scored: bool) -> list[dict[str, Any]]:
    """Shootout hits in the order of ``ORDER`` (home first), each scored or missed."""
    out = []
    for i, hit in enumerate(scored):
        team = "home" if i % 2 == 0 else "away"
        out.append(_ev("shootout_attempt", team=team, number=ORDER[team][(i // 2) % 4], scored=hit))
    return out


def _events(name: str) -> tuple[int, list[dict[str, Any]], bool]:
    """(periods, events, clock runs now) of a phase."""
    ball_out = _ev("ball_out", line="side", at={"x": 150, "y": 0}, last_hit_by="home", deflected_off="none", clock=95)
    chukker_one = [_ev("play"), _goal("home", 30), _ev("play"), _ev("horn", **FINAL_HORN)]
    suspend = _ev("suspend", reason="lightning", ball={"x": 150, "y": 80}, clock=100)
    table: dict[str, tuple[int, list[dict[str, Any]], bool]] = {
        "scheduled": (4, [], False),
        "in_play": (4, [_ev("play"), _goal("home", 30), _ev("play")], True),
        "stopped": (4, [_ev("play"), _goal("home", 30), _ev("play"), ball_out], False),
        # The interval's countdown starts at the final horn: logged now, so it counts from now.
        "interval": (4, chukker_one, True),
        # Chukker 2 of 4 ends: half-time (Rule 14.a's longer interval).
        "halftime": (4, [*chukker_one, _ev("play"), _ev("horn", **FINAL_HORN)], True),
        "suspended": (4, [_ev("play"), _goal("home", 30), _ev("play"), suspend], False),
        "tied": (1, _tie(), False),
        "overtime": (1, [*_tie(), _ev("overtime"), _ev("play")], True),
        "shootout": (1, [*_tie(), _shootout_start(), *_attempts(True, False, False)], False),
        "final": (1, [_ev("play"), _goal("home", 60, 2), _ev("play"), _ev("horn", **FINAL_HORN)], False),
        "final_overtime": (1, [*_tie(), _ev("overtime"), _ev("play"), _goal("home", 40, 3)], False),
        # Round 1: home 1 ✓, the seven others miss: 1–0 after a complete round (Rule 14.d).
        "final_shootout": (1, [*_tie(), _shootout_start(), *_attempts(True, *[False] * 7)], False),
        "final_forfeit": (
            1,
            [_ev("play"), _goal("away", 30), _ev("play"), _ev("forfeit", team="away", reason="excused horse returned")],
            False,
        ),
        "abandoned": (
            4,
            [
                _ev("play"),
                _ev("suspend", reason="lightning", ball={"x": 150, "y": 80}, clock=20),
                _ev("abandon", reason="the field is flooded"),
            ],
            False,
        ),
    }
    if name not in table:
        raise ValueError(f"unknown phase {name!r}: one of {', '.join(PHASES)}")
    return table[name]


def _entry(tournament, name: str, color: str, handicaps: tuple[int, ...]):
    from matches.models import Entry, Player, RosterLine, Team

    # Team names are unique: a name met again (another phase, the same teams) is the same team.
    team = Team.objects.get_or_create(name=name, defaults={"color": color})[0]
    entry, created = Entry.objects.get_or_create(tournament=tournament, team=team)
    if not created:
        return entry
    for number, handicap in enumerate(handicaps, start=1):
        player = Player.objects.create(name=f"{name} {number}", handicap=handicap)
        RosterLine.objects.create(entry=entry, player=player, number=number, handicap=handicap)
    return entry


def _times(name: str, count: int, running: bool) -> tuple[datetime, float]:
    """When the match starts, and when its first of ``count`` events (a second apart) is logged.
    A phase whose clock or countdown runs ends its events now and started twenty minutes ago
    (yesterday's just after midnight: it is still under way, so still on the day's lists); one
    that does not ended them an hour ago, but today still (the day's lists are of the local day);
    a scheduled match starts in half an hour, or a minute before midnight if that is sooner."""
    from django.utils import timezone

    now = timezone.localtime()
    if name == "scheduled":
        return min(now + timedelta(minutes=30), now.replace(hour=23, minute=59, second=0, microsecond=0)), 0.0
    last_start = now.timestamp() - count  # (the events end now)
    if running:
        return now - timedelta(minutes=20), last_start
    midnight = now.replace(hour=0, minute=0, second=0, microsecond=0).timestamp()
    first = min(max(last_start - HOUR, midnight + 120), last_start)
    return datetime.fromtimestamp(first - 60, now.tzinfo), first


def match_in_phase(name: str, *, home: str = HOME, away: str = AWAY, tournament=None):
    """A new match of ``home`` against ``away`` in phase ``name`` (one of ``PHASES``), its events
    logged through ``match_event_log``; every event must be accepted."""
    from django.utils import timezone

    from matches.models import Field, Match, Tournament
    from matches.services import match_event_log

    periods, events, running = _events(name)
    starts_at, t = _times(name, len(events), running)
    today = timezone.localdate()
    if tournament is None:
        tournament = Tournament.objects.filter(name=TOURNAMENT).first() or Tournament.objects.create(
            name=TOURNAMENT, club="Phases Club", starts_on=today, ends_on=today + timedelta(days=2)
        )
    field = Field.objects.get_or_create(name=FIELD)[0]
    match = Match.objects.create(
        tournament=tournament,
        field=field,
        home=_entry(tournament, home, "#b91c1c", (2, 2, 1, 1)),
        away=_entry(tournament, away, "#1d4ed8", (2, 2, 2, 1)),
        periods=periods,
        starts_at=starts_at,
        away_handicap_goals=1 if name == "scheduled" else 0,
    )
    for i, event in enumerate(events, start=1):
        result = match_event_log(match_id=match.pk, event=event, now=t + i)
        if not result.accepted:
            error = result.error
            raise AssertionError(f"{name}: {event['type']} refused: {error and (error.code, error.message('en'))}")
    match.refresh_from_db()
    return match


_SHELL = """
from tests.browser.phases import match_in_phase
import json
names = json.loads({names!r})
print("PHASES", json.dumps({{n: match_in_phase(n, **names).pk for n in json.loads({phases!r})}}))
"""


def phase_matches(server, phases=PHASES, **names: str) -> dict[str, int]:
    """Build a match in each of ``phases`` in the database of ``server`` (a ``polo.testing.ServerProcess``)
    with one ``manage.py shell``: {phase: match id}. ``names``: ``home``/``away`` team names."""
    code = _SHELL.format(names=json.dumps(names), phases=json.dumps(list(phases)))
    out = server.manage("shell", "-c", code)
    return json.loads(out.split("PHASES", 1)[1].strip().splitlines()[0])
