"""Background work (Celery). Thin tasks: fetch by id, call a service.

- ``match_report_build``: when a match ends, and again after a correction or a forfeit, store its
  official report (``reports.match_report_build``), then send the result to the webhooks;
- ``webhook_deliver``: one payload to one webhook, retried with exponential backoff.

Both are safe to run twice: a report is keyed by match and log position (``last_seq``), a delivery
by event, match and log position. On the embedded defaults (no Redis) Celery runs them in-process
(``CELERY_TASK_ALWAYS_EAGER``). Their registered names are the ones they had when this module was
``matches/tasks.py``: a message already in the broker keeps finding its task.
"""

from __future__ import annotations

from typing import Any

from celery import shared_task

from . import reports, webhooks


@shared_task(name="matches.tasks.match_report_build", ignore_result=True)
def match_report_build(match_id: int, last_seq: int | None = None, force: bool = False) -> int | None:
    """Build (or find) the report of the match's log; ``last_seq`` is the position that asked for it
    (a later position may be built instead: the newest one is the one that matters)."""
    report = reports.match_report_build(match_id=match_id, force=force)
    if report is None:
        return None
    match = report.match
    for event in ("match.result", "match.report"):
        for webhook in webhooks.subscribed(match, event):
            payload = webhooks.result_payload(event, match, report)
            webhook_deliver.delay(webhook.pk, webhooks.delivery_key(event, match.pk, report.last_seq), payload)
    return report.pk


@shared_task(
    name="matches.tasks.webhook_deliver",
    bind=True,
    ignore_result=True,
    autoretry_for=(webhooks.DeliveryFailed,),
    retry_backoff=5,
    retry_backoff_max=3600,
    retry_jitter=True,
    max_retries=8,
)
def webhook_deliver(self, webhook_id: int, key: str, payload: dict[str, Any]) -> None:
    webhooks.webhook_deliver(webhook_id=webhook_id, key=key, payload=payload, attempt=self.request.retries + 1)
