"""Results sent to the addresses the committee configured (webhooks).

A *payload* is JSON; the body sent is its canonical serialisation (sorted keys, compact), signed
with the webhook's secret: header ``X-Polo-Signature: sha256=<hex HMAC-SHA256 of the body>``. A
receiver checks it with ``hmac.compare_digest(expected, header)``.

A delivery is named by its *key* (``event:match:last_seq``): the same result of the same log
position is sent once; an attempt that fails (network error or a status other than 2xx) is logged
and retried by the Celery task with exponential backoff.

Where it goes (issue 36): the address is checked again before each attempt (``targets.target``:
https, a public address) and the request is sent to the very address that was checked; a redirect
is an answer like any other, never followed; an attempt gives up after
``WEBHOOK_TIMEOUT_SECONDS``. The committee's log keeps whether each attempt was delivered, not what
the far side answered (a status or an error would make the form a port scanner): that goes to the
server's log only.
"""

from __future__ import annotations

import hashlib
import hmac
import http.client
import json
import logging
import secrets
import socket
from typing import Any

from django.conf import settings
from django.db.models import Q

from matches.models import Match

from .models import MatchReport, Webhook, WebhookDelivery
from .targets import Target, TargetRefused, target

log = logging.getLogger(__name__)

SIGNATURE_HEADER = "X-Polo-Signature"


class DeliveryFailed(Exception):
    """The receiver did not take the payload (the task retries)."""


def new_secret() -> str:
    return secrets.token_urlsafe(32)


def body_of(payload: dict[str, Any]) -> bytes:
    return json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def sign(body: bytes, secret: str) -> str:
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def delivery_key(event: str, match_id: int, last_seq: int) -> str:
    return f"{event}:{match_id}:{last_seq}"


def result_payload(event: str, match: Match, report: MatchReport) -> dict[str, Any]:
    data = report.data
    return {
        "event": event,
        "match": {
            "id": match.pk,
            "tournament": {"id": match.tournament_id, "name": match.tournament.name},
            "field": match.field.name,
            "starts_at": match.starts_at.isoformat(),
            "home": data["match"]["home"]["name"],
            "away": data["match"]["away"]["name"],
        },
        "result": data["result"],
        "last_seq": report.last_seq,
        "report_built_at": report.built_at.isoformat(),
    }


def subscribed(match: Match, event: str) -> list[Webhook]:
    hooks = Webhook.objects.filter(Q(tournament__isnull=True) | Q(tournament=match.tournament_id), active=True)
    # JSON "contains" is not portable to SQLite: the list is short, filter it here.
    return [h for h in hooks.order_by("pk") if event in (h.events or [])]


class _Pinned(http.client.HTTPConnection):
    """HTTP to the checked address (``Target.address``), whatever the host's name resolves to now."""

    def __init__(self, to: Target, timeout: float) -> None:
        super().__init__(to.host, to.port, timeout=timeout)
        self.address = to.address

    def connect(self) -> None:
        self.sock = socket.create_connection((self.address, self.port), self.timeout)


class _PinnedTLS(http.client.HTTPSConnection):
    """HTTPS to the checked address; the certificate is verified for the host the address names."""

    def __init__(self, to: Target, timeout: float) -> None:
        super().__init__(to.host, to.port, timeout=timeout)
        self.address = to.address

    def connect(self) -> None:
        sock = socket.create_connection((self.address, self.port), self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)  # type: ignore[attr-defined]


def post(url: str, body: bytes, headers: dict[str, str]) -> int:
    """POST ``body`` to ``url`` once: the far side's status. Raises ``TargetRefused`` when the
    address is not one a webhook may reach now, ``OSError`` when it cannot be reached."""
    to = target(url)
    connection = (_PinnedTLS if to.scheme == "https" else _Pinned)(to, settings.WEBHOOK_TIMEOUT_SECONDS)
    try:
        connection.request("POST", to.path, body=body, headers=headers)
        return connection.getresponse().status  # (a redirect is an answer: never followed)
    except http.client.HTTPException as exc:
        raise OSError(f"not HTTP: {exc!r}") from exc
    finally:
        connection.close()


def webhook_deliver(*, webhook_id: int, key: str, payload: dict[str, Any], attempt: int = 1) -> WebhookDelivery | None:
    """POST the payload once and log the attempt. Raises ``DeliveryFailed`` so that the task
    retries; returns the successful delivery (a new one, or the earlier one for this key)."""
    webhook = Webhook.objects.filter(pk=webhook_id).first()
    if webhook is None:
        return None
    done = webhook.deliveries.filter(key=key, ok=True).first()
    if done is not None:
        return done
    body = body_of(payload)
    headers = {
        "Content-Type": "application/json",
        SIGNATURE_HEADER: sign(body, webhook.secret),
        "User-Agent": "polo-officiating-webhooks/1",
        "X-Polo-Delivery": key,
    }
    try:
        status = post(webhook.url, body, headers)
        outcome = f"HTTP {status}"
    except TargetRefused as refused:
        status, outcome = None, f"refused: {refused}"
    except OSError as exc:
        status, outcome = None, f"unreachable: {exc!r}"[:300]
    ok = status is not None and 200 <= status < 300
    delivery = WebhookDelivery.objects.create(webhook=webhook, key=key, payload=payload, attempt=attempt, ok=ok)
    if not ok:
        # For the operator only (the committee sees that it was not delivered).
        log.warning("webhook %s delivery %s attempt %d not delivered: %s", webhook.pk, key, attempt, outcome)
        raise DeliveryFailed(f"webhook {webhook.pk}: {outcome}")
    return delivery
