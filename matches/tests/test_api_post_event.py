"""POST /api/matches/{id}/events: the scorer's and umpires' one way to change a match."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from matches.games import match_game
from matches.models import MatchEvent
from officiating.engine import decide

from .live_helpers import cast, client_for, ev, log, post_event  # noqa: F401  (cast is a fixture)

pytestmark = pytest.mark.django_db


def test_it_works(cast):
    response = post_event(client_for(cast.scorer_a), cast.match_a, ev("play"))
    assert response.status_code == 201
    body = response.json()
    assert body["accepted"] is True and body["seq"] == 1 and body["last_seq"] == 1
    assert body["state"]["status"] == "in_play" and body["state"]["clock"]["running"] is True
    assert body["event"]["type"] == "play"
    assert MatchEvent.objects.filter(match=cast.match_a).count() == 1


def test_the_umpires_and_the_referee_may_post_on_their_match(cast):
    assert post_event(client_for(cast.umpire_a), cast.match_a, ev("play")).status_code == 201
    goal = ev("goal", team="home", number=1)
    assert post_event(client_for(cast.referee_a), cast.match_a, goal).status_code == 201


def test_a_retry_of_the_same_id_returns_the_first_answer(cast):
    client = client_for(cast.scorer_a)
    event = ev("play")
    first = post_event(client, cast.match_a, event).json()
    retry = post_event(client, cast.match_a, event)
    assert retry.status_code == 200
    body = retry.json()
    assert body["duplicate"] is True
    assert (body["seq"], body["event"]) == (first["seq"], first["event"])
    assert MatchEvent.objects.filter(match=cast.match_a).count() == 1


def test_it_rejects_another_event_under_a_used_id(cast):
    client = client_for(cast.scorer_a)
    event = ev("play")
    post_event(client, cast.match_a, event)
    response = post_event(client, cast.match_a, {**event, "type": "goal", "team": "home"})
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "duplicate_id"
    assert MatchEvent.objects.filter(match=cast.match_a).count() == 1


def test_a_stale_expected_seq_is_refused_with_the_current_state(cast):
    client = client_for(cast.scorer_a)
    post_event(client, cast.match_a, ev("play", expected_seq=0))
    # An umpire's tablet that had not heard of the throw-in yet:
    response = post_event(client_for(cast.umpire_a), cast.match_a, ev("play", expected_seq=0))
    assert response.status_code == 409
    body = response.json()
    assert body["error"]["code"] == "stale_sequence"
    assert body["last_seq"] == 1 and body["state"]["status"] == "in_play"
    assert MatchEvent.objects.filter(match=cast.match_a).count() == 1


def test_it_rejects_what_the_rules_refuse_with_code_rule_and_message(cast):
    client = client_for(cast.scorer_a)
    response = post_event(client, cast.match_a, ev("goal", team="home", number=1))
    assert response.status_code == 422
    body = response.json()
    assert body["accepted"] is False
    assert body["error"]["code"] == "not_in_play"
    assert body["error"]["message"] == "The ball is not in play."
    assert body["last_seq"] == 0 and body["state"]["status"] == "scheduled"
    log(cast.match_a, ev("play"))
    # A goal stamped at 7:35 by a device whose clock is minutes ahead of the official one.
    late = post_event(client, cast.match_a, ev("goal", team="home", number=1, clock=455))
    assert late.status_code == 422
    assert late.json()["error"]["code"] == "clock_ahead"
    assert late.json()["error"]["rule"] == "14.b(1)"
    assert "ahead of the official clock" in late.json()["error"]["message"]
    assert MatchEvent.objects.filter(match=cast.match_a).count() == 1


def test_the_rejection_comes_in_the_callers_language(cast):
    log(cast.match_a, ev("play"))
    event = ev("play")
    response = post_event(client_for(cast.scorer_a), cast.match_a, event, HTTP_ACCEPT_LANGUAGE="es")
    assert response.status_code == 422
    assert response["Content-Language"] == "es"
    error = response.json()["error"]
    assert error["code"] == "already_in_play"
    # The engine's own Spanish text for this refusal (its catalogue translates the msgid).
    cast.match_a.refresh_from_db()
    refusal = decide(match_game(cast.match_a), event).error
    assert error["message"] == refusal.message("es")


def test_it_refuses_the_public(cast):
    response = post_event(Client(), cast.match_a, ev("play"))
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "forbidden"
    assert not MatchEvent.objects.exists()


def test_it_refuses_the_officials_of_another_match(cast):
    for official in (cast.scorer_b, cast.umpire_b):
        response = post_event(client_for(official), cast.match_a, ev("play"))
        assert response.status_code == 403
    assert not MatchEvent.objects.exists()


def test_only_the_committee_sends_committee_events(cast):
    scorer = post_event(client_for(cast.scorer_a), cast.match_a, ev("overtime"))
    assert scorer.status_code == 403
    committee = post_event(client_for(cast.committee), cast.match_a, ev("overtime"))
    # Allowed to ask; the rules then refuse an overtime for a match that is not tied at the end.
    assert committee.status_code == 422
    assert committee.json()["error"]["code"] == "not_tied"
    assert post_event(client_for(cast.committee), cast.match_a, ev("play")).status_code == 403


def test_a_body_that_is_not_one_json_object_is_invalid(cast):
    client = client_for(cast.scorer_a)
    for body in ("not json", json.dumps([ev("play")]), json.dumps("play"), ""):
        response = post_event(client, cast.match_a, body)
        assert response.status_code == 400, body[:40]
        assert response.json()["error"]["code"] == "invalid_event"
        assert response.json()["error"]["message"]
    # Over the 16 KB cap: too large (413), not read at all.
    response = post_event(client, cast.match_a, json.dumps(ev("play", note="x" * 20000)))
    assert response.status_code == 413 and response.json()["error"]["code"] == "too_large"
    assert not MatchEvent.objects.exists()


def test_an_event_of_the_wrong_shape_is_refused_with_where_it_is_wrong(cast):
    client = client_for(cast.scorer_a)
    log(cast.match_a, ev("play"))
    response = post_event(client, cast.match_a, ev("ball_out", line="middle", at={"x": 10, "y": 0}, last_hit_by="home"))
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["code"] == "invalid_event"
    assert "$.line" in error["message"]
    assert response.json()["last_seq"] == 1
    no_id = post_event(client, cast.match_a, {"type": "play"})
    assert no_id.status_code == 422 and no_id.json()["error"]["code"] == "invalid_event"


def test_it_needs_the_csrf_token(cast):
    client = client_for(cast.scorer_a, enforce_csrf_checks=True)
    assert post_event(client, cast.match_a, ev("play")).status_code == 403
    client.get("/")  # a page with a form sets the csrftoken cookie
    token = client.cookies["csrftoken"].value
    assert post_event(client, cast.match_a, ev("play"), HTTP_X_CSRFTOKEN=token).status_code == 201


def test_a_void_takes_an_event_back(cast):
    client = client_for(cast.scorer_a)
    log(cast.match_a, ev("play"))
    goal = ev("goal", team="home", number=1)
    assert post_event(client, cast.match_a, goal).json()["state"]["score"]["home"] == 1
    response = post_event(client, cast.match_a, ev("void", target=goal["id"], reason="no goal: wide"))
    assert response.status_code == 201
    assert response.json()["state"]["score"]["home"] == 0
    assert response.json()["last_seq"] == 3
    unknown = post_event(client, cast.match_a, ev("void", target="no-such-event"))
    assert unknown.status_code == 422 and unknown.json()["error"]["code"] == "void_unknown_target"


def test_an_unknown_match_is_not_found(cast):
    response = post_event(client_for(cast.scorer_a), type("M", (), {"pk": 999999})(), ev("play"))
    assert response.status_code == 404


def test_an_event_reads_the_matchs_config_once(cast):
    """The view reads the match with the rows its config is built from; the lock that follows reads
    the match's own row alone and takes the config from the view's read (one query less on the
    path an official's screen waits for)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client = client_for(cast.scorer_a)
    assert post_event(client, cast.match_a, ev("play")).status_code == 201  # the session warm
    with CaptureQueriesContext(connection) as queries:
        assert post_event(client, cast.match_a, ev("goal", team="home", number=1)).status_code == 201
    sql = [q["sql"] for q in queries.captured_queries]
    assert sum('"matches_tournament"' in q for q in sql) == 1, sql
    assert sum('"matches_rosterline"' in q for q in sql) == 1, sql
    reads = [q for q in sql if q.startswith("SELECT") and 'FROM "matches_match"' in q]
    assert '"matches_tournament"' in reads[0], reads  # the view's read, before the lock's
    locks = [q for q in reads if "FOR UPDATE" in q]
    if connection.vendor == "postgresql":
        assert len(locks) == 1 and "JOIN" not in locks[0], locks


def test_the_lock_reads_again_a_team_changed_since_the_views_read(cast):
    """A match whose team the committee changed between the view's read and the lock is folded
    with the team the locked row names, not the one read before."""
    from django.db import transaction

    from matches.selectors import match_with_config
    from matches.services import _locked_match

    from .personas import make_entry

    known = match_with_config(cast.match_a.pk)
    other = make_entry(cast.match_a.tournament, "Green Late")
    type(cast.match_a).objects.filter(pk=cast.match_a.pk).update(home=other)
    with transaction.atomic():
        locked = _locked_match(cast.match_a.pk, known)
        assert locked.home == other and locked.home.team.name == "Green Late"
        assert [line.number for line in locked.home.roster.all()] == [1, 2, 3, 4]
    unchanged = match_with_config(cast.match_b.pk)
    with transaction.atomic():
        same = _locked_match(cast.match_b.pk, unchanged)
        assert same.home is unchanged.home and same.tournament is unchanged.tournament
