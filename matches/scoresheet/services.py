"""Signing the scoresheet: an umpire or the referee signs the final result from their own login.

The signature binds the log as the signer saw it: the hash their screen showed is checked against
the hash of the log now, under the match's lock, so a signature can never bind a log its signer
did not see. Each signature is in the audit trail too; the stored report of the log's position is
rebuilt after it (its PDF lists the signers).
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from matches.committee.models import AuditEntry
from matches.committee.services import audit_record
from matches.models import Match

from .hashing import log_hash
from .models import Signature
from .selectors import SIGNABLE_STATUSES, signer_role


class SignatureRefused(Exception):
    """A refused signature: ``code`` for programs, ``message`` (translated) for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


@transaction.atomic
def scoresheet_sign(*, match_id: int, official, seen_hash: str | None = None) -> Signature:
    """Record that ``official`` signs the match's result as the log is now. ``seen_hash``: the log
    hash their screen showed (refused with ``log_changed`` when the log has moved on since)."""
    # The lock keeps the log from moving between hashing it and recording the signature.
    match = Match.objects.select_for_update().select_related("tournament").get(pk=match_id)
    role = signer_role(official, match)
    if role is None:
        raise SignatureRefused("forbidden", _("Only the match's umpires and referee sign its scoresheet."))
    if match.status not in SIGNABLE_STATUSES:
        raise SignatureRefused("not_final", _("The match is not over: the scoresheet is signed at the final result."))
    last_seq, digest = log_hash(match.pk)
    if seen_hash is not None and seen_hash != digest:
        raise SignatureRefused(
            "log_changed", _("The log has changed since your screen showed it: check the result and sign again.")
        )
    signature = Signature.objects.create(match=match, official=official, role=role, last_seq=last_seq, log_hash=digest)
    audit_record(
        user=official,
        action=AuditEntry.Action.SCORESHEET_SIGN,
        match=match,
        details={"role": role, "last_seq": last_seq, "log_hash": digest},
    )
    transaction.on_commit(lambda: report_refresh(match.pk, last_seq))
    return signature


def report_refresh(match_id: int, last_seq: int) -> None:
    """Rebuild the stored report of this log position, if there is one, so that its PDF shows the
    signatures and awards of now (a report not built yet will show them when it is)."""
    from matches.committee import reports
    from matches.committee.models import MatchReport

    if MatchReport.objects.filter(match_id=match_id, last_seq=last_seq).exists():
        reports.match_report_build(match_id=match_id, force=True)
