"""Tournaments, fields, teams, players, matches and the append-only event log.

Vocabulary: a *tournament* has *entries* (a team entered with a roster; each roster line records
the player's handicap at entry). A *match* is played between two entries on a *field*. Its *event
log* (``MatchEvent``) is the truth: the state of a match is derived from it by the rules service
(``officiating.engine``); ``Match.state_cache``/``last_seq`` are only a cache that can be rebuilt.

These are the match log's own records. The rooms keep theirs beside their code
(``matches/officials/models.py``: score confirmations; ``matches/committee/models.py``: the audit
trail, reports and webhooks); ``MatchesConfig.import_models`` loads them with these.
"""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _, pgettext

from officiating.engine import USPA_2026
from officiating.engine.config import (
    HANDICAP_LIMIT_RANGE,
    MAX_FIELD_LENGTH,
    MAX_FIELD_WIDTH,
    MAX_HANDICAP_GOALS,
    MAX_PERIOD_SECONDS,
    PLAYER_HANDICAP_RANGE,
    field_minimum,
)

from .bounds import validate_day, validate_moment

HANDICAP_VALIDATORS = [MinValueValidator(-2), MaxValueValidator(10)]
# The engine's bounds of a match's config (officiating.engine.config), which the committee's forms
# also check: here for the admin, so that no value it saves is one the engine refuses (issue 36).
_LIMIT_LOW, _LIMIT_HIGH = (int(limit) for limit in HANDICAP_LIMIT_RANGE)
_FIELD_LENGTH_MIN, _FIELD_WIDTH_MIN = (int(least) + 1 for least in field_minimum(USPA_2026))


def validate_half_goals(value: Decimal) -> None:
    if value is not None and value * 2 != int(value * 2):
        raise ValidationError(_("Handicap goals are whole or half goals."), code="half_goals")


HANDICAP_GOALS_VALIDATORS = [MinValueValidator(0), MaxValueValidator(int(MAX_HANDICAP_GOALS)), validate_half_goals]


class Tournament(models.Model):
    class RulesEdition(models.TextChoices):
        USPA_2026 = "USPA-2026", _("USPA Rulebook 2026")

    name = models.CharField(_("name"), max_length=120)
    club = models.CharField(_("club"), max_length=120)
    starts_on = models.DateField(_("first day"), validators=[validate_day])
    ends_on = models.DateField(_("last day"), validators=[validate_day])
    lower_handicap_limit = models.SmallIntegerField(
        _("lower team handicap limit"),
        default=0,
        validators=[MinValueValidator(int(4 * PLAYER_HANDICAP_RANGE[0])), MaxValueValidator(_LIMIT_HIGH)],
    )
    upper_handicap_limit = models.SmallIntegerField(
        _("upper team handicap limit"),
        default=8,
        validators=[MinValueValidator(_LIMIT_LOW), MaxValueValidator(_LIMIT_HIGH)],
    )
    rules_edition = models.CharField(
        _("rules edition"), max_length=20, choices=RulesEdition.choices, default=RulesEdition.USPA_2026
    )
    courtesy_change = models.BooleanField(
        _("courtesy changes allowed"),
        default=False,
        help_text=_("Rule 21.f(2): one 1-minute courtesy change per period."),
    )
    tack_allowance = models.BooleanField(
        _("5-minute tack allowance"),
        default=False,
        help_text=_("Rule 21.g: announced by the committee for tournaments of upper limit 6 or less."),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["-starts_on", "name"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")

    def __str__(self) -> str:
        return f"{self.name} ({self.club})"

    def clean(self) -> None:
        if self.ends_on and self.starts_on and self.ends_on < self.starts_on:
            raise ValidationError({"ends_on": _("The last day cannot be before the first.")})
        if self.lower_handicap_limit > self.upper_handicap_limit:
            raise ValidationError({"lower_handicap_limit": _("The lower limit cannot exceed the upper limit.")})
        if self.tack_allowance and self.upper_handicap_limit > 6:
            raise ValidationError(
                {"tack_allowance": _("Rule 21.g: the tack allowance is for upper handicap limit 6 or less.")}
            )


class Field(models.Model):
    name = models.CharField(_("name"), max_length=80)
    club = models.CharField(_("club"), max_length=120, blank=True)
    length = models.PositiveSmallIntegerField(
        _("length (yards)"),
        default=300,
        validators=[MinValueValidator(_FIELD_LENGTH_MIN), MaxValueValidator(int(MAX_FIELD_LENGTH))],
    )
    width = models.PositiveSmallIntegerField(
        _("width (yards)"),
        default=160,
        validators=[MinValueValidator(_FIELD_WIDTH_MIN), MaxValueValidator(int(MAX_FIELD_WIDTH))],
    )
    boarded = models.BooleanField(_("boarded"), default=False)

    class Meta:
        ordering = ["club", "name"]
        verbose_name = _("field")
        verbose_name_plural = _("fields")

    def __str__(self) -> str:
        return self.name


class Team(models.Model):
    name = models.CharField(_("name"), max_length=80, unique=True)
    color = models.CharField(_("colour"), max_length=7, default="#1d4ed8", help_text=_("#rrggbb"))

    class Meta:
        ordering = ["name"]
        verbose_name = _("team")
        verbose_name_plural = _("teams")

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    name = models.CharField(_("name"), max_length=120)
    handicap = models.SmallIntegerField(_("handicap"), default=0, validators=HANDICAP_VALIDATORS)

    class Meta:
        ordering = ["name"]
        verbose_name = _("player")
        verbose_name_plural = _("players")

    def __str__(self) -> str:
        return f"{self.name} ({self.handicap})"


class Entry(models.Model):
    """A team entered in a tournament, with its roster."""

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="entries"
    )
    team = models.ForeignKey(Team, verbose_name=_("team"), on_delete=models.PROTECT, related_name="entries")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["tournament", "team"], name="one_entry_per_team")]
        verbose_name = _("entry")
        verbose_name_plural = _("entries")

    def __str__(self) -> str:
        return f"{self.team} — {self.tournament.name}"

    @property
    def team_handicap(self) -> int:
        return sum(line.handicap for line in self.roster.all())


class RosterLine(models.Model):
    entry = models.ForeignKey(Entry, verbose_name=_("entry"), on_delete=models.CASCADE, related_name="roster")
    player = models.ForeignKey(Player, verbose_name=_("player"), on_delete=models.PROTECT, related_name="roster_lines")
    number = models.PositiveSmallIntegerField(_("number"), validators=[MinValueValidator(1), MaxValueValidator(4)])
    handicap = models.SmallIntegerField(_("handicap at entry"), validators=HANDICAP_VALIDATORS)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["entry", "number"], name="one_player_per_number"),
            models.UniqueConstraint(fields=["entry", "player"], name="player_once_per_roster"),
        ]
        verbose_name = _("roster line")
        verbose_name_plural = _("roster lines")

    def __str__(self) -> str:
        return f"#{self.number} {self.player.name} ({self.handicap})"


class Match(models.Model):
    class Status(models.TextChoices):
        SCHEDULED = "scheduled", _("Scheduled")
        IN_PLAY = "in_play", _("In play")
        STOPPED = "stopped", _("Stopped")
        INTERVAL = "interval", _("Interval")
        TIED = "tied", _("Tied")
        SHOOTOUT = "shootout", _("Shootout")
        SUSPENDED = "suspended", _("Suspended")
        FINAL = "final", _("Final")
        ABANDONED = "abandoned", _("Abandoned")

    class End(models.TextChoices):
        NORTH = "north", _("North")
        SOUTH = "south", _("South")

    class Stage(models.TextChoices):
        ZONE = "zone", _("Zone play")
        ROUND_OF_16 = "round_of_16", _("Round of 16")
        QUARTERFINAL = "quarterfinal", _("Quarterfinal")
        SEMIFINAL = "semifinal", _("Semifinal")
        THIRD_PLACE = "third_place", _("Third place")
        FINAL = "final", _("Final")
        SUBSIDIARY = "subsidiary", _("Subsidiary")

    class KeptAt(models.TextChoices):
        SERVER = "server", _("this server")
        FIELD = "field", _("the field")

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.PROTECT, related_name="matches"
    )
    field = models.ForeignKey(Field, verbose_name=_("field"), on_delete=models.PROTECT, related_name="matches")
    starts_at = models.DateTimeField(_("starts at"), validators=[validate_moment])
    home = models.ForeignKey(Entry, verbose_name=_("home"), on_delete=models.PROTECT, related_name="home_matches")
    away = models.ForeignKey(Entry, verbose_name=_("away"), on_delete=models.PROTECT, related_name="away_matches")
    periods = models.PositiveSmallIntegerField(
        _("periods"), default=6, validators=[MinValueValidator(1), MaxValueValidator(8)]
    )
    period_seconds = models.PositiveSmallIntegerField(
        _("period length (s)"),
        default=int(USPA_2026.period_seconds),
        validators=[
            MinValueValidator(int(USPA_2026.min_clock_remaining) + 1),
            MaxValueValidator(int(MAX_PERIOD_SECONDS)),
        ],
    )
    stage = models.CharField(
        _("stage"),
        max_length=16,
        choices=Stage.choices,
        blank=True,
        default="",
        help_text=_("The knockout stages make the rounds of the bracket; the standings count the other matches."),
    )
    home_defends = models.CharField(
        _("home defends at the first throw-in"), max_length=5, choices=End.choices, default=End.NORTH
    )
    home_handicap_goals = models.DecimalField(
        _("home handicap goals"),
        max_digits=3,
        decimal_places=1,
        default=Decimal(0),
        validators=HANDICAP_GOALS_VALIDATORS,
    )
    away_handicap_goals = models.DecimalField(
        _("away handicap goals"),
        max_digits=3,
        decimal_places=1,
        default=Decimal(0),
        validators=HANDICAP_GOALS_VALIDATORS,
    )
    umpires = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="umpired_matches", verbose_name=_("umpires")
    )
    referee = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="refereed_matches",
        verbose_name=_("referee"),
    )
    scorer = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="scored_matches",
        verbose_name=_("scorer"),
    )
    # A cache of the rules service's fold of the log, rebuilt from MatchEvent whenever in doubt.
    state_cache = models.JSONField(_("state cache"), default=dict, blank=True, editable=False)
    last_seq = models.PositiveIntegerField(_("log position"), default=0, editable=False)
    # Issue 34: when the match's timekeeper (the scorer's screen) last told the server it had sent
    # everything it had kept (epoch s); None: no timekeeper has been heard and the server keeps the
    # time (matches/live/field.py).
    field_heard_at = models.FloatField(_("field last heard at"), null=True, blank=True, editable=False)
    status = models.CharField(
        _("status"), max_length=12, choices=Status.choices, default=Status.SCHEDULED, editable=False
    )
    # Where the match's log is written (matches/field/): here, or on the field's own server, whose
    # log this server then holds as a replica (it refuses the officials' writes and runs no clock).
    kept_at = models.CharField(
        _("kept at"), max_length=6, choices=KeptAt.choices, default=KeptAt.SERVER, editable=False
    )

    class Meta:
        ordering = ["starts_at", "field__name"]
        indexes = [models.Index(fields=["starts_at"]), models.Index(fields=["status"])]
        verbose_name = _("match")
        verbose_name_plural = _("matches")

    def __str__(self) -> str:
        # Local time, as every page shows it (starts_at is stored in UTC).
        return f"{self.title}, {timezone.localtime(self.starts_at):%Y-%m-%d %H:%M}"

    @property
    def practice(self) -> bool:
        """A practice match: its chukkers are not the rules' 7:00 (Rule 14.b(1); the committee's form)."""
        return self.period_seconds != int(USPA_2026.period_seconds)

    @property
    def chukker_length(self) -> str:
        """A chukker's length as the committee reads it, "7:00"."""
        return f"{self.period_seconds // 60}:{self.period_seconds % 60:02d}"

    @property
    def title(self) -> str:
        """The two teams in words, in the active language ("La Dolfina v Ellerstina")."""
        return pgettext("match title", "%(home)s v %(away)s") % {
            "home": self.home.team.name,
            "away": self.away.team.name,
        }

    def clean(self) -> None:
        if self.home_id and self.away_id:
            if self.home_id == self.away_id:
                raise ValidationError(_("A team cannot play itself."))
            if self.home.tournament_id != self.tournament_id or self.away.tournament_id != self.tournament_id:
                raise ValidationError(_("Both teams must be entered in the match's tournament."))
        for value in (self.home_handicap_goals, self.away_handicap_goals):
            if value is not None and (value * 2) % 1 != 0:
                raise ValidationError(_("Handicap goals go in steps of half a goal."))

    def suggested_handicap_goals(self) -> tuple[Decimal, Decimal]:
        """The lower-rated team gets the difference × periods ÷ 6, rounded to half goals."""
        return suggest_handicap_goals(self.home.team_handicap, self.away.team_handicap, self.periods)


def suggest_handicap_goals(home_handicap: int, away_handicap: int, periods: int) -> tuple[Decimal, Decimal]:
    diff = Decimal(abs(home_handicap - away_handicap)) * Decimal(periods) / Decimal(6)
    goals = (diff * 2).quantize(Decimal(1), rounding="ROUND_HALF_UP") / 2
    if home_handicap < away_handicap:
        return goals, Decimal(0)
    return Decimal(0), goals


class AppendOnlyQuerySet(models.QuerySet):
    """Bulk ``update()``/``delete()`` would bypass the model's guard: refuse them too."""

    def update(self, **kwargs):
        raise ValidationError(_("Match events are append-only; log a void instead."))

    def delete(self):
        raise ValidationError(_("Match events are append-only; log a void instead."))


class MatchEvent(models.Model):
    """One accepted event of a match's log. Append-only: never updated or deleted.

    A correction is a new ``void`` event. ``seq`` is the per-match sequence number (1, 2, …) and
    ``client_id`` the id the client made (idempotency: posting it again records nothing new).
    """

    match = models.ForeignKey(Match, verbose_name=_("match"), on_delete=models.PROTECT, related_name="events")
    seq = models.PositiveIntegerField(_("sequence number"))
    client_id = models.CharField(_("client id"), max_length=64)
    type = models.CharField(_("type"), max_length=32)
    payload = models.JSONField(_("event"))
    # Who logged it (None: the server itself, e.g. a horn the clock made due). PROTECT: the log
    # keeps its authors; an official who logged events is made inactive, never deleted.
    sent_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("sent by"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    received_at = models.DateTimeField(_("received at"))

    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        ordering = ["match", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seq"], name="event_seq_unique_per_match"),
            models.UniqueConstraint(fields=["match", "client_id"], name="event_client_id_unique_per_match"),
        ]
        verbose_name = _("match event")
        verbose_name_plural = _("match events")

    def __str__(self) -> str:
        return f"{self.match_id}#{self.seq} {self.type}"

    def save(self, *args, **kwargs) -> None:
        if self.pk is not None and not kwargs.get("force_insert"):
            raise ValidationError(_("Match events are append-only; log a void instead."))
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ValidationError(_("Match events are append-only; log a void instead."))


class CommitteeAssignmentQuerySet(models.QuerySet):
    def active(self) -> CommitteeAssignmentQuerySet:
        return self.filter(revoked_at__isnull=True)


class CommitteeAssignment(models.Model):
    """A committee member's mandate over one tournament: they set it up, send the committee's events
    on its matches, run its shootouts and read its reports, and act on no other tournament.

    The federation (superusers and the ``federation`` group: the server's operators) needs none: it
    acts on every tournament. An assignment is revoked, never deleted: the audit trail names the
    assignment each committee action was taken under (``AuditEntry.assignment``), so it outlives its
    revocation. A member may hold one active assignment per tournament."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("committee member"),
        on_delete=models.CASCADE,
        related_name="committee_assignments",
    )
    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="committee_assignments"
    )
    assigned_at = models.DateTimeField(_("assigned at"), default=timezone.now)
    assigned_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("assigned by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("revoked by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    objects = CommitteeAssignmentQuerySet.as_manager()

    class Meta:
        ordering = ["-assigned_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "tournament"],
                condition=models.Q(revoked_at__isnull=True),
                name="one_active_committee_assignment",
            )
        ]
        verbose_name = _("committee assignment")
        verbose_name_plural = _("committee assignments")

    def __str__(self) -> str:
        return _("%(member)s, committee of %(tournament)s (#%(id)s)") % {
            "member": self.user,
            "tournament": self.tournament.name,
            "id": self.pk,
        }

    @property
    def active(self) -> bool:
        return self.revoked_at is None
