"""The committee's unlock (issue 11, item 1): a committee page lists the logins locked out now, with a
button to unlock one, and every unlock is in the audit trail. A committee member sees and unlocks the
logins of their own tournaments' officials; the federation (the server's operators) every lockout,
addresses locked for trying many logins included."""

from __future__ import annotations

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from matches.committee.models import AuditEntry
from matches.models import CommitteeAssignment
from matches.permissions import COMMITTEE_GROUP, UMPIRE_GROUP

from .personas import PASSWORD, make_match, make_user

pytestmark = pytest.mark.django_db

LOGIN = "/accounts/login/"
LIST = reverse("committee:lockouts")
UNLOCK = reverse("committee:lockout_unlock")


@pytest.fixture(autouse=True)
def limits(settings):
    settings.LOGIN_THROTTLE_ATTEMPTS = 5
    settings.LOGIN_THROTTLE_SECONDS = 300
    settings.LOGIN_THROTTLE_ADDRESS_ATTEMPTS = 20
    settings.LOGIN_THROTTLE_USERNAME_ATTEMPTS = 20
    settings.TRUSTED_PROXIES = []


def fail(username: str, address: str, times: int = 5) -> None:
    client = Client(REMOTE_ADDR=address)
    for _ in range(times):
        client.post(LOGIN, {"username": username, "password": "wrong"})


def can_log_in(username: str, address: str) -> bool:
    return Client(REMOTE_ADDR=address).post(LOGIN, {"username": username, "password": PASSWORD}).status_code == 302


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def cast():
    class Cast:
        committee = make_user("carmen", COMMITTEE_GROUP)
        umpire = make_user("ulises", UMPIRE_GROUP)
        other_umpire = make_user("uma", UMPIRE_GROUP)
        federation = get_user_model().objects.create_superuser("fede", password=PASSWORD)
        match = make_match(umpires=[umpire])
        other_match = make_match(umpires=[other_umpire])

    CommitteeAssignment.objects.create(user=Cast.committee, tournament=Cast.match.tournament)
    fail("ulises", "203.0.113.66")
    fail("uma", "203.0.113.77")
    fail("ghost", "203.0.113.88")
    return Cast


def test_the_committee_sees_its_officials_locked_out_logins(cast):
    page = logged_in(cast.committee).get(LIST)
    assert page.status_code == 200
    html = page.content.decode()
    assert "ulises" in html and "203.0.113.66" in html
    assert "uma" not in html and "ghost" not in html  # other tournaments' officials, unknown logins


def test_the_federation_sees_every_lockout(cast):
    html = logged_in(cast.federation).get(LIST).content.decode()
    for text in ("ulises", "203.0.113.66", "uma", "203.0.113.77", "ghost", "203.0.113.88"):
        assert text in html


def test_an_unlock_clears_the_lockout_and_is_audited(cast):
    assert not can_log_in("ulises", "203.0.113.66")
    client = logged_in(cast.committee)
    response = client.post(UNLOCK, {"kind": "login", "username": "ulises", "address": "203.0.113.66"})
    assert response.status_code == 302 and response["Location"] == LIST
    assert not AccessAttempt.objects.filter(username="ulises").exists()
    entry = AuditEntry.objects.get(action=AuditEntry.Action.LOGIN_UNLOCK)
    assert entry.user == cast.committee and entry.scope == AuditEntry.Scope.COMMITTEE  # under what authority
    assert entry.details == {"username": "ulises", "address": "203.0.113.66", "failures": 5}
    page = client.get(LIST).content.decode()
    assert "Login unlocked" in page and "ulises" in page  # the unlock, in the page's trail
    assert can_log_in("ulises", "203.0.113.66")
    assert AccessAttempt.objects.filter(username="uma").exists()  # the others stay locked


def test_a_committee_member_cannot_unlock_another_tournament_s_official(cast):
    response = logged_in(cast.committee).post(UNLOCK, {"kind": "login", "username": "uma", "address": "203.0.113.77"})
    assert response.status_code == 403
    assert AccessAttempt.objects.filter(username="uma").exists()
    assert not AuditEntry.objects.filter(action=AuditEntry.Action.LOGIN_UNLOCK).exists()


def test_only_the_federation_unlocks_an_address(cast):
    for n in range(20):
        fail(f"guess{n}", "203.0.113.99", times=1)
    assert not can_log_in("ulises", "203.0.113.99")
    form = {"kind": "address", "address": "203.0.113.99"}
    assert logged_in(cast.committee).post(UNLOCK, form).status_code == 403
    page = logged_in(cast.federation).get(LIST).content.decode()
    assert "203.0.113.99" in page
    assert logged_in(cast.federation).post(UNLOCK, form).status_code == 302
    assert can_log_in("ulises", "203.0.113.99")
    entry = AuditEntry.objects.get(action=AuditEntry.Action.LOGIN_UNLOCK)
    assert entry.user == cast.federation and entry.scope == AuditEntry.Scope.FEDERATION
    assert entry.details == {"address": "203.0.113.99", "failures": 20}


def test_officials_and_the_public_are_kept_out(cast):
    form = {"kind": "login", "username": "ulises", "address": "203.0.113.66"}
    official = logged_in(cast.umpire)
    assert official.get(LIST).status_code == 403
    assert official.post(UNLOCK, form).status_code == 403
    anonymous = Client()
    assert anonymous.get(LIST).status_code == 302
    assert anonymous.post(UNLOCK, form).status_code == 302
    assert AccessAttempt.objects.filter(username="ulises").exists()


def test_a_bad_unlock_request_changes_nothing(cast):
    client = logged_in(cast.federation)
    for form in (
        {"kind": "login", "username": "ulises", "address": "not-an-address"},
        {"kind": "everything"},
        {"kind": "login", "address": "203.0.113.66"},
    ):
        assert client.post(UNLOCK, form).status_code == 400, form
    assert AccessAttempt.objects.count() == 3
    assert not AuditEntry.objects.filter(action=AuditEntry.Action.LOGIN_UNLOCK).exists()


def test_a_get_does_not_unlock(cast):
    assert (
        logged_in(cast.federation)
        .get(UNLOCK, {"kind": "login", "username": "ulises", "address": "203.0.113.66"})
        .status_code
        == 405
    )
