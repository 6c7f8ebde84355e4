"""Issue 11: ``/healthz`` said ok while Redis was unreachable. Now ``/healthz`` is liveness (the
process answers; it touches nothing) and ``/readyz`` is readiness: the database and, when
``REDIS_URL`` is set, Redis, each checked with a short timeout, 503 naming what is down. Compose's
health check of the web service asks ``/readyz`` (run here as compose writes it).

Both answer compose's health check as it arrives: plain HTTP to 127.0.0.1:8000, a Host that is not
in ``ALLOWED_HOSTS``, no X-Forwarded-Proto (before, ``/healthz`` answered that with a 400)."""

from __future__ import annotations

import json
import secrets
import socket
import time

import pytest
from django.test import Client

from polo import health

from .live_servers import TEST_REDIS_URL
from .ops_helpers import Uvicorn, compose, run_health_check

pytestmark = pytest.mark.django_db


def closed_port() -> int:
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def silent_redis():
    """A Redis that takes the connection and never answers (a hung server, a black hole)."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(8)
        yield f"redis://127.0.0.1:{server.getsockname()[1]}/0"


def test_healthz_is_liveness_and_reads_nothing(client, django_assert_num_queries, settings):
    settings.REDIS_URL = f"redis://127.0.0.1:{closed_port()}/0"  # whatever is down, the process answers
    with django_assert_num_queries(0):
        response = client.get("/healthz")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"ok": True}
    assert "no-store" in response["Cache-Control"]


def test_readyz_checks_the_database_and_redis(client, settings):
    settings.REDIS_URL = TEST_REDIS_URL
    response = client.get("/readyz")
    assert response.status_code == 200, response.content
    assert response.json() == {"ok": True, "checks": {"database": "ok", "redis": "ok"}}


def test_readyz_without_redis_configured_checks_the_database_only(client, settings):
    settings.REDIS_URL = None
    response = client.get("/readyz")
    assert response.status_code == 200
    assert response.json() == {"ok": True, "checks": {"database": "ok"}}


def test_readyz_is_503_naming_redis_when_redis_is_unreachable(client, settings):
    """The issue's defect: the health check said ok with Redis unreachable."""
    settings.REDIS_URL = f"redis://127.0.0.1:{closed_port()}/0"
    response = client.get("/readyz")
    assert response.status_code == 503
    assert response.json() == {"ok": False, "checks": {"database": "ok", "redis": "down"}}
    assert client.get("/healthz").status_code == 200  # alive all the same: no restart for it


def test_readyz_gives_up_on_a_hung_redis_within_its_timeout(client, settings, silent_redis):
    settings.REDIS_URL = silent_redis
    started = time.monotonic()
    response = client.get("/readyz")
    took = time.monotonic() - started
    assert response.status_code == 503
    assert response.json()["checks"]["redis"] in ("down", "timeout")
    assert took < health.CHECK_TIMEOUT_SECONDS + 1.0, took


def test_readyz_is_503_naming_the_database_when_it_fails(client, settings, monkeypatch):
    settings.REDIS_URL = None

    def refused() -> None:
        raise OSError("connection refused")

    monkeypatch.setitem(health.CHECKS, "database", refused)
    response = client.get("/readyz")
    assert response.status_code == 503
    assert response.json() == {"ok": False, "checks": {"database": "down"}}


def test_readyz_says_nothing_of_the_error_itself(client, settings):
    """The probes are public behind nginx: a reason, never the exception (hosts, users, paths)."""
    settings.REDIS_URL = f"redis://secret-user:secret-password@127.0.0.1:{closed_port()}/0"
    body = client.get("/readyz").content.decode()
    assert "secret" not in body and "127.0.0.1" not in body


def test_the_probes_answer_compose_s_health_check_under_production_settings(settings):
    """Plain HTTP to 127.0.0.1:8000: not a host in ALLOWED_HOSTS, no X-Forwarded-Proto. (The real
    production settings, through uvicorn: the last test here.)"""
    settings.DEBUG = False
    settings.ALLOWED_HOSTS = ["polo.example.org"]
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$"]  # polo/settings.py without DEBUG
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.REDIS_URL = None
    probe = Client(HTTP_HOST="127.0.0.1:8000")
    assert probe.get("/healthz").status_code == 200
    assert probe.get("/readyz").status_code == 200
    assert probe.head("/readyz").status_code == 200
    # Every other page still checks the host (and redirects plain HTTP to HTTPS).
    assert probe.get("/").status_code == 400
    assert Client(HTTP_HOST="polo.example.org").get("/").status_code == 301


def test_the_probes_answer_get_and_head_only(client):
    assert client.post("/healthz").status_code == 405
    assert client.put("/readyz").status_code == 405


def test_compose_checks_the_web_service_s_readiness_with_a_timeout_inside_its_own():
    web = compose()["services"]["web"]["healthcheck"]
    command = " ".join(web["test"])
    assert "/readyz" in command and "/healthz" not in command
    assert float(web["timeout"].rstrip("s")) > health.CHECK_TIMEOUT_SECONDS + 1
    assert "start_period" in web


def production_env(tmp_path) -> dict[str, str]:
    return {
        "DJANGO_SETTINGS_MODULE": "polo.settings",
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "polo.example.org",
        "POLO_VAR_DIR": str(tmp_path),
    }


def test_compose_s_health_check_fails_while_the_database_and_redis_are_down_and_passes_when_up(tmp_path, make_server):
    """The web service as compose runs it, production settings, nothing to reach: alive
    (``/healthz`` 200), not ready (``/readyz`` 503 naming both), and compose's own health check
    fails; then a server with its database (and Redis, when the run has it) up passes it."""
    down = Uvicorn(
        {
            **production_env(tmp_path),
            "DATABASE_URL": f"postgres://polo:polo@127.0.0.1:{closed_port()}/polo",
            "DATABASE_POOL": "false",
            "REDIS_URL": f"redis://127.0.0.1:{closed_port()}/0",
        },
        tmp_path / "down.log",
    ).start()
    try:
        import urllib.error
        import urllib.request

        with pytest.raises(urllib.error.HTTPError) as not_ready:
            urllib.request.urlopen(down.url + "/readyz", timeout=10)
        assert not_ready.value.code == 503
        assert json.loads(not_ready.value.read()) == {"ok": False, "checks": {"database": "down", "redis": "down"}}
        assert run_health_check(down.port).returncode != 0
    finally:
        down.stop()

    up = make_server("ready", demo=False, extra_env=production_env(tmp_path)).start()
    checked = run_health_check(up.port)
    assert checked.returncode == 0, checked.stdout + checked.stderr
