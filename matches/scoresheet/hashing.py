"""The log hash the officials sign (docs/SCORESHEET.md): defined here once.

Each accepted event of the match (every row of ``MatchEvent``: voids included, in ``seq`` order) is
written as one line of canonical JSON::

    {"fields":{...},"id":"<client id>","seq":<n>,"type":"<type>"}

``fields`` is the stored event without its ``id`` and ``type`` (everything else the server stored:
``by``, ``server_time``, notes included). Canonical JSON: keys sorted, no spaces (separators ``,``
and ``:``), non-ASCII characters as they are (UTF-8), no NaN. The log hash is the SHA-256 of the
lines, each followed by a newline (``\\n``), as lowercase hex; the empty log hashes the empty string.

The *seal* of a signature is an HMAC-SHA256, under a secret the database does not hold
(``SCORESHEET_SIGNING_KEY``, else ``SECRET_KEY``), of the signature row's own facts: match,
official, role, log position, log hash and time (``seal_message``). Whoever rewrites the events and
the signature rows together cannot make the seals match without the secret.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from typing import Any

from django.conf import settings

from matches.models import MatchEvent

HASH_NAME = "sha256"


def canonical_event(seq: int, event_id: str, event_type: str, payload: dict[str, Any]) -> str:
    """One accepted event as its line of canonical JSON (without the newline)."""
    fields = {k: v for k, v in payload.items() if k not in ("id", "type")}
    record = {"fields": fields, "id": event_id, "seq": seq, "type": event_type}
    return json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def hash_lines(lines: Iterable[str]) -> str:
    digest = hashlib.sha256()
    for line in lines:
        digest.update(line.encode("utf-8"))
        digest.update(b"\n")
    return digest.hexdigest()


def log_hash(match_id: int, upto: int | None = None) -> tuple[int, str]:
    """``(last_seq, hash)`` of the match's log up to ``upto`` (``None``: all of it)."""
    rows = MatchEvent.objects.filter(match_id=match_id).order_by("seq")
    if upto is not None:
        rows = rows.filter(seq__lte=upto)
    last = 0
    lines = []
    for seq, event_id, event_type, payload in rows.values_list("seq", "client_id", "type", "payload"):
        lines.append(canonical_event(seq, event_id, event_type, payload))
        last = seq
    return last, hash_lines(lines)


def export_hash(events: list[dict[str, Any]]) -> str:
    """The hash of a log as ``reports.match_log_export`` writes it (the stored events in order,
    each with its ``id`` and ``type``; their ``seq`` is their place, from 1)."""
    return hash_lines(
        canonical_event(seq, str(event.get("id")), str(event.get("type")), event)
        for seq, event in enumerate(events, start=1)
    )


# -- the seal of a signature -------------------------------------------------------------------------

SEAL_NAME = "polo-scoresheet-seal/1"
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def seal_message(
    *, match_id: int, official_id: int, role: str, last_seq: int, log_hash: str, signed_at: datetime
) -> bytes:
    """The facts a seal binds, as one line of canonical JSON (the time in whole microseconds since
    1970 UTC, as both databases store it)."""
    record = {
        "format": SEAL_NAME,
        "log_hash": log_hash,
        "last_seq": last_seq,
        "match": match_id,
        "official": official_id,
        "role": role,
        "signed_at_us": (signed_at - _EPOCH) // timedelta(microseconds=1),
    }
    return json.dumps(record, sort_keys=True, separators=(",", ":")).encode("utf-8")


def signature_message(row: Any) -> bytes:
    """``seal_message`` of a signature row (the model's, or a migration's historical one)."""
    return seal_message(
        match_id=row.match_id,
        official_id=row.official_id,
        role=row.role,
        last_seq=row.last_seq,
        log_hash=row.log_hash,
        signed_at=row.signed_at,
    )


def _hmac_key(secret: str) -> bytes:
    # The secret is never used as it is: SECRET_KEY serves Django's own signing too.
    return hashlib.sha256(b"polo scoresheet seal\x00" + secret.encode("utf-8")).digest()


def signing_secrets() -> list[str]:
    """The secret that seals new signatures first, then the retired ones that still verify old ones."""
    current = settings.SCORESHEET_SIGNING_KEY or settings.SECRET_KEY
    return [current, *(old for old in settings.SCORESHEET_SIGNING_OLD_KEYS if old != current)]


def seal(message: bytes, secret: str | None = None) -> str:
    """The seal of ``message`` under ``secret`` (the current one unless given), lowercase hex."""
    key = _hmac_key(secret if secret is not None else signing_secrets()[0])
    return hmac.new(key, message, hashlib.sha256).hexdigest()


def seal_holds(message: bytes, claimed: str) -> bool:
    """Whether ``claimed`` is the seal of ``message`` under the current secret or a retired one."""
    return bool(claimed) and any(hmac.compare_digest(seal(message, secret), claimed) for secret in signing_secrets())
