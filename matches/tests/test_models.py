"""Tournaments, rosters and matches (matches/models.py)."""

from datetime import UTC, date
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from matches.models import Tournament, suggest_handicap_goals

from .personas import make_entry, make_match


@pytest.mark.parametrize(
    "home, away, periods, expected",
    [
        (20, 20, 6, (Decimal(0), Decimal(0))),
        (14, 18, 6, (Decimal(4), Decimal(0))),  # the lower-rated team receives the difference
        (18, 14, 6, (Decimal(0), Decimal(4))),
        (14, 18, 4, (Decimal("2.5"), Decimal(0))),  # 4 × 4 ÷ 6 = 2.67 → 2.5 (half goals)
        (10, 13, 4, (Decimal(2), Decimal(0))),  # 3 × 4 ÷ 6 = 2
        (10, 11, 4, (Decimal("0.5"), Decimal(0))),  # 0.67 → 0.5
    ],
)
def test_handicap_goals_are_suggested_as_the_difference_times_periods_over_six(home, away, periods, expected):
    assert suggest_handicap_goals(home, away, periods) == expected


@pytest.mark.django_db
def test_a_match_suggests_handicap_goals_from_its_rosters():
    match = make_match(periods=6)
    tournament = match.tournament
    weaker = make_entry(tournament, "Weak", handicaps=(1, 1, 0, 0))
    stronger = make_entry(tournament, "Strong", handicaps=(2, 2, 2, 1))
    match.home, match.away = weaker, stronger
    assert match.suggested_handicap_goals() == (Decimal(5), Decimal(0))


@pytest.mark.django_db
def test_a_team_cannot_play_itself_and_handicap_goals_go_in_half_goals():
    match = make_match()
    match.away = match.home
    with pytest.raises(ValidationError, match="cannot play itself"):
        match.clean()
    match = make_match(home_handicap_goals=Decimal("0.3"))
    with pytest.raises(ValidationError, match="half a goal"):
        match.clean()


def test_the_tack_allowance_is_only_for_low_handicap_tournaments():
    tournament = Tournament(
        name="x",
        club="y",
        starts_on=date(2026, 12, 1),
        ends_on=date(2026, 12, 2),
        upper_handicap_limit=8,
        tack_allowance=True,
    )
    with pytest.raises(ValidationError, match=r"21\.g"):
        tournament.clean()
    tournament.upper_handicap_limit = 6
    tournament.clean()


@pytest.mark.django_db
def test_a_match_is_named_with_its_local_start_time(settings):
    from datetime import datetime

    settings.TIME_ZONE = "America/New_York"
    match = make_match(starts_at=datetime(2026, 11, 30, 0, 30, tzinfo=UTC))
    assert str(match).endswith("2026-11-29 19:30")


@pytest.mark.django_db
def test_a_match_is_named_in_the_users_language():
    from django.utils import translation

    match = make_match()
    home, away = match.home.team.name, match.away.team.name
    with translation.override("en"):
        assert match.title == f"{home} v {away}"
    with translation.override("es"):
        assert match.title == f"{home} vs. {away}"
        assert str(match).startswith(f"{home} vs. {away}, ")


def test_every_model_and_field_has_a_translatable_name():
    """The admin and the committee's forms show these names: each must be marked for translation
    (a name Django makes up from the attribute is English only)."""
    from django.apps import apps
    from django.utils.functional import Promise

    bare = []
    for model in apps.get_app_config("matches").get_models():
        if not isinstance(model._meta.verbose_name, Promise):
            bare.append(model.__name__)
        bare += [
            f"{model.__name__}.{f.name}"
            for f in model._meta.get_fields()
            if f.concrete and not f.auto_created and not isinstance(f.verbose_name, Promise)
        ]
    assert not bare, bare
