"""The officials' signatures of the scoresheet (docs/SCORESHEET.md).

Vocabulary: the *log hash* is the SHA-256 of the match's accepted events in order
(``scoresheet.hashing.log_hash``). A *signature* records that an official (an umpire or the
referee, in that role) stood behind the final result as the log was at ``last_seq``, by its hash.
Any later accepted event (a void, a forfeit, a clock set) changes the hash: the signature no longer
binds the log and is *broken*; the official signs again (a new row). Append-only: the newest row per
official is the one that counts. Each row is *sealed* when it is written: an HMAC of its facts under
a secret the database does not hold (``hashing.seal_message``); a row whose seal does not hold was
written or altered by someone without the secret.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from matches.models import Match

from .hashing import seal, seal_holds, signature_message


class Signature(models.Model):
    class Role(models.TextChoices):
        UMPIRE = "umpire", _("umpire")
        REFEREE = "referee", _("referee")

    match = models.ForeignKey(
        Match, verbose_name=_("match"), on_delete=models.PROTECT, related_name="scoresheet_signatures"
    )
    official = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("official"), on_delete=models.PROTECT, related_name="+"
    )
    role = models.CharField(_("role"), max_length=8, choices=Role.choices)
    last_seq = models.PositiveIntegerField(_("log position"))
    log_hash = models.CharField(_("log hash (SHA-256)"), max_length=64)
    signed_at = models.DateTimeField(_("signed at"), default=timezone.now)
    seal = models.CharField(_("seal (HMAC-SHA256)"), max_length=64, blank=True, default="", editable=False)

    class Meta:
        ordering = ["match", "signed_at", "pk"]
        indexes = [models.Index(fields=["match", "official"])]
        verbose_name = _("scoresheet signature")
        verbose_name_plural = _("scoresheet signatures")

    def __str__(self) -> str:
        return f"{self.match_id}@{self.last_seq} {self.role} {self.official} {self.log_hash[:12]}"

    def save(self, *args, **kwargs) -> None:
        if self.pk is not None and not kwargs.get("force_insert"):
            raise ValidationError(_("Signatures are append-only; sign again instead."))
        if not self.seal:
            self.seal = seal(self.sealed_facts())
        super().save(*args, **kwargs)

    def sealed_facts(self) -> bytes:
        """What the seal binds (``hashing.seal_message``)."""
        return signature_message(self)

    @property
    def seal_ok(self) -> bool:
        """The seal holds under the current secret or a retired one: the row is as it was written."""
        return seal_holds(self.sealed_facts(), self.seal)

    def delete(self, *args, **kwargs):
        raise ValidationError(_("Signatures are append-only; sign again instead."))
