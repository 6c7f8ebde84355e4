"""No input makes the API answer 5xx (issue 11): query parameters parsed strictly, bodies bounded in
size and depth, text free of NUL and lone surrogates, types checked before use, ids no longer than
their column — each refused with the contract's error shape, in the caller's language.

Django's test client raises a view's exception instead of answering 500, so a crash fails these
tests outright. The same inputs are run on PostgreSQL in CI's second pass, where NUL and lone
surrogates used to reach ``jsonb`` and fail there."""

from __future__ import annotations

import json

import pytest
from django.utils import translation

from matches.models import MatchEvent

from .live_helpers import client_for, ev, log, post_event

pytestmark = pytest.mark.django_db


def error_of(response, status: int, code: str) -> dict:
    assert response.status_code == status, (response.status_code, response.content[:300])
    assert response["Content-Type"].startswith("application/json")
    error = response.json()["error"]
    assert error["code"] == code and error["message"], error
    assert "rule" in error
    return error


def spanish(msgid: str, **params) -> str:
    with translation.override("es"):
        text = translation.gettext(msgid)
    return text % params if params else text


# --- query parameters ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "since", ["%C2%B2", "%EF%BC%91", "-1", "1.5", "1e3", "+1", " 1", "0x10", "9" * 40, "%00", "1%00"]
)
def test_since_is_a_plain_whole_number_or_refused(cast, since):
    """``int('²')`` raised after ``'²'.isdigit()`` said yes: a 500 for anyone, logged in or not."""
    response = client_for().get(f"/api/matches/{cast.match_a.pk}/events?since={since}")
    error_of(response, 400, "invalid_since")


def test_since_in_spanish(cast):
    response = client_for().get(f"/api/matches/{cast.match_a.pk}/events?since=%C2%B2", HTTP_ACCEPT_LANGUAGE="es")
    assert error_of(response, 400, "invalid_since")["message"] == spanish(
        "since must be a whole number (a sequence number)."
    )


def test_a_large_since_is_answered(cast):
    log(cast.match_a, ev("play"))
    response = client_for().get(f"/api/matches/{cast.match_a.pk}/events?since={10**17}")
    assert response.status_code == 200 and response.json() == {"events": [], "last_seq": 1}


@pytest.mark.parametrize(
    "date",
    ["", "2026-13-01", "20261129", "2026-W48-1", "%EF%BC%92026-01-01", "9999-12-31", "0001-01-01", "%00", "x" * 500],
)
def test_date_is_a_day_written_yyyy_mm_dd_or_refused(cast, date):
    for url in ("/api/matches", f"/api/tournaments/{cast.match_a.tournament_id}/matches"):
        error_of(client_for().get(f"{url}?date={date}"), 400, "invalid_date")


@pytest.mark.parametrize("path", ["state", "events", "goals", "confirmations"])
def test_a_match_id_out_of_any_column_range_is_not_found(cast, path):
    error_of(client_for(cast.umpire_a).get(f"/api/matches/{10**30}/{path}"), 404, "not_found")
    error_of(client_for().get(f"/api/tournaments/{10**30}/matches"), 404, "not_found")


# --- the event body --------------------------------------------------------------------------


def test_an_id_longer_than_its_column_is_refused(cast):
    """A 200-character id reached the varchar(64) column: a DataError on PostgreSQL."""
    client = client_for(cast.scorer_a)
    error = error_of(post_event(client, cast.match_a, {"id": "x" * 200, "type": "play"}), 422, "invalid_event")
    assert "id" in error["message"]
    assert post_event(client, cast.match_a, {"id": "x" * 64, "type": "play"}).status_code == 201
    assert MatchEvent.objects.filter(match=cast.match_a).count() == 1


@pytest.mark.parametrize(
    "event",
    [
        {"id": "x", "type": ["goal"]},
        {"id": "x", "type": {"goal": 1}},
        {"id": "x", "type": 7},
        {"id": 7, "type": "play"},
        {"id": ["x"], "type": "play"},
        {"id": "", "type": "play"},
        {"id": "x", "type": None},
        {"id": "x", "type": "tea_break"},
    ],
)
def test_an_id_or_type_of_the_wrong_type_is_refused(cast, event):
    """``{"id": "x", "type": ["goal"]}`` raised TypeError (an unhashable type looked up in a set)."""
    response = post_event(client_for(cast.scorer_a), cast.match_a, event)
    error_of(response, 422, "invalid_event")
    assert response.json()["last_seq"] == 0 and response.json()["state"]["status"] == "scheduled"


@pytest.mark.parametrize("shape", ["array", "object", "in_a_field"])
def test_a_body_nested_thousands_deep_is_refused_before_it_is_parsed(cast, shape):
    """5,000 levels: RecursionError in ``json.loads``."""
    depth = 5000
    if shape == "array":
        body = "[" * depth + "]" * depth
    elif shape == "object":
        body = '{"a":' * 2500 + "1" + "}" * 2500  # (5,000 would be over the size cap)
    else:
        body = '{"id": "x", "type": "goal", "team": ' + "[" * depth + "]" * depth + "}"
    response = post_event(client_for(cast.scorer_a), cast.match_a, body)
    error_of(response, 400, "invalid_event")


def test_a_body_within_the_depth_limit_goes_on_to_the_rules(cast):
    body = {"id": "x", "type": "goal", "team": [[[[["home"]]]]]}
    error_of(post_event(client_for(cast.scorer_a), cast.match_a, body), 422, "invalid_event")


@pytest.mark.parametrize(
    "raw",
    [
        r'{"id": "a", "type": "play", "note": "\u0000"}',
        r'{"id": "a", "type": "play", "note": "nul \u0000 inside"}',
        r'{"id": "a", "type": "play", "note": "\ud800"}',
        r'{"id": "a", "type": "play", "note": "\udc00 low"}',
        r'{"id": "a\u0000", "type": "play"}',
        r'{"id": "\ud83d", "type": "play"}',
        r'{"id": "a", "type": "play", "\u0000": 1}',
        r'{"id": "a", "type": "play", "note\ud800": 1}',
        r'{"id": "a", "type": "whistle", "reason": "other", "horse": ["\ud800"]}',
    ],
)
def test_nul_and_lone_surrogates_are_refused_before_the_database(cast, raw):
    """PostgreSQL's jsonb takes neither: an unhandled DataError (or UnicodeEncodeError) before."""
    response = post_event(client_for(cast.scorer_a), cast.match_a, raw)
    error_of(response, 400, "invalid_event")
    assert not MatchEvent.objects.exists()


def test_a_surrogate_pair_is_text_like_any_other(cast):
    client = client_for(cast.scorer_a)
    response = post_event(client, cast.match_a, r'{"id": "a", "type": "play", "note": "\ud83d\udc0e horse"}')
    assert response.status_code == 201
    assert MatchEvent.objects.get(match=cast.match_a).payload["note"] == "\U0001f40e horse"


@pytest.mark.parametrize(
    "raw",
    [
        '{"id": "a", "type": "clock_set", "clock": NaN, "reason": "x"}',
        '{"id": "a", "type": "clock_set", "clock": Infinity, "reason": "x"}',
        '{"id": "a", "type": "clock_set", "clock": -Infinity, "reason": "x"}',
        '{"id": "a", "type": "clock_set", "clock": 1e400, "reason": "x"}',
        '{"id": "a", "type": "clock_set", "clock": ' + "9" * 5000 + ', "reason": "x"}',
        b'{"id": "a", "type": "play", "note": "\xff\xfe"}',
        '{"id": "a", "type": "play"} trailing',
        '{"id": "a", "type": "play", "id": "b", ',
    ],
)
def test_numbers_json_cannot_hold_and_broken_text_are_refused(cast, raw):
    response = post_event(client_for(cast.scorer_a), cast.match_a, raw)
    error_of(response, 400, "invalid_event")
    assert not MatchEvent.objects.exists()


def test_the_body_refusals_speak_spanish(cast):
    response = post_event(client_for(cast.scorer_a), cast.match_a, "[" * 5000 + "]" * 5000, HTTP_ACCEPT_LANGUAGE="es")
    error = error_of(response, 400, "invalid_event")
    english = error_of(
        post_event(client_for(cast.scorer_a), cast.match_a, "[" * 5000 + "]" * 5000), 400, "invalid_event"
    )
    assert response["Content-Language"] == "es" and error["message"] != english["message"]
    assert error["message"] == spanish(english["message"])


def test_an_event_over_the_size_cap_is_too_large(cast):
    response = post_event(client_for(cast.scorer_a), cast.match_a, ev("play", note="x" * 20000))
    error_of(response, 413, "too_large")
    assert not MatchEvent.objects.exists()


# --- the confirmations' body -----------------------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        "[" * 500 + "]" * 500,
        json.dumps({"period": 1e300, "score": {"home": 0, "away": 0}}),
        json.dumps({"period": 10**30, "score": {"home": 0, "away": 0}}),
        json.dumps({"period": True, "score": {"home": 0, "away": 0}}),
        json.dumps({"period": "1", "score": {"home": 0, "away": 0}}),
        json.dumps({"period": 1, "score": {"home": "nan", "away": 0}}),
        json.dumps({"period": 1, "score": {"home": 1e308, "away": 0}}),
        json.dumps({"period": 1, "score": ["home", "away"]}),
        json.dumps({"period": 1, "score": "home"}),
        '{"period": 1, "score": {"home": NaN, "away": 0}}',
        json.dumps([1, 2]),
        "",
        "\u0000",
    ],
)
def test_a_confirmation_body_that_is_not_a_chukker_and_a_score_is_refused(cast, body):
    response = client_for(cast.umpire_a).post(
        f"/api/matches/{cast.match_a.pk}/confirmations", body, content_type="application/json"
    )
    error_of(response, 400, "invalid")


def test_a_number_no_float_can_hold_is_refused_by_the_rules_not_a_crash(cast):
    """A 400-digit integer is JSON (and Python's), but ``int - float`` overflows."""
    log(cast.match_a, ev("play"))
    huge = "1" + "0" * 400
    out = '{"id": "b", "type": "ball_out", "line": "side", "at": {"x": HUGE, "y": 0}, "last_hit_by": "home"}'
    goal = '{"id": "c", "type": "goal", "team": "home", "clock": HUGE}'
    for raw in (out, goal):
        error_of(post_event(client_for(cast.scorer_a), cast.match_a, raw.replace("HUGE", huge)), 422, "invalid_event")
