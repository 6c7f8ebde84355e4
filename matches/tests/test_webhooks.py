"""Results sent to the committee's webhooks: a real local HTTP endpoint receives the JSON, signed
(``X-Polo-Signature: sha256=<HMAC-SHA256 of the body>``); a failing endpoint is retried with
exponential backoff until it answers; every attempt is logged; a result is sent once.

The receiver listens on this machine's loopback, which a webhook reaches only because these tests
allow it (``WEBHOOK_ALLOWED_NETWORKS``) and run with ``DEBUG`` (http): what is refused without
that is ``test_webhook_targets.py``'s."""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import json
import time
from functools import partial

import pytest
from django.urls import reverse

from matches.committee.models import AuditEntry, Webhook, WebhookDelivery
from matches.committee.tasks import match_report_build, webhook_deliver

from .committee_helpers import HOUR, Clock, Committee, Receiver, win_one_chukker
from .personas import make_federation, make_match

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_celery")]

SECRET = "s3cret-shared-with-the-receiver"


@pytest.fixture(autouse=True)
def loopback_allowed(settings):
    settings.DEBUG = True
    settings.WEBHOOK_ALLOWED_NETWORKS = [ipaddress.ip_network("127.0.0.1/32")]


CAST = partial(Committee, periods=1)  # the cast fixture (conftest.py) makes one per test


@pytest.fixture
def receiver():
    r = Receiver()
    yield r
    r.close()


def add_hook(cast: Committee, url: str, *, by=None, **fields) -> Webhook:
    """A webhook of the cast's tournament (a committee member's hooks name one of their tournaments)."""
    data = {
        "name": "Results board",
        "url": url,
        "secret": SECRET,
        "events": ["match.result"],
        "active": "on",
        "tournament": cast.match.tournament_id,
        **fields,
    }
    response = cast.client(by).post(reverse("committee:webhooks"), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    return Webhook.objects.get(name=data["name"])


def signature_ok(request: dict) -> bool:
    expected = "sha256=" + hmac.new(SECRET.encode(), request["body"], hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, request["headers"]["X-Polo-Signature"])


def test_the_result_is_posted_signed_when_the_match_ends(cast, receiver):
    hook = add_hook(cast, receiver.url)
    win_one_chukker(cast.match, Clock(time.time() - HOUR), winner="away")
    assert len(receiver.requests) == 1
    request = receiver.requests[0]
    assert request["path"] == "/hooks/polo" and signature_ok(request)
    payload = json.loads(request["body"])
    assert payload["event"] == "match.result" and payload["match"]["id"] == cast.match.pk
    assert payload["result"]["winner"] == "away" and payload["result"]["score"] == {"home": 0, "away": 1}
    delivery = WebhookDelivery.objects.get(webhook=hook)
    assert (delivery.ok, delivery.attempt) == (True, 1)
    assert AuditEntry.objects.get(action="webhook_create").user == cast.member


def test_a_tampered_body_fails_the_signature_check(cast, receiver):
    add_hook(cast, receiver.url)
    win_one_chukker(cast.match, Clock(time.time() - HOUR))
    request = dict(receiver.requests[0])
    request["body"] = request["body"].replace(b'"winner":"home"', b'"winner":"away"')
    assert not signature_ok(request)


def test_a_failing_endpoint_is_retried_until_it_answers(cast, receiver):
    receiver.statuses = [500, 503]
    hook = add_hook(cast, receiver.url)
    win_one_chukker(cast.match, Clock(time.time() - HOUR))
    assert len(receiver.requests) == 3
    assert len({r["body"] for r in receiver.requests}) == 1  # the same signed body each time
    attempts = list(hook.deliveries.order_by("attempt").values_list("attempt", "ok"))
    assert attempts == [(1, False), (2, False), (3, True)]
    page = cast.client().get(reverse("committee:webhook", args=[hook.pk])).content.decode()
    assert page.count('<tr class="bad">') == 2 and page.count('<tr class="ok">') == 1


def test_on_the_embedded_pool_a_retry_waits_its_exponential_backoff(cast, receiver, settings, monkeypatch):
    """The embedded defaults run tasks on a thread pool: a failed delivery is not retried at once
    but after Celery's backoff (5 s, then 10 s, ...; jitter pinned to its ceiling here)."""
    from polo import celery as polo_celery

    settings.CELERY_EMBEDDED_THREADS = True
    monkeypatch.setattr("random.randrange", lambda n: n - 1)  # full jitter draws from [0, n)
    timers: list[tuple[float, object]] = []
    monkeypatch.setattr(polo_celery, "schedule", lambda delay, function: timers.append((delay, function)))

    def wait_for(condition) -> None:
        deadline = time.time() + 20  # a wait for the pool, not a timing assertion
        while not condition() and time.time() < deadline:
            time.sleep(0.02)
        assert condition()

    receiver.statuses = [500, 503]
    hook = add_hook(cast, receiver.url)
    win_one_chukker(cast.match, Clock(time.time() - HOUR))
    for attempt, delay in ((1, 5), (2, 10)):
        wait_for(lambda attempt=attempt: len(timers) == attempt)
        assert len(receiver.requests) == attempt  # nothing is sent again until the wait is over
        assert timers[-1][0] == delay
        timers[-1][1]()  # the wait is over
    wait_for(lambda: hook.deliveries.filter(ok=True).exists())
    attempts = list(hook.deliveries.order_by("attempt").values_list("attempt", "ok"))
    assert attempts == [(1, False), (2, False), (3, True)]
    assert len(timers) == 2


def test_a_result_is_sent_once(cast, receiver):
    add_hook(cast, receiver.url)
    m = cast.match
    win_one_chukker(m, Clock(time.time() - HOUR))
    m.refresh_from_db()
    match_report_build.apply(args=(m.pk, m.last_seq))  # the task again, for the same log position
    match_report_build.apply(args=(m.pk, m.last_seq), kwargs={"force": True})  # even a rebuild
    assert len(receiver.requests) == 1


def test_an_unreachable_endpoint_is_logged_at_each_attempt(cast):
    from polo.testing import free_port

    hook = add_hook(cast, f"http://127.0.0.1:{free_port()}/nobody")
    win_one_chukker(cast.match, Clock(time.time() - HOUR))
    deliveries = list(hook.deliveries.order_by("attempt"))
    assert len(deliveries) == webhook_deliver.max_retries + 1
    assert not any(d.ok for d in deliveries)


def test_only_active_hooks_of_the_tournament_are_called(cast, receiver):
    other = make_match(periods=1)  # another tournament: its hook is its committee's (here, the federation's)
    add_hook(cast, receiver.url, by=make_federation("fede"), name="Other tournament", tournament=other.tournament_id)
    add_hook(cast, receiver.url, name="Switched off", active="")
    add_hook(cast, receiver.url, name="Reports only", events=["match.report"])
    win_one_chukker(cast.match, Clock(time.time() - HOUR))
    assert [json.loads(r["body"])["event"] for r in receiver.requests] == ["match.report"]


def test_changing_a_hook_is_audited(cast, receiver):
    hook = add_hook(cast, receiver.url)
    cast.client().post(
        reverse("committee:webhook", args=[hook.pk]),
        {
            "name": hook.name,
            "url": receiver.url,
            "secret": SECRET,
            "events": ["match.result"],
            "active": "",
            "tournament": hook.tournament_id,
        },
    )
    hook.refresh_from_db()
    assert not hook.active
    assert AuditEntry.objects.get(action="webhook_edit").details["changed"] == ["active"]
