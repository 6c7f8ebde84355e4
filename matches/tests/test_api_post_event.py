"""POST /api/matches/{id}/events: the scorer's and umpires' one way to change a match."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from matches.games import match_game
from matches.models import MatchEvent
from officiating.engine import decide

from .live_helpers import client_for, ev, log, post_event

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


def test_an_event_reads_the_match_once_under_the_lock(cast):
    """The view's checks and the log's append share one read of the match: locked, with the rows
    its config is built from. A retry check needs no read of the log either: the folded game holds
    every stored event (one query less each on the path an official's screen waits for)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client = client_for(cast.scorer_a)
    assert post_event(client, cast.match_a, ev("play")).status_code == 201  # the session warm
    with CaptureQueriesContext(connection) as queries:  # (a whistle names no player: no Rule 21.d read)
        assert post_event(client, cast.match_a, ev("whistle", reason="other")).status_code == 201
    sql = [q["sql"] for q in queries.captured_queries]
    reads = [q for q in sql if q.startswith("SELECT") and 'FROM "matches_match"' in q]
    assert len(reads) == 1 and '"matches_tournament"' in reads[0], reads
    if connection.vendor == "postgresql":
        assert "FOR UPDATE OF" in reads[0], reads
    assert sum('"matches_rosterline"' in q for q in sql) == 1, sql
    assert not [q for q in sql if q.startswith("SELECT") and 'FROM "matches_matchevent"' in q], sql


def test_the_match_is_read_after_the_transaction_began(cast):
    """The read the checks use is the locked one: it comes after the transaction's start, and a
    team the committee changed just before is the team the event is folded with."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from .personas import make_entry

    other = make_entry(cast.match_a.tournament, "Green Late")
    type(cast.match_a).objects.filter(pk=cast.match_a.pk).update(home=other)
    with CaptureQueriesContext(connection) as queries:
        response = post_event(client_for(cast.scorer_a), cast.match_a, ev("play"))
    assert response.status_code == 201
    sql = [q["sql"] for q in queries.captured_queries]
    match_read = next(i for i, q in enumerate(sql) if q.startswith("SELECT") and 'FROM "matches_match"' in q)
    begin = next(i for i, q in enumerate(sql) if q.startswith(("BEGIN", "SAVEPOINT")))
    assert begin < match_read, sql
    cast.match_a.refresh_from_db()
    assert match_game(cast.match_a).config.home.name == "Green Late"


def test_a_retry_is_known_from_the_rows_when_the_fold_skipped_a_stored_event(cast):
    """A stored event the rules refuse now (a rule changed) is skipped by the fold, whose entries
    then no longer match the rows one for one: a retry is looked up in the rows, and keeps its seq."""
    from django.utils.timezone import now

    from matches.games import forget_cached_game

    first = ev("play")
    log(cast.match_a, first)
    refused_now = {"id": "stored-but-refused", "type": "play"}  # a second throw-in while in play
    MatchEvent.objects.create(
        match=cast.match_a, seq=2, client_id=refused_now["id"], type="play", payload=refused_now, received_at=now()
    )
    type(cast.match_a).objects.filter(pk=cast.match_a.pk).update(last_seq=2)
    forget_cached_game(cast.match_a.pk)
    client = client_for(cast.scorer_a)
    retry = post_event(client, cast.match_a, refused_now)
    assert retry.status_code == 200, retry.json()
    assert (retry.json()["duplicate"], retry.json()["seq"]) == (True, 2)
    again = post_event(client, cast.match_a, first)
    assert (again.status_code, again.json()["seq"]) == (200, 1)
    assert MatchEvent.objects.filter(match=cast.match_a).count() == 2
