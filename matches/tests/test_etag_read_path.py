"""The read path a CDN can serve (issue 14): ``GET /api/matches/{id}/state`` and ``/events`` answer
with an ETag and a short Cache-Control, 304 when ``If-None-Match`` names the answer they would
give, a new tag once the log moves on; an official's events (private notes) are never cached
publicly; refusals and posts are not cached at all."""

from __future__ import annotations

import pytest
from django.test import Client

from .live_helpers import client_for, ev, log, post_event, started_clock_ago

pytestmark = pytest.mark.django_db

PUBLIC = "public, max-age=1, stale-while-revalidate=10"


def state_url(match) -> str:
    return f"/api/matches/{match.pk}/state"


def events_url(match, since: int = 0) -> str:
    return f"/api/matches/{match.pk}/events?since={since}"


def test_the_state_has_an_etag_and_a_repeat_of_it_is_answered_304(cast):
    log(cast.match_a, ev("play"))
    first = Client().get(state_url(cast.match_a))
    assert first.status_code == 200 and first["Cache-Control"] == PUBLIC
    etag = first["ETag"]
    assert etag.startswith('W/"')
    again = Client().get(state_url(cast.match_a), HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again.content == b""
    assert again["ETag"] == etag and again["Cache-Control"] == PUBLIC
    # A list of tags, and the strong form of the weak one, match too (weak comparison).
    assert Client().get(state_url(cast.match_a), HTTP_IF_NONE_MATCH=f'"x", {etag[2:]}').status_code == 304
    assert Client().get(state_url(cast.match_a), HTTP_IF_NONE_MATCH='"something-else"').status_code == 200


def test_the_state_gets_a_new_tag_when_the_log_moves_on(cast):
    log(cast.match_a, ev("play"))
    etag = Client().get(state_url(cast.match_a))["ETag"]
    log(cast.match_a, ev("ball_out", line="side", at={"x": 150, "y": 0}, last_hit_by="home", deflected_off="none"))
    answer = Client().get(state_url(cast.match_a), HTTP_IF_NONE_MATCH=etag)
    assert answer.status_code == 200 and answer["ETag"] != etag
    assert answer.json()["last_seq"] == 2


def test_a_running_clock_read_later_keeps_its_tag_and_each_language_has_its_own(cast):
    started_clock_ago(cast.match_a, 60)
    first = Client().get(state_url(cast.match_a))
    later = Client().get(state_url(cast.match_a))  # another server_time and elapsed, the same log
    assert first.json()["server_time"] != later.json()["server_time"]
    assert first["ETag"] == later["ETag"]
    spanish = Client().get(state_url(cast.match_a) + "?lang=es")
    assert spanish.status_code == 200 and spanish["ETag"] != first["ETag"]
    assert Client().get(state_url(cast.match_a) + "?lang=es", HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 200


def test_the_public_events_are_cached_publicly_and_answered_304(cast):
    log(cast.match_a, ev("play"))
    first = Client().get(events_url(cast.match_a))
    assert first.status_code == 200 and first["Cache-Control"] == PUBLIC
    assert "Cookie" in first["Vary"]  # the answer depends on who asks (officials see private notes)
    again = Client().get(events_url(cast.match_a), HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again["ETag"] == first["ETag"]
    # Another since, or another event, is another answer.
    assert Client().get(events_url(cast.match_a, 1), HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 200
    log(cast.match_a, ev("whistle", reason="other"))
    moved = Client().get(events_url(cast.match_a), HTTP_IF_NONE_MATCH=first["ETag"])
    assert moved.status_code == 200 and len(moved.json()["events"]) == 2


def test_an_officials_events_are_private_and_differ_from_the_publics(cast):
    note = ev("whistle", reason="lost_helmet", ball={"x": 100, "y": 50}, team="home", number=2, private_note="argued")
    log(cast.match_a, ev("play"))
    log(cast.match_a, note)
    public = Client().get(events_url(cast.match_a))
    official = client_for(cast.umpire_a).get(events_url(cast.match_a))
    assert official["Cache-Control"] == "private, no-cache" and "Cookie" in official["Vary"]
    assert official["ETag"] != public["ETag"]
    assert official.json()["events"][1]["event"]["private_note"] == "argued"
    assert "private_note" not in public.json()["events"][1]["event"]
    # The official's browser revalidates its own copy (304), never the public's.
    umpire = client_for(cast.umpire_a)
    assert umpire.get(events_url(cast.match_a), HTTP_IF_NONE_MATCH=official["ETag"]).status_code == 304
    assert umpire.get(events_url(cast.match_a), HTTP_IF_NONE_MATCH=public["ETag"]).status_code == 200


def test_refusals_and_posts_are_not_cached(cast):
    for answer in (
        Client().get("/api/matches/999999/state"),
        Client().get("/api/matches/999999/events"),
        Client().get(events_url(cast.match_a) + "x"),
        post_event(client_for(cast.scorer_a), cast.match_a, ev("play")),
    ):
        assert answer.status_code in (201, 400, 404), answer.status_code
        assert "no-store" in answer["Cache-Control"] and "ETag" not in answer
