"""The rules of a match's schedule and what they lock once play starts, shared by the committee's
forms and the admin (``forms.py``, ``admin.py``): one place, so the admin cannot walk around them."""

from __future__ import annotations

from datetime import timedelta

from django import forms
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from matches.bounds import validate_moment
from matches.models import Entry, Match, Tournament

FIELD_GAP = timedelta(minutes=60)  # one match at a time on a field


def within_bounds(moment) -> bool:
    """Whether ``moment`` is within the app's bounds (``matches.bounds``): the clash check cannot
    count an hour either side of 9999-12-31 (the admin's form checks the model's bounds after this)."""
    try:
        validate_moment(moment)
    except ValidationError:
        return False
    return True


def roster_problems(entry: Entry) -> list[str]:
    """Why this entry cannot play yet (empty when it can)."""
    problems = []
    lines = list(entry.roster.all())
    tournament = entry.tournament
    if len(lines) != 4:
        problems.append(
            _("%(team)s has %(count)s players on its roster, not four.")
            % {"team": entry.team.name, "count": len(lines)}
        )
    total = sum(line.handicap for line in lines)
    if lines and not tournament.lower_handicap_limit <= total <= tournament.upper_handicap_limit:
        problems.append(
            _("%(team)s's handicap (%(total)s) is outside the limits %(lower)s–%(upper)s.")
            % {
                "team": entry.team.name,
                "total": total,
                "lower": tournament.lower_handicap_limit,
                "upper": tournament.upper_handicap_limit,
            }
        )
    return problems


# What the match log's config is built from and the rules fix once the log has begun (Rule 14: the
# number and length of the chukkers; the teams and the ends they defend; the tournament and so its
# rule edition; the handicap goals, the score at the first throw-in): locked once the match has an
# event, on the committee's pages and in the admin alike. (A chukker shortened mid-chukker from 420
# to 60 s blew its horns at once.)
LOCKED_ONCE_PLAYED = (
    "tournament",
    "home",
    "away",
    "periods",
    "period_seconds",
    "home_defends",
    "home_handicap_goals",
    "away_handicap_goals",
)


def match_check(form: forms.BaseForm, tournament: Tournament) -> None:
    """The rules of a match's schedule, as errors on ``form`` (a form over a ``Match`` with its
    ``home``, ``away``, ``field`` and ``starts_at``): a team does not play itself, the rosters are
    complete and within the tournament's handicap limits (until play starts), the day is within the
    tournament, and the field is free."""
    cleaned = form.cleaned_data
    instance = form.instance
    played = bool(instance.pk and instance.last_seq > 0)
    home, away, field, starts_at = (cleaned.get(k) for k in ("home", "away", "field", "starts_at"))
    if home and away and home == away:
        form.add_error(None, _("A team cannot play itself."))
    for entry in (home, away):
        if entry and not played:
            for problem in roster_problems(entry):
                form.add_error("home" if entry == home else "away", problem)
    if starts_at:
        day = timezone.localdate(starts_at)
        if not tournament.starts_on <= day <= tournament.ends_on:
            form.add_error(
                "starts_at",
                _("The tournament runs from %(first)s to %(last)s.")
                % {"first": tournament.starts_on, "last": tournament.ends_on},
            )
    if field and starts_at and within_bounds(starts_at):  # (out of bounds: the field's own error says so)
        clash = Match.objects.filter(
            field=field, starts_at__gt=starts_at - FIELD_GAP, starts_at__lt=starts_at + FIELD_GAP
        )
        if instance.pk:
            clash = clash.exclude(pk=instance.pk)
        clash = clash.first()
        if clash:
            form.add_error(
                "starts_at", _("%(field)s is taken by %(match)s.") % {"field": field.name, "match": str(clash)}
            )
