"""Setting a tournament up: tournament, field, entries, rosters within the handicap limits,
matches scheduled by day and field, officials and handicap goals — each change audited."""

from __future__ import annotations

from datetime import datetime, time as dtime, timedelta
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone

from matches.committee.models import AuditEntry
from matches.models import Entry, Field, Match, Player, RosterLine, Team, Tournament

from .committee_helpers import Committee, ev, log
from .personas import make_entry

pytestmark = pytest.mark.django_db


CAST = Committee  # the cast fixture (conftest.py) makes one per test


def at(day, hour: int, minute: int = 0) -> datetime:
    return timezone.make_aware(datetime.combine(day, dtime(hour, minute)))


def local(dt: datetime) -> str:
    return timezone.localtime(dt).strftime("%Y-%m-%dT%H:%M")


def test_it_creates_a_tournament_and_records_who(cast):
    today = timezone.localdate()
    response = cast.client().post(
        reverse("committee:tournament_new"),
        {
            "name": "Spring Cup",
            "club": "Palermo",
            "starts_on": today,
            "ends_on": today + timedelta(days=2),
            "lower_handicap_limit": 0,
            "upper_handicap_limit": 6,
        },
    )
    tournament = Tournament.objects.get(name="Spring Cup")
    assert response.status_code == 302 and response["Location"] == reverse("committee:tournament", args=[tournament.pk])
    entry = AuditEntry.objects.get(action="tournament_create")
    assert entry.user == cast.member and entry.tournament == tournament


def test_it_refuses_limits_that_would_put_an_entered_team_outside(cast):
    tournament = cast.match.tournament  # teams of 6 goals entered
    response = cast.client().post(
        reverse("committee:tournament_edit", args=[tournament.pk]),
        {
            "name": tournament.name,
            "club": tournament.club,
            "starts_on": tournament.starts_on,
            "ends_on": tournament.ends_on,
            "lower_handicap_limit": 0,
            "upper_handicap_limit": 4,
        },
    )
    assert response.status_code == 200
    assert "outside the new limits" in response.content.decode()
    tournament.refresh_from_db()
    assert tournament.upper_handicap_limit == 8


def test_it_adds_a_field(cast):
    cast.client().post(
        reverse("committee:field_new"), {"name": "Field 9", "club": "Palermo", "length": 280, "width": 150}
    )
    assert Field.objects.filter(name="Field 9", length=280).exists()
    assert AuditEntry.objects.filter(action="field_create", user=cast.member).exists()


def test_it_enters_a_new_team_and_builds_its_roster(cast):
    tournament = cast.match.tournament
    client = cast.client()
    response = client.post(
        reverse("committee:entry_new", args=[tournament.pk]), {"new_name": "Tigers", "new_color": "#ff8800"}
    )
    entry = Entry.objects.get(tournament=tournament, team__name="Tigers")
    assert response["Location"] == reverse("committee:entry", args=[entry.pk])
    assert entry.team.color == "#ff8800"
    known = Player.objects.create(name="Known Player", handicap=3)
    client.post(reverse("committee:entry", args=[entry.pk]), {"number": 1, "player": known.pk})
    client.post(reverse("committee:entry", args=[entry.pk]), {"number": 2, "new_player": "New Player", "handicap": 2})
    lines = {line.number: (line.player.name, line.handicap) for line in entry.roster.all()}
    assert lines == {1: ("Known Player", 3), 2: ("New Player", 2)}
    assert AuditEntry.objects.filter(action="roster_create").count() == 2


def test_it_refuses_a_roster_above_the_upper_limit(cast):
    tournament = cast.match.tournament  # upper limit 8
    entry = Entry.objects.create(tournament=tournament, team=Team.objects.create(name="Heavy"))
    client = cast.client()
    for number, handicap in ((1, 4), (2, 3)):
        client.post(
            reverse("committee:entry", args=[entry.pk]),
            {"number": number, "new_player": f"H{number}", "handicap": handicap},
        )
    response = client.post(
        reverse("committee:entry", args=[entry.pk]), {"number": 3, "new_player": "H3", "handicap": 2}
    )
    assert response.status_code == 200
    assert response.context["form"].non_field_errors() == [
        "The team's handicap would be 9, above the tournament's upper limit of 8."
    ]
    assert entry.roster.count() == 2


def test_it_refuses_a_number_worn_twice_and_a_fifth_player(cast):
    entry = cast.match.home  # four players
    response = cast.client().post(
        reverse("committee:entry", args=[entry.pk]), {"number": 1, "new_player": "Fifth", "handicap": 0}
    )
    assert "A roster has four players." in response.content.decode()
    line = entry.roster.get(number=2)
    response = cast.client().post(
        reverse("committee:roster_line", args=[line.pk]), {"number": 1, "player": line.player_id, "handicap": 2}
    )
    assert "Another player wears this number." in response.content.decode()


def test_the_tournament_page_checks_each_team_against_the_limits(cast):
    tournament = cast.match.tournament
    tournament.lower_handicap_limit = 7
    tournament.save()
    page = cast.client().get(reverse("committee:tournament", args=[tournament.pk])).content.decode()
    assert "handicap (6) is outside the limits 7–8" in page


def test_it_schedules_a_match_on_a_field_and_suggests_handicap_goals(cast):
    tournament, field = cast.match.tournament, cast.match.field
    strong = make_entry(tournament, "Strong", handicaps=(2, 2, 2, 2))
    weak = make_entry(tournament, "Weak", handicaps=(1, 1, 1, 1))
    starts = at(tournament.starts_on + timedelta(days=1), 10)
    response = cast.client().post(
        reverse("committee:match_new", args=[tournament.pk]),
        {
            "home": strong.pk,
            "away": weak.pk,
            "field": field.pk,
            "starts_at": local(starts),
            "periods": 6,
            "home_defends": "north",
        },
    )
    match = Match.objects.get(home=strong, away=weak)
    assert response["Location"] == reverse("committee:match", args=[match.pk])
    assert match.starts_at == starts
    # 8 − 4 = 4 goals of handicap over six chukkers: the weaker team starts with 4.
    assert (match.home_handicap_goals, match.away_handicap_goals) == (Decimal(0), Decimal(4))
    assert AuditEntry.objects.filter(action="match_create", match=match).exists()


def test_it_refuses_a_team_without_four_players_and_a_busy_field(cast):
    tournament, field = cast.match.tournament, cast.match.field
    short = make_entry(tournament, "Short", handicaps=(1, 1, 1))
    full = make_entry(tournament, "Full", handicaps=(1, 1, 1, 1))
    response = cast.client().post(
        reverse("committee:match_new", args=[tournament.pk]),
        {
            "home": short.pk,
            "away": full.pk,
            "field": field.pk,
            "starts_at": local(cast.match.starts_at + timedelta(minutes=30)),
            "periods": 6,
            "home_defends": "north",
        },
    )
    page = response.content.decode()
    assert "Short has 3 players on its roster, not four." in page
    assert "Field A is taken by" in page
    assert not Match.objects.filter(home=short).exists()


def test_the_day_view_shows_fields_across_and_times_down(cast):
    tournament = cast.match.tournament
    other_field = Field.objects.create(name="Field B")
    day = timezone.localdate(cast.match.starts_at)
    late = Match.objects.create(
        tournament=tournament, field=other_field, starts_at=at(day, 23, 30), home=cast.match.home, away=cast.match.away
    )
    response = cast.client().get(reverse("committee:day"), {"date": day.isoformat()})
    page = response.content.decode()
    grid = response.context["grid"]
    fields = [f.name for f in response.context["fields"]]
    assert fields == ["Field A", "Field B"]
    late_row = next(row for row in grid if row["time"] == "23:30")
    assert [matches for _, matches in late_row["cells"]] == [[], [late]]
    assert reverse("committee:match", args=[late.pk]) in page
    # the empty slot offers to schedule a match there
    field_a = Field.objects.get(name="Field A")
    new_match = reverse("committee:match_new", args=[tournament.pk])
    slot = f"{new_match}?field={field_a.pk}&amp;starts_at={day.isoformat()}T23:30"
    assert slot in page
    form = cast.client().get(slot.replace("&amp;", "&")).context["form"]
    assert str(form["field"].value()) == str(field_a.pk) and form["starts_at"].value().strftime("%H:%M") == "23:30"


def test_it_assigns_the_officials(cast):
    m = cast.match
    response = cast.client().post(
        reverse("committee:match_officials", args=[m.pk]),
        {"umpires": [cast.other_umpire.pk, cast.umpire.pk], "referee": cast.referee.pk, "scorer": cast.scorer.pk},
    )
    assert response.status_code == 302
    assert set(m.umpires.all()) == {cast.other_umpire, cast.umpire}
    entry = AuditEntry.objects.get(action="officials", match=m)
    assert set(entry.details["umpires"]) == {"uma", "ulises"} and entry.user == cast.member


def test_it_refuses_one_person_in_two_roles(cast):
    m = cast.match
    response = cast.client().post(
        reverse("committee:match_officials", args=[m.pk]),
        {"umpires": [cast.umpire.pk], "referee": cast.umpire.pk},
        follow=True,
    )
    assert "The referee cannot also be an umpire of the match." in response.content.decode()
    m.refresh_from_db()
    assert m.referee == cast.referee


def test_it_overrides_the_suggested_handicap_goals_until_the_match_starts(cast):
    m = cast.match
    client = cast.client()
    client.post(reverse("committee:match_handicap", args=[m.pk]), {"home": "1.5", "away": "0"})
    m.refresh_from_db()
    assert m.home_handicap_goals == Decimal("1.5")
    entry = AuditEntry.objects.get(action="handicap_goals")
    assert entry.details["suggested"] == ["0", "0"] and entry.details["home"] == "1.5"
    log(m, ev("play"))
    response = client.post(reverse("committee:match_handicap", args=[m.pk]), {"home": "3", "away": "0"}, follow=True)
    assert "The match has started" in response.content.decode()
    m.refresh_from_db()
    assert m.home_handicap_goals == Decimal("1.5")


def test_the_match_page_shows_the_audit_trail(cast):
    m = cast.match
    client = cast.client()
    client.post(reverse("committee:match_handicap", args=[m.pk]), {"home": "0.5", "away": "0"})
    page = client.get(reverse("committee:match", args=[m.pk])).content.decode()
    assert '<tr data-action="handicap_goals">' in page and "<td>carmen</td>" in page


def test_an_entry_without_matches_can_be_withdrawn_and_one_with_matches_cannot(cast):
    tournament = cast.match.tournament
    spare = make_entry(tournament, "Spare")
    client = cast.client()
    client.post(reverse("committee:entry_withdraw", args=[spare.pk]))
    assert not Entry.objects.filter(pk=spare.pk).exists() and not RosterLine.objects.filter(entry_id=spare.pk).exists()
    assert AuditEntry.objects.get(action="entry_delete").details["name"] == f"Spare — {tournament.name}"
    page = client.post(reverse("committee:entry_withdraw", args=[cast.match.home_id]), follow=True)
    assert "This team has matches scheduled" in page.content.decode()
    assert Entry.objects.filter(pk=cast.match.home_id).exists()


def test_the_audit_trail_reads_in_the_members_language(cast):
    """Details are stored as keys and codes and put in words when read: team codes become names,
    the lot a sentence, changed fields their labels — in Spanish for a Spanish reader."""
    from matches.committee.services import shootout_lot_draw

    m = cast.match
    client = cast.client()
    client.post(reverse("committee:match_handicap", args=[m.pk]), {"home": "0.5", "away": "0"})
    shootout_lot_draw(match=m, user=cast.member, caller="home", call="heads", result="tails")
    AuditEntry.objects.create(
        user=cast.member,
        action="match_edit",
        match=m,
        tournament=m.tournament,
        details={"id": m.pk, "name": str(m), "changed": ["starts_at", "field"]},
    )
    page = client.get(reverse("committee:match", args=[m.pk]), HTTP_ACCEPT_LANGUAGE="es").content.decode()

    def row(action: str) -> str:
        start = page.index(f'<tr data-action="{action}">')
        return page[start : page.index("</tr>", start)]

    home, away = m.home.team.name, m.away.team.name
    goals = row("handicap_goals")
    assert f"<b>{home}</b> 0.5" in goals and f"<b>{away}</b> 0" in goals and "<b>sugerido</b>" in goals
    lot = row("shootout_lot")
    assert f"Sorteo: {home} eligió Cara, la moneda salió Ceca — {away} golpea primero." in lot, lot
    assert "<b>cambios</b> inicio, cancha" in row("match_edit")
    for raw in ("<b>caller</b>", "<b>suggested</b>", "<b>changed</b>", "<b>id</b>", "starts_at"):
        assert raw not in page


# --- The match's length (issue 38): the rules' chukkers, or a practice match's of any length -----------


def _schedule(cast, **fields):
    tournament, field = cast.match.tournament, cast.match.field
    home = make_entry(tournament, "Practice Red", handicaps=(1, 1, 1, 1))
    away = make_entry(tournament, "Practice Blue", handicaps=(1, 1, 1, 1))
    data = {
        "home": home.pk,
        "away": away.pk,
        "field": field.pk,
        "starts_at": local(at(tournament.starts_on + timedelta(days=1), 15)),
        "periods": 4,
        "home_defends": "north",
        **fields,
    }
    response = cast.client().post(reverse("committee:match_new", args=[tournament.pk]), data)
    return response, Match.objects.filter(home=home).first()


def test_the_committee_chooses_a_match_length_the_rules_allow(cast):
    form = cast.client().get(reverse("committee:match_new", args=[cast.match.tournament.pk])).context["form"]
    choices = [(value, str(label)) for value, label in form.fields["periods"].choices]
    assert choices[0] == (1, "1 × 7:00 (7 minutes of play)") and choices[-1] == (8, "8 × 7:00 (56 minutes of play)")
    response, match = _schedule(cast, periods=4)
    assert response.status_code == 302
    assert (match.periods, match.period_seconds, match.practice) == (4, 420, False)


def test_a_practice_match_may_have_chukkers_of_any_length(cast):
    response, match = _schedule(cast, practice="on", chukker_length="1:30")
    assert response.status_code == 302
    assert (match.period_seconds, match.practice, match.chukker_length) == (90, True, "1:30")
    page = cast.client().get(reverse("committee:match", args=[match.pk])).content.decode()
    assert "4 chukkers of 1:30" in page and "Practice match (not under the rules)" in page


@pytest.mark.parametrize(
    ("length", "error"),
    [
        ("", "A practice match needs its chukker length."),
        ("1:5", "Write the length as minutes and seconds, e.g. 1:30."),
        ("0:05", "A practice chukker lasts from 0:10 to 60:00."),
        ("61:00", "A practice chukker lasts from 0:10 to 60:00."),
    ],
)
def test_it_refuses_a_practice_match_without_a_length_it_can_run_and_schedules_nothing(cast, length, error):
    response, match = _schedule(cast, practice="on", chukker_length=length)
    assert response.status_code == 200 and error in response.content.decode()
    assert match is None


def test_a_length_without_the_practice_box_is_the_rules_seven_minutes(cast):
    response, match = _schedule(cast, chukker_length="2:00")
    assert response.status_code == 302 and match.period_seconds == 420


def test_the_match_length_is_locked_once_play_has_started(cast):
    m = cast.match
    m.period_seconds = 90
    m.save()
    log(m, ev("play"))
    edit = reverse("committee:match_edit", args=[m.pk])
    form = cast.client().get(edit).context["form"]
    assert all(form.fields[name].disabled for name in ("periods", "practice", "chukker_length"))
    assert form["practice"].value() is True and form["chukker_length"].value() == "1:30"
    cast.client().post(
        edit, {"field": m.field.pk, "starts_at": local(m.starts_at), "periods": 2, "chukker_length": "5:00"}
    )
    m.refresh_from_db()
    assert (m.periods, m.period_seconds) == (6, 90)
