"""The records of a match kept at the field: the field tokens (on the tournament's server) and the
link to the tournament's server (on the field server). See ``matches.field``."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from matches.models import Match


class FieldTokenQuerySet(models.QuerySet):
    def usable(self) -> FieldTokenQuerySet:
        """Not revoked and not expired."""
        return self.filter(revoked_at__isnull=True, expires_at__gt=timezone.now())


class FieldToken(models.Model):
    """A field server's credential for one match (on the tournament's server). Only the SHA-256 of
    the secret is stored: a copy of the database gives no usable token. Revoked, never deleted
    (the audit trail names it)."""

    match = models.ForeignKey(Match, verbose_name=_("match"), on_delete=models.PROTECT, related_name="field_tokens")
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

    def __str__(self) -> str:
        return _("field token #%(id)s of match %(match)s") % {"id": self.pk, "match": self.match_id}

    @property
    def usable(self) -> bool:
        return self.revoked_at is None and self.expires_at > timezone.now()


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

    class Meta:
        verbose_name = _("link to the tournament's server")
        verbose_name_plural = _("links to the tournament's server")

    def __str__(self) -> str:
        return f"{self.match_id} → {self.server_url} #{self.remote_match_id}"
