"""Setting a tournament up: the dashboard, tournaments, fields, entries and rosters, scheduling
matches, the day's grid, who may not play today (Rule 21.d) and the result webhooks."""

from __future__ import annotations

from datetime import timedelta

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from matches.bounds import day_or_none
from matches.models import Entry, Field, Match, RosterLine
from matches.permissions import (
    COMMITTEE_GROUP,
    committee_matches,
    committee_tournament_ids,
    committee_tournaments,
    is_federation,
    may_edit_field,
)
from matches.selectors import played_on

from .. import standings
from ..audit import with_lines
from ..forms import EntryForm, FieldForm, MatchForm, RosterLineForm, TournamentForm, WebhookForm, roster_problems
from ..models import AuditEntry, Webhook
from ..selectors import audit_trail, unavailable_for
from ..services import committee_delete, committee_form_save, tournament_create
from .common import committee_match, committee_of, committee_required, committee_tournament

Action = AuditEntry.Action


# -- dashboard, tournaments ------------------------------------------------------------------------


@committee_required
def home(request: HttpRequest) -> HttpResponse:
    """The member's own tournaments and today's matches of them (the federation's: every one)."""
    today = timezone.localdate()
    fields = list(Field.objects.all())  # shared by the tournaments: each may schedule on any
    for field in fields:
        field.editable = may_edit_field(request.user, field)
    return render(
        request,
        "committee/home.html",
        {
            "today": today,
            "matches": committee_matches(request.user)
            .filter(played_on(today))
            .select_related("home__team", "away__team", "field")
            .order_by("starts_at", "field__name"),
            "tournaments": committee_tournaments(request.user).order_by("-starts_on", "name"),
            "federation": is_federation(request.user),
            "fields": fields,
            "unavailable": unavailable_for(committee_tournament_ids(request.user), today),
        },
    )


@committee_required
def tournament_new(request: HttpRequest) -> HttpResponse:
    """Any committee member may create a tournament; its creator is assigned to its committee."""
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        tournament = tournament_create(form=form, user=request.user)
        messages.success(request, _("Tournament created."))
        return redirect("committee:tournament", pk=tournament.pk)
    return render(request, "committee/form.html", {"form": form, "title": _("New tournament")})


@committee_required
def tournament_detail(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = committee_tournament(request, pk)
    entries = tournament.entries.select_related("team").prefetch_related(
        Prefetch("roster", queryset=RosterLine.objects.select_related("player"))
    )
    rows = [{"entry": e, "handicap": e.team_handicap, "problems": roster_problems(e)} for e in entries]
    return render(
        request,
        "committee/tournament.html",
        {
            "tournament": tournament,
            "committee": tournament.committee_assignments.active()
            .filter(user__groups__name=COMMITTEE_GROUP)
            .select_related("user")
            .order_by("assigned_at"),
            "entries": rows,
            "matches": standings.tournament_matches(tournament),
            "audit": with_lines(audit_trail(tournament=tournament, limit=30)),
        },
    )


@committee_required
def tournament_edit(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = committee_tournament(request, pk)
    form = TournamentForm(request.POST or None, instance=tournament)
    if request.method == "POST" and form.is_valid():
        committee_form_save(form=form, user=request.user, action=Action.TOURNAMENT_EDIT, tournament=tournament)
        messages.success(request, _("Tournament saved."))
        return redirect("committee:tournament", pk=tournament.pk)
    return render(
        request,
        "committee/form.html",
        {
            "form": form,
            "title": _("Edit %(name)s") % {"name": tournament.name},
            "back": reverse("committee:tournament", args=[pk]),
        },
    )


# -- fields ----------------------------------------------------------------------------------------


@committee_required
def field_new(request: HttpRequest) -> HttpResponse:
    form = FieldForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        committee_form_save(form=form, user=request.user, action=Action.FIELD_CREATE)
        messages.success(request, _("Field added."))
        return redirect(request.GET.get("next") or "committee:home")
    return render(request, "committee/form.html", {"form": form, "title": _("New field")})


@committee_required
def field_edit(request: HttpRequest, pk: int) -> HttpResponse:
    field = get_object_or_404(Field, pk=pk)
    if not may_edit_field(request.user, field):
        raise PermissionDenied  # another tournament plays on it: the federation changes it
    form = FieldForm(request.POST or None, instance=field)
    if request.method == "POST" and form.is_valid():
        committee_form_save(form=form, user=request.user, action=Action.FIELD_EDIT)
        messages.success(request, _("Field saved."))
        return redirect("committee:home")
    return render(request, "committee/form.html", {"form": form, "title": _("Edit %(name)s") % {"name": field.name}})


# -- entries and rosters ---------------------------------------------------------------------------


@committee_required
def entry_new(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = committee_tournament(request, pk)
    form = EntryForm(request.POST or None, tournament=tournament)
    if request.method == "POST" and form.is_valid():
        entry = committee_form_save(form=form, user=request.user, action=Action.ENTRY_CREATE, tournament=tournament)
        messages.success(request, _("%(team)s entered: now its roster.") % {"team": entry.team.name})
        return redirect("committee:entry", pk=entry.pk)
    return render(
        request,
        "committee/form.html",
        {
            "form": form,
            "title": _("Enter a team in %(name)s") % {"name": tournament.name},
            "back": reverse("committee:tournament", args=[pk]),
        },
    )


@committee_required
def entry_detail(request: HttpRequest, pk: int) -> HttpResponse:
    entry = get_object_or_404(Entry.objects.select_related("team", "tournament"), pk=pk)
    committee_of(request, entry.tournament_id)
    form = RosterLineForm(request.POST or None, entry=entry)
    if request.method == "POST" and form.is_valid():
        line = committee_form_save(
            form=form, user=request.user, action=Action.ROSTER_CREATE, tournament=entry.tournament
        )
        messages.success(request, _("%(player)s added.") % {"player": line.player.name})
        return redirect("committee:entry", pk=entry.pk)
    lines = entry.roster.select_related("player")
    return render(
        request,
        "committee/entry.html",
        {
            "entry": entry,
            "tournament": entry.tournament,
            "lines": lines,
            "form": form,
            "handicap": entry.team_handicap,
            "problems": roster_problems(entry),
            "can_withdraw": not (entry.home_matches.exists() or entry.away_matches.exists()),
        },
    )


@committee_required
def roster_line_edit(request: HttpRequest, pk: int) -> HttpResponse:
    line = get_object_or_404(RosterLine.objects.select_related("entry__tournament", "entry__team", "player"), pk=pk)
    committee_of(request, line.entry.tournament_id)
    form = RosterLineForm(request.POST or None, instance=line, entry=line.entry)
    if request.method == "POST":
        if request.POST.get("delete"):
            committee_delete(
                instance=line, user=request.user, action=Action.ROSTER_DELETE, tournament=line.entry.tournament
            )
            messages.success(request, _("Player removed from the roster."))
            return redirect("committee:entry", pk=line.entry_id)
        if form.is_valid():
            committee_form_save(
                form=form, user=request.user, action=Action.ROSTER_EDIT, tournament=line.entry.tournament
            )
            messages.success(request, _("Roster line saved."))
            return redirect("committee:entry", pk=line.entry_id)
    return render(
        request,
        "committee/form.html",
        {
            "form": form,
            "title": _("%(team)s: #%(number)s") % {"team": line.entry.team.name, "number": line.number},
            "back": reverse("committee:entry", args=[line.entry_id]),
            "delete": True,
        },
    )


@committee_required
@require_POST
def entry_withdraw(request: HttpRequest, pk: int) -> HttpResponse:
    entry = get_object_or_404(Entry.objects.select_related("tournament", "team"), pk=pk)
    committee_of(request, entry.tournament_id)
    if entry.home_matches.exists() or entry.away_matches.exists():
        messages.error(request, _("This team has matches scheduled: it cannot be withdrawn here."))
        return redirect("committee:entry", pk=pk)
    tournament = entry.tournament
    committee_delete(instance=entry, user=request.user, action=Action.ENTRY_DELETE, tournament=tournament)  # roster too
    messages.success(request, _("Entry withdrawn."))
    return redirect("committee:tournament", pk=tournament.pk)


# -- matches: scheduling -------------------------------------------------------------------------------


@committee_required
def match_new(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = committee_tournament(request, pk)
    initial = {}
    if request.GET.get("field"):
        initial["field"] = request.GET["field"]
    if request.GET.get("starts_at"):
        try:
            initial["starts_at"] = parse_datetime(request.GET["starts_at"])
        except ValueError:  # (well formed, but no such moment: the form starts empty)
            pass
    form = MatchForm(request.POST or None, tournament=tournament, initial=initial)
    if request.method == "POST" and form.is_valid():
        match = form.save(commit=False)
        match.home_handicap_goals, match.away_handicap_goals = match.suggested_handicap_goals()
        form.instance = match
        match = committee_form_save(form=form, user=request.user, action=Action.MATCH_CREATE, tournament=tournament)
        messages.success(request, _("Match scheduled, with the handicap goals the rosters suggest."))
        return redirect("committee:match", pk=match.pk)
    return render(
        request,
        "committee/form.html",
        {
            "form": form,
            "title": _("Schedule a match in %(name)s") % {"name": tournament.name},
            "back": reverse("committee:tournament", args=[pk]),
        },
    )


@committee_required
def match_edit(request: HttpRequest, pk: int) -> HttpResponse:
    match = committee_match(request, pk)
    form = MatchForm(request.POST or None, instance=match, tournament=match.tournament)
    if request.method == "POST" and form.is_valid():
        committee_form_save(form=form, user=request.user, action=Action.MATCH_EDIT)
        messages.success(request, _("Match saved."))
        return redirect("committee:match", pk=pk)
    return render(
        request,
        "committee/form.html",
        {"form": form, "title": str(match), "back": reverse("committee:match", args=[pk])},
    )


# -- the day, availability ---------------------------------------------------------------------------


@committee_required
def day_view(request: HttpRequest) -> HttpResponse:
    day = day_or_none(request.GET.get("date")) or timezone.localdate()
    matches = list(
        Match.objects.filter(starts_at__date=day)
        .select_related("home__team", "away__team", "field", "tournament", "referee", "scorer")
        .prefetch_related("umpires")
        .order_by("starts_at")
    )
    # The member's own matches in full; another tournament's only as a field taken at that time.
    ids = committee_tournament_ids(request.user)
    for m in matches:
        m.ours = ids is None or m.tournament_id in ids
    fields = sorted({m.field for m in matches} | set(Field.objects.all()), key=lambda f: (f.club, f.name))
    times = sorted({timezone.localtime(m.starts_at).strftime("%H:%M") for m in matches})
    grid = [
        {
            "time": t,
            "cells": [
                (
                    f,
                    [
                        m
                        for m in matches
                        if m.field_id == f.pk and timezone.localtime(m.starts_at).strftime("%H:%M") == t
                    ],
                )
                for f in fields
            ],
        }
        for t in times
    ]
    tournaments = list(committee_tournaments(request.user).filter(starts_on__lte=day, ends_on__gte=day))
    return render(
        request,
        "committee/day.html",
        {
            "day": day,
            "prev": day - timedelta(days=1),
            "next": day + timedelta(days=1),
            "fields": fields,
            "grid": grid,
            "tournaments": tournaments,
            # An empty slot offers to schedule there when the day belongs to one tournament.
            "slot_tournament": tournaments[0] if len(tournaments) == 1 else None,
            "unavailable": unavailable_for(ids, day),
        },
    )


@committee_required
def availability_view(request: HttpRequest) -> HttpResponse:
    day = day_or_none(request.GET.get("date")) or timezone.localdate()
    return render(
        request,
        "committee/availability.html",
        {
            "day": day,
            "prev": day - timedelta(days=1),
            "next": day + timedelta(days=1),
            "rows": unavailable_for(committee_tournament_ids(request.user), day),
        },
    )


# -- webhooks -------------------------------------------------------------------------------------------


def _webhook_form(request: HttpRequest, **kwargs) -> WebhookForm:
    """A webhook of one of the member's tournaments; one for every tournament is the federation's."""
    form = WebhookForm(request.POST or None, **kwargs)
    form.fields["tournament"].queryset = committee_tournaments(request.user)
    if not is_federation(request.user):
        form.fields["tournament"].required = True
        form.fields["tournament"].help_text = ""
    return form


@committee_required
def webhooks(request: HttpRequest) -> HttpResponse:
    form = _webhook_form(request)
    if request.method == "POST" and form.is_valid():
        hook = committee_form_save(
            form=form, user=request.user, action=Action.WEBHOOK_CREATE, tournament=form.cleaned_data.get("tournament")
        )
        messages.success(request, _("Webhook %(name)s added.") % {"name": hook.name})
        return redirect("committee:webhooks")
    hooks = Webhook.objects.select_related("tournament")
    ids = committee_tournament_ids(request.user)
    if ids is not None:
        hooks = hooks.filter(tournament_id__in=ids)
    return render(request, "committee/webhooks.html", {"form": form, "hooks": hooks})


@committee_required
def webhook_edit(request: HttpRequest, pk: int) -> HttpResponse:
    hook = get_object_or_404(Webhook, pk=pk)
    committee_of(request, hook.tournament_id)  # one of every tournament (no tournament): the federation's
    form = _webhook_form(request, instance=hook)
    if request.method == "POST" and form.is_valid():
        committee_form_save(form=form, user=request.user, action=Action.WEBHOOK_EDIT, tournament=hook.tournament)
        messages.success(request, _("Webhook saved."))
        return redirect("committee:webhooks")
    return render(
        request, "committee/webhook.html", {"form": form, "hook": hook, "deliveries": hook.deliveries.all()[:50]}
    )
