"""Login throttling (issue 11, item 1): limits per (username, address) and per address, a per-username
backoff that only slows, the lockout message in the official's language with status 429, and all of
it with Redis away (the attempts are counted in the database, not the cache).

Addresses are the ones the server hands Django (``REMOTE_ADDR``); how the trusted proxy's address
is believed is in ``test_login_throttle_proxy.py``."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync
from axes.models import AccessAttempt, AccessLog
from django.test import AsyncClient, Client
from django.urls import reverse

from matches.demo import DEMO_PASSWORD, load_demo

from .personas import PASSWORD, make_user

pytestmark = pytest.mark.django_db

LOGIN = "/accounts/login/"


@pytest.fixture(autouse=True)
def limits(settings):
    settings.LOGIN_THROTTLE_ATTEMPTS = 5
    settings.LOGIN_THROTTLE_SECONDS = 300
    settings.LOGIN_THROTTLE_ADDRESS_ATTEMPTS = 20
    settings.LOGIN_THROTTLE_USERNAME_ATTEMPTS = 20
    settings.TRUSTED_PROXIES = []
    return settings


def from_address(address: str, **headers) -> Client:
    return Client(REMOTE_ADDR=address, **headers)


def attempt(client: Client, username: str, password: str = "wrong", **extra):
    return client.post(LOGIN, {"username": username, "password": password}, **extra)


def logged_in(client: Client) -> bool:
    return bool(client.session.get("_auth_user_id"))


def test_five_wrong_passwords_lock_that_login_at_that_address():
    make_user("umpire2")
    client = from_address("198.51.100.7")
    for _ in range(4):
        assert attempt(client, "umpire2").status_code == 200
    fifth = attempt(client, "umpire2")
    assert fifth.status_code == 429
    assert b"Too many failed login attempts" in fifth.content
    assert fifth["Retry-After"] == "300"
    right = attempt(client, "umpire2", PASSWORD)
    assert right.status_code == 429 and not logged_in(client)
    # Only that login is locked there: someone else at the same address still logs in.
    make_user("scorer2")
    other = from_address("198.51.100.7")
    assert attempt(other, "scorer2", PASSWORD).status_code == 302 and logged_in(other)


def test_the_right_password_from_another_address_still_logs_in_after_another_address_s_failures():
    """The defect: five wrong tries from anywhere locked umpire2 out everywhere."""
    make_user("umpire2")
    attacker = from_address("203.0.113.66")
    for _ in range(8):
        attempt(attacker, "umpire2")
    assert attempt(attacker, "umpire2", PASSWORD).status_code == 429
    official = from_address("198.51.100.20")
    response = attempt(official, "umpire2", PASSWORD)
    assert response.status_code == 302 and logged_in(official)


def test_many_addresses_against_one_login_slow_each_address_down_but_never_lock_the_official_out():
    """The per-username backoff: past LOGIN_THROTTLE_USERNAME_ATTEMPTS failures for one login (from
    any addresses) each address gets fewer tries at it (5, then 2, then 1), never none: the first
    try from an address that has not failed still checks the password."""
    make_user("umpire2")
    for n in range(4):  # 20 failures from four addresses: the login is now under attack
        client = from_address(f"203.0.113.{n + 1}")
        for _ in range(5):
            attempt(client, "umpire2")
    fresh = from_address("203.0.113.50")
    assert attempt(fresh, "umpire2").status_code == 200
    assert attempt(fresh, "umpire2").status_code == 429  # 2 tries per address now, not 5
    for n in range(10):  # 20 more: one try per address from now on
        client = from_address(f"203.0.114.{n + 1}")
        attempt(client, "umpire2")
        attempt(client, "umpire2")
    lone = from_address("203.0.115.1")
    assert attempt(lone, "umpire2").status_code == 429
    assert attempt(lone, "umpire2", PASSWORD).status_code == 429
    official = from_address("198.51.100.20")
    assert attempt(official, "umpire2", PASSWORD).status_code == 302 and logged_in(official)


def test_one_address_trying_many_logins_is_stopped_at_the_address_limit():
    for n in range(20):
        assert attempt(from_address("203.0.113.66"), f"guess{n}").status_code == (429 if n == 19 else 200)
    make_user("referee2")
    assert attempt(from_address("203.0.113.66"), "referee2", PASSWORD).status_code == 429
    elsewhere = from_address("198.51.100.20")
    assert attempt(elsewhere, "referee2", PASSWORD).status_code == 302


def test_the_limits_follow_the_login_throttle_settings(settings):
    settings.LOGIN_THROTTLE_ATTEMPTS = 2
    make_user("sam")
    client = from_address("198.51.100.7")
    assert attempt(client, "sam").status_code == 200
    assert attempt(client, "sam").status_code == 429


def test_a_lock_ends_after_login_throttle_seconds():
    make_user("sam")
    client = from_address("198.51.100.7")
    for _ in range(5):
        attempt(client, "sam")
    assert attempt(client, "sam", PASSWORD).status_code == 429
    AccessAttempt.objects.update(attempt_time=AccessAttempt.objects.get().attempt_time.replace(year=2000))
    assert attempt(client, "sam", PASSWORD).status_code == 302


def test_a_successful_login_clears_that_login_s_failures_at_that_address():
    make_user("sam")
    client = from_address("198.51.100.7")
    for _ in range(4):
        attempt(client, "sam")
    assert attempt(client, "sam", PASSWORD).status_code == 302
    assert not AccessAttempt.objects.filter(username="sam").exists()


def test_the_lockout_message_is_in_spanish_for_a_spanish_official():
    make_user("sam")
    client = from_address("198.51.100.7", HTTP_ACCEPT_LANGUAGE="es")
    for _ in range(4):
        attempt(client, "sam")
    blocked = attempt(client, "sam")
    assert blocked.status_code == 429
    assert b"Demasiados intentos fallidos" in blocked.content
    assert "pida al Comité".encode() in blocked.content
    assert b'lang="es"' in blocked.content


def test_the_lockout_holds_under_asgi_as_uvicorn_serves_it():
    """uvicorn runs the middleware chain asynchronously (axes' middleware has a code path of its
    own there): the lockout is the same page and status."""
    make_user("sam")
    client = AsyncClient()
    post = async_to_sync(client.post)
    for _ in range(4):
        assert post(LOGIN, {"username": "sam", "password": "wrong"}).status_code == 200
    blocked = post(LOGIN, {"username": "sam", "password": "wrong"})
    assert blocked.status_code == 429
    assert b"Too many failed login attempts" in blocked.content


def test_the_admin_login_is_throttled_the_same_way():
    load_demo()
    client = from_address("203.0.113.66")
    url = reverse("admin:login")
    for _ in range(5):
        last = client.post(url, {"username": "committee", "password": "wrong"})
    assert last.status_code == 429
    assert client.post(url, {"username": "committee", "password": DEMO_PASSWORD}).status_code == 429
    assert attempt(from_address("198.51.100.20"), "committee", DEMO_PASSWORD).status_code == 302


def test_a_locked_page_still_offers_the_login_form():
    make_user("sam")
    client = from_address("198.51.100.7")
    for _ in range(5):
        blocked = attempt(client, "sam")
    assert blocked.status_code == 429
    assert b'name="username"' in blocked.content and b"csrfmiddlewaretoken" in blocked.content


def test_redis_away_still_throttles(redis_away):
    """With Redis unreachable the attempts are still counted (in the database): the lock holds, and
    the right password from another address still logs in."""
    load_demo()
    attacker = from_address("203.0.113.66")
    for _ in range(5):
        attempt(attacker, "umpire2")
    assert attempt(attacker, "umpire2", DEMO_PASSWORD).status_code == 429
    official = from_address("198.51.100.20")
    assert attempt(official, "umpire2", DEMO_PASSWORD).status_code == 302 and logged_in(official)


def test_what_is_recorded_never_holds_the_password():
    """Failed attempts are recorded (login as typed, address, browser, path) without the password;
    successful logins are logged with their address."""
    make_user("sam")
    client = from_address("198.51.100.7", HTTP_USER_AGENT="tablet")
    attempt(client, "sam", "hunter2-not-it")
    record = AccessAttempt.objects.get()
    assert (record.username, record.ip_address, record.user_agent, record.path_info) == (
        "sam",
        "198.51.100.7",
        "tablet",
        LOGIN,
    )
    assert "hunter2-not-it" not in record.post_data + record.get_data
    assert attempt(client, "sam", PASSWORD).status_code == 302
    assert AccessLog.objects.filter(username="sam", ip_address="198.51.100.7").exists()
