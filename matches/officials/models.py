"""What the officials record beside the event log.

``ScoreConfirmation``: an umpire (or the referee) confirms the score at the end of a chukker. It is
not a match-log event (the rules engine has no such event and the score does not depend on it), so
it lives in its own append-only table: a later confirmation of the same period (say, after a void
corrected the score) is a new row, and the newest row per umpire and period is the one that counts.
``last_seq`` records how far the log had got when the umpire confirmed, so a screen can tell that
the log moved on since.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _


class ScoreConfirmation(models.Model):
    match = models.ForeignKey(
        "matches.Match", verbose_name=_("match"), on_delete=models.PROTECT, related_name="score_confirmations"
    )
    period = models.PositiveSmallIntegerField(_("chukker"))
    umpire = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("umpire")
    )
    home = models.DecimalField(_("home score"), max_digits=4, decimal_places=1)
    away = models.DecimalField(_("away score"), max_digits=4, decimal_places=1)
    last_seq = models.PositiveIntegerField(_("log position"))
    at = models.DateTimeField(_("confirmed at"), auto_now_add=True)

    class Meta:
        ordering = ["match", "period", "at"]
        indexes = [models.Index(fields=["match", "period"])]
        verbose_name = _("score confirmation")
        verbose_name_plural = _("score confirmations")

    def __str__(self) -> str:
        return f"{self.match_id} chukker {self.period}: {self.home}–{self.away} ({self.umpire})"

    def save(self, *args, **kwargs) -> None:
        if self.pk is not None and not kwargs.get("force_insert"):
            raise ValidationError(_("Score confirmations are append-only; confirm again instead."))
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ValidationError(_("Score confirmations are append-only; confirm again instead."))
