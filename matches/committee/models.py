"""The committee's records: the audit trail, official match reports and result webhooks.

Vocabulary: an *audit entry* records one committee action (who, when, what, on which match or
tournament) and is append-only like the event log. A *match report* is the official report built
from the log at one position (``last_seq``): rebuilding it for the same position gives the same
report, so building it twice is harmless. A *webhook* is an address the committee asks us to send
results to; every attempt to send one is a *webhook delivery*.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from matches.models import CommitteeAssignment, Match, Tournament

from .targets import validate_target


class _AppendOnlyQuerySet(models.QuerySet):
    def update(self, **kwargs):
        raise ValidationError(_("The audit trail is append-only."))

    def delete(self):
        raise ValidationError(_("The audit trail is append-only."))


class AuditEntry(models.Model):
    """One committee action. Never updated or deleted."""

    class Action(models.TextChoices):
        TOURNAMENT_CREATE = "tournament_create", _("Tournament created")
        TOURNAMENT_EDIT = "tournament_edit", _("Tournament edited")
        FIELD_CREATE = "field_create", _("Field created")
        FIELD_EDIT = "field_edit", _("Field edited")
        ENTRY_CREATE = "entry_create", _("Team entered")
        ENTRY_DELETE = "entry_delete", _("Entry withdrawn")
        ROSTER_CREATE = "roster_create", _("Player added to a roster")
        ROSTER_EDIT = "roster_edit", _("Roster line edited")
        ROSTER_DELETE = "roster_delete", _("Player removed from a roster")
        MATCH_CREATE = "match_create", _("Match scheduled")
        MATCH_EDIT = "match_edit", _("Match rescheduled")
        OFFICIALS = "officials", _("Officials assigned")
        HANDICAP_GOALS = "handicap_goals", _("Handicap goals set")
        SUSPEND = "suspend", _("Match suspended")
        RESUME = "resume", _("Match resumed")
        ABANDON = "abandon", _("Match abandoned")
        OVERTIME = "overtime", _("Overtime ordered")
        SHOOTOUT_LOT = "shootout_lot", _("Shootout lot drawn")
        SHOOTOUT_LOT_CORRECTED = "shootout_lot_corrected", _("Shootout lot corrected")
        SHOOTOUT_START = "shootout_start", _("Shootout started")
        SHOOTOUT_ATTEMPT = "shootout_attempt", _("Shootout hit recorded")
        FORFEIT = "forfeit", _("Forfeit recorded")
        REPORT_REBUILD = "report_rebuild", _("Report rebuilt")
        WEBHOOK_CREATE = "webhook_create", _("Webhook added")
        WEBHOOK_EDIT = "webhook_edit", _("Webhook changed")
        COMMITTEE_ASSIGN = "committee_assign", _("Committee member assigned")
        COMMITTEE_REVOKE = "committee_revoke", _("Committee assignment revoked")
        LOGIN_UNLOCK = "login_unlock", _("Login unlocked")
        AWARD_SET = "award_set", _("Award recorded")
        AWARD_WITHDRAW = "award_withdraw", _("Award withdrawn")
        SCORESHEET_SIGN = "scoresheet_sign", _("Scoresheet signed")
        TOURNAMENT_EXPORT = "tournament_export", _("Tournament exported")
        # A match kept at the field (matches/field/)
        FIELD_TOKEN_ISSUE = "field_token_issue", _("Field token issued")
        FIELD_TOKEN_REVOKE = "field_token_revoke", _("Field token revoked")
        FIELD_KEEP = "field_keep", _("Match handed to the field")
        FIELD_RETURN = "field_return", _("Match back on the tournament's server")

    class Scope(models.TextChoices):
        """Under what authority the action was taken (``matches.permissions.committee_scope``)."""

        ASSIGNMENT = "assignment", _("committee of the tournament")
        FEDERATION = "federation", _("federation")
        COMMITTEE = "committee", _("committee member")  # an action of no one tournament (a shared field)
        OFFICIAL = "official", _("official of the match")  # a shootout hit recorded by an umpire

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("who"),
    )
    at = models.DateTimeField(_("when"), default=timezone.now)
    action = models.CharField(_("action"), max_length=32, choices=Action.choices)
    tournament = models.ForeignKey(
        Tournament,
        verbose_name=_("tournament"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="audit_entries",
    )
    match = models.ForeignKey(
        Match, verbose_name=_("match"), null=True, blank=True, on_delete=models.PROTECT, related_name="audit_entries"
    )
    details = models.JSONField(_("details"), default=dict, blank=True)
    # Who acted under which assignment: the assignment in force (kept after it is revoked: it is
    # never deleted), or the federation's role; blank for entries recorded before committees were
    # assigned per tournament.
    scope = models.CharField(_("acting as"), max_length=16, choices=Scope.choices, blank=True, default="")
    assignment = models.ForeignKey(
        CommitteeAssignment,
        verbose_name=_("committee assignment"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="audit_entries",
    )

    objects = _AppendOnlyQuerySet.as_manager()

    class Meta:
        ordering = ["-at", "-pk"]
        indexes = [models.Index(fields=["match", "at"]), models.Index(fields=["tournament", "at"])]
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit trail")

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.user} {self.action}"

    def acting_as(self) -> str:
        """The authority the action was taken under, in words ("committee of Spring Cup, assignment
        #4"; "federation"); empty for entries recorded before committees were assigned."""
        if self.scope == self.Scope.ASSIGNMENT and self.assignment is not None:
            return _("committee of %(tournament)s, assignment #%(id)s") % {
                "tournament": self.assignment.tournament.name,
                "id": self.assignment_id,
            }
        return str(self.get_scope_display()) if self.scope else ""

    def save(self, *args, **kwargs) -> None:
        if self.pk is not None and not kwargs.get("force_insert"):
            raise ValidationError(_("The audit trail is append-only."))
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ValidationError(_("The audit trail is append-only."))


class MatchReport(models.Model):
    """The official report of a match at one log position. ``data`` is what the HTML page shows;
    ``pdf`` is the same report as a PDF."""

    match = models.ForeignKey(Match, verbose_name=_("match"), on_delete=models.PROTECT, related_name="reports")
    last_seq = models.PositiveIntegerField(_("log position"))
    built_at = models.DateTimeField(_("built at"), default=timezone.now)
    data = models.JSONField(_("data"), default=dict)
    pdf = models.BinaryField(_("PDF"), default=b"")

    class Meta:
        ordering = ["match", "-last_seq"]
        constraints = [models.UniqueConstraint(fields=["match", "last_seq"], name="one_report_per_log_position")]
        verbose_name = _("match report")
        verbose_name_plural = _("match reports")

    def __str__(self) -> str:
        return f"report {self.match_id}@{self.last_seq}"


class Webhook(models.Model):
    """Where the committee wants results sent (signed with ``secret``)."""

    class Event(models.TextChoices):
        RESULT = "match.result", _("A match ended or its result changed")
        REPORT = "match.report", _("An official report was built")

    name = models.CharField(_("name"), max_length=80)
    # A public https address (``targets``: checked here and again at each delivery).
    url = models.URLField(_("address"), max_length=500, validators=[validate_target])
    secret = models.CharField(
        _("secret"), max_length=128, help_text=_("Each body is signed with HMAC-SHA256 in the X-Polo-Signature header.")
    )
    events = models.JSONField(_("events"), default=list)
    tournament = models.ForeignKey(
        Tournament,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="webhooks",
        verbose_name=_("tournament"),
        help_text=_("Empty: every tournament."),
    )
    active = models.BooleanField(_("active"), default=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("webhook")
        verbose_name_plural = _("webhooks")

    def __str__(self) -> str:
        return self.name


class WebhookDelivery(models.Model):
    """One attempt to send one payload. ``key`` names what was sent (event, match, log position):
    once an attempt with a key succeeded, that key is never sent again. Whether it was delivered,
    not what the far side answered (``webhooks``: that is for the server's log)."""

    webhook = models.ForeignKey(Webhook, verbose_name=_("webhook"), on_delete=models.CASCADE, related_name="deliveries")
    key = models.CharField(_("delivery key"), max_length=120)
    payload = models.JSONField(_("payload"), default=dict)
    attempt = models.PositiveSmallIntegerField(_("attempt"), default=1)
    ok = models.BooleanField(_("delivered"), default=False)
    at = models.DateTimeField(_("when"), default=timezone.now)

    class Meta:
        ordering = ["-at", "-pk"]
        indexes = [models.Index(fields=["webhook", "key"])]
        verbose_name = _("webhook delivery")
        verbose_name_plural = _("webhook deliveries")

    def __str__(self) -> str:
        return f"{self.webhook} {self.key} #{self.attempt} {'ok' if self.ok else 'failed'}"
