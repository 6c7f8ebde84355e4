"""The tournament's server's side of a match kept at the field: field tokens, handing a match to
the field and back, and the replica's append of the field's log (``matches.field``).

Every refusal is a ``FieldRefusal`` (a code of the protocol, an HTTP status, a message in the
reader's language) and stores nothing: the checks run before the first write, and the appended
rows are checked once more (the field's log hash) before the transaction commits.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from dataclasses import dataclass, field
from datetime import date, datetime, time as dt_time, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from matches.committee.models import AuditEntry
from matches.committee.services import audit_record
from matches.games import _config_key, match_config, match_game
from matches.models import Match, MatchEvent
from matches.scoresheet.hashing import canonical_event, hash_lines
from matches.services import _save_and_publish, locked_match
from matches.transfer import ImportRefused
from officiating.engine import decide

from .refusals import say
from .wire import event_item

TOKEN_HOURS = 36  # a match day and the night after it: a token outlives no tournament
TOKEN_PREFIX = "pft_"  # "polo field token": a leaked token is recognisable (secret scanners, logs)
BATCH_MAX = 500  # events in one push
# The statuses after which nothing more is logged: the final log has arrived.
ENDED = frozenset({Match.Status.FINAL, Match.Status.ABANDONED})


@dataclass
class FieldRefusal(Exception):
    """A refusal of the field protocol: ``code`` (docs/LIVE-PROTOCOL.md), HTTP ``status``, the
    ``text`` it means (a name of ``refusals.TEXTS``) with its ``params``, and the replica's
    ``last_seq`` where it helps the field resume."""

    code: str
    status: int
    text: str
    params: dict[str, Any] = field(default_factory=dict)
    last_seq: int | None = None

    def message(self, lang: str | None = None) -> str:
        return say(self.text, self.params, lang)

    @property
    def detail(self) -> dict[str, Any]:
        """What the field keeps to say it again in its reader's language (``refusals.retell``)."""
        return {"text": self.text, "params": self.params}


def _refusal(code: str, status: int, text: str | None = None, last_seq: int | None = None, **params: Any):
    return FieldRefusal(code, status, text or code, params, last_seq)


# --- field tokens --------------------------------------------------------------------------------


def token_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def day_token_expiry(day: date) -> datetime:
    """When a day's token expires by default: the morning after its day (local time), or 36 hours
    from now if that is later (a token issued late on its day still serves its evening)."""
    morning = datetime.combine(day + timedelta(days=1), dt_time(12), tzinfo=timezone.get_current_timezone())
    return max(morning, timezone.now() + timedelta(hours=TOKEN_HOURS))


@transaction.atomic
def field_token_issue(
    *,
    match: Match | None = None,
    day: date | None = None,
    tournament=None,
    ground=None,
    user=None,
    hours: int | None = None,
) -> tuple[Any, str]:
    """A new field token: the record and the secret (shown once, never stored). For ``match``, or
    for every match of ``day`` of ``tournament`` and/or on the field ``ground``. It expires after
    ``hours`` (a match's: 36 hours; a day's: the morning after the day, ``day_token_expiry``)."""
    from .models import FieldToken

    if (match is None) == (day is None) or (day is not None and tournament is None and ground is None):
        raise ValueError("a field token is for a match, or for a day of a tournament or of a field")
    if hours is not None:
        expires = timezone.now() + timedelta(hours=hours)
    else:
        expires = day_token_expiry(day) if day is not None else timezone.now() + timedelta(hours=TOKEN_HOURS)
    secret = TOKEN_PREFIX + secrets.token_urlsafe(32)
    token = FieldToken.objects.create(
        match=match,
        day=day,
        tournament=tournament,
        field=ground,
        token_hash=token_hash(secret),
        issued_by=user if getattr(user, "is_authenticated", False) else None,
        expires_at=expires,
    )
    details: dict[str, Any] = {"token": token.pk, "expires_at": token.expires_at.isoformat(timespec="minutes")}
    if day is not None:
        details["day"] = day.isoformat()
        if ground is not None:
            details["field"] = {"id": ground.pk, "name": str(ground)}
    audit_record(
        user=user,
        action=AuditEntry.Action.FIELD_TOKEN_ISSUE,
        match=match,
        tournament=tournament,
        details=details,
        scope=None if getattr(user, "is_authenticated", False) else "",
    )
    return token, secret


@transaction.atomic
def field_token_revoke(*, token, user=None) -> bool:
    """Revoke ``token`` (False if it was revoked already). The field is shut out at once: its next
    push or pairing is refused (``field_token_revoked``)."""
    if token.revoked_at is not None:
        return False
    token.revoked_at = timezone.now()
    token.revoked_by = user if getattr(user, "is_authenticated", False) else None
    token.save(update_fields=["revoked_at", "revoked_by"])
    audit_record(
        user=user,
        action=AuditEntry.Action.FIELD_TOKEN_REVOKE,
        match=token.match,
        tournament=token.tournament,
        details={"token": token.pk},
        scope=None if getattr(user, "is_authenticated", False) else "",
    )
    return True


def field_token_find(secret: str | None):
    """The usable token ``secret`` is; raises ``FieldRefusal`` (missing, wrong, revoked, expired)."""
    from .models import FieldToken

    if not secret:
        raise _refusal("field_token_missing", 403)
    token = FieldToken.objects.select_related("tournament", "field").filter(token_hash=token_hash(secret)).first()
    if token is None:
        raise _refusal("field_token_wrong", 403)
    if token.revoked_at is not None:
        raise _refusal("field_token_revoked", 403)
    if token.expires_at <= timezone.now():
        raise _refusal("field_token_expired", 403)
    return token


def field_token_check(secret: str | None, match: Match):
    """The usable token ``secret`` names, if it authorises ``match``; raises ``FieldRefusal``."""
    token = field_token_find(secret)
    if not token.covers(match):
        raise _refusal("field_token_other_match", 403, scope=token.scope_text(), match=match.pk)
    return token


def field_heard(token, match: Match) -> None:
    """The field reached this server about ``match`` with ``token`` just now (the public screens,
    the statistics and the reports say when: ``selectors.field_presence``)."""
    from .models import FieldHeard

    now = timezone.now()
    type(token).objects.filter(pk=token.pk).update(heard_at=now)
    FieldHeard.objects.update_or_create(match=match, defaults={"at": now, "token": token})


# --- one writer per match ------------------------------------------------------------------------


@transaction.atomic
def match_keep_at(*, match_id: int, where: str, user=None, reason: str = "") -> bool:
    """Hand the match to the field (``where="field"``) or take it back (``"server"``), audited.
    False if it was kept there already. The match row is locked: no event of the officials'
    slips in between (``match_event_log`` locks it too)."""
    match = locked_match(match_id)
    if match is None:
        raise Match.DoesNotExist(f"no match {match_id}")
    if where not in Match.KeptAt.values:
        raise ValueError(where)
    if match.kept_at == where:
        return False
    match.kept_at = where
    match.save(update_fields=["kept_at"])
    action = AuditEntry.Action.FIELD_KEEP if where == Match.KeptAt.FIELD else AuditEntry.Action.FIELD_RETURN
    details: dict[str, Any] = {"last_seq": match.last_seq}
    if reason:
        details["reason"] = reason
    audit_record(
        user=user,
        action=action,
        match=match,
        details=details,
        scope=None if getattr(user, "is_authenticated", False) else "",
    )
    return True


# --- the replica's append ------------------------------------------------------------------------


@dataclass
class ReplicaAnswer:
    last_seq: int
    log_hash: str
    appended: int
    duplicates: int
    kept_at: str


def _row_line(seq: int, event_id: str, event_type: str, payload: dict[str, Any]) -> str:
    return canonical_event(seq, event_id, event_type, payload)


def _event_item(item: Any, seq: int) -> tuple[int, str, str, dict[str, Any], datetime, str | None]:
    """One event of a batch (``wire.event_item``: as the tournament's export writes an event)."""
    try:
        return event_item(item, seq)
    except ImportRefused as refused:
        raise _refusal("invalid_log", 400, "invalid_log_event", seq=seq, problem=refused.message) from None


def _batch(body: Any) -> tuple[int, str, str, str, list[Any]]:
    """The envelope of a push: (after, prefix_hash, log_hash, config_hash, events)."""
    if not isinstance(body, dict):
        raise _refusal("invalid_log", 400, "invalid_log_body")
    after, events = body.get("after"), body.get("events")
    hashes = [body.get(k) for k in ("prefix_hash", "log_hash", "config_hash")]
    if type(after) is not int or after < 0 or not isinstance(events, list):
        raise _refusal("invalid_log", 400, "invalid_log_envelope")
    if not all(isinstance(h, str) and len(h) == 64 for h in hashes):
        raise _refusal("invalid_log", 400, "invalid_log_hashes")
    if len(events) > BATCH_MAX:
        raise _refusal("invalid_log", 400, "invalid_log_too_many", most=BATCH_MAX)
    return after, hashes[0], hashes[1], hashes[2], events


def replica_state(match: Match) -> ReplicaAnswer:
    """Where the replica stands (``GET /api/field/matches/{id}/log``)."""
    lines = [
        _row_line(*row)
        for row in MatchEvent.objects.filter(match=match)
        .order_by("seq")
        .values_list("seq", "client_id", "type", "payload")
    ]
    return ReplicaAnswer(match.last_seq, hash_lines(lines), 0, 0, match.kept_at)


@transaction.atomic
def replica_append(*, match_id: int, body: Any) -> ReplicaAnswer:
    """Append a batch of the field's log to the replica, verbatim; raises ``FieldRefusal`` (and
    then nothing is stored).

    The batch extends the replica or is refused: it starts at or before the replica's end
    (``after`` ≤ last seq; else ``log_gap``, with the last seq to resume from); the replica's log
    up to ``after`` hashes to the field's ``prefix_hash`` and the events it already holds are the
    same (else ``log_changed``); the match's config is the same (``log_other_match``); the rules
    accept every new event at its own ``server_time`` (the field's clock); the whole log then
    hashes to the field's ``log_hash``. Events already held are duplicates (a retry): idempotent."""
    after, prefix_hash, field_hash, config_hash, items = _batch(body)
    match = locked_match(match_id)
    if match is None:
        raise Match.DoesNotExist(f"no match {match_id}")
    config = match_config(match)
    if config_hash != _config_key(config):
        raise _refusal("log_other_match", 409, last_seq=match.last_seq)
    rows = MatchEvent.objects.filter(match=match).order_by("seq").values_list("seq", "client_id", "type", "payload")
    lines = [_row_line(*row) for row in rows]
    if after > match.last_seq:
        raise _refusal("log_gap", 409, last_seq=match.last_seq, last=match.last_seq, after=after)
    if hash_lines(lines[:after]) != prefix_hash:
        raise _refusal("log_changed", 409, last_seq=match.last_seq, seq=f"≤{after}")
    parsed = [_event_item(item, after + n) for n, item in enumerate(items, start=1)]
    duplicates = 0
    new = []
    for seq, event_id, event_type, payload, received, sent_by in parsed:
        line = _row_line(seq, event_id, event_type, payload)
        if seq <= match.last_seq:
            if lines[seq - 1] != line:
                raise _refusal("log_changed", 409, last_seq=match.last_seq, seq=seq)
            duplicates += 1
        else:
            new.append((seq, event_id, event_type, payload, received, sent_by, line))
    if new and match.kept_at != Match.KeptAt.FIELD:
        raise _refusal("not_kept_at_field", 409, last_seq=match.last_seq)
    if not new:
        whole = hash_lines(lines[: after + len(parsed)])
        if whole != field_hash:
            raise _refusal("log_changed", 409, "log_hash_differs", last_seq=match.last_seq)
        return ReplicaAnswer(match.last_seq, hash_lines(lines), 0, duplicates, match.kept_at)

    game = match_game(match, config)
    users = _users([sent_by for *_, sent_by, _line in new])
    appended = []
    for seq, event_id, event_type, payload, received, sent_by, line in new:
        # The field decided the event at its own time: the rules judge it at that time, as stored.
        decision = decide(game, payload, now=_wall(payload, received.timestamp()), stamps=False, strict_keys=False)
        if not decision.accepted or decision.game.log_len != game.log_len + 1 or decision.event != payload:
            code = decision.error.code if decision.error is not None else "duplicate_id"
            raise _refusal("log_not_accepted", 409, last_seq=match.last_seq, seq=seq, code=code)
        game = decision.game
        lines.append(line)
        match.last_seq = seq
        appended.append(
            MatchEvent(
                match=match,
                seq=seq,
                client_id=event_id,
                type=event_type,
                payload=payload,
                sent_by=users.get(sent_by or ""),
                received_at=received,
            )
        )
    total = hash_lines(lines)
    if total != field_hash:
        raise _refusal("log_changed", 409, "log_hash_differs", last_seq=match.last_seq - len(appended))
    # (a private helper of the write path: the same store, cache and post-commit seam as an event's)
    state = _save_and_publish(match, game, config, time.time(), appended)
    if state.get("status") in ENDED and match.kept_at == Match.KeptAt.FIELD:
        # The final log has arrived: the match comes back to this server, by itself (audited).
        match.kept_at = Match.KeptAt.SERVER
        match.save(update_fields=["kept_at"])
        audit_record(
            user=None,
            action=AuditEntry.Action.FIELD_RETURN,
            match=match,
            details={"last_seq": match.last_seq, "reason": "final log arrived"},
            scope="",
        )
    return ReplicaAnswer(match.last_seq, total, len(appended), duplicates, match.kept_at)


def _wall(payload: dict[str, Any], received: float) -> float:
    t = payload.get("server_time")
    return float(t) if isinstance(t, (int, float)) and not isinstance(t, bool) else received


def _users(usernames: list[str | None]) -> dict[str, Any]:
    wanted = {name for name in usernames if name}
    if not wanted:
        return {}
    return {user.username: user for user in get_user_model().objects.filter(username__in=wanted)}
