"""The committee's forms: setting a tournament up, and the decisions of match control.

Validation that protects the rules lives here: a team's handicap within the tournament's limits, a
roster of four players before a match is scheduled, a field used by one match at a time, an
official in one role per match, a player rendered unconscious kept off today's rosters
(Rule 21.d). A config the rules engine would refuse (``officiating/engine/config.py``: a handicap
limit, a field, handicap goals out of its bounds; the tack allowance of Rule 21.g above 6 goals,
refused by ``Tournament.clean``) is refused here, before a match is scheduled with it.
"""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING

from django import forms
from django.contrib.auth import get_user_model
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from matches import availability
from matches.bounds import validate_moment
from matches.models import Entry, Field, Match, Player, RosterLine, Team, Tournament
from matches.permissions import COMMITTEE_GROUP, SCORER_GROUP, UMPIRE_GROUP
from officiating.engine import USPA_2026
from officiating.engine.config import (
    HANDICAP_LIMIT_RANGE,
    MAX_FIELD_LENGTH,
    MAX_FIELD_WIDTH,
    PLAYER_HANDICAP_RANGE,
    field_minimum,
)

from .match_length import PRACTICE_PERIOD_SECONDS, RULE_PERIOD_SECONDS, mss, parse_chukker_length
from .match_rules import FIELD_GAP, LOCKED_ONCE_PLAYED, match_check, roster_problems  # noqa: F401
from .models import Webhook
from .webhooks import new_secret

if TYPE_CHECKING:
    from .services import Lot

TEAM_CHOICES = [("home", _("Home")), ("away", _("Away"))]


class DateInput(forms.DateInput):
    input_type = "date"


class DateTimeInput(forms.DateTimeInput):
    input_type = "datetime-local"

    def __init__(self, **kwargs):
        super().__init__(format="%Y-%m-%dT%H:%M", **kwargs)


def _bound(field: forms.Field, low: int, high: int) -> None:
    """A number field that takes ``low`` to ``high`` only (the rules engine's bounds), refused with
    Django's own messages, in the user's language; the browser is told too."""
    field.min_value, field.max_value = low, high
    field.validators = [*field.validators, MinValueValidator(low), MaxValueValidator(high)]
    field.widget.attrs.update({"min": low, "max": high})


class TournamentForm(forms.ModelForm):
    class Meta:
        model = Tournament
        fields = [
            "name",
            "club",
            "starts_on",
            "ends_on",
            "lower_handicap_limit",
            "upper_handicap_limit",
            "courtesy_change",
            "tack_allowance",
        ]
        widgets = {"starts_on": DateInput(), "ends_on": DateInput()}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        low, high = (int(limit) for limit in HANDICAP_LIMIT_RANGE)
        _bound(self.fields["upper_handicap_limit"], low, high)
        # A team's handicap: four players of -2 at the least.
        _bound(self.fields["lower_handicap_limit"], int(4 * PLAYER_HANDICAP_RANGE[0]), high)

    def clean(self):
        cleaned = super().clean()
        if self.instance.pk and not self.errors:
            lower, upper = cleaned.get("lower_handicap_limit"), cleaned.get("upper_handicap_limit")
            outside = [
                e.team.name
                for e in self.instance.entries.select_related("team").prefetch_related("roster")
                if e.roster.exists() and not lower <= e.team_handicap <= upper
            ]
            if outside:
                raise forms.ValidationError(
                    _("These teams' handicaps would be outside the new limits: %(teams)s."),
                    params={"teams": ", ".join(outside)},
                )
        return cleaned


class FieldForm(forms.ModelForm):
    class Meta:
        model = Field
        fields = ["name", "club", "length", "width", "boarded"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # The engine lays out the lines of Rule 22 on the field: longer and wider than their
        # minimum (whole yards here), and not absurdly large.
        min_length, min_width = field_minimum(USPA_2026)
        _bound(self.fields["length"], int(min_length) + 1, int(MAX_FIELD_LENGTH))
        _bound(self.fields["width"], int(min_width) + 1, int(MAX_FIELD_WIDTH))


class EntryForm(forms.Form):
    """Enter a team: an existing one, or a new one by name and colour."""

    team = forms.ModelChoiceField(Team.objects.all(), required=False, label=_("Existing team"))
    new_name = forms.CharField(max_length=80, required=False, label=_("or a new team"))
    new_color = forms.RegexField(
        r"^#[0-9a-fA-F]{6}$",
        required=False,
        initial="#1d4ed8",
        label=_("its colour"),
        widget=forms.TextInput(attrs={"type": "color"}),
    )

    def __init__(self, *args, tournament: Tournament, **kwargs):
        super().__init__(*args, **kwargs)
        self.tournament = tournament
        self.fields["team"].queryset = Team.objects.exclude(entries__tournament=tournament)

    def clean(self):
        cleaned = super().clean()
        team, name = cleaned.get("team"), (cleaned.get("new_name") or "").strip()
        if bool(team) == bool(name):
            raise forms.ValidationError(_("Choose an existing team or name a new one (not both)."))
        if name and Team.objects.filter(name__iexact=name).exists():
            self.add_error("new_name", _("A team with this name exists: choose it in the list."))
        return cleaned

    def save(self) -> Entry:
        team = self.cleaned_data.get("team")
        if team is None:
            team = Team.objects.create(
                name=self.cleaned_data["new_name"].strip(), color=self.cleaned_data.get("new_color") or "#1d4ed8"
            )
        return Entry.objects.create(tournament=self.tournament, team=team)

    @property
    def changed_data(self):
        return ["team"]


class RosterLineForm(forms.ModelForm):
    """A player on a team's roster, with the handicap at entry. Checks the team's handicap against
    the tournament's upper limit as the roster grows (the lower limit once it has four players),
    and Rule 21.d for a team that plays again today."""

    # Not a model field of the form: a new player is created only when the line is saved.
    player = forms.ModelChoiceField(Player.objects.all(), required=False, label=_("Existing player"))
    new_player = forms.CharField(max_length=120, required=False, label=_("or a new player"))

    class Meta:
        model = RosterLine
        fields = ["number", "handicap"]

    def __init__(self, *args, entry: Entry, **kwargs):
        super().__init__(*args, **kwargs)
        self.entry = entry
        if self.instance.pk:
            self.fields["player"].initial = self.instance.player_id
        self.fields["handicap"].required = False
        self.fields["handicap"].help_text = _("Empty: the player's current handicap.")

    def clean(self):
        cleaned = super().clean()
        player, name = cleaned.get("player"), (cleaned.get("new_player") or "").strip()
        if bool(player) == bool(name):
            raise forms.ValidationError(_("Choose an existing player or name a new one (not both)."))
        if name:
            player = Player.objects.filter(name__iexact=name).first() or Player(
                name=name, handicap=cleaned.get("handicap") or 0
            )
            cleaned["player"] = player
        handicap = cleaned.get("handicap")
        if handicap is None:
            handicap = cleaned["handicap"] = player.handicap
        others = self.entry.roster.exclude(pk=self.instance.pk) if self.instance.pk else self.entry.roster.all()
        if not self.instance.pk and others.count() >= 4:
            raise forms.ValidationError(_("A roster has four players."))
        if player.pk and others.filter(player=player).exists():
            self.add_error("player", _("This player is already on the roster."))
        number = cleaned.get("number")
        if number and others.filter(number=number).exists():
            self.add_error("number", _("Another player wears this number."))
        tournament = self.entry.tournament
        total = sum(line.handicap for line in others) + handicap
        if total > tournament.upper_handicap_limit:
            raise forms.ValidationError(
                _("The team's handicap would be %(total)s, above the tournament's upper limit of %(limit)s."),
                params={"total": total, "limit": tournament.upper_handicap_limit},
            )
        if player.pk:
            knock_out = availability.roster_refusal(entry=self.entry, player=player)
            if knock_out is not None:
                raise forms.ValidationError(
                    _("Rule 21.d: %(player)s was rendered unconscious today (%(match)s) and may not play again today."),
                    code="player_unavailable",
                    params={"player": player.name, "match": str(knock_out.match)},
                )
        return cleaned

    def save(self, commit: bool = True) -> RosterLine:
        player = self.cleaned_data["player"]
        if player.pk is None:
            player.save()
        self.instance.player = player
        self.instance.entry = self.entry
        return super().save(commit=commit)


class MatchForm(forms.ModelForm):
    """A match of the tournament: its teams, field and time, and its length — a number of chukkers
    of 7:00 each as the rules have them (Rule 14.b(1)), or, for a practice match (a club's practice
    day, a test of the screens), chukkers of any length. The length is locked once play starts."""

    practice = forms.BooleanField(
        label=_("Practice match: chukkers of another length"),
        required=False,
        help_text=_("Not under the rules (Rule 14.b(1): 7:00 a chukker): for a practice day or a test of the screens."),
    )
    chukker_length = forms.CharField(
        label=_("Practice chukker length (m:ss)"),
        required=False,
        max_length=6,
        help_text=_("From 0:10 to 60:00; only for a practice match."),
    )

    class Meta:
        model = Match
        fields = ["home", "away", "field", "starts_at", "stage", "periods", "home_defends"]
        widgets = {"starts_at": DateTimeInput()}

    def __init__(self, *args, tournament: Tournament, **kwargs):
        super().__init__(*args, **kwargs)
        self.instance.tournament = tournament
        entries = tournament.entries.select_related("team")
        self.fields["home"].queryset = entries
        self.fields["away"].queryset = entries
        self.fields["starts_at"].input_formats = ["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"]
        # Checked before ``clean`` (the model's own check comes after it): the field clash check
        # below cannot count an hour either side of 0001-01-01 or 9999-12-31.
        self.fields["starts_at"].validators.append(validate_moment)
        # The lengths the rules allow: one to eight chukkers of 7:00 (the minutes of play said).
        self.fields["periods"] = forms.TypedChoiceField(
            label=_("Match length"),
            coerce=int,
            choices=[
                (n, _("%(n)s × 7:00 (%(minutes)s minutes of play)") % {"n": n, "minutes": n * 7}) for n in range(1, 9)
            ],
            initial=self.instance.periods or 6,
        )
        seconds = self.instance.period_seconds or RULE_PERIOD_SECONDS
        if seconds != RULE_PERIOD_SECONDS:
            self.initial.setdefault("practice", True)
            self.initial.setdefault("chukker_length", mss(seconds))
        if self.instance.pk and self.instance.last_seq > 0:
            for name in (*LOCKED_ONCE_PLAYED, "practice", "chukker_length"):
                if name in self.fields:
                    self.fields[name].disabled = True

    def clean_chukker_length(self) -> int | None:
        text = self.cleaned_data.get("chukker_length") or ""
        if not text.strip():
            return None
        try:
            seconds = parse_chukker_length(text)
        except ValueError:
            raise forms.ValidationError(_("Write the length as minutes and seconds, e.g. 1:30.")) from None
        low, high = PRACTICE_PERIOD_SECONDS
        if not low <= seconds <= high:
            raise forms.ValidationError(
                _("A practice chukker lasts from %(low)s to %(high)s.") % {"low": mss(low), "high": mss(high)}
            )
        return seconds

    def _set_length(self, cleaned) -> None:
        """The chukker's length: 7:00, or the practice match's own (locked once play started)."""
        if self.fields["practice"].disabled:
            return
        if not cleaned.get("practice"):
            self.instance.period_seconds = RULE_PERIOD_SECONDS
        elif cleaned.get("chukker_length") is None:
            if "chukker_length" not in self.errors:
                self.add_error("chukker_length", _("A practice match needs its chukker length."))
        else:
            self.instance.period_seconds = cleaned["chukker_length"]

    def clean(self):
        cleaned = super().clean()
        self._set_length(cleaned)
        match_check(self, self.instance.tournament)
        return cleaned


class UserChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, user) -> str:
        return user.get_full_name() or user.username


class UsersChoiceField(forms.ModelMultipleChoiceField):
    def label_from_instance(self, user) -> str:
        return user.get_full_name() or user.username


def _users_in(*groups: str):
    return (
        get_user_model()
        .objects.filter(is_active=True, groups__name__in=groups)
        .distinct()
        .order_by("first_name", "username")
    )


class OfficialsForm(forms.Form):
    umpires = UsersChoiceField(queryset=None, required=False, label=_("Umpires"), widget=forms.CheckboxSelectMultiple)
    referee = UserChoiceField(queryset=None, required=False, label=_("Referee"))
    scorer = UserChoiceField(queryset=None, required=False, label=_("Scorer"))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["umpires"].queryset = _users_in(UMPIRE_GROUP)
        self.fields["referee"].queryset = _users_in(UMPIRE_GROUP)
        self.fields["scorer"].queryset = _users_in(SCORER_GROUP, COMMITTEE_GROUP)

    def clean(self):
        cleaned = super().clean()
        officials_check(self)
        return cleaned


def officials_check(form: forms.BaseForm) -> None:
    """The rules of a match's officials, as errors on ``form`` (its ``umpires``, ``referee`` and
    ``scorer``): at most two umpires, and nobody in two roles."""
    cleaned = form.cleaned_data
    umpires = set(cleaned.get("umpires") or [])
    referee, scorer = cleaned.get("referee"), cleaned.get("scorer")
    if len(umpires) > 2:
        form.add_error("umpires", _("A match has at most two umpires."))
    if referee and referee in umpires:
        form.add_error("referee", _("The referee cannot also be an umpire of the match."))
    if scorer and (scorer in umpires or scorer == referee):
        form.add_error("scorer", _("The scorer cannot also umpire or referee the match."))


def officials_clashes(match: Match) -> list[str]:
    """Officials of ``match`` also assigned to another match on another field at about the same time."""
    window = (match.starts_at - timedelta(minutes=90), match.starts_at + timedelta(minutes=90))
    people = list(match.umpires.all()) + [u for u in (match.referee, match.scorer) if u]
    notes = []
    for person in people:
        other = (
            Match.objects.filter(starts_at__range=window)
            .filter(Q(umpires=person) | Q(referee=person) | Q(scorer=person))
            .exclude(pk=match.pk)
            .select_related("home__team", "away__team")
            .first()
        )
        if other:
            notes.append(
                _("%(person)s is also an official of %(match)s.")
                % {"person": person.get_full_name() or person.username, "match": str(other)}
            )
    return notes


class HandicapGoalsForm(forms.Form):
    home = forms.DecimalField(min_value=0, max_value=20, decimal_places=1, label=_("Home handicap goals"))
    away = forms.DecimalField(min_value=0, max_value=20, decimal_places=1, label=_("Away handicap goals"))

    def clean(self):
        cleaned = super().clean()
        for key in ("home", "away"):
            value = cleaned.get(key)
            if value is not None and (value * 2) % 1 != 0:
                self.add_error(key, _("Handicap goals go in steps of half a goal."))
        return cleaned


class EventIdForm(forms.Form):
    """Every committee decision carries the id it was rendered with: a double submit records it once."""

    event_id = forms.UUIDField(widget=forms.HiddenInput)


class SuspendForm(EventIdForm):
    REASONS = [("darkness", _("Darkness")), ("weather", _("Inclement weather")), ("other", _("Other"))]
    reason = forms.ChoiceField(choices=REASONS, label=_("Reason"))
    note = forms.CharField(max_length=200, required=False, label=_("Note (required for other reasons)"))
    # Rule 22.j: the game resumes where the ball was. Asked only when the ball is in play (when it
    # is dead, the restart the engine holds already says where).
    ball_x = forms.FloatField(required=False, min_value=0, label=_("Ball: yards from the north end line"))
    ball_y = forms.FloatField(required=False, min_value=0, label=_("Ball: yards from the west side"))

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("reason") == "other" and not (cleaned.get("note") or "").strip():
            self.add_error("note", _("Say why the game is suspended."))
        if (cleaned.get("ball_x") is None) != (cleaned.get("ball_y") is None):
            self.add_error("ball_y", _("Give both distances, or neither."))
        return cleaned

    def ball(self) -> dict | None:
        if self.cleaned_data.get("ball_x") is None:
            return None
        return {"x": self.cleaned_data["ball_x"], "y": self.cleaned_data["ball_y"]}

    def event_reason(self) -> str:
        reason, note = self.cleaned_data["reason"], (self.cleaned_data.get("note") or "").strip()
        return note if reason == "other" else reason


class AbandonForm(EventIdForm):
    reason = forms.CharField(max_length=200, label=_("Reason"))


class ForfeitForm(EventIdForm):
    REASONS = [("excused_horse_returned", _("An excused horse returned to play (Rule 21.f(5))")), ("other", _("Other"))]
    team = forms.ChoiceField(choices=TEAM_CHOICES, label=_("Team that forfeits"))
    reason = forms.ChoiceField(choices=REASONS, label=_("Reason"))
    evidence = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}),
        max_length=2000,
        label=_("Evidence"),
        help_text=_("What was presented (e.g. the photograph or video and who presented it)."),
    )


class ShootoutLotForm(forms.Form):
    CALLS = [("heads", _("Heads")), ("tails", _("Tails"))]
    caller = forms.ChoiceField(choices=TEAM_CHOICES, label=_("Whose captain called"))
    call = forms.ChoiceField(choices=CALLS, label=_("The call"))
    method = forms.ChoiceField(
        choices=[("draw", _("Draw it here")), ("entered", _("Enter the toss made at the field"))],
        widget=forms.RadioSelect,
        initial="draw",
        label=_("Lot"),
    )
    result = forms.ChoiceField(choices=[("", "—"), *CALLS], required=False, label=_("How the coin fell"))

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("method") == "entered" and not cleaned.get("result"):
            self.add_error("result", _("Enter how the coin fell."))
        if cleaned.get("method") == "draw":
            cleaned["result"] = None
        return cleaned


class ShootoutLotCorrectionForm(forms.Form):
    """Correct a lot recorded wrongly (Rule 14.d): what the captain called and how the coin fell,
    and why the record changes. A separate form from the draw, so that a changed lot is always a
    stated decision of the committee and never a second toss."""

    caller = forms.ChoiceField(choices=TEAM_CHOICES, label=_("Whose captain called"))
    call = forms.ChoiceField(choices=ShootoutLotForm.CALLS, label=_("The call"))
    result = forms.ChoiceField(choices=ShootoutLotForm.CALLS, label=_("How the coin fell"))
    reason = forms.CharField(
        max_length=200,
        label=_("Why the lot is corrected"),
        error_messages={"required": _("Say why the lot is corrected.")},
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )

    def __init__(self, *args, lot: Lot | None = None, **kwargs):
        """``lot``: the lot in force, offered as the starting point of the correction."""
        if lot is not None:
            kwargs.setdefault("initial", {"caller": lot.caller, "call": lot.call, "result": lot.result})
        super().__init__(*args, **kwargs)


class ShootoutStartForm(EventIdForm):
    """Rule 14.d: the format (every player, or one each), who hits first (the lot) and the order."""

    FORMATS = [("team", _("Team against team (all players)")), ("single", _("One player each"))]
    format = forms.ChoiceField(choices=FORMATS, widget=forms.RadioSelect, initial="team", label=_("Format"))
    first = forms.ChoiceField(choices=TEAM_CHOICES, label=_("Hits first (won the lot)"))

    def __init__(self, *args, match: Match, **kwargs):
        super().__init__(*args, **kwargs)
        for team, entry in (("home", match.home), ("away", match.away)):
            choices = [("", "—")] + [
                (str(line.number), f"#{line.number} {line.player.name}")
                for line in entry.roster.select_related("player")
            ]
            for position in range(1, 5):
                self.fields[f"{team}_{position}"] = forms.TypedChoiceField(
                    choices=choices,
                    coerce=int,
                    required=False,
                    empty_value=None,
                    label=_("%(team)s, hitter %(position)s") % {"team": entry.team.name, "position": position},
                )
                self.fields[f"{team}_{position}"].initial = position

    def order(self) -> dict[str, list[int]]:
        size = 1 if self.cleaned_data.get("format") == "single" else 4
        return {team: [self.cleaned_data.get(f"{team}_{p}") for p in range(1, size + 1)] for team in ("home", "away")}

    def clean(self):
        cleaned = super().clean()
        if self.errors:
            return cleaned
        for team, numbers in self.order().items():
            if any(n is None for n in numbers) or len(set(numbers)) != len(numbers):
                self.add_error(f"{team}_1", _("List each hitter once."))
        return cleaned


class ShootoutAttemptForm(EventIdForm):
    team = forms.ChoiceField(choices=TEAM_CHOICES, widget=forms.HiddenInput)
    number = forms.IntegerField(min_value=1, max_value=4, widget=forms.HiddenInput)
    scored = forms.TypedChoiceField(choices=[("1", _("Scored")), ("0", _("Missed"))], coerce=lambda v: v == "1")


class WebhookForm(forms.ModelForm):
    url = forms.URLField(max_length=500, assume_scheme="https", label=_("Address"))
    events = forms.MultipleChoiceField(
        choices=Webhook.Event.choices,
        widget=forms.CheckboxSelectMultiple,
        initial=[Webhook.Event.RESULT],
        label=_("Send"),
    )

    class Meta:
        model = Webhook
        fields = ["name", "url", "secret", "events", "tournament", "active"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if not self.instance.pk:
            self.fields["secret"].initial = new_secret()
