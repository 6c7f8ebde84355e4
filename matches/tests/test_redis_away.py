"""Redis away (restarting, unreachable): what uses the cache still answers. The cache only saves
work, so the public's last goals are folded from the log, and officials can still log in at the
field (the login throttle counts in the database, not the cache: it holds too, see
test_login_throttle.py::test_redis_away_still_throttles)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from matches.demo import load_demo

pytestmark = pytest.mark.django_db


def test_the_last_goals_are_folded_from_the_log_when_the_cache_is_away(redis_away):
    _, live = load_demo()
    response = Client().get(reverse("api-match-goals", args=[live.pk]))
    assert response.status_code == 200
    goals = response.json()["goals"]
    assert [(g["period"], g["team"], g["number"]) for g in goals] == [
        (3, "home", 2),
        (2, "home", 3),
        (2, "away", 1),
        (1, "away", 3),
        (1, "home", 1),
    ]


def test_officials_still_log_in_when_the_cache_is_away(redis_away):
    load_demo()
    client = Client()
    wrong = client.post(reverse("login"), {"username": "scorer", "password": "not-it"})
    assert wrong.status_code == 200 and b"errorlist" in wrong.content
    right = client.post(reverse("login"), {"username": "scorer", "password": "polo-demo"})
    assert right.status_code == 302
    assert client.session.get("_auth_user_id")
