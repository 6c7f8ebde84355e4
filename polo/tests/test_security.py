"""Security from the start: deploy checks, CSP, login throttling."""

import secrets
import subprocess
import sys

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from polo.testing import BASE_DIR


def test_check_deploy_passes_with_production_settings(tmp_path):
    env = {
        "PATH": "/usr/bin:/bin",
        "DJANGO_SETTINGS_MODULE": "polo.settings",
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(64),
        "SCORESHEET_SIGNING_KEY": secrets.token_urlsafe(64),  # (unset: a warning, matches.W001)
        "ALLOWED_HOSTS": "polo.example.org",
        "POLO_VAR_DIR": str(tmp_path),
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/", "/accounts/login/", "/admin/login/", "/healthz"])
def test_every_page_has_a_content_security_policy(client, path):
    response = client.get(path)
    assert response.status_code == 200
    policy = response.headers["Content-Security-Policy"]
    assert "default-src 'self'" in policy
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy
    assert "frame-ancestors 'none'" in policy


@pytest.mark.django_db
def test_the_login_form_carries_a_csrf_token_and_refuses_a_post_without_it():
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    page = strict.get("/accounts/login/")
    assert b"csrfmiddlewaretoken" in page.content
    response = strict.post("/accounts/login/", {"username": "x", "password": "y"})
    assert response.status_code == 403


@pytest.mark.django_db
def test_login_is_throttled_after_repeated_failures(client, settings):
    """The whole throttle (per address, per login, the backoff, proxies, the committee's unlock, Redis
    away) is in matches/tests/test_login_throttle*.py."""
    settings.LOGIN_THROTTLE_ATTEMPTS = 3
    get_user_model().objects.create_user("sam", password="right password")
    for _ in range(2):
        assert client.post("/accounts/login/", {"username": "sam", "password": "wrong"}).status_code == 200
    assert client.post("/accounts/login/", {"username": "sam", "password": "wrong"}).status_code == 429
    blocked = client.post("/accounts/login/", {"username": "sam", "password": "right password"})
    assert blocked.status_code == 429
    assert b"Too many failed login attempts" in blocked.content
    assert "_auth_user_id" not in client.session
    elsewhere = Client(REMOTE_ADDR="198.51.100.20")
    assert elsewhere.post("/accounts/login/", {"username": "sam", "password": "right password"}).status_code == 302


@pytest.mark.django_db
def test_the_throttle_message_is_in_spanish_for_a_spanish_official(client, settings):
    settings.LOGIN_THROTTLE_ATTEMPTS = 1
    blocked = client.post("/accounts/login/", {"username": "sam", "password": "wrong"}, HTTP_ACCEPT_LANGUAGE="es")
    assert blocked.status_code == 429
    assert b"Demasiados intentos fallidos" in blocked.content
