"""The scoresheet as the screens show it: who must sign, who signed which log, what is broken.

A signature is *valid* while its hash is the hash of the log now (``hashing.log_hash``); once any
event is accepted after it (a void, a forfeit, a clock set), it is *broken*: the screens say so and
ask for new signatures. Only the newest signature of each official counts. A signature whose seal
does not hold (``Signature.seal_ok``) is *altered*: its row was written or changed by someone without
the signing secret, and it counts for nothing whatever its hash.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.utils.translation import gettext as _

from matches.models import Match

from .hashing import log_hash
from .models import Signature

# A match whose result can be signed: it is over (the final horn, a forfeit, an abandonment).
SIGNABLE_STATUSES = frozenset({"final", "abandoned"})


def person(user) -> str:
    return user.get_full_name() or user.get_username()


@dataclass(frozen=True)
class SignatureLine:
    official_id: int
    name: str
    username: str
    role: str
    role_label: str
    signed_at: datetime
    last_seq: int
    log_hash: str
    valid: bool
    sealed: bool = True


@dataclass(frozen=True)
class Official:
    """An official who signs the scoresheet: the umpires and the referee assigned to the match."""

    user_id: int
    name: str
    username: str
    role: str
    role_label: str


@dataclass
class Scoresheet:
    match_id: int
    status: str
    last_seq: int
    log_hash: str
    officials: list[Official]
    signatures: list[SignatureLine] = field(default_factory=list)

    @property
    def signable(self) -> bool:
        return self.status in SIGNABLE_STATUSES

    @property
    def valid(self) -> list[SignatureLine]:
        return [s for s in self.signatures if s.valid]

    @property
    def broken(self) -> list[SignatureLine]:
        return [s for s in self.signatures if not s.valid]

    @property
    def altered(self) -> list[SignatureLine]:
        return [s for s in self.signatures if not s.sealed]

    @property
    def missing(self) -> list[Official]:
        signed = {s.official_id for s in self.valid}
        return [o for o in self.officials if o.user_id not in signed]

    @property
    def unsigned(self) -> list[Official]:
        """The officials with no signature at all (a broken one is listed as broken)."""
        signed = {s.official_id for s in self.signatures}
        return [o for o in self.officials if o.user_id not in signed]

    @property
    def complete(self) -> bool:
        return self.signable and bool(self.officials) and not self.missing

    def signed_by(self, user_id: int) -> SignatureLine | None:
        return next((s for s in self.valid if s.official_id == user_id), None)

    def as_json(self) -> dict[str, Any]:
        return {
            "match_id": self.match_id,
            "status": self.status,
            "signable": self.signable,
            "last_seq": self.last_seq,
            "log_hash": self.log_hash,
            "complete": self.complete,
            "broken": bool(self.broken),
            "altered": bool(self.altered),
            "officials": [
                {"name": o.name, "username": o.username, "role": o.role, "role_label": o.role_label}
                for o in self.officials
            ],
            "missing": [o.username for o in self.missing],
            "signatures": [
                {
                    "name": s.name,
                    "username": s.username,
                    "role": s.role,
                    "role_label": s.role_label,
                    "signed_at": s.signed_at.timestamp(),
                    "last_seq": s.last_seq,
                    "log_hash": s.log_hash,
                    "valid": s.valid,
                    "sealed": s.sealed,
                }
                for s in self.signatures
            ],
        }


def signer_role(user, match: Match) -> str | None:
    """The role in which ``user`` signs this match's scoresheet: "referee", "umpire" or None."""
    if not (user.is_authenticated and user.is_active):
        return None
    if match.referee_id == user.pk:
        return Signature.Role.REFEREE
    if match.umpires.filter(pk=user.pk).exists():
        return Signature.Role.UMPIRE
    return None


def match_officials(match: Match) -> list[Official]:
    officials = [
        Official(u.pk, person(u), u.get_username(), Signature.Role.UMPIRE, str(Signature.Role.UMPIRE.label))
        for u in match.umpires.order_by("username")
        if u.pk != match.referee_id
    ]
    if match.referee is not None:
        referee = match.referee
        officials.append(
            Official(
                referee.pk,
                person(referee),
                referee.get_username(),
                Signature.Role.REFEREE,
                str(Signature.Role.REFEREE.label),
            )
        )
    return officials


def scoresheet(match: Match, *, upto: int | None = None) -> Scoresheet:
    """The scoresheet of the match's log now (``upto``: as of an earlier position, a report's)."""
    last_seq, digest = log_hash(match.pk, upto)
    newest: dict[int, Signature] = {}
    for row in Signature.objects.filter(match=match).select_related("official").order_by("signed_at", "pk"):
        newest[row.official_id] = row
    sealed = {row.pk: row.seal_ok for row in newest.values()}
    lines = [
        SignatureLine(
            official_id=row.official_id,
            name=person(row.official),
            username=row.official.get_username(),
            role=row.role,
            role_label=str(row.get_role_display()),
            signed_at=row.signed_at,
            last_seq=row.last_seq,
            log_hash=row.log_hash,
            valid=row.log_hash == digest and sealed[row.pk],
            sealed=sealed[row.pk],
        )
        for row in sorted(newest.values(), key=lambda r: (r.signed_at, r.pk))
    ]
    return Scoresheet(match.pk, match.status, last_seq, digest, match_officials(match), lines)


def broken_note(sheet: Scoresheet) -> str:
    """What a screen says when a signature no longer binds the log."""
    if sheet.altered:
        return _(
            "The record of the signature of %(names)s has been altered outside the app (its seal does not "
            "match): it counts for nothing. Tell the committee; the officials must sign again."
        ) % {"names": ", ".join(s.name for s in sheet.altered)}
    return _(
        "The log has changed since %(names)s signed (a correction after the signature): the signatures no "
        "longer match the result. The officials must sign again."
    ) % {"names": ", ".join(s.name for s in sheet.broken)}
