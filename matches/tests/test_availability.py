"""Rule 21.d across the day: "no player who has been rendered unconscious shall be allowed to
resume play in any game that day". The engine enforces it within a match; the event log's hook
(matches/availability.py) refuses any event that puts that player — the same person, whatever
the team or number — into another match of the same local day, with ``player_unavailable``."""

from __future__ import annotations

from datetime import datetime, time as dtime, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from matches.models import Entry, Field, RosterLine, Team
from matches.services import match_event_log

from .committee_helpers import Clock, Committee, ev, log
from .personas import make_entry, make_match

pytestmark = pytest.mark.django_db

DAY = 24 * 3600.0


def noon_today() -> datetime:
    return timezone.make_aware(datetime.combine(timezone.localdate(), dtime(12, 0)))


class Day:
    """Two matches today. Pablo plays #2 for Blue in the first and #3 for Green in the second."""

    def __init__(self) -> None:
        self.cast = Committee(starts_at=noon_today())
        self.first = self.cast.match
        self.pablo = self.first.home.roster.get(number=2).player
        tournament = self.first.tournament
        green = make_entry(tournament, "Green", color="#15803d")
        line = green.roster.get(number=3)
        line.player = self.pablo
        line.save()
        self.second = make_match(
            tournament=tournament,
            field=Field.objects.create(name="Field B"),
            home=make_entry(tournament, "Gold"),
            away=green,
            starts_at=noon_today() + timedelta(hours=3),
        )
        self.clock = Clock(noon_today().timestamp())

    def knock_out(self) -> dict:
        """Pablo is rendered unconscious in the first match."""
        return log(
            self.first,
            ev("play"),
            ev(
                "whistle",
                reason="player_fall",
                team="home",
                number=2,
                unconscious=True,
                ball={"x": 100, "y": 40},
                clock=80,
            ),
            clock=self.clock,
        )

    def post(self, match, event: dict, *, now: float | None = None):
        return match_event_log(match_id=match.pk, event=event, now=now or self.clock(), lang="en")


@pytest.fixture
def day() -> Day:
    return Day()


def test_with_a_substitute_in_his_place_the_other_match_starts(day):
    day.knock_out()
    log(day.second, ev("substitution", team="away", out=3, player={"name": "Juan Sub", "handicap": 1}), clock=day.clock)
    assert day.post(day.second, ev("play")).accepted


def test_the_first_throw_in_is_refused_while_the_line_up_holds_him(day):
    day.knock_out()
    result = day.post(day.second, ev("play"))
    assert not result.accepted
    assert (result.error.code, result.error.rule) == ("player_unavailable", "21.d")
    assert (
        result.error.message("en")
        == "Green #3 may not take part: a player rendered unconscious may not play again that day."
    )
    assert result.error.message("es").startswith("Green #3 no puede participar")
    assert day.second.events.count() == 0


def test_an_event_that_names_him_is_refused_and_others_are_not(day):
    day.knock_out()
    # Start the second match with Pablo replaced, then bring him back as #3 by name: refused.
    log(
        day.second,
        ev("substitution", team="away", out=3, player={"name": "Juan Sub", "handicap": 1}),
        ev("play"),
        ev("goal", team="away", number=1, clock=30),
        clock=day.clock,
    )
    result = day.post(
        day.second, ev("substitution", team="away", out=1, player={"name": day.pablo.name, "handicap": 2})
    )
    assert not result.accepted and result.error.code == "player_unavailable"
    assert result.error.message("en") == f"{day.pablo.name} was rendered unconscious and may not play again that day."


def test_his_goal_in_another_match_is_refused(day):
    # The second match started first (before the fall), with Pablo as Green #3.
    log(day.second, ev("play"), clock=day.clock)
    day.knock_out()
    result = day.post(day.second, ev("goal", team="away", number=3, clock=60))
    assert not result.accepted and result.error.code == "player_unavailable"
    assert day.post(day.second, ev("goal", team="away", number=4, clock=61)).accepted


def test_a_voided_knock_out_frees_him(day):
    state = day.knock_out()
    whistle = day.first.events.get(type="whistle")
    log(day.first, ev("void", target=whistle.client_id, reason="he was only winded"), clock=day.clock)
    assert day.post(day.second, ev("play")).accepted
    assert state["unavailable_players"]  # the engine had him out, until the void


def test_he_may_play_the_next_day(day):
    day.knock_out()
    assert day.post(day.second, ev("play"), now=day.clock.t + DAY).accepted


def test_the_roster_form_refuses_him_for_a_team_that_plays_today(day):
    day.knock_out()
    tournament = day.first.tournament
    gold = day.second.home
    line = gold.roster.get(number=4)
    page = day.cast.client().post(
        reverse("committee:roster_line", args=[line.pk]), {"number": 4, "player": day.pablo.pk, "handicap": 1}
    )
    assert page.status_code == 200
    assert (
        page.context["form"]
        .non_field_errors()[0]
        .startswith(f"Rule 21.d: {day.pablo.name} was rendered unconscious today")
    )
    # a team that does not play today may take him
    idle = Entry.objects.create(tournament=tournament, team=Team.objects.create(name="Idle"))
    response = day.cast.client().post(reverse("committee:entry", args=[idle.pk]), {"number": 1, "player": day.pablo.pk})
    assert response.status_code == 302 and RosterLine.objects.filter(entry=idle, player=day.pablo).exists()


def test_the_committee_sees_who_is_unavailable_and_why(day):
    day.knock_out()
    page = day.cast.client().get(reverse("committee:availability"))
    html = page.content.decode()
    assert f'<tr data-player="{day.pablo.name}">' in html
    assert f"playing #2 for {day.first.home.team.name}" in html
    assert reverse("committee:match", args=[day.second.pk]) in html  # his later match today, where he is #3
    row = page.context["rows"][0]
    assert [(m, team, number) for m, team, number in row.affected] == [(day.second, "away", 3)]
    home = day.cast.client().get(reverse("committee:home")).content.decode()
    assert "1 player may not play again today (Rule 21.d)." in home
    match_page = day.cast.client().get(reverse("committee:match", args=[day.second.pk])).content.decode()
    assert f"Rule 21.d: {day.pablo.name} (#3) was rendered unconscious today" in match_page
