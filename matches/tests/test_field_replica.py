"""A match kept at the field, on the tournament's server (matches/field/): the field token, one
writer per match, and ``POST /api/field/matches/{id}/log`` taking the field's log verbatim or
refusing it with nothing stored.

The "field" here is a second match of the same teams in the same database, logged through the
write path as the field server logs it: its rows are the batch the field server would push."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from matches.committee.models import AuditEntry
from matches.committee.services import committee_event_send
from matches.field.models import FieldToken
from matches.field.sender import batch_body
from matches.field.services import field_token_issue, field_token_revoke, match_keep_at
from matches.games import match_game
from matches.models import Match, MatchEvent
from matches.scoresheet.hashing import log_hash
from matches.services import match_clock_catch_up
from officiating.engine import to_state

from .live_helpers import client_for, ev, log, post_event
from .personas import field_copy

pytestmark = pytest.mark.django_db


@pytest.fixture
def pair(cast):
    """The tournament's server's match (``replica``, kept at the field, with a token) and the field
    server's copy of it (``field``: the same teams, rosters and officials)."""
    replica = cast.match_a
    field = field_copy(replica, scorer=cast.scorer_a, umpires=[cast.umpire_a], referee=cast.referee_a)
    _token, secret = field_token_issue(match=replica, user=cast.committee)
    match_keep_at(match_id=replica.pk, where="field", user=cast.committee)
    return replica, field, secret


def a_chukker_at_the_field(field, t0: float) -> None:
    """A goal, a foul, a knock-in and the chukker's end, logged at the field at its own times."""
    log(field, ev("play"), now=t0)
    log(field, ev("goal", team="home", number=1), now=t0 + 40)
    log(field, ev("play"), now=t0 + 60)
    log(field, ev("foul", against="away", number=2, penalty="3"), now=t0 + 100)
    log(field, ev("play"), now=t0 + 120)
    end = 0.0 if field.home_defends == "south" else float(field.field.length)
    out = ev("ball_out", line="end", at={"x": end, "y": 60}, last_hit_by="home", deflected_off="none")
    log(field, out, now=t0 + 150)
    log(field, ev("play"), now=t0 + 170)  # the knock-in
    assert match_clock_catch_up(match_id=field.pk, now=t0 + 170 + 450)  # the horns end the chukker


def push(replica, body, secret):
    return Client().post(
        f"/api/field/matches/{replica.pk}/log",
        body,
        content_type="application/json",
        headers={"authorization": f"Bearer {secret}"},
    )


def rows(match):
    return list(MatchEvent.objects.filter(match=match).order_by("seq").values_list("seq", "client_id", "payload"))


def test_the_replica_takes_the_fields_log_verbatim_with_the_same_state_and_log_hash(pair):
    replica, field, secret = pair
    a_chukker_at_the_field(field, time.time() - 1000)
    answer = push(replica, batch_body(field.pk, 0), secret)
    assert answer.status_code == 200, answer.json()
    body = answer.json()
    field.refresh_from_db()
    replica.refresh_from_db()
    assert body["last_seq"] == field.last_seq == replica.last_seq and body["appended"] == field.last_seq
    assert rows(replica) == rows(field)
    assert log_hash(replica.pk) == log_hash(field.pk) and body["log_hash"] == log_hash(field.pk)[1]
    now = time.time()
    assert to_state(match_game(replica), now=now) == to_state(match_game(field), now=now)
    assert replica.state_cache["status"] == "interval"
    assert FieldToken.objects.get(match=replica).heard_at is not None


def test_a_retry_and_an_overlapping_batch_store_nothing_twice(pair):
    replica, field, secret = pair
    a_chukker_at_the_field(field, time.time() - 1000)
    assert push(replica, batch_body(field.pk, 0), secret).status_code == 200
    again = push(replica, batch_body(field.pk, 0), secret).json()
    field.refresh_from_db()
    assert again["appended"] == 0 and again["duplicates"] == field.last_seq == 9
    overlap = push(replica, batch_body(field.pk, 3), secret).json()
    assert overlap["appended"] == 0 and rows(replica) == rows(field)


def test_a_push_resumes_from_the_replicas_last_seq(pair):
    replica, field, secret = pair
    t0 = time.time() - 1000
    log(field, ev("play"), now=t0)
    log(field, ev("goal", team="home", number=1), now=t0 + 40)
    assert push(replica, batch_body(field.pk, 0), secret).json()["last_seq"] == 2
    log(field, ev("play"), now=t0 + 60)
    answer = push(replica, batch_body(field.pk, 2), secret).json()
    assert answer["appended"] == 1 and rows(replica) == rows(field)


def test_it_refuses_a_wrong_expired_revoked_or_missing_token_and_stores_nothing(pair, cast):
    replica, field, secret = pair
    log(field, ev("play"), now=time.time() - 100)
    body = batch_body(field.pk, 0)
    assert push(replica, body, "pft_not-a-token").json()["error"]["code"] == "field_token_wrong"
    assert (
        Client()
        .post(f"/api/field/matches/{replica.pk}/log", body, content_type="application/json")
        .json()["error"]["code"]
        == "field_token_missing"
    )
    _old, expired = field_token_issue(match=replica)
    FieldToken.objects.filter(pk=_old.pk).update(expires_at=timezone.now() - timedelta(minutes=1))
    answer = push(replica, body, expired)
    assert answer.status_code == 403 and answer.json()["error"]["code"] == "field_token_expired"
    token = FieldToken.objects.filter(match=replica).order_by("pk").first()
    field_token_revoke(token=token, user=cast.committee)
    answer = push(replica, body, secret)
    assert answer.status_code == 403 and answer.json()["error"]["code"] == "field_token_revoked"
    assert "revoked" in answer.json()["error"]["message"]
    assert rows(replica) == []
    actions = set(AuditEntry.objects.filter(match=replica).values_list("action", flat=True))
    assert {"field_token_issue", "field_token_revoke", "field_keep"} <= actions


def test_it_refuses_a_token_for_another_match(pair, cast):
    _replica, field, secret = pair
    log(field, ev("play"), now=time.time() - 100)
    answer = push(cast.match_b, batch_body(field.pk, 0), secret)
    assert answer.status_code == 403 and answer.json()["error"]["code"] == "field_token_other_match"
    assert rows(cast.match_b) == []


def test_it_refuses_a_gap_and_names_where_to_resume(pair):
    replica, field, secret = pair
    t0 = time.time() - 1000
    log(field, ev("play"), now=t0)
    log(field, ev("goal", team="home", number=1), now=t0 + 40)
    answer = push(replica, batch_body(field.pk, 1), secret)
    assert answer.status_code == 409
    assert answer.json()["error"]["code"] == "log_gap" and answer.json()["last_seq"] == 0
    assert rows(replica) == []


def test_it_refuses_a_changed_event_and_stores_nothing(pair):
    replica, field, secret = pair
    t0 = time.time() - 1000
    log(field, ev("play"), now=t0)
    log(field, ev("goal", team="home", number=1), now=t0 + 40)
    assert push(replica, batch_body(field.pk, 0), secret).status_code == 200
    log(field, ev("play"), now=t0 + 60)
    body = batch_body(field.pk, 0)
    body["events"][1]["event"] = {**body["events"][1]["event"], "number": 2}  # the goal's scorer rewritten
    answer = push(replica, body, secret)
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "log_changed"
    assert len(rows(replica)) == 2


def test_it_refuses_a_history_that_differs_before_the_batch(pair):
    replica, field, secret = pair
    t0 = time.time() - 1000
    log(field, ev("play"), now=t0)
    assert push(replica, batch_body(field.pk, 0), secret).status_code == 200
    log(field, ev("goal", team="home", number=1), now=t0 + 40)
    body = batch_body(field.pk, 1)
    body["prefix_hash"] = "0" * 64
    answer = push(replica, body, secret)
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "log_changed"
    assert len(rows(replica)) == 1


def test_it_refuses_another_matchs_events(pair, cast):
    replica, _field, secret = pair
    log(cast.match_b, ev("play"), now=time.time() - 100)  # other teams: another config
    answer = push(replica, batch_body(cast.match_b.pk, 0), secret)
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "log_other_match"
    assert rows(replica) == []


def test_it_refuses_a_batch_whose_log_hash_differs(pair):
    replica, field, secret = pair
    log(field, ev("play"), now=time.time() - 100)
    body = batch_body(field.pk, 0)
    body["log_hash"] = "f" * 64
    answer = push(replica, body, secret)
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "log_changed"
    assert rows(replica) == []


def test_it_refuses_a_malformed_batch(pair):
    replica, _field, secret = pair
    answer = push(replica, {"after": "zero", "events": {}}, secret)
    assert answer.status_code == 400 and answer.json()["error"]["code"] == "invalid_log"


def test_while_kept_at_the_field_the_server_refuses_the_officials_events(pair, cast):
    replica, _field, _secret = pair
    answer = post_event(client_for(cast.scorer_a), replica, ev("play"))
    assert answer.status_code == 423
    error = answer.json()["error"]
    assert error["code"] == "kept_at_field" and "kept at the field" in error["message"]
    spanish = client_for(cast.scorer_a)
    answer = spanish.post(
        f"/api/matches/{replica.pk}/events",
        ev("play"),
        content_type="application/json",
        headers={"accept-language": "es"},
    )
    assert answer.status_code == 423 and "se lleva en la cancha" in answer.json()["error"]["message"]
    assert rows(replica) == []


def test_a_committee_decision_on_a_match_kept_at_the_field_is_refused_and_says_where_to_make_it(pair, cast):
    replica, _field, _secret = pair
    result = committee_event_send(match=replica, event=ev("suspend", reason="lightning"), user=cast.committee)
    assert not result.accepted and result.error.code == "kept_at_field"
    assert "field's own server" in result.error.message("en")
    assert rows(replica) == []


def test_the_server_appends_no_horn_for_a_match_kept_at_the_field(pair):
    replica, field, secret = pair
    t0 = time.time() - 1000
    log(field, ev("play"), now=t0)
    assert push(replica, batch_body(field.pk, 0), secret).status_code == 200
    assert match_clock_catch_up(match_id=replica.pk, now=t0 + 460) == []
    state = Client().get(f"/api/matches/{replica.pk}/state").json()
    assert state["last_seq"] == 1
    assert state["field"]["kept_at"] == "field" and state["field"]["heard_at"] > t0


def test_the_match_comes_back_to_the_server_once_the_final_log_has_arrived(pair, cast):
    replica, field, secret = pair
    log(field, ev("forfeit", team="away", reason="not enough horses"), cast.committee, now=time.time() - 100)
    answer = push(replica, batch_body(field.pk, 0), secret).json()
    assert answer["kept_at"] == "server"
    replica.refresh_from_db()
    assert replica.kept_at == Match.KeptAt.SERVER and replica.state_cache["status"] == "final"
    back = AuditEntry.objects.filter(match=replica, action="field_return").get()
    assert back.details["reason"] == "final log arrived"
    # The final log pushed again is answered (a retry); nothing new is taken.
    again = push(replica, batch_body(field.pk, 0), secret)
    assert again.status_code == 200 and again.json()["appended"] == 0


def test_handing_the_match_back_is_audited_and_then_the_field_is_refused(pair, cast):
    replica, field, secret = pair
    assert match_keep_at(match_id=replica.pk, where="server", user=cast.committee)
    log(field, ev("play"), now=time.time() - 100)
    answer = push(replica, batch_body(field.pk, 0), secret)
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "not_kept_at_field"
    assert AuditEntry.objects.filter(match=replica, action="field_return").exists()
    assert post_event(client_for(cast.scorer_a), replica, ev("play")).status_code == 201
