"""Events are exactly what the contract allows (issue 11): a key the event's type does not take is
refused with ``invalid_event`` naming it (it was stored and published: a 16 KB ``pad``, a
``comment`` in the public feed); ``clock`` only where the contract takes it (never on ``play``,
whose stamp is ``keyed_at``); a ball out lies on the line it claims (refused, never moved there);
an ``expected_seq`` ahead of the log is ``stale_sequence`` (409) like one behind."""

from __future__ import annotations

import time

import pytest
from django.test import Client
from django.utils import translation

from matches.models import MatchEvent
from officiating.engine import MatchConfig, decide, new_game

from .live_helpers import client_for, ev, log, post_event

pytestmark = pytest.mark.django_db

SIDE_OUT = {"line": "side", "last_hit_by": "home", "deflected_off": "none"}


def refused(response, field: str) -> dict:
    assert response.status_code == 422, (response.status_code, response.content[:300])
    body = response.json()
    assert body["accepted"] is False and body["error"]["code"] == "invalid_event", body["error"]
    assert f"'{field}'" in body["error"]["message"], body["error"]["message"]
    assert "state" in body and "last_seq" in body
    return body


def stored(match) -> list[dict]:
    return list(MatchEvent.objects.filter(match=match).order_by("seq").values_list("payload", flat=True))


def test_a_padded_play_is_refused_and_nothing_is_stored(cast):
    """16 KB of ``pad`` rode on an accepted play into the log and out to every screen."""
    body = refused(post_event(client_for(cast.scorer_a), cast.match_a, ev("play", pad="x" * 15000)), "pad")
    assert body["last_seq"] == 0 and stored(cast.match_a) == []


def test_a_comment_never_reaches_the_public_feed(cast):
    client = client_for(cast.scorer_a)
    log(cast.match_a, ev("play"))
    whistle = ev("whistle", reason="lost_helmet", ball={"x": 100, "y": 50}, team="home", number=2)
    refused(post_event(client, cast.match_a, {**whistle, "comment": "ump blind"}), "comment")
    feed = Client().get(f"/api/matches/{cast.match_a.pk}/events").json()["events"]
    assert all("comment" not in e["event"] for e in feed) and len(feed) == 1


@pytest.mark.parametrize(
    "event,field",
    [
        (ev("ball_out", at={"x": 150, "y": 0, "pad": 1}, **SIDE_OUT), "at.pad"),
        (ev("whistle", reason="other", ball={"x": 1, "y": 1, "z": 0}), "ball.z"),
        (ev("goal", team="home", hold_id="h"), "hold_id"),
        (ev("goal", team="home", Team="home"), "Team"),
    ],
)
def test_unknown_keys_are_refused_naming_the_key(cast, event, field):
    log(cast.match_a, ev("play"))
    refused(post_event(client_for(cast.scorer_a), cast.match_a, event), field)
    assert len(stored(cast.match_a)) == 1


def test_the_keys_the_app_adds_and_the_notes_are_taken(cast):
    client = client_for(cast.scorer_a)
    play = ev("play", keyed_at=time.time(), note="throw-in", private_note="late", expected_seq=0, by={"role": "x"})
    assert post_event(client, cast.match_a, play).status_code == 201
    [event] = stored(cast.match_a)
    assert event["by"]["role"] == "scorer" and "server_time" in event and "expected_seq" not in event
    assert (event["note"], event["private_note"]) == ("throw-in", "late")


def test_a_note_is_text(cast):
    refused(post_event(client_for(cast.scorer_a), cast.match_a, ev("play", note={"a": 1})), "note")


@pytest.mark.parametrize("event_type", ["play", "void", "release"])
def test_clock_only_where_the_contract_takes_it(cast, event_type):
    """A play with ``clock: 999`` was stored as sent ("Play" resumes the clock where the stoppage
    left it: keyed_at is its stamp; a correction is a clock_set)."""
    fields = {"play": {}, "void": {"target": "a"}, "release": {"target": "a"}}[event_type]
    body = refused(post_event(client_for(cast.scorer_a), cast.match_a, ev(event_type, clock=999, **fields)), "clock")
    assert body["last_seq"] == 0 and stored(cast.match_a) == []


def test_a_void_stores_no_clock_of_its_own(cast):
    """The server filled a running clock into every event it stored, a void's included."""
    log(cast.match_a, ev("play"))
    mount = ev("mount", team="home", number=1, horse="Lucera")
    log(cast.match_a, mount)
    assert "clock" in stored(cast.match_a)[-1]  # the clock was running: the mount took its time
    assert post_event(client_for(cast.scorer_a), cast.match_a, ev("void", target=mount["id"])).status_code == 201
    assert "clock" not in stored(cast.match_a)[-1]


@pytest.mark.parametrize(
    "at,line", [({"x": 150, "y": 80}, "side"), ({"x": 150, "y": 3}, "side"), ({"x": 150, "y": 0}, "end")]
)
def test_a_ball_out_lies_on_the_line_it_claims(cast, at, line):
    """A side-line ball out at mid-field (150, 80) was accepted and moved to the line."""
    log(cast.match_a, ev("play"))
    event = ev("ball_out", **{**SIDE_OUT, "line": line}, at=at)
    refused(post_event(client_for(cast.scorer_a), cast.match_a, event), "at")
    assert len(stored(cast.match_a)) == 1


@pytest.mark.parametrize(
    "at,line",
    [
        ({"x": 150, "y": 0}, "side"),
        ({"x": 150, "y": 160}, "side"),
        ({"x": 150, "y": 0.5}, "side"),
        ({"x": 0, "y": 40}, "end"),
    ],
)
def test_a_ball_out_on_its_line_is_taken_as_sent(cast, at, line):
    log(cast.match_a, ev("play"))
    event = ev("ball_out", **{**SIDE_OUT, "line": line}, at=at)
    assert post_event(client_for(cast.scorer_a), cast.match_a, event).status_code == 201
    assert stored(cast.match_a)[-1]["at"] == at


@pytest.mark.parametrize("ahead", [2, 10**6, 2**70])
def test_an_expected_seq_ahead_of_the_log_is_stale_like_one_behind(cast, ahead):
    log(cast.match_a, ev("play"))
    response = post_event(client_for(cast.scorer_a), cast.match_a, ev("goal", team="home", expected_seq=ahead))
    assert response.status_code == 409, response.content[:300]
    body = response.json()
    assert body["error"]["code"] == "stale_sequence" and body["last_seq"] == 1
    assert body["valid_now"] is True
    assert len(stored(cast.match_a)) == 1


@pytest.mark.parametrize("expected", [-1, "1", True, 1.0, None])
def test_an_expected_seq_that_is_no_sequence_number_is_invalid(cast, expected):
    log(cast.match_a, ev("play"))
    response = post_event(client_for(cast.scorer_a), cast.match_a, ev("goal", team="home", expected_seq=expected))
    assert response.status_code == 422 and response.json()["error"]["code"] == "invalid_event"


def test_the_refusal_names_the_key_in_spanish(cast):
    response = post_event(client_for(cast.scorer_a), cast.match_a, ev("play", comment="x"), HTTP_ACCEPT_LANGUAGE="es")
    body = refused(response, "comment")
    with translation.override("en"):
        english = post_event(client_for(cast.scorer_a), cast.match_a, ev("play", comment="x")).json()
    assert body["error"]["message"] != english["error"]["message"]


# --- the engine itself (replays and the demo go through it too) --------------------------------

CONFIG = MatchConfig.from_dict({"home": {}, "away": {}})


def engine_refusal(*events) -> tuple[str, str] | None:
    game = new_game(CONFIG)
    for event in events:
        decision = decide(game, event)
        if not decision.accepted:
            return decision.error.code, decision.error.message("en")
        game = decision.game
    return None


def test_the_engine_refuses_unknown_keys_and_misplaced_clocks():
    assert engine_refusal(ev("play", pad=1)) == ("invalid_event", "The field 'pad' is not part of a 'play' event.")
    assert engine_refusal(ev("play", clock=0))[0] == "invalid_event"
    assert engine_refusal(ev("play"), ev("goal", team="home", clock=1.0, hold="h")) is None
    assert engine_refusal(ev("play"), ev("card", team="home", number=1, color="yellow", hold="h"))[0] == "invalid_event"


def test_the_engine_answers_an_expected_seq_ahead_as_stale():
    assert engine_refusal(ev("play", expected_seq=1))[0] == "stale_sequence"
