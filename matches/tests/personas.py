"""The people of the app, defined once for the tests.

- committee: runs the tournaments they are assigned to; committee events on those tournaments'
  matches only, never the game events of a match. A member of another tournament's committee is a
  spectator here.
- federation: the committee of every tournament (superusers, the ``federation`` group).
- scorer: logs the game events of the match they are assigned to, and of no other.
- umpire / referee: log game events on their own match and may suspend it.
- spectator: anyone else (anonymous or an official of another match): reads, never writes.
"""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.utils import timezone

from matches.models import CommitteeAssignment, Entry, Field, Match, Player, RosterLine, Team, Tournament
from matches.permissions import COMMITTEE_GROUP, FEDERATION_GROUP, SCORER_GROUP, UMPIRE_GROUP

PASSWORD = "correct horse battery"


def make_user(username: str, group: str | None = None):
    user = get_user_model().objects.create_user(username=username, password=PASSWORD)
    if group:
        user.groups.add(Group.objects.get_or_create(name=group)[0])
    return user


def make_committee_member(username: str, *tournaments: Tournament):
    """A member of the committee group assigned to ``tournaments`` (none: a member of no tournament's
    committee). Assigned directly, as a fixture: no audit entry."""
    user = make_user(username, COMMITTEE_GROUP)
    for tournament in tournaments:
        CommitteeAssignment.objects.create(user=user, tournament=tournament)
    return user


def make_federation(username: str):
    return make_user(username, FEDERATION_GROUP)


def make_entry(tournament: Tournament, name: str, handicaps=(2, 2, 1, 1), color="#1d4ed8") -> Entry:
    team = Team.objects.create(name=name, color=color)
    entry = Entry.objects.create(tournament=tournament, team=team)
    for number, handicap in enumerate(handicaps, start=1):
        player = Player.objects.create(name=f"{name} {number}", handicap=handicap)
        RosterLine.objects.create(entry=entry, player=player, number=number, handicap=handicap)
    return entry


def make_match(
    *,
    tournament: Tournament | None = None,
    field: Field | None = None,
    home: Entry | None = None,
    away: Entry | None = None,
    scorer=None,
    umpires=(),
    referee=None,
    starts_at=None,
    **kwargs,
) -> Match:
    today = timezone.localdate()
    tournament = tournament or Tournament.objects.create(
        name="Test Cup", club="Test Club", starts_on=today, ends_on=today + timedelta(days=3)
    )
    field = field or Field.objects.create(name="Field A")
    home = home or make_entry(tournament, f"Blue {Team.objects.count()}")
    away = away or make_entry(tournament, f"Red {Team.objects.count()}", color="#dc2626")
    match = Match.objects.create(
        tournament=tournament,
        field=field,
        home=home,
        away=away,
        scorer=scorer,
        referee=referee,
        starts_at=starts_at or timezone.now(),
        **kwargs,
    )
    match.umpires.set(umpires)
    return match


def field_copy(match: Match, **kwargs) -> Match:
    """A field server's copy of ``match`` (the same tournament, ground, teams and start), as a second
    match of the test's database: what a field server's database would hold once paired."""
    return make_match(
        tournament=match.tournament,
        field=match.field,
        home=match.home,
        away=match.away,
        starts_at=match.starts_at,
        **{"scorer": match.scorer, **kwargs},
    )


class Cast:
    """Two matches of one tournament and their officials, the committee member assigned to that
    tournament, and a committee member of no tournament here (``committee_other``)."""

    def __init__(self) -> None:
        self.committee = make_user("carmen", COMMITTEE_GROUP)
        self.committee_other = make_user("otto", COMMITTEE_GROUP)
        self.scorer_a = make_user("sam", SCORER_GROUP)
        self.scorer_b = make_user("sofia", SCORER_GROUP)
        self.umpire_a = make_user("ulises", UMPIRE_GROUP)
        self.referee_a = make_user("rita", UMPIRE_GROUP)
        self.umpire_b = make_user("uma", UMPIRE_GROUP)
        self.match_a = make_match(scorer=self.scorer_a, umpires=[self.umpire_a], referee=self.referee_a)
        self.match_b = make_match(
            tournament=self.match_a.tournament, field=self.match_a.field, scorer=self.scorer_b, umpires=[self.umpire_b]
        )
        CommitteeAssignment.objects.create(user=self.committee, tournament=self.match_a.tournament)
