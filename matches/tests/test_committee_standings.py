"""Standings (wins, losses, forfeits, goals for and against, net) and the bracket of a
tournament, from the matches' results."""

from __future__ import annotations

import time
from datetime import timedelta
from functools import partial

import pytest
from django.urls import reverse
from django.utils import timezone

from matches.committee.services import committee_event_send
from matches.committee.standings import tournament_bracket, tournament_standings

from .committee_helpers import HOUR, Clock, Committee, ev, log, win_one_chukker
from .personas import make_entry, make_match

pytestmark = pytest.mark.django_db


CAST = partial(Committee, periods=1)  # the cast fixture (conftest.py) makes one per test


def test_standings_count_wins_goals_and_forfeits(cast):
    m1 = cast.match
    t = m1.tournament
    third = make_entry(t, "Green")
    m2 = make_match(
        tournament=t, field=m1.field, home=m1.away, away=third, periods=1, starts_at=m1.starts_at + timedelta(days=1)
    )
    m3 = make_match(
        tournament=t, field=m1.field, home=third, away=m1.home, periods=1, starts_at=m1.starts_at + timedelta(days=2)
    )
    m4 = make_match(
        tournament=t,
        field=m1.field,
        home=m1.home,
        away=m1.away,
        periods=1,
        starts_at=m1.starts_at + timedelta(days=2, hours=2),
    )
    clock = Clock(time.time() - 3 * HOUR)
    # m1: home 2–1 away
    log(
        m1,
        ev("play"),
        ev("goal", team="home", number=1, clock=10),
        ev("play"),
        ev("goal", team="away", number=1, clock=20),
        ev("play"),
        ev("goal", team="home", number=2, clock=30),
        ev("play"),
        ev("horn", kind="final", clock=450, ball={"x": 150, "y": 80}),
        clock=clock,
    )
    win_one_chukker(m2, clock, winner="home")  # away-of-m1 beats Green 1–0
    win_one_chukker(m3, clock, winner="home")  # Green beats home-of-m1 1–0 ...
    m3.refresh_from_db()
    assert committee_event_send(
        match=m3, event={"type": "forfeit", "team": "home", "reason": "other"}, user=cast.member, now=clock()
    ).accepted  # ... then forfeits it
    log(m4, ev("play"), clock=clock)  # in progress: not counted
    rows = {r.entry.team.name: r for r in tournament_standings(t)}
    home, away, green = rows[m1.home.team.name], rows[m1.away.team.name], rows["Green"]
    # The forfeit gives the win; the goals count as played (0–1 in m3).
    assert (home.played, home.wins, home.losses, home.forfeits, home.goals_for, home.goals_against, home.net) == (
        2,
        2,
        0,
        0,
        2,
        2,
        0,
    )
    assert (away.played, away.wins, away.losses, away.goals_for, away.goals_against) == (2, 1, 1, 2, 2)
    assert (green.played, green.wins, green.losses, green.forfeits) == (2, 0, 2, 1)
    assert next(r.entry.team.name for r in tournament_standings(t)) == m1.home.team.name


def test_an_abandoned_match_counts_for_nobody(cast):
    m = cast.match
    clock = Clock(time.time() - HOUR)
    log(m, ev("play"), ev("goal", team="home", number=1, clock=10), clock=clock)
    for kind in ("suspend", "abandon"):
        assert committee_event_send(
            match=m, event={"type": kind, "reason": "darkness"}, user=cast.member, now=clock()
        ).accepted
    assert all(r.played == 0 for r in tournament_standings(m.tournament))


def test_the_pages_show_the_table_and_the_rounds(cast):
    m = cast.match
    win_one_chukker(m, Clock(time.time() - HOUR), winner="away")
    client = cast.client()
    standings = client.get(reverse("committee:standings", args=[m.tournament_id])).content.decode()
    assert (
        f'<tr data-team="{m.away.team.name}"><th scope="row">{m.away.team.name}</th>'
        '<td>1</td><td data-col="wins">1</td>' in standings
    )
    rounds = tournament_bracket(m.tournament)
    assert [r.matches for r in rounds] == [[m]]
    bracket = client.get(reverse("committee:bracket", args=[m.tournament_id])).content.decode()
    assert 'class="line winner"><span class="swatch" data-color="#dc2626"></span>' + m.away.team.name in bracket


def test_the_knockout_stages_make_the_bracket_and_stay_out_of_the_standings(cast):
    zone = cast.match
    t = zone.tournament
    third, fourth = make_entry(t, "Green"), make_entry(t, "Gold")
    day = zone.starts_at + timedelta(days=1)
    semi_1 = make_match(
        tournament=t, field=zone.field, home=zone.home, away=third, periods=1, starts_at=day, stage="semifinal"
    )
    semi_2 = make_match(
        tournament=t,
        field=zone.field,
        home=zone.away,
        away=fourth,
        periods=1,
        starts_at=day + timedelta(hours=2),
        stage="semifinal",
    )
    final = make_match(
        tournament=t,
        field=zone.field,
        home=zone.home,
        away=zone.away,
        periods=1,
        starts_at=day + timedelta(days=1),
        stage="final",
    )
    clock = Clock(time.time() - 3 * HOUR)
    for match in (zone, semi_1, semi_2, final):
        win_one_chukker(match, clock, winner="home")

    rounds = tournament_bracket(t)
    assert [(r.stage, r.matches) for r in rounds] == [("", [zone]), ("semifinal", [semi_1, semi_2]), ("final", [final])]
    assert [r.title for r in rounds[1:]] == ["Semifinal", "Final"]
    rows = {r.entry.team.name: r for r in tournament_standings(t)}
    assert (rows[zone.home.team.name].played, rows[zone.home.team.name].wins) == (1, 1)  # zone play only
    assert rows["Green"].played == 0

    page = cast.client().get(reverse("committee:bracket", args=[t.pk]), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert '<h2 data-stage="semifinal">Semifinal</h2>' in page and '<h2 data-stage="final">Final</h2>' in page
    assert page.index('data-stage="semifinal"') < page.index('data-stage="final"')


def test_the_committee_schedules_a_match_in_a_stage(cast):
    t, field = cast.match.tournament, cast.match.field
    starts = timezone.localtime(cast.match.starts_at + timedelta(days=1))
    response = cast.client().post(
        reverse("committee:match_new", args=[t.pk]),
        {
            "home": cast.match.home_id,
            "away": cast.match.away_id,
            "field": field.pk,
            "starts_at": starts.strftime("%Y-%m-%dT%H:%M"),
            "stage": "final",
            "periods": 1,
            "home_defends": "north",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    final = t.matches.get(stage="final")
    listed = cast.client().get(reverse("committee:tournament", args=[t.pk])).content.decode()
    assert f'{final.title}</a> <small class="stage">Final</small>' in listed
