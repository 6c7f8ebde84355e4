"""POST /api/matches/{id}/events — field-true recording (issue 9): who logged each event, who may
undo what, a stale entry told whether it still fits, and a device's clock stamp checked."""

from __future__ import annotations

import time

import pytest

from matches.models import MatchEvent

from .live_helpers import client_for, ev, log, post_event

pytestmark = pytest.mark.django_db

SIDE_OUT = {"line": "side", "at": {"x": 120, "y": 0}, "last_hit_by": "away", "deflected_off": "none"}


def test_it_stores_who_logged_each_event(cast):
    response = post_event(client_for(cast.umpire_a), cast.match_a, ev("play", by={"role": "committee", "name": "x"}))
    assert response.status_code == 201
    assert response.json()["event"]["by"] == {"role": "umpire", "name": "ulises"}  # the server's word, not the client's
    assert MatchEvent.objects.get(match=cast.match_a).payload["by"]["role"] == "umpire"


def test_the_scorer_cannot_void_the_committees_suspension(cast):
    log(cast.match_a, ev("play"))
    suspend = ev("suspend", reason="weather")
    log(cast.match_a, suspend, user=cast.committee)
    response = post_event(client_for(cast.scorer_a), cast.match_a, ev("void", target=suspend["id"], reason="oops"))
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "void_not_permitted"
    assert response.json()["state"]["status"] == "suspended"
    assert not MatchEvent.objects.filter(match=cast.match_a, type="void").exists()


def test_an_umpire_cannot_void_it_either_but_the_committee_can(cast):
    log(cast.match_a, ev("play"))
    suspend = ev("suspend", reason="weather")
    log(cast.match_a, suspend, user=cast.committee)
    refused = post_event(client_for(cast.umpire_a), cast.match_a, ev("void", target=suspend["id"], reason="no"))
    assert refused.json()["error"]["code"] == "void_not_permitted"
    accepted = post_event(client_for(cast.committee), cast.match_a, ev("void", target=suspend["id"], reason="error"))
    assert accepted.status_code == 201 and accepted.json()["state"]["status"] == "in_play"


def test_the_scorer_cannot_void_an_umpires_suspension_but_may_void_their_goal(cast):
    log(cast.match_a, ev("play"))
    suspend = ev("suspend", reason="lightning")
    log(cast.match_a, suspend, user=cast.umpire_a)
    refused = post_event(client_for(cast.scorer_a), cast.match_a, ev("void", target=suspend["id"], reason="no"))
    assert refused.json()["error"]["code"] == "void_not_permitted"
    log(cast.match_a, ev("resume", reason="clear"), user=cast.umpire_a)
    log(cast.match_a, ev("play"))
    goal = ev("goal", team="home", number=1)
    log(cast.match_a, goal, user=cast.umpire_a)
    assert (
        post_event(client_for(cast.scorer_a), cast.match_a, ev("void", target=goal["id"], reason="wide")).status_code
        == 201
    )


def test_the_refusal_to_void_is_translated(cast):
    log(cast.match_a, ev("play"))
    suspend = ev("suspend", reason="weather")
    log(cast.match_a, suspend, user=cast.committee)
    response = post_event(
        client_for(cast.scorer_a), cast.match_a, ev("void", target=suspend["id"]), HTTP_ACCEPT_LANGUAGE="es"
    )
    assert "comité" in response.json()["error"]["message"]


def test_a_stale_entry_is_told_it_no_longer_fits_and_why(cast):
    log(cast.match_a, ev("play"))
    seen = 1
    log(cast.match_a, ev("foul", against="away", number=2, penalty="3"), user=cast.umpire_a)  # meanwhile
    response = post_event(client_for(cast.scorer_a), cast.match_a, ev("ball_out", expected_seq=seen, **SIDE_OUT))
    assert response.status_code == 409
    body = response.json()
    assert body["error"]["code"] == "stale_sequence" and body["last_seq"] == 2
    assert body["valid_now"] is False
    assert body["would_be"]["code"] == "not_in_play"
    assert MatchEvent.objects.filter(match=cast.match_a).count() == 2


def test_a_stale_entry_that_still_fits_is_told_so(cast):
    log(cast.match_a, ev("play"))
    log(cast.match_a, ev("mount", team="home", number=1, horse="Pampa"), user=cast.umpire_a)  # meanwhile
    response = post_event(client_for(cast.scorer_a), cast.match_a, ev("ball_out", expected_seq=1, **SIDE_OUT))
    assert response.status_code == 409
    assert response.json()["valid_now"] is True and "would_be" not in response.json()


def test_a_hold_stops_the_clock_for_every_screen_and_the_entry_lands_at_its_time(cast):
    t0 = time.time() - 100
    log(cast.match_a, ev("play"), now=t0)
    scorer = client_for(cast.scorer_a)
    hold = post_event(scorer, cast.match_a, ev("hold", kind="ball_out", clock=99.5))
    assert hold.status_code == 201
    state = hold.json()["state"]
    assert state["clock"]["running"] is False and state["clock"]["held"] is True
    assert state["clock"]["elapsed"] == 99.5
    assert state["holds"][0]["by"] == {"role": "scorer", "name": "sam"}
    public = client_for().get(f"/api/matches/{cast.match_a.pk}/state").json()["state"]
    assert public["clock"]["running"] is False and public["clock"]["elapsed"] == 99.5
    out = post_event(
        scorer, cast.match_a, ev("ball_out", hold=hold.json()["event"]["id"], clock=99.5, expected_seq=2, **SIDE_OUT)
    )
    assert out.status_code == 201
    assert out.json()["event"]["clock"] == 99.5 and out.json()["state"]["status"] == "stopped"


def test_a_skewed_device_cannot_rewrite_history(cast):
    log(cast.match_a, ev("play"), now=time.time() - 200)
    scorer = client_for(cast.scorer_a)
    ahead = post_event(scorer, cast.match_a, ev("goal", team="home", number=1, clock=260))
    assert ahead.status_code == 422
    assert ahead.json()["error"] | {"message": None} == {"code": "clock_ahead", "rule": "14.b(1)", "message": None}
    old = post_event(scorer, cast.match_a, ev("goal", team="home", number=1, clock=20))
    assert old.json()["error"]["code"] == "clock_too_old"
    assert MatchEvent.objects.filter(match=cast.match_a).count() == 1


def test_a_client_cannot_set_the_server_time(cast):
    log(cast.match_a, ev("play"), now=time.time() - 200)
    forged = post_event(
        client_for(cast.scorer_a),
        cast.match_a,
        ev("goal", team="home", number=1, clock=5, server_time=time.time() - 195),
    )
    assert forged.json()["error"]["code"] == "clock_too_old"  # checked against the server's own clock
    play = post_event(
        client_for(cast.scorer_a),
        cast.match_a,
        ev("whistle", reason="other", ball={"x": 150, "y": 80}, server_time=1.0),
    )
    assert play.status_code == 201 and play.json()["event"]["server_time"] > time.time() - 60


def test_play_runs_the_clock_from_the_key(cast):
    keyed = time.time() - 0.5  # the request took half a second to arrive
    response = post_event(client_for(cast.scorer_a), cast.match_a, ev("play", keyed_at=keyed))
    assert response.status_code == 201
    assert response.json()["event"]["server_time"] == keyed
    assert response.json()["state"]["clock"]["elapsed"] >= 0.5
