"""The log hash the officials sign (docs/SCORESHEET.md): defined here once.

Each accepted event of the match (every row of ``MatchEvent``: voids included, in ``seq`` order) is
written as one line of canonical JSON::

    {"fields":{...},"id":"<client id>","seq":<n>,"type":"<type>"}

``fields`` is the stored event without its ``id`` and ``type`` (everything else the server stored:
``by``, ``server_time``, notes included). Canonical JSON: keys sorted, no spaces (separators ``,``
and ``:``), non-ASCII characters as they are (UTF-8), no NaN. The log hash is the SHA-256 of the
lines, each followed by a newline (``\\n``), as lowercase hex; the empty log hashes the empty string.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from typing import Any

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
