"""JSON everywhere under /api/ (issue 11): a CSRF refusal, a path that is not there, a method the
path does not take, a body over the size cap and a crash all answer with the API's error shape
(``{"error": {"code", "rule", "message"}}``) in the caller's language — never an HTML page. Pages
outside /api/ keep their HTML."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from django.utils import translation

from matches.api import views

from .live_helpers import client_for, ev, post_event

pytestmark = pytest.mark.django_db


def error_of(response, status: int, code: str) -> dict:
    assert response.status_code == status, (response.status_code, response.content[:300])
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    body = response.json()
    assert set(body["error"]) >= {"code", "rule", "message"}
    assert body["error"]["code"] == code and body["error"]["message"], body
    return body["error"]


def spanish(msgid: str) -> str:
    with translation.override("es"):
        return translation.gettext(msgid)


def test_a_csrf_refusal_is_json_in_the_callers_language(cast):
    client = client_for(cast.scorer_a, enforce_csrf_checks=True)
    error = error_of(post_event(client, cast.match_a, ev("play")), 403, "csrf_failed")
    assert error["rule"] is None
    spanish_error = error_of(
        post_event(client, cast.match_a, ev("play"), HTTP_ACCEPT_LANGUAGE="es"), 403, "csrf_failed"
    )
    assert spanish_error["message"] == spanish(error["message"]) != error["message"]


def test_a_csrf_refusal_outside_the_api_is_still_a_page(cast):
    client = client_for(cast.committee, enforce_csrf_checks=True)
    response = client.post("/accounts/logout/")
    assert response.status_code == 403 and response["Content-Type"].startswith("text/html")


@pytest.mark.parametrize(
    "path", ["/api/nothing", "/api/matches/abc/state", "/api/matches/1/state/", "/api/", "/api/matches/1/nope"]
)
def test_a_path_that_is_not_there_is_json(path):
    error_of(Client().get(path), 404, "not_found")


def test_not_found_speaks_spanish():
    english = error_of(Client().get("/api/nothing"), 404, "not_found")
    spanish_error = error_of(Client().get("/api/nothing", HTTP_ACCEPT_LANGUAGE="es"), 404, "not_found")
    assert spanish_error["message"] == spanish(english["message"]) != english["message"]


def test_a_page_that_is_not_there_is_still_html():
    response = Client().get("/no-such-page/")
    assert response.status_code == 404 and not response["Content-Type"].startswith("application/json")


@pytest.mark.parametrize(
    "method,path",
    [
        ("put", "/api/time"),
        ("delete", "/api/matches/1/events"),
        ("post", "/api/matches/1/state"),
        ("patch", "/api/matches"),
        ("post", "/api/openapi.json"),
    ],
)
def test_a_method_the_path_does_not_take_is_json_with_allow(cast, method, path):
    client = client_for(cast.scorer_a)
    response = getattr(client, method)(path, "{}", content_type="application/json")
    error_of(response, 405, "method_not_allowed")
    assert response["Allow"]


def test_a_body_over_djangos_cap_is_413_json(cast):
    """Over ``DATA_UPLOAD_MAX_MEMORY_SIZE``: Django raises RequestDataTooBig (an HTML 400 before)."""
    big = "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1)
    umpire = client_for(cast.umpire_a)
    url = f"/api/matches/{cast.match_a.pk}/confirmations"
    error_of(umpire.post(url, big, content_type="application/json"), 413, "too_large")
    # A form body is read by the CSRF check itself, before any view.
    strict = client_for(cast.umpire_a, enforce_csrf_checks=True)
    error_of(strict.post(url, big, content_type="application/x-www-form-urlencoded"), 413, "too_large")
    events = f"/api/matches/{cast.match_a.pk}/events"
    error_of(strict.post(events, big, content_type="application/x-www-form-urlencoded"), 413, "too_large")


def test_too_large_speaks_spanish(cast):
    big = "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1)
    url = f"/api/matches/{cast.match_a.pk}/confirmations"
    english = error_of(client_for(cast.umpire_a).post(url, big, content_type="application/json"), 413, "too_large")
    response = client_for(cast.umpire_a).post(url, big, content_type="application/json", HTTP_ACCEPT_LANGUAGE="es")
    msgid, size = "The body is too large: at most %(size)d bytes.", {"size": settings.DATA_UPLOAD_MAX_MEMORY_SIZE}
    assert english["message"] == msgid % size
    assert error_of(response, 413, "too_large")["message"] == spanish(msgid) % size


def test_a_crash_under_the_api_is_a_json_500(cast, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(views.snapshots, "match_snapshot", broken)
    response = Client(raise_request_exception=False).get(f"/api/matches/{cast.match_a.pk}/state")
    error = error_of(response, 500, "server_error")
    assert "a bug" not in error["message"]


def test_the_documented_errors_keep_their_codes(cast):
    error_of(Client().get("/api/matches/999999/state"), 404, "not_found")
    error_of(post_event(Client(), cast.match_a, ev("play")), 403, "forbidden")
