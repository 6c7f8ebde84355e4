"""Who may log what, per match (matches/permissions.py)."""

import pytest
from django.contrib.auth.models import AnonymousUser

from matches.permissions import can_log_event, match_role

pytestmark = pytest.mark.django_db

GAME_EVENTS = ["play", "goal", "foul", "ball_out", "whistle", "horn", "clock_set", "card", "mount", "void"]


@pytest.mark.parametrize("event_type", GAME_EVENTS)
def test_the_scorer_logs_game_events_on_their_own_match(cast, event_type):
    assert can_log_event(cast.scorer_a, cast.match_a, event_type)


@pytest.mark.parametrize("event_type", [*GAME_EVENTS, "suspend"])
def test_the_scorer_of_match_a_cannot_log_on_match_b(cast, event_type):
    assert not can_log_event(cast.scorer_a, cast.match_b, event_type)
    assert not can_log_event(cast.umpire_a, cast.match_b, event_type)
    assert not can_log_event(cast.referee_a, cast.match_b, event_type)


@pytest.mark.parametrize("event_type", [*GAME_EVENTS, "suspend", "overtime", "forfeit"])
def test_the_public_never_writes(cast, event_type):
    assert not can_log_event(AnonymousUser(), cast.match_a, event_type)
    assert match_role(AnonymousUser(), cast.match_a) is None


def test_umpires_and_the_referee_may_suspend_but_the_scorer_may_not(cast):
    assert can_log_event(cast.umpire_a, cast.match_a, "suspend")
    assert can_log_event(cast.referee_a, cast.match_a, "resume")
    assert not can_log_event(cast.scorer_a, cast.match_a, "suspend")


@pytest.mark.parametrize("event_type", ["overtime", "shootout_start", "forfeit"])
def test_only_the_committee_decides_overtime_shootouts_and_forfeits(cast, event_type):
    assert can_log_event(cast.committee, cast.match_a, event_type)
    assert can_log_event(cast.committee, cast.match_b, event_type)
    assert not can_log_event(cast.scorer_a, cast.match_a, event_type)
    assert not can_log_event(cast.umpire_a, cast.match_a, event_type)


@pytest.mark.parametrize("event_type", ["goal", "ball_out", "play"])
def test_the_committee_does_not_score_a_match_it_is_not_officiating(cast, event_type):
    assert not can_log_event(cast.committee, cast.match_a, event_type)


def test_an_inactive_official_loses_the_role(cast):
    cast.scorer_a.is_active = False
    cast.scorer_a.save()
    assert match_role(cast.scorer_a, cast.match_a) is None
