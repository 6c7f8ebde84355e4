"""The awards the committee gives: the Most Valuable Player (MVP) and the Best Playing Pony (BPP).

Vocabulary: an *award* is of a match (``match`` set) or of the tournament (``match`` empty); one of
each kind per match and per tournament. The *Best Playing Pony* is a horse: its name, the player who
rode it, its owner and its breeder. The horse is one the player rode in the match (a ``mount`` event
of the log: ``from_mount``) or typed by the committee. Unlike the log, an award may be changed or
withdrawn: the audit trail keeps every version.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from matches.models import Entry, Match, Player, Tournament


class Award(models.Model):
    class Kind(models.TextChoices):
        MVP = "mvp", _("Most Valuable Player")
        BEST_PLAYING_PONY = "bpp", _("Best Playing Pony")

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.PROTECT, related_name="awards"
    )
    match = models.ForeignKey(
        Match, verbose_name=_("match"), null=True, blank=True, on_delete=models.PROTECT, related_name="awards"
    )
    kind = models.CharField(_("award"), max_length=8, choices=Kind.choices)
    player = models.ForeignKey(Player, verbose_name=_("player"), on_delete=models.PROTECT, related_name="awards")
    entry = models.ForeignKey(
        Entry, verbose_name=_("team"), null=True, blank=True, on_delete=models.PROTECT, related_name="awards"
    )
    horse = models.CharField(_("horse"), max_length=80, blank=True)
    owner = models.CharField(_("owner"), max_length=120, blank=True)
    breeder = models.CharField(_("breeder"), max_length=120, blank=True)
    from_mount = models.BooleanField(_("ridden in the match"), default=False)
    awarded_at = models.DateTimeField(_("awarded at"), default=timezone.now)
    awarded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("awarded by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        ordering = ["tournament", "match", "kind"]
        constraints = [
            models.UniqueConstraint(
                fields=["match", "kind"], condition=models.Q(match__isnull=False), name="one_award_of_a_kind_per_match"
            ),
            models.UniqueConstraint(
                fields=["tournament", "kind"],
                condition=models.Q(match__isnull=True),
                name="one_award_of_a_kind_per_tournament",
            ),
        ]
        verbose_name = _("award")
        verbose_name_plural = _("awards")

    def __str__(self) -> str:
        what = f"{self.horse} ({self.player.name})" if self.horse else self.player.name
        return f"{self.get_kind_display()}: {what}"
