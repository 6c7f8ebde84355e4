"""Issue 11: the committee's forms refuse a config the rules engine would refuse, so that no match
is scheduled with a tournament, a field or handicap goals its fold cannot take (the bounds are the
engine's: ``officiating/engine/config.py``), nor with a tack allowance Rule 21.g does not give."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from matches.committee.forms import FieldForm, HandicapGoalsForm, TournamentForm
from matches.games import match_config
from matches.models import Tournament
from officiating.engine import MatchConfig
from officiating.engine.config import ConfigError

from .committee_helpers import Committee

pytestmark = pytest.mark.django_db


def tournament_data(**changes) -> dict:
    today = timezone.localdate()
    return {
        "name": "Spring Cup",
        "club": "Palermo",
        "starts_on": today,
        "ends_on": today + timedelta(days=2),
        "lower_handicap_limit": 0,
        "upper_handicap_limit": 6,
        **changes,
    }


def test_the_tournament_form_refuses_the_tack_allowance_above_six_goals_rule_21g():
    form = TournamentForm(tournament_data(upper_handicap_limit=8, tack_allowance=True))
    assert not form.is_valid()
    assert "Rule 21.g" in str(form.errors["tack_allowance"])
    assert TournamentForm(tournament_data(upper_handicap_limit=6, tack_allowance=True)).is_valid()


def test_raising_the_limit_of_a_tournament_with_the_tack_allowance_is_refused():
    tournament = Tournament.objects.create(**tournament_data(tack_allowance=True))
    form = TournamentForm(tournament_data(upper_handicap_limit=7, tack_allowance=True), instance=tournament)
    assert not form.is_valid() and "tack_allowance" in form.errors


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("upper_handicap_limit", 41),
        ("upper_handicap_limit", -1),
        ("upper_handicap_limit", 30000),
        ("lower_handicap_limit", -9),
        ("lower_handicap_limit", -30000),
        ("upper_handicap_limit", 10**30),
    ],
)
def test_the_tournament_form_refuses_absurd_handicap_limits(field, value):
    form = TournamentForm(tournament_data(**{field: value}))
    assert not form.is_valid()
    assert field in form.errors


def test_the_tournament_form_takes_the_widest_sane_limits():
    assert TournamentForm(tournament_data(lower_handicap_limit=-8, upper_handicap_limit=40)).is_valid()


@pytest.mark.parametrize(
    ("length", "width", "wrong"),
    [(120, 150, "length"), (401, 150, "length"), (300, 301, "width"), (30000, 150, "length"), (10**30, 150, "length")],
)
def test_the_field_form_refuses_a_field_the_engine_cannot_lay_out(length, width, wrong):
    form = FieldForm({"name": "Field 9", "club": "Palermo", "length": length, "width": width})
    assert not form.is_valid()
    assert wrong in form.errors


def test_every_field_the_form_takes_is_one_the_engine_takes():
    for length, width in [(121, 50), (400, 300), (300, 160)]:
        form = FieldForm({"name": "Field 9", "club": "Palermo", "length": length, "width": width})
        assert form.is_valid(), form.errors
        MatchConfig.from_dict({"field": {"length": length, "width": width}, "home": {}, "away": {}})


@pytest.mark.parametrize("goals", ["20.5", "-0.5", "0.25", "1e308", "NaN", "Infinity"])
def test_the_handicap_goals_form_refuses_absurd_goals(goals):
    assert not HandicapGoalsForm({"home": goals, "away": "0"}).is_valid()


def test_a_tournament_the_form_saved_gives_a_config_the_engine_takes():
    cast = Committee()
    tournament = cast.match.tournament
    data = {
        "name": tournament.name,
        "club": tournament.club,
        "starts_on": tournament.starts_on,
        "ends_on": tournament.ends_on,
        "lower_handicap_limit": 0,
        "upper_handicap_limit": 8,
        "tack_allowance": "on",
    }
    response = cast.client().post(reverse("committee:tournament_edit", args=[tournament.pk]), data)
    assert response.status_code == 200 and "Rule 21.g" in response.content.decode()
    tournament.refresh_from_db()
    assert tournament.tack_allowance is False
    MatchConfig.from_dict(match_config(cast.match))  # (the match still folds)
    tournament.tack_allowance = True  # what the form refuses, the engine refuses too
    with pytest.raises(ConfigError, match="Rule 21"):
        MatchConfig.from_dict(match_config(cast.match))
