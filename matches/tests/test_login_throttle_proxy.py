"""Whose address the login throttle counts (issue 11, item 1): only a configured trusted proxy
(``FORWARDED_ALLOW_IPS``, our nginx in docker-compose) is believed about the client's address, and
only for the address it appended itself.

The defect: uvicorn ran with ``--forwarded-allow-ips '*'``, so the leftmost ``X-Forwarded-For``
value, which the client writes, was taken as its address; eight wrong passwords each with
``X-Forwarded-For: 10.1.0.$i, 127.0.0.1`` came from eight addresses and none got 429. The tests
below run the app behind uvicorn's own proxy-headers middleware configured exactly as
docker-compose.yml configures it, and Django's own reading of the address
(``matches.auth.client_address``) with the same trusted proxies."""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys
from urllib.parse import urlencode

import pytest
import yaml
from asgiref.sync import async_to_sync
from axes.models import AccessAttempt
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.test import RequestFactory
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from matches.auth import client_address
from polo.testing import BASE_DIR

from .personas import PASSWORD, make_user

pytestmark = pytest.mark.django_db

CSRF = "a" * 32  # a CSRF secret: the cookie and the form field carry the same one


def compose() -> dict:
    return yaml.safe_load((BASE_DIR / "docker-compose.yml").read_text())


def interpolate(value: str) -> str:
    """docker compose's ``${NAME:-default}`` with NAME unset (as in a fresh .env)."""
    return re.sub(r"\$\{[A-Z_]+:-([^}]*)\}", r"\1", value)


def deployed_trusted_proxies() -> str:
    command = compose()["services"]["web"]["command"]
    return interpolate(command[command.index("--forwarded-allow-ips") + 1])


def proxy_address() -> str:
    return interpolate(compose()["services"]["proxy"]["networks"]["default"]["ipv4_address"])


@pytest.fixture
def deployed(settings):
    """The app as compose runs it: uvicorn's proxy-headers middleware trusting what the web
    command says, and Django's settings reading the same value (compose passes it as
    FORWARDED_ALLOW_IPS)."""
    settings.TRUSTED_PROXIES = [p.strip() for p in deployed_trusted_proxies().split(",") if p.strip()]
    settings.LOGIN_THROTTLE_ATTEMPTS = 5
    settings.LOGIN_THROTTLE_ADDRESS_ATTEMPTS = 5
    from polo.asgi import application

    app = ProxyHeadersMiddleware(application, trusted_hosts=deployed_trusted_proxies())
    # As Django's test client does: the test's transaction must outlive each request.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield app
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


def post_login(app, *, peer: str, username: str, password: str, forwarded_for: str | None = None) -> int:
    body = urlencode({"username": username, "password": password, "csrfmiddlewaretoken": CSRF}).encode()
    headers = [
        (b"host", b"localhost"),
        (b"content-type", b"application/x-www-form-urlencoded"),
        (b"content-length", str(len(body)).encode()),
        (b"cookie", f"csrftoken={CSRF}".encode()),
    ]
    if forwarded_for is not None:
        headers += [(b"x-forwarded-for", forwarded_for.encode()), (b"x-forwarded-proto", b"http")]
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/accounts/login/",
        "raw_path": b"/accounts/login/",
        "query_string": b"",
        "root_path": "",
        "headers": headers,
        "client": (peer, 51000),
        "server": ("172.30.0.200", 8000),
    }
    messages: list[dict] = []
    delivered = False

    async def receive():
        nonlocal delivered
        if not delivered:
            delivered = True
            return {"type": "http.request", "body": body, "more_body": False}
        await asyncio.Event().wait()  # the client stays connected

    async def send(message):
        messages.append(message)

    async_to_sync(app)(scope, receive, send)
    return next(m for m in messages if m["type"] == "http.response.start")["status"]


def test_compose_trusts_only_our_proxy_for_forwarded_addresses():
    trusted = deployed_trusted_proxies()
    assert "*" not in trusted
    assert trusted == proxy_address()
    web = compose()["services"]["web"]
    flag = web["command"].index("--forwarded-allow-ips")
    assert web["environment"]["FORWARDED_ALLOW_IPS"] == web["command"][flag + 1]  # Django reads the same


def test_eight_spoofed_forwarded_for_values_through_our_proxy_count_as_one_address(deployed):
    """The issue's attack through nginx: each request's X-Forwarded-For starts with a made-up
    address, and nginx appends the real one. Only the appended address counts, so the attacker's
    wrong passwords add up (here five per address) and the rest get 429."""
    statuses = []
    for i in range(8):
        statuses.append(
            post_login(
                deployed,
                peer=proxy_address(),
                username=f"guess{i}",
                password="wrong",
                forwarded_for=f"10.1.0.{i}, 127.0.0.1, 203.0.113.66",
            )
        )
    assert statuses == [200, 200, 200, 200, 429, 429, 429, 429]
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {"203.0.113.66"}


def test_a_peer_that_is_not_our_proxy_is_not_believed(deployed):
    """Anything else that reaches the web service directly (another container, a scanner inside
    the network) is counted by its own address, whatever X-Forwarded-For it sends."""
    for i in range(5):
        post_login(deployed, peer="172.30.0.201", username="sam", password="wrong", forwarded_for=f"10.1.0.{i}")
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {"172.30.0.201"}


def test_the_official_behind_the_same_proxy_still_logs_in(deployed):
    make_user("umpire2")
    for i in range(8):
        post_login(
            deployed,
            peer=proxy_address(),
            username="umpire2",
            password="wrong",
            forwarded_for=f"10.1.0.{i}, 127.0.0.1, 203.0.113.66",
        )
    assert (
        post_login(deployed, peer=proxy_address(), username="umpire2", password=PASSWORD, forwarded_for="203.0.113.66")
        == 429
    )
    assert (
        post_login(deployed, peer=proxy_address(), username="umpire2", password=PASSWORD, forwarded_for="198.51.100.20")
        == 302
    )


# -- Django's own reading of the address (whether or not the server resolved it) -------------------


def address(settings, trusted: list[str], peer: str, forwarded_for: str | None = None) -> str | None:
    settings.TRUSTED_PROXIES = trusted
    extra = {"REMOTE_ADDR": peer}
    if forwarded_for is not None:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded_for
    return client_address(RequestFactory().post("/accounts/login/", **extra))


def test_an_untrusted_peer_s_forwarded_for_is_ignored(settings):
    assert address(settings, ["172.30.0.10"], "198.51.100.7", "10.1.0.1, 127.0.0.1") == "198.51.100.7"
    assert address(settings, [], "198.51.100.7", "10.1.0.1") == "198.51.100.7"


def test_through_the_trusted_proxy_the_address_it_appended_counts(settings):
    assert address(settings, ["172.30.0.10"], "172.30.0.10", "10.1.0.1, 127.0.0.1, 203.0.113.66") == "203.0.113.66"
    assert address(settings, ["172.30.0.10"], "172.30.0.10", "203.0.113.66") == "203.0.113.66"
    assert address(settings, ["172.30.0.10"], "172.30.0.10") == "172.30.0.10"  # the proxy's own request


def test_a_chain_of_trusted_proxies_is_walked_from_the_right(settings):
    """A load balancer (or TLS terminator) in front of nginx: both are listed, and the client is
    the rightmost address neither of them is."""
    trusted = ["172.30.0.10", "192.0.2.0/28"]
    assert address(settings, trusted, "172.30.0.10", "10.1.0.1, 203.0.113.66, 192.0.2.5") == "203.0.113.66"
    assert address(settings, trusted, "172.30.0.10", "[2001:db8::7]:4711, 192.0.2.5") == "2001:db8::"
    assert address(settings, trusted, "172.30.0.10", "203.0.113.66:4711") == "203.0.113.66"


def test_an_ipv6_client_counts_by_its_64_block(settings):
    """One IPv6 site holds a whole /64 and may change addresses within it at will: it is one
    address to the throttle. An IPv4 address written as IPv6 is the IPv4 address."""
    assert address(settings, [], "2001:db8:1:2:aaaa::1") == "2001:db8:1:2::"
    assert address(settings, [], "2001:db8:1:2:bbbb::9") == "2001:db8:1:2::"
    assert address(settings, [], "2001:db8:1:3::1") == "2001:db8:1:3::"
    assert address(settings, [], "::ffff:198.51.100.7") == "198.51.100.7"


def test_garbage_in_the_chain_stops_at_the_last_trusted_hop(settings):
    assert address(settings, ["172.30.0.10"], "172.30.0.10", "10.1.0.1, not-an-address") == "172.30.0.10"
    assert address(settings, ["172.30.0.10"], "172.30.0.10", "unknown") == "172.30.0.10"
    assert address(settings, ["172.30.0.10"], "172.30.0.10", "") == "172.30.0.10"


def test_a_wildcard_is_refused_at_start_up(tmp_path):
    env = {
        "PATH": "/usr/bin:/bin",
        "DJANGO_SETTINGS_MODULE": "polo.settings",
        "DEBUG": "true",
        "POLO_VAR_DIR": str(tmp_path),
        "FORWARDED_ALLOW_IPS": "*",
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=BASE_DIR, env=env, capture_output=True, text=True
    )
    assert result.returncode != 0
    assert "FORWARDED_ALLOW_IPS" in result.stderr
    env["FORWARDED_ALLOW_IPS"] = "172.30.0.10, 192.0.2.0/28"
    ok = subprocess.run([sys.executable, "manage.py", "check"], cwd=BASE_DIR, env=env, capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr
