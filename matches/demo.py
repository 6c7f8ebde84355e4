"""The demo tournament: two fields, six teams with rosters, a day of matches, one match part-way
through with a realistic log, and the officials' logins. Loaded by ``manage.py demo``."""

from __future__ import annotations

import uuid
from datetime import datetime, time as dtime, timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import Group
from django.db import transaction
from django.utils import timezone

from .committee.services import committee_assign
from .models import Entry, Field, Match, Player, RosterLine, Team, Tournament
from .permissions import COMMITTEE_GROUP, SCORER_GROUP, UMPIRE_GROUP
from .roles import ensure_role_groups, grant_committee_admin_permissions
from .services import match_event_log

DEMO_TOURNAMENT = "Demo Cup"
DEMO_PASSWORD = "polo-demo"
DEMO_USERS = [
    # username, role, full name (the committee member is assigned to the demo tournament)
    ("committee", COMMITTEE_GROUP, "Carmen Committee"),
    ("scorer", SCORER_GROUP, "Sam Scorer"),
    ("scorer2", SCORER_GROUP, "Sofía Scorer"),
    ("umpire1", UMPIRE_GROUP, "Ulises Umpire"),
    ("umpire2", UMPIRE_GROUP, "Uma Umpire"),
    ("referee", UMPIRE_GROUP, "Rita Referee"),
    # The officials of the match played at the same time on the other field.
    ("umpire3", UMPIRE_GROUP, "Ulrich Umpire"),
    ("umpire4", UMPIRE_GROUP, "Úrsula Umpire"),
    ("referee2", UMPIRE_GROUP, "Ramón Referee"),
]
TEAMS = [
    (
        "La Dolfina Blue",
        "#1d4ed8",
        [("Adolfo Cambiaso", 2), ("Poroto Ruiz", 1), ("Juan Martin", 2), ("David Stirling", 1)],
    ),
    (
        "Ellerstina Red",
        "#dc2626",
        [("Facundo Pieres", 2), ("Gonzalo Pieres", 2), ("Nicolas Pieres", 1), ("Polito Pieres", 0)],
    ),
    (
        "Alegría Green",
        "#15803d",
        [("Pablo Mac Donough", 2), ("Juan Britos", 1), ("Lucas Monteverde", 1), ("Sebastián Merlos", 1)],
    ),
    (
        "Coronel Gold",
        "#ca8a04",
        [("Hilario Ulloa", 2), ("Guillermo Terrera", 1), ("Matías Torres", 1), ("Diego Cavanagh", 2)],
    ),
    (
        "Tortugas Black",
        "#111827",
        [("Rodrigo Andrade", 1), ("Julio Zavaleta", 2), ("Bautista Heguy", 1), ("Marcos Heguy", 1)],
    ),
    (
        "Chapaleufú White",
        "#e5e7eb",
        [("Ignacio Heguy", 1), ("Horacio Heguy", 1), ("Alberto Heguy", 1), ("Eduardo Heguy", 2)],
    ),
]


def _uid(*parts: object) -> str:
    return str(uuid.uuid5(uuid.NAMESPACE_URL, "polo-demo/" + "/".join(map(str, parts))))


def _users() -> dict[str, object]:
    ensure_role_groups()
    grant_committee_admin_permissions()
    User = get_user_model()
    users = {}
    # One hash for the demo's one password (each hash costs the hasher's full work, ~0.3 s): the
    # users share the password, so they may share its salt.
    hashed = None
    for username, role, name in DEMO_USERS:
        user, created = User.objects.get_or_create(username=username)
        if created:
            first, _, last = name.partition(" ")
            user.first_name, user.last_name = first, last
            user.is_staff = role == COMMITTEE_GROUP
            hashed = hashed or make_password(DEMO_PASSWORD)
            user.password = hashed
            user.save()
        user.groups.add(Group.objects.get(name=role))
        users[username] = user
    return users


# How long the demo's match has been under way when the demo is loaded.
LIVE_FOR = timedelta(minutes=40)


@transaction.atomic
def load_demo(now: datetime | None = None) -> tuple[Tournament, Match]:
    """Create the demo (idempotent: an existing demo is left as it is). Returns the tournament and
    the match in progress."""
    existing = Tournament.objects.filter(name=DEMO_TOURNAMENT).first()
    if existing:
        _assign_committee(existing, _users())  # a demo loaded before committees were per tournament
        live = existing.matches.filter(last_seq__gt=0).order_by("starts_at").first() or existing.matches.first()
        return existing, live
    now = now or timezone.now()
    today = timezone.localdate(now)
    users = _users()
    tournament = Tournament.objects.create(
        name=DEMO_TOURNAMENT,
        club="Demo Polo Club",
        starts_on=timezone.localdate(now - LIVE_FOR),  # the match under way may have begun yesterday
        ends_on=today + timedelta(days=6),
        lower_handicap_limit=0,
        upper_handicap_limit=8,
    )
    _assign_committee(tournament, users)
    fields = [
        Field.objects.create(name="Field 1", club="Demo Polo Club"),
        Field.objects.create(name="Field 2", club="Demo Polo Club", length=280, width=150),
    ]
    entries = []
    for name, color, roster in TEAMS:
        team, _ = Team.objects.get_or_create(name=name, defaults={"color": color})
        entry = Entry.objects.create(tournament=tournament, team=team)
        for number, (player_name, handicap) in enumerate(roster, start=1):
            player, _ = Player.objects.get_or_create(name=player_name, defaults={"handicap": handicap})
            RosterLine.objects.create(entry=entry, player=player, number=number, handicap=handicap)
        entries.append(entry)

    tz = timezone.get_current_timezone()
    # Started LIVE_FOR ago (after midnight, yesterday's: the day pages keep a match under way).
    live_start = now - LIVE_FOR
    pairs = [(0, 1, 0, live_start), (2, 3, 1, live_start)]
    pairs += [(4, 5, 0, None), (0, 2, 1, None), (1, 3, 0, None), (5, 2, 1, None)]
    matches = []
    # Each field's crew works one match at a time: a match starts two hours after the crew's last.
    crew_free = {0: live_start + timedelta(hours=2), 1: live_start + timedelta(hours=2)}
    for slot, (h, a, f, start) in enumerate(pairs):
        starts_at = start or timezone.make_aware(
            datetime.combine(today, dtime(10 + 2 * (slot // 2), 30 * (slot % 2))), tz
        )
        if start is None and starts_at < now:
            starts_at = now + timedelta(hours=1 + slot)
        if start is None:
            starts_at = max(starts_at, crew_free[f])
            crew_free[f] = starts_at + timedelta(hours=2)
        # No official on two fields at once: each field has a crew of its own for the day.
        crew = ("umpire3", "umpire4", "referee2", "scorer2") if f else ("umpire1", "umpire2", "referee", "scorer")
        match = Match.objects.create(
            tournament=tournament,
            field=fields[f],
            starts_at=starts_at,
            home=entries[h],
            away=entries[a],
            periods=6,
            referee=users[crew[2]],
            scorer=users[crew[3]],
        )
        match.umpires.set([users[crew[0]], users[crew[1]]])
        home_goals, away_goals = match.suggested_handicap_goals()
        match.home_handicap_goals, match.away_handicap_goals = home_goals, away_goals
        match.save()
        matches.append(match)

    live = matches[0]
    _play_demo_log(live, users["scorer"], live_start.timestamp())
    return tournament, live


def _assign_committee(tournament: Tournament, users: dict[str, object]) -> None:
    """The demo's committee runs the demo tournament (and, like any member, no other)."""
    for username, role, _name in DEMO_USERS:
        if role == COMMITTEE_GROUP:
            committee_assign(member=users[username], tournament=tournament)


def _play_demo_log(match: Match, scorer, t0: float) -> None:
    """Two full chukkers and part of the third, stopped with the ball over the side."""
    seq = 0
    state: dict = {}
    wall, last_clock = t0, 0.0  # the wall time runs with the official clock while the ball is in play

    def log(event: dict) -> dict:
        nonlocal seq, state, wall, last_clock
        seq += 1
        clock = float(event.get("clock", last_clock))
        if event["type"] == "play":
            # a stoppage, or the interval before a chukker (the rule edition's, as the state gives it)
            wall += 20.0 if clock >= last_clock else float(state["interval"]["seconds"])
        else:
            wall += max(0.0, clock - last_clock)
        last_clock = clock
        event = {"id": _uid(match.pk, seq), **event}
        result = match_event_log(match_id=match.pk, event=event, user=scorer, now=wall)
        if not result.accepted:
            raise RuntimeError(f"demo event {event} refused: {result.error.code} {result.error.rule}")
        state = result.state
        return state

    def attacking_end_x(team: str) -> float:
        defends = state["defends"][team]
        return match.field.length if defends == "north" else 0.0  # attacks the opposite end

    width = match.field.width
    # Chukker 1
    log({"type": "play"})
    log(
        {
            "type": "ball_out",
            "line": "side",
            "at": {"x": 120, "y": 0},
            "last_hit_by": "away",
            "deflected_off": "none",
            "clock": 35,
        }
    )
    log({"type": "play"})
    log({"type": "goal", "team": "home", "number": 1, "clock": 95})
    log({"type": "play"})
    log(
        {
            "type": "ball_out",
            "line": "end",
            "at": {"x": attacking_end_x("home"), "y": width / 2 + 20},
            "last_hit_by": "home",
            "deflected_off": "none",
            "clock": 150,
        }
    )
    log({"type": "play"})
    log({"type": "foul", "against": "away", "number": 2, "penalty": "3", "clock": 220})
    log({"type": "play"})
    log({"type": "goal", "team": "away", "number": 3, "clock": 300})
    log({"type": "play"})
    log(
        {
            "type": "ball_out",
            "line": "side",
            "at": {"x": 200, "y": width},
            "last_hit_by": "home",
            "deflected_off": "none",
            "clock": 425,
        }
    )
    # Chukker 2
    log({"type": "play"})
    log({"type": "foul", "against": "home", "number": 4, "penalty": "4", "clock": 60})
    log({"type": "play"})
    log({"type": "goal", "team": "away", "number": 1, "from_penalty": True, "clock": 62})
    log({"type": "play"})
    log(
        {
            "type": "whistle",
            "reason": "lost_helmet",
            "ball": {"x": 140, "y": 70},
            "team": "home",
            "number": 2,
            "clock": 140,
        }
    )
    log({"type": "play"})
    log({"type": "goal", "team": "home", "number": 3, "clock": 260})
    log({"type": "play"})
    log({"type": "horn", "kind": "final", "ball": {"x": 150, "y": 40}, "clock": state["clock"]["end_seconds"]})
    # Chukker 3, part-way
    log({"type": "play"})
    log(
        {
            "type": "ball_out",
            "line": "end",
            "at": {"x": attacking_end_x("away"), "y": width / 2 - 25},
            "last_hit_by": "away",
            "deflected_off": "none",
            "clock": 70,
        }
    )
    log({"type": "play"})
    log({"type": "goal", "team": "home", "number": 2, "clock": 150})
    log({"type": "play"})
    log(
        {
            "type": "ball_out",
            "line": "side",
            "at": {"x": 90, "y": 0},
            "last_hit_by": "home",
            "deflected_off": "none",
            "clock": 205,
        }
    )


def describe_demo(tournament: Tournament, live: Match, base_url: str) -> str:
    lines = [
        f"Demo tournament: {tournament} — {tournament.matches.count()} matches today and later.",
        f"  Home page:             {base_url}/",
        f"  Live scoreboard:       {base_url}/matches/{live.pk}/",
        f"  Stream overlay:        {base_url}/matches/{live.pk}/overlay/",
        f"  Tournament live page:  {base_url}/tournaments/{tournament.pk}/live/",
        f"  Scorer's screen:       {base_url}/matches/{live.pk}/scorer/   (login: scorer)",
        f"  Umpire's tablet:       {base_url}/matches/{live.pk}/referee/  (login: umpire1 or referee)",
        f"  Committee:             {base_url}/committee/  and the admin {base_url}/admin/  (login: committee)",
        f"  API schema:            {base_url}/api/openapi.json",
        f"Demo logins: {', '.join(u for u, _, _ in DEMO_USERS)} — password for all: {DEMO_PASSWORD}",
    ]
    return "\n".join(lines)
