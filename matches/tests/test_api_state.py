"""GET /api/matches/{id}/state: what every screen starts from (public)."""

from __future__ import annotations

import time

import pytest
from django.test import Client

from matches.models import MatchEvent
from officiating.schemas import validate_state

from .live_helpers import ev, log, started_clock_ago

pytestmark = pytest.mark.django_db


def test_it_works_for_anyone(cast):
    log(cast.match_a, ev("play"))
    before = time.time()
    response = Client().get(f"/api/matches/{cast.match_a.pk}/state")
    assert response.status_code == 200
    body = response.json()
    assert body["last_seq"] == 1 and body["state"]["last_seq"] == 1
    assert before <= body["server_time"] <= time.time()
    validate_state(body["state"])
    meta = body["match"]
    assert meta["id"] == cast.match_a.pk
    assert meta["home"]["name"] == cast.match_a.home.team.name and meta["home"]["color"] == cast.match_a.home.team.color
    assert meta["field"]["length"] == cast.match_a.field.length
    assert meta["tournament"]["name"] == cast.match_a.tournament.name
    assert len(meta["away"]["players"]) == 4
    assert response["Cache-Control"] == "public, max-age=1, stale-while-revalidate=10" and response["ETag"]


def test_the_running_clock_carries_its_anchor(cast):
    started_clock_ago(cast.match_a, 60)
    body = Client().get(f"/api/matches/{cast.match_a.pk}/state").json()
    clock = body["state"]["clock"]
    assert clock["running"] is True
    # A screen computes elapsed + (server_now - anchor): about a minute of play.
    assert 59 <= clock["elapsed"] + (body["server_time"] - clock["anchor"]) <= 61 + (time.time() - body["server_time"])


def test_a_read_at_seven_thirty_one_shows_the_period_over_with_nobody_connected(cast):
    started_clock_ago(cast.match_a, 451)  # thrown in 7:31 ago, nobody has posted since
    body = Client().get(f"/api/matches/{cast.match_a.pk}/state").json()
    assert body["state"]["status"] == "interval"
    assert body["state"]["clock"]["running"] is False
    horns = list(MatchEvent.objects.filter(match=cast.match_a, type="horn").values_list("payload__kind", flat=True))
    assert horns == ["seven", "final"]
    assert body["last_seq"] == 3
    # Read again: the horns are not appended twice.
    assert Client().get(f"/api/matches/{cast.match_a.pk}/state").json()["last_seq"] == 3


def test_an_unknown_match_is_not_found(cast):
    response = Client().get("/api/matches/987654/state")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


def test_it_is_read_only(cast):
    response = Client().delete(f"/api/matches/{cast.match_a.pk}/state")
    assert response.status_code == 405
