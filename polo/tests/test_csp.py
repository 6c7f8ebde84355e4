"""Issue 11: the Content-Security-Policy (``polo/middleware.py``) and the overlay's framing.

The defects: ``connect-src`` allowed ``ws:``/``wss:`` to any host (a script injected into a page
could have sent what it read anywhere over a websocket), and the stream overlay sent
``frame-ancestors 'none'``, so a production switcher that embeds it in a frame could not. Now
``connect-src`` is the page's own origin ('self', which in CSP Level 3 covers the same origin's
ws:/wss:, the scoreboard's socket: tests/browser/test_csp_websocket.py), and only the origins in
``OVERLAY_FRAME_ANCESTORS`` may frame the overlay; every other page, and the overlay by default,
may be framed by no one (``frame-ancestors 'none'`` and ``X-Frame-Options: DENY``).
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from polo.env import ConfigError, env_origins
from polo.middleware import content_security_policy
from polo.testing import BASE_DIR

pytestmark = pytest.mark.django_db


def directives(response) -> dict[str, list[str]]:
    policy = response.headers["Content-Security-Policy"]
    parsed = {}
    for part in policy.split(";"):
        name, *values = part.split()
        parsed[name] = values
    return parsed


@pytest.fixture
def overlay_url() -> str:
    from matches.demo import load_demo

    _, live = load_demo()
    return f"/matches/{live.pk}/overlay/"


@pytest.mark.parametrize("path", ["/", "/accounts/login/", "/healthz", "/readyz", "/api/time"])
def test_connect_src_is_the_page_s_own_origin_only(client, path):
    response = client.get(path)
    csp = directives(response)
    assert csp["connect-src"] == ["'self'"]
    for name, values in csp.items():
        assert not {"ws:", "wss:", "*", "http:", "https:"} & set(values), (name, values)


def test_the_public_live_pages_connect_to_their_own_origin_only(client, overlay_url):
    scoreboard = overlay_url.replace("overlay/", "")
    for path in (scoreboard, overlay_url):
        response = client.get(path)
        assert response.status_code == 200
        assert directives(response)["connect-src"] == ["'self'"]


def test_the_overlay_may_be_framed_by_no_one_by_default(client, settings, overlay_url):
    settings.OVERLAY_FRAME_ANCESTORS = []
    response = client.get(overlay_url)
    assert response.status_code == 200
    assert directives(response)["frame-ancestors"] == ["'none'"]
    assert response["X-Frame-Options"] == "DENY"


def test_the_overlay_may_be_framed_by_the_configured_origins_only(client, settings, overlay_url):
    settings.OVERLAY_FRAME_ANCESTORS = ["https://switcher.example.com", "http://192.0.2.7:8088"]
    response = client.get(overlay_url)
    assert response.status_code == 200
    assert directives(response)["frame-ancestors"] == ["https://switcher.example.com", "http://192.0.2.7:8088"]
    # X-Frame-Options cannot name an origin (ALLOW-FROM is gone from browsers): none is sent, and
    # the CSP, which every browser that frames reads, decides.
    assert "X-Frame-Options" not in response
    assert directives(response)["connect-src"] == ["'self'"]  # the rest of the policy is unchanged


@pytest.mark.parametrize("path", ["/", "/accounts/login/", "/committee/", "/admin/login/"])
def test_every_other_page_stays_unframeable_when_the_overlay_may_be_framed(client, settings, path):
    settings.OVERLAY_FRAME_ANCESTORS = ["https://switcher.example.com"]
    response = client.get(path)
    assert directives(response)["frame-ancestors"] == ["'none'"]
    assert response["X-Frame-Options"] == "DENY"


def test_the_scoreboard_is_not_the_overlay(client, settings, overlay_url):
    settings.OVERLAY_FRAME_ANCESTORS = ["https://switcher.example.com"]
    response = client.get(overlay_url.replace("overlay/", ""))
    assert directives(response)["frame-ancestors"] == ["'none'"] and response["X-Frame-Options"] == "DENY"


def test_the_policy_names_its_frame_ancestors_or_none():
    assert "frame-ancestors 'none'" in content_security_policy()
    assert "frame-ancestors https://a.example https://b.example" in content_security_policy(
        frame_ancestors=["https://a.example", "https://b.example"]
    )


# --- OVERLAY_FRAME_ANCESTORS: origins, checked at start-up ---------------------------------------


def test_overlay_frame_ancestors_reads_comma_separated_origins(monkeypatch):
    monkeypatch.setenv("X_ORIGINS", " https://Switcher.Example.com , http://192.0.2.7:8088,https://[2001:db8::1]:443/")
    assert env_origins("X_ORIGINS") == [
        "https://switcher.example.com",
        "http://192.0.2.7:8088",
        "https://[2001:db8::1]:443",
    ]
    monkeypatch.delenv("X_ORIGINS")
    assert env_origins("X_ORIGINS") == []
    monkeypatch.setenv("X_ORIGINS", "")
    assert env_origins("X_ORIGINS") == []


@pytest.mark.parametrize(
    "value",
    [
        "*",
        "https://*.example.com",
        "'self'",
        "'none'",
        "switcher.example.com",
        "ftp://switcher.example.com",
        "javascript:alert(1)",
        "https://switcher.example.com/overlay",
        "https://switcher.example.com?x=1",
        "https://switcher.example.com#x",
        "https://user:pass@switcher.example.com",
        "https://switcher.example.com:99999",
        "https://switcher.example.com; script-src *",
        "https://switcher example.com",
        "https://",
    ],
)
def test_overlay_frame_ancestors_refuses_what_is_not_an_origin(monkeypatch, value):
    monkeypatch.setenv("X_ORIGINS", value)
    with pytest.raises(ConfigError, match="X_ORIGINS"):
        env_origins("X_ORIGINS")


def test_a_bad_overlay_frame_ancestor_stops_the_app_at_start_up(tmp_path):
    env = {
        "PATH": "/usr/bin:/bin",
        "DJANGO_SETTINGS_MODULE": "polo.settings",
        "DEBUG": "true",
        "POLO_VAR_DIR": str(tmp_path),
        "OVERLAY_FRAME_ANCESTORS": "https://switcher.example.com/overlay",
    }
    bad = subprocess.run([sys.executable, "manage.py", "check"], cwd=BASE_DIR, env=env, capture_output=True, text=True)
    assert bad.returncode != 0
    assert "OVERLAY_FRAME_ANCESTORS" in bad.stderr
    env["OVERLAY_FRAME_ANCESTORS"] = "https://switcher.example.com"
    ok = subprocess.run([sys.executable, "manage.py", "check"], cwd=BASE_DIR, env=env, capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr
