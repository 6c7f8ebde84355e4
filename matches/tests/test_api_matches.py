"""GET /api/matches?date= and GET /api/tournaments/{id}/matches?date=: the matches of a day."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from .live_helpers import ev, log
from .personas import make_match

pytestmark = pytest.mark.django_db


def test_it_lists_todays_matches_with_their_state(cast):
    log(cast.match_a, ev("play"))
    log(cast.match_a, ev("goal", team="away", number=3))
    body = Client().get("/api/matches").json()
    assert body["date"] == timezone.localdate().isoformat()
    by_id = {m["id"]: m for m in body["matches"]}
    assert set(by_id) == {cast.match_a.pk, cast.match_b.pk}
    a = by_id[cast.match_a.pk]
    assert a["last_seq"] == 2
    assert set(a["state"]) == set("status score period clock restart interval shootout winner result".split())
    assert a["state"]["score"]["away"] == 1 and a["state"]["status"] == "stopped"
    # The restart a card words (kind, team, rule: static/js/phase.js restartText): after a goal, a
    # throw-in at the centre, ends changed (Rule 22.e(1)).
    restart = a["state"]["restart"]
    assert restart["kind"] == "throw_in" and restart["team"] is None and restart["rule"].startswith("22.e")
    assert {"spot", "penalty", "clause"} <= set(restart)
    assert a["home"]["name"] == cast.match_a.home.team.name
    assert by_id[cast.match_b.pk]["state"]["status"] == "scheduled" and by_id[cast.match_b.pk]["last_seq"] == 0


def test_it_lists_another_day(cast):
    tomorrow = timezone.localtime() + timedelta(days=1)
    later = make_match(tournament=cast.match_a.tournament, starts_at=tomorrow)
    body = Client().get(f"/api/matches?date={tomorrow.date().isoformat()}").json()
    assert [m["id"] for m in body["matches"]] == [later.pk]


def test_a_tournament_lists_only_its_own_matches(cast):
    other = make_match()  # another tournament, same day
    body = Client().get(f"/api/tournaments/{cast.match_a.tournament_id}/matches").json()
    assert {m["id"] for m in body["matches"]} == {cast.match_a.pk, cast.match_b.pk}
    assert other.pk in {m["id"] for m in Client().get("/api/matches").json()["matches"]}


def test_it_rejects_a_date_that_is_not_a_day(cast):
    response = Client().get("/api/matches?date=29/11/2026")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_date"
    assert Client().get(f"/api/tournaments/{cast.match_a.tournament_id}/matches?date=tomorrow").status_code == 400


def test_an_unknown_tournament_is_not_found(cast):
    assert Client().get("/api/tournaments/987654/matches").status_code == 404


def test_a_match_says_its_stage(cast):
    type(cast.match_a).objects.filter(pk=cast.match_a.pk).update(stage="final")
    by_id = {m["id"]: m for m in Client().get("/api/matches").json()["matches"]}
    assert by_id[cast.match_a.pk]["stage"] == "final"
    assert by_id[cast.match_b.pk]["stage"] is None
