"""GET /api/matches/{id}/events?since=n: the log after n, for catching up (public; private notes
only for the match's officials)."""

from __future__ import annotations

import pytest
from django.test import Client

from .live_helpers import client_for, ev, log

pytestmark = pytest.mark.django_db


@pytest.fixture
def logged(cast):
    log(cast.match_a, ev("play"))
    log(
        cast.match_a,
        ev(
            "whistle",
            reason="lost_helmet",
            ball={"x": 100, "y": 50},
            team="home",
            number=2,
            note="helmet strap broken; check before the next chukker",
            private_note="No. 2 argued",
        ),
    )
    log(cast.match_a, ev("play"))
    return cast


def test_it_works(logged):
    body = Client().get(f"/api/matches/{logged.match_a.pk}/events?since=1").json()
    assert body["last_seq"] == 3
    assert [e["seq"] for e in body["events"]] == [2, 3]
    assert [e["type"] for e in body["events"]] == ["whistle", "play"]
    first = body["events"][0]
    assert set(first) == {"seq", "id", "type", "event", "received_at"}
    assert first["event"]["id"] == first["id"] and first["event"]["reason"] == "lost_helmet"


def test_since_defaults_to_the_whole_log(logged):
    assert [e["seq"] for e in Client().get(f"/api/matches/{logged.match_a.pk}/events").json()["events"]] == [1, 2, 3]
    assert Client().get(f"/api/matches/{logged.match_a.pk}/events?since=3").json() == {"events": [], "last_seq": 3}


def test_it_hides_private_notes_from_the_public(logged):
    for viewer in (Client(), client_for(logged.scorer_b)):
        whistle = viewer.get(f"/api/matches/{logged.match_a.pk}/events?since=1").json()["events"][0]["event"]
        assert "note" not in whistle and "private_note" not in whistle
        assert whistle["reason"] == "lost_helmet"


def test_it_shows_private_notes_to_the_matchs_officials(logged):
    for official in (logged.scorer_a, logged.umpire_a, logged.committee):
        whistle = client_for(official).get(f"/api/matches/{logged.match_a.pk}/events?since=1").json()["events"][0]
        assert whistle["event"]["private_note"] == "No. 2 argued"


def test_it_rejects_a_since_that_is_not_a_number(logged):
    response = Client().get(f"/api/matches/{logged.match_a.pk}/events?since=-1")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_since"


def test_an_unknown_match_is_not_found(logged):
    assert Client().get("/api/matches/987654/events").status_code == 404
