"""Limits per client (issue 36): the websockets one address holds open on a process
(``WS_MAX_CONNECTIONS_PER_ADDRESS``: one more is told why and closed with 4029), and the posts of the
committee's and the admin's forms per user or address and minute (``FORM_POSTS_PER_MINUTE``: one
more is 429 with ``Retry-After``, a page in the sender's language, and nothing saved)."""

from __future__ import annotations

import pytest
import pytest_asyncio
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.urls import reverse

from matches.models import Tournament

from .live_helpers import client_for, communicator, receive_close, receive_until, stop_live_machinery
from .personas import PASSWORD, make_committee_member

PROXY = "172.30.0.10"


# --- websockets per address --------------------------------------------------------------------


@pytest_asyncio.fixture
async def live(settings):
    settings.WS_MAX_CONNECTIONS_PER_ADDRESS = 3
    settings.TRUSTED_PROXIES = [PROXY]
    yield
    await stop_live_machinery()


def from_address(match, peer: str, forwarded_for: str | None = None, lang: str | None = None):
    comm = communicator(match.pk, lang=lang)
    comm.scope["client"] = (peer, 50000)
    if forwarded_for is not None:
        comm.scope["headers"].append((b"x-forwarded-for", forwarded_for.encode()))
    return comm


async def watching(comm):
    connected, code = await comm.connect()
    assert connected, code
    await receive_until(comm, "snapshot")
    return comm


async def refused(comm) -> str:
    connected, _ = await comm.connect()
    assert connected  # accepted, so that the reason can be said
    error = await receive_until(comm, "error")
    assert error["code"] == "too_many_connections"
    assert await receive_close(comm) == 4029
    return error["message"]


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_one_address_holds_at_most_the_configured_sockets(cast, live):
    match = cast.match_a
    mine = [await watching(from_address(match, "203.0.113.5")) for _ in range(3)]
    assert "Too many connections" in await refused(from_address(match, "203.0.113.5"))
    other = await watching(from_address(match, "198.51.100.7"))  # another address is not affected
    await mine.pop().disconnect()  # a socket closed frees its place
    mine.append(await watching(from_address(match, "203.0.113.5")))
    for comm in [*mine, other]:
        await comm.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_behind_our_proxy_each_client_counts_by_the_address_the_proxy_appended(cast, live):
    """A client cannot dodge the limit by writing X-Forwarded-For itself: the address our proxy
    appended (the rightmost) is the one counted, and an IPv6 client counts by its /64."""
    match = cast.match_a
    spoofed = [await watching(from_address(match, PROXY, f"10.0.0.{i}, 203.0.113.5")) for i in range(3)]
    await refused(from_address(match, PROXY, "10.0.0.99, 203.0.113.5"))
    other = await watching(from_address(match, PROXY, "203.0.113.6"))
    v6 = [await watching(from_address(match, f"2001:db8:1:2::{i}")) for i in range(1, 4)]
    await refused(from_address(match, "2001:db8:1:2::ffff"))
    for comm in [*spoofed, other, *v6]:
        await comm.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_reason_is_in_the_viewer_s_language(cast, live, settings):
    settings.WS_MAX_CONNECTIONS_PER_ADDRESS = 1
    first = await watching(from_address(cast.match_a, "203.0.113.5"))
    assert "Demasiadas conexiones" in await refused(from_address(cast.match_a, "203.0.113.5", lang="es"))
    await first.disconnect()


# --- the committee's and the admin's form posts -------------------------------------------------


@pytest.fixture
def limited(settings, monkeypatch):
    """Three posts a minute, all in one minute (the window is the clock's minute)."""
    settings.FORM_POSTS_PER_MINUTE = 3
    monkeypatch.setattr("matches.post_limits.time.time", lambda: 1_800_000_000.0)  # 0 s into a minute
    cache.clear()
    yield
    cache.clear()


def new_tournament(client, name: str, **headers):
    data = {
        "name": name,
        "club": "Palermo",
        "starts_on": "2026-03-01",
        "ends_on": "2026-03-03",
        "lower_handicap_limit": 0,
        "upper_handicap_limit": 6,
    }
    return client.post(reverse("committee:tournament_new"), data, **headers)


@pytest.mark.django_db
def test_a_committee_member_s_form_posts_are_limited_per_minute(limited):
    member, colleague = make_committee_member("carmen"), make_committee_member("clara")
    client = client_for(member)
    for i in range(3):
        assert new_tournament(client, f"Cup {i}").status_code == 302
    response = new_tournament(client, "Cup 3")
    assert response.status_code == 429 and response["Retry-After"] == "61"
    assert "3 times a minute" in response.content.decode()
    assert not Tournament.objects.filter(name="Cup 3").exists()  # refused before the view
    assert client.get(reverse("committee:home")).status_code == 200  # reading is not limited
    assert new_tournament(client_for(colleague), "Clara's Cup").status_code == 302  # per member


@pytest.mark.django_db
def test_the_admin_s_posts_are_limited_too(limited):
    root = get_user_model().objects.create_superuser("root", password=PASSWORD)
    official = make_committee_member("carmen")
    admin = client_for(root)
    action = {"action": "sign_out_everywhere", "_selected_action": [official.pk]}
    statuses = [admin.post(reverse("admin:auth_user_changelist"), action).status_code for _ in range(3)]
    laptop = client_for(official)
    assert statuses == [302, 302, 302]
    assert admin.post(reverse("admin:auth_user_changelist"), action).status_code == 429
    assert laptop.get(reverse("committee:home")).status_code == 200  # the fourth ended nothing


@pytest.mark.django_db
def test_the_refusal_is_in_the_sender_s_language(limited):
    client = client_for(make_committee_member("carmen"))
    for i in range(3):
        new_tournament(client, f"Cup {i}")
    page = new_tournament(client, "Cup 3", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Demasiadas solicitudes" in page


@pytest.mark.django_db
def test_a_forged_post_does_not_spend_the_member_s_allowance(limited):
    """Counted once Django's CSRF check has passed: posts another site forges are refused (403)
    without using up the member's three."""
    from django.test import Client

    member = make_committee_member("carmen")
    forged = Client(enforce_csrf_checks=True)
    forged.force_login(member)
    for i in range(5):
        assert new_tournament(forged, f"Forged {i}").status_code == 403
    client = client_for(member)
    assert [new_tournament(client, f"Cup {i}").status_code for i in range(4)] == [302, 302, 302, 429]
