"""The records of a match kept at the field: the field tokens and when the field was last heard (on
the tournament's server), and the link to the tournament's server (on the field server). See
``matches.field``."""

from __future__ import annotations

from datetime import datetime, time, timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from matches.models import Field, Match, Tournament


class FieldTokenQuerySet(models.QuerySet):
    def usable(self) -> FieldTokenQuerySet:
        """Not revoked and not expired."""
        return self.filter(revoked_at__isnull=True, expires_at__gt=timezone.now())


class FieldToken(models.Model):
    """A field server's credential (on the tournament's server), for one match, or for every match
    of a day: of one tournament (``tournament``), of one ground (``field``), or both. Only the
    SHA-256 of the secret is stored: a copy of the database gives no usable token. Revoked, never
    deleted (the audit trail names it)."""

    match = models.ForeignKey(
        Match, verbose_name=_("match"), on_delete=models.PROTECT, related_name="field_tokens", null=True, blank=True
    )
    # A day's token (``match`` empty): every match starting that day (local time), of the
    # tournament and/or on the ground named.
    day = models.DateField(_("day"), null=True, blank=True)
    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.PROTECT, related_name="+", null=True, blank=True
    )
    field = models.ForeignKey(
        Field, verbose_name=_("field"), on_delete=models.PROTECT, related_name="+", null=True, blank=True
    )
    token_hash = models.CharField(_("token hash (SHA-256)"), max_length=64, unique=True)
    issued_at = models.DateTimeField(_("issued at"), default=timezone.now)
    issued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("issued by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    expires_at = models.DateTimeField(_("expires at"))
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("revoked by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    # When the field server last reached this server with the token (a pairing or a push).
    heard_at = models.DateTimeField(_("last heard from the field"), null=True, blank=True)

    objects = FieldTokenQuerySet.as_manager()

    class Meta:
        ordering = ["-issued_at", "-pk"]
        verbose_name = _("field token")
        verbose_name_plural = _("field tokens")
        constraints = [
            # One match, or a day of a tournament or of a ground: never both, never an open scope.
            models.CheckConstraint(
                condition=(
                    models.Q(match__isnull=False, day__isnull=True, tournament__isnull=True, field__isnull=True)
                    | models.Q(match__isnull=True, day__isnull=False, tournament__isnull=False)
                    | models.Q(match__isnull=True, day__isnull=False, field__isnull=False)
                ),
                name="field_token_one_scope",
            )
        ]

    def __str__(self) -> str:
        return _("field token #%(id)s (%(scope)s)") % {"id": self.pk, "scope": self.scope_text()}

    @property
    def usable(self) -> bool:
        return self.revoked_at is None and self.expires_at > timezone.now()

    def scope_text(self) -> str:
        """What the token authorises, in the active language ("match 12", "Field 1 on 2026-12-07")."""
        if self.match_id is not None:
            return _("match %(id)s") % {"id": self.match_id}
        day = self.day.isoformat() if self.day else ""
        if self.field_id is not None and self.tournament_id is not None:
            return _("the matches of %(tournament)s on %(field)s on %(day)s") % {
                "tournament": self.tournament,
                "field": self.field,
                "day": day,
            }
        if self.field_id is not None:
            return _("the matches on %(field)s on %(day)s") % {"field": self.field, "day": day}
        return _("the matches of %(tournament)s on %(day)s") % {"tournament": self.tournament, "day": day}

    def covers(self, match: Match) -> bool:
        """Whether the token authorises ``match`` (its own match, or a match of its day: starting
        that day, local time, of its tournament and on its ground where it names them)."""
        if self.match_id is not None:
            return self.match_id == match.pk
        return (
            timezone.localtime(match.starts_at).date() == self.day
            and self.tournament_id in (None, match.tournament_id)
            and self.field_id in (None, match.field_id)
        )

    def matches(self) -> models.QuerySet[Match]:
        """Every match the token authorises, in order of their start."""
        if self.match_id is not None:
            return Match.objects.filter(pk=self.match_id)
        assert self.day is not None
        tz = timezone.get_current_timezone()
        start = datetime.combine(self.day, time.min, tzinfo=tz)
        found = Match.objects.filter(starts_at__gte=start, starts_at__lt=start + timedelta(days=1))
        if self.tournament_id is not None:
            found = found.filter(tournament_id=self.tournament_id)
        if self.field_id is not None:
            found = found.filter(field_id=self.field_id)
        return found.order_by("starts_at", "pk")


class FieldHeard(models.Model):
    """When the field server last reached this one about a match (a pairing or a push, whichever
    token it used): the public screens, the API, the statistics and the reports say it
    (``selectors.field_presence``)."""

    match = models.OneToOneField(
        Match, verbose_name=_("match"), on_delete=models.CASCADE, primary_key=True, related_name="field_heard"
    )
    at = models.DateTimeField(_("last heard from the field"))
    token = models.ForeignKey(
        FieldToken, verbose_name=_("field token"), on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        verbose_name = _("last heard from the field")
        verbose_name_plural = _("last heard from the field")

    def __str__(self) -> str:
        return f"{self.match_id}: {self.at:%Y-%m-%d %H:%M:%S}"


class FieldLink(models.Model):
    """The field server's link to the tournament's server for one match it keeps (on the field
    server): where to push the log, with which token, and how the last push went."""

    match = models.OneToOneField(Match, verbose_name=_("match"), on_delete=models.CASCADE, related_name="field_link")
    server_url = models.URLField(_("tournament's server"))
    remote_match_id = models.PositiveIntegerField(_("match id on the tournament's server"))
    # The field's copy of the token: it must send it (what a stolen laptop gives away: SECURITY.md).
    token = models.CharField(_("field token"), max_length=128)
    paired_at = models.DateTimeField(_("paired at"), default=timezone.now)
    remote_last_seq = models.PositiveIntegerField(_("the replica's last seq"), default=0)
    attempted_at = models.DateTimeField(_("last attempt"), null=True, blank=True)
    sent_at = models.DateTimeField(_("last reached the server"), null=True, blank=True)
    failures = models.PositiveIntegerField(_("failed attempts in a row"), default=0)
    error_code = models.CharField(_("error"), max_length=40, blank=True, default="")
    error_message = models.TextField(_("error message"), blank=True, default="")
    # What the refusal's message is made of (``refusals``): the field's screens say it in their reader's language.
    error_params = models.JSONField(_("error details"), blank=True, default=dict)

    class Meta:
        verbose_name = _("link to the tournament's server")
        verbose_name_plural = _("links to the tournament's server")

    def __str__(self) -> str:
        return f"{self.match_id} → {self.server_url} #{self.remote_match_id}"
