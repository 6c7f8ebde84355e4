"""Results sent to the addresses the committee configured (webhooks).

A *payload* is JSON; the body sent is its canonical serialisation (sorted keys, compact), signed
with the webhook's secret: header ``X-Polo-Signature: sha256=<hex HMAC-SHA256 of the body>``. A
receiver checks it with ``hmac.compare_digest(expected, header)``.

A delivery is named by its *key* (``event:match:last_seq``): the same result of the same log
position is sent once; an attempt that fails (network error or a status other than 2xx) is logged
and retried by the Celery task with exponential backoff.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import urllib.error
import urllib.request
from typing import Any

from django.db.models import Q

from matches.models import Match

from .models import MatchReport, Webhook, WebhookDelivery

SIGNATURE_HEADER = "X-Polo-Signature"
TIMEOUT_SECONDS = 10


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
    request = urllib.request.Request(
        webhook.url,
        data=body,
        method="POST",
        headers={
            "Content-Type": "application/json",
            SIGNATURE_HEADER: sign(body, webhook.secret),
            "User-Agent": "polo-officiating-webhooks/1",
            "X-Polo-Delivery": key,
        },
    )
    status, error = None, ""
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_SECONDS) as response:
            status = response.status
    except urllib.error.HTTPError as exc:
        status, error = exc.code, f"HTTP {exc.code}"
    except (urllib.error.URLError, OSError) as exc:
        error = str(getattr(exc, "reason", exc))[:500]
    ok = status is not None and 200 <= status < 300
    delivery = WebhookDelivery.objects.create(
        webhook=webhook, key=key, payload=payload, attempt=attempt, status_code=status, error=error, ok=ok
    )
    if not ok:
        raise DeliveryFailed(f"{webhook.url}: {error or status}")
    return delivery
