"""The committee's screens (``/committee/``): thin views that validate a form and call one service.

Only the committee group may use them (others get 403, the anonymous the login page), except the
shootout screen, which the match's umpires, referee and scorer may follow (and record hits on,
as the event API lets them).
"""
from __future__ import annotations

import uuid
from datetime import timedelta
from functools import wraps

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime
from django.utils.translation import get_language, gettext as _
from django.views.decorators.http import require_POST

from . import availability, reports, standings
from .audit_display import lot_text, team_name, with_lines
from .forms_committee import (
    AbandonForm, EntryForm, EventIdForm, FieldForm, ForfeitForm, HandicapGoalsForm, MatchForm, OfficialsForm,
    RosterLineForm, ShootoutAttemptForm, ShootoutLotCorrectionForm, ShootoutLotForm, ShootoutStartForm, SuspendForm,
    TournamentForm, WebhookForm,
    officials_clashes, roster_problems,
)
from .models import Entry, Field, Match, RosterLine, Tournament
from .models_committee import AuditEntry, Webhook
from .permissions import can_log_event, is_committee, is_official
from .services import ServiceRejection, match_state
from .services_committee import (
    audit_record, committee_delete, committee_event_send, committee_form_save, match_handicap_goals_set,
    match_officials_assign, shootout_lot, shootout_lot_correct, shootout_lot_correction, shootout_lot_draw,
    shootout_started,
)
from .selectors_committee import audit_trail, shootout_rounds
from .tasks import match_report_build

Action = AuditEntry.Action
# Rule 21.k: the statuses a game can be suspended from (the engine's gate).
SUSPENDABLE = frozenset({"scheduled", "in_play", "stopped", "interval", "tied", "shootout"})


def committee_required(view):
    @wraps(view)
    def wrapped(request: HttpRequest, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not is_committee(request.user):
            raise PermissionDenied
        return view(request, *args, **kwargs)

    return wrapped


def _match(pk: int) -> Match:
    return get_object_or_404(
        Match.objects.select_related("tournament", "field", "home__team", "away__team", "referee", "scorer"), pk=pk
    )


def _lang() -> str:
    return (get_language() or "en")[:2]


def _refused(request: HttpRequest, result) -> None:
    error = result.error
    text = error.message(_lang())
    if getattr(error, "rule", None):
        text = _("%(message)s (Rule %(rule)s)") % {"message": text, "rule": error.rule}
    messages.error(request, text)


def _form_errors(request: HttpRequest, form) -> None:
    for field, errors in form.errors.items():
        for error in errors:
            label = form.fields[field].label if field in form.fields else ""
            messages.error(request, f"{label}: {error}" if label else error)


# -- dashboard, tournaments ------------------------------------------------------------------------

@committee_required
def home(request: HttpRequest) -> HttpResponse:
    today = timezone.localdate()
    return render(request, "committee/home.html", {
        "today": today,
        "matches": Match.objects.filter(starts_at__date=today).select_related("home__team", "away__team", "field")
                   .order_by("starts_at", "field__name"),
        "tournaments": Tournament.objects.order_by("-starts_on", "name"),
        "fields": Field.objects.all(),
        "unavailable": availability.unavailable_on(today),
    })


@committee_required
def tournament_new(request: HttpRequest) -> HttpResponse:
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        tournament = committee_form_save(form=form, user=request.user, action=Action.TOURNAMENT_CREATE)
        messages.success(request, _("Tournament created."))
        return redirect("committee:tournament", pk=tournament.pk)
    return render(request, "committee/form.html", {"form": form, "title": _("New tournament")})


@committee_required
def tournament_detail(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=pk)
    entries = tournament.entries.select_related("team").prefetch_related(
        Prefetch("roster", queryset=RosterLine.objects.select_related("player")))
    rows = [{"entry": e, "handicap": e.team_handicap, "problems": roster_problems(e)} for e in entries]
    return render(request, "committee/tournament.html", {
        "tournament": tournament,
        "entries": rows,
        "matches": standings.tournament_matches(tournament),
        "audit": with_lines(audit_trail(tournament=tournament, limit=30)),
    })


@committee_required
def tournament_edit(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=pk)
    form = TournamentForm(request.POST or None, instance=tournament)
    if request.method == "POST" and form.is_valid():
        committee_form_save(form=form, user=request.user, action=Action.TOURNAMENT_EDIT, tournament=tournament)
        messages.success(request, _("Tournament saved."))
        return redirect("committee:tournament", pk=tournament.pk)
    return render(request, "committee/form.html", {"form": form, "title": _("Edit %(name)s") % {"name": tournament.name},
                                                    "back": reverse("committee:tournament", args=[pk])})


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
    form = FieldForm(request.POST or None, instance=field)
    if request.method == "POST" and form.is_valid():
        committee_form_save(form=form, user=request.user, action=Action.FIELD_EDIT)
        messages.success(request, _("Field saved."))
        return redirect("committee:home")
    return render(request, "committee/form.html", {"form": form, "title": _("Edit %(name)s") % {"name": field.name}})


# -- entries and rosters ---------------------------------------------------------------------------

@committee_required
def entry_new(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=pk)
    form = EntryForm(request.POST or None, tournament=tournament)
    if request.method == "POST" and form.is_valid():
        entry = committee_form_save(form=form, user=request.user, action=Action.ENTRY_CREATE, tournament=tournament)
        messages.success(request, _("%(team)s entered: now its roster.") % {"team": entry.team.name})
        return redirect("committee:entry", pk=entry.pk)
    return render(request, "committee/form.html", {"form": form, "title": _("Enter a team in %(name)s") % {"name": tournament.name},
                                                    "back": reverse("committee:tournament", args=[pk])})


@committee_required
def entry_detail(request: HttpRequest, pk: int) -> HttpResponse:
    entry = get_object_or_404(Entry.objects.select_related("team", "tournament"), pk=pk)
    form = RosterLineForm(request.POST or None, entry=entry)
    if request.method == "POST" and form.is_valid():
        line = committee_form_save(form=form, user=request.user, action=Action.ROSTER_CREATE, tournament=entry.tournament)
        messages.success(request, _("%(player)s added.") % {"player": line.player.name})
        return redirect("committee:entry", pk=entry.pk)
    lines = entry.roster.select_related("player")
    return render(request, "committee/entry.html", {
        "entry": entry, "tournament": entry.tournament, "lines": lines, "form": form,
        "handicap": entry.team_handicap, "problems": roster_problems(entry),
        "can_withdraw": not (entry.home_matches.exists() or entry.away_matches.exists()),
    })


@committee_required
def roster_line_edit(request: HttpRequest, pk: int) -> HttpResponse:
    line = get_object_or_404(RosterLine.objects.select_related("entry__tournament", "entry__team", "player"), pk=pk)
    form = RosterLineForm(request.POST or None, instance=line, entry=line.entry)
    if request.method == "POST":
        if request.POST.get("delete"):
            committee_delete(instance=line, user=request.user, action=Action.ROSTER_DELETE, tournament=line.entry.tournament)
            messages.success(request, _("Player removed from the roster."))
            return redirect("committee:entry", pk=line.entry_id)
        if form.is_valid():
            committee_form_save(form=form, user=request.user, action=Action.ROSTER_EDIT, tournament=line.entry.tournament)
            messages.success(request, _("Roster line saved."))
            return redirect("committee:entry", pk=line.entry_id)
    return render(request, "committee/form.html", {
        "form": form, "title": _("%(team)s: #%(number)s") % {"team": line.entry.team.name, "number": line.number},
        "back": reverse("committee:entry", args=[line.entry_id]), "delete": True,
    })


@committee_required
@require_POST
def entry_withdraw(request: HttpRequest, pk: int) -> HttpResponse:
    entry = get_object_or_404(Entry.objects.select_related("tournament", "team"), pk=pk)
    if entry.home_matches.exists() or entry.away_matches.exists():
        messages.error(request, _("This team has matches scheduled: it cannot be withdrawn here."))
        return redirect("committee:entry", pk=pk)
    tournament = entry.tournament
    committee_delete(instance=entry, user=request.user, action=Action.ENTRY_DELETE, tournament=tournament)  # roster too
    messages.success(request, _("Entry withdrawn."))
    return redirect("committee:tournament", pk=tournament.pk)


# -- matches: scheduling, officials, handicap goals --------------------------------------------------

@committee_required
def match_new(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=pk)
    initial = {}
    if request.GET.get("field"):
        initial["field"] = request.GET["field"]
    if request.GET.get("starts_at"):
        initial["starts_at"] = parse_datetime(request.GET["starts_at"])
    form = MatchForm(request.POST or None, tournament=tournament, initial=initial)
    if request.method == "POST" and form.is_valid():
        match = form.save(commit=False)
        match.home_handicap_goals, match.away_handicap_goals = match.suggested_handicap_goals()
        form.instance = match
        match = committee_form_save(form=form, user=request.user, action=Action.MATCH_CREATE, tournament=tournament)
        messages.success(request, _("Match scheduled, with the handicap goals the rosters suggest."))
        return redirect("committee:match", pk=match.pk)
    return render(request, "committee/form.html", {"form": form, "title": _("Schedule a match in %(name)s") % {"name": tournament.name},
                                                    "back": reverse("committee:tournament", args=[pk])})


@committee_required
def match_edit(request: HttpRequest, pk: int) -> HttpResponse:
    match = _match(pk)
    form = MatchForm(request.POST or None, instance=match, tournament=match.tournament)
    if request.method == "POST" and form.is_valid():
        committee_form_save(form=form, user=request.user, action=Action.MATCH_EDIT)
        messages.success(request, _("Match saved."))
        return redirect("committee:match", pk=pk)
    return render(request, "committee/form.html", {"form": form, "title": str(match), "back": reverse("committee:match", args=[pk])})


def _event_form_initial() -> dict:
    return {"event_id": uuid.uuid4()}


@committee_required
def match_detail(request: HttpRequest, pk: int) -> HttpResponse:
    match = _match(pk)
    state = match_state(match, lang=_lang())
    suggested = match.suggested_handicap_goals()
    lot = shootout_lot(match)
    knock_outs = availability.knock_outs_on(timezone.localdate(), exclude_match_id=match.pk)
    line_up = availability.line_up(match)
    unavailable = [(team, number, identity, k) for (team, number), identity in sorted(line_up.items())
                   for k in [availability.knock_out_of(identity, knock_outs)] if k]
    return render(request, "committee/match.html", {
        "match": match, "state": state, "board": _board(match, state),
        "officials_form": OfficialsForm(initial={"umpires": match.umpires.all(), "referee": match.referee, "scorer": match.scorer}),
        "handicap_form": HandicapGoalsForm(initial={"home": match.home_handicap_goals, "away": match.away_handicap_goals}),
        "suggested": suggested,
        "suspend_form": SuspendForm(initial=_event_form_initial()),
        "resume_form": EventIdForm(initial=_event_form_initial()),
        "abandon_form": AbandonForm(initial=_event_form_initial()),
        "overtime_form": EventIdForm(initial=_event_form_initial()),
        "lot": lot,
        "clashes": officials_clashes(match),
        "unavailable": unavailable,
        "audit": with_lines(audit_trail(match=match, limit=50)),
        "report": reports.latest_report(match),
    })



def _board(match: Match, state: dict) -> dict:
    """The state in words, as the committee's match page shows it."""
    status = state.get("status") or "scheduled"
    period = state.get("period") or {}
    spot = (state.get("restart") or {}).get("spot")
    winner = state.get("winner")
    result = ""
    if status == "abandoned":
        result = _("The match was abandoned.")
    elif winner:
        result = _("%(team)s won.") % {"team": team_name(match, winner)}
    return {
        "status": Match.Status(status).label if status in Match.Status.values else status,
        "period": reports.period_label(period["number"], period.get("kind") or "regulation") if period.get("number") else "—",
        "clock": reports.clock_label((state.get("clock") or {}).get("elapsed")),
        # The ball's position (Rule 22.j: a suspended game resumes where the ball was), in yards.
        "ball": (_("%(x)s yd from the north end, %(y)s yd from the west side") % {"x": f"{spot['x']:g}", "y": f"{spot['y']:g}"})
                if spot else _("in play"),
        "forfeit_team": team_name(match, (state.get("forfeit") or {}).get("team")),
        "result": result,
        "suspendable": status in SUSPENDABLE,
    }


@committee_required
@require_POST
def match_officials(request: HttpRequest, pk: int) -> HttpResponse:
    match = _match(pk)
    form = OfficialsForm(request.POST)
    if form.is_valid():
        match_officials_assign(match=match, umpires=list(form.cleaned_data["umpires"]), referee=form.cleaned_data["referee"],
                               scorer=form.cleaned_data["scorer"], user=request.user)
        messages.success(request, _("Officials assigned."))
    else:
        _form_errors(request, form)
    return redirect("committee:match", pk=pk)


@committee_required
@require_POST
def match_handicap(request: HttpRequest, pk: int) -> HttpResponse:
    match = _match(pk)
    form = HandicapGoalsForm(request.POST)
    if form.is_valid():
        refusal = match_handicap_goals_set(match=match, home=form.cleaned_data["home"], away=form.cleaned_data["away"], user=request.user)
        if refusal:
            messages.error(request, refusal.message(_lang()))
        else:
            messages.success(request, _("Handicap goals set."))
    else:
        _form_errors(request, form)
    return redirect("committee:match", pk=pk)


# -- match control: committee events ----------------------------------------------------------------

def _send(request: HttpRequest, match: Match, event: dict, success: str, audit_details: dict | None = None) -> bool:
    result = committee_event_send(match=match, event=event, user=request.user, audit_details=audit_details)
    if result.accepted:
        messages.success(request, success)
    else:
        _refused(request, result)
    return result.accepted


@committee_required
@require_POST
def match_suspend(request: HttpRequest, pk: int) -> HttpResponse:
    match = _match(pk)
    form = SuspendForm(request.POST)
    if form.is_valid():
        event = {"id": str(form.cleaned_data["event_id"]), "type": "suspend", "reason": form.event_reason()}
        if form.ball():
            event["ball"] = form.ball()
        _send(request, match, event, _("The game is suspended (Rule 21.k). It resumes where it stopped (Rule 22.j)."))
    else:
        _form_errors(request, form)
    return redirect("committee:match", pk=pk)


@committee_required
@require_POST
def match_resume(request: HttpRequest, pk: int) -> HttpResponse:
    match = _match(pk)
    form = EventIdForm(request.POST)
    if form.is_valid():
        _send(request, match, {"id": str(form.cleaned_data["event_id"]), "type": "resume", "reason": "committee"},
              _("The game is resumed at the same score, period, clock and ball position (Rule 22.j)."))
    else:
        _form_errors(request, form)
    return redirect("committee:match", pk=pk)


@committee_required
@require_POST
def match_abandon(request: HttpRequest, pk: int) -> HttpResponse:
    match = _match(pk)
    form = AbandonForm(request.POST)
    if form.is_valid():
        _send(request, match, {"id": str(form.cleaned_data["event_id"]), "type": "abandon", "reason": form.cleaned_data["reason"]},
              _("The game is abandoned."))
    else:
        _form_errors(request, form)
    return redirect("committee:match", pk=pk)


@committee_required
@require_POST
def match_overtime(request: HttpRequest, pk: int) -> HttpResponse:
    match = _match(pk)
    form = EventIdForm(request.POST)
    if form.is_valid():
        _send(request, match, {"id": str(form.cleaned_data["event_id"]), "type": "overtime"},
              _("Overtime ordered (Rule 14.c): the first goal wins."))
    else:
        _form_errors(request, form)
    return redirect("committee:match", pk=pk)


@committee_required
def match_forfeit(request: HttpRequest, pk: int) -> HttpResponse:
    match = _match(pk)
    state = match_state(match, lang=_lang())
    form = ForfeitForm(request.POST or None, initial={**_event_form_initial(), **_forfeit_initial(state)})
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        ok = _send(request, match, {"id": str(data["event_id"]), "type": "forfeit", "team": data["team"], "reason": data["reason"]},
                   _("Forfeit recorded: the result has changed."), audit_details={"evidence": data["evidence"]})
        if ok:
            return redirect("committee:match", pk=pk)
    return render(request, "committee/forfeit.html", {"match": match, "state": state, "form": form})


def _forfeit_initial(state: dict) -> dict:
    """What the engine says Rule 21.f(5) requires (an excused horse returned), if anything."""
    required = state.get("forfeit") or {}
    if required.get("team"):
        return {"team": required["team"], "reason": required.get("reason") or "other"}
    return {}


# -- the shootout screen -----------------------------------------------------------------------------

def match_shootout(request: HttpRequest, pk: int) -> HttpResponse:
    match = _match(pk)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    # The committee runs it (lot, format, order); the match's officials follow it.
    runs = is_committee(request.user)
    if not runs and not is_official(request.user, match):
        raise PermissionDenied
    state = match_state(match, lang=_lang())
    so = state.get("shootout")
    lot = shootout_lot(match)
    context = {
        "match": match, "state": state, "runs": runs, "lot": lot, "so": so, "lot_text": lot_text(match, lot),
        # The lot may be corrected until the shootout starts; after that the panel no longer offers
        # it (and the service would refuse it anyway).
        "lot_correction": shootout_lot_correction(match),
        "can_correct_lot": runs and lot is not None and not shootout_started(match),
        "can_hit": can_log_event(request.user, match, "shootout_attempt"),
        "rounds": shootout_rounds(match, state) if so else [],
        "next_player": _player_name(match, (so or {}).get("next")),
        "attempt_form": ShootoutAttemptForm(initial={**_event_form_initial(), **((so or {}).get("next") or {})}),
        "lot_form": ShootoutLotForm(),
        "lot_correction_form": ShootoutLotCorrectionForm(lot=lot, prefix="correct"),
        "start_form": ShootoutStartForm(match=match, initial={**_event_form_initial(), "first": lot.winner if lot else None}),
        "overtime_form": EventIdForm(initial=_event_form_initial()),
    }
    if request.GET.get("fragment"):
        return render(request, "committee/_shootout_panel.html", context)
    return render(request, "committee/shootout.html", context)


def _player_name(match: Match, who: dict | None) -> str:
    if not who:
        return ""
    entry = match.home if who.get("team") == "home" else match.away
    line = entry.roster.filter(number=who.get("number")).select_related("player").first()
    return f"{entry.team.name} #{who.get('number')} {line.player.name if line else ''}".strip()


@committee_required
@require_POST
def shootout_lot_view(request: HttpRequest, pk: int) -> HttpResponse:
    """Decide the lot (Rule 14.d), once; the panel's "Correct the lot" form posts here too, marked
    ``action=correct``, and is a different decision with its own form."""
    match = _match(pk)
    if request.POST.get("action") == "correct":
        return _shootout_lot_correct(request, match)
    form = ShootoutLotForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        lot = shootout_lot_draw(match=match, user=request.user, caller=data["caller"], call=data["call"], result=data["result"])
        if isinstance(lot, ServiceRejection):
            form.add_error(None, _lot_refusal(lot))
            _form_errors(request, form)
        else:
            winner = match.home if lot.winner == "home" else match.away
            messages.success(request, _("The coin fell %(result)s: %(team)s won the lot and hits first.") % {
                "result": dict(ShootoutLotForm.CALLS)[lot.result], "team": winner.team.name})
    else:
        _form_errors(request, form)
    return redirect("committee:shootout", pk=pk)


def _shootout_lot_correct(request: HttpRequest, match: Match) -> HttpResponse:
    form = ShootoutLotCorrectionForm(request.POST, prefix="correct")
    if form.is_valid():
        data = form.cleaned_data
        lot = shootout_lot_correct(match=match, user=request.user, caller=data["caller"], call=data["call"],
                                   result=data["result"], reason=data["reason"])
        if isinstance(lot, ServiceRejection):
            form.add_error(None, _lot_refusal(lot))
            _form_errors(request, form)
        else:
            messages.success(request, _("Lot corrected: %(lot)s") % {"lot": lot_text(match, lot)})
    else:
        _form_errors(request, form)
    return redirect("committee:shootout", pk=match.pk)


def _lot_refusal(refusal: ServiceRejection) -> str:
    return _("%(message)s (Rule %(rule)s)") % {"message": refusal.message(_lang()), "rule": refusal.rule}


@committee_required
@require_POST
def shootout_start(request: HttpRequest, pk: int) -> HttpResponse:
    match = _match(pk)
    form = ShootoutStartForm(request.POST, match=match)
    if form.is_valid():
        data = form.cleaned_data
        lot = shootout_lot(match)
        _send(request, match, {"id": str(data["event_id"]), "type": "shootout_start", "format": data["format"],
                               "first": data["first"], "order": form.order()},
              _("Shootout started (Rule 14.d)."), audit_details={"lot": lot.__dict__ if lot else None})
    else:
        _form_errors(request, form)
    return redirect("committee:shootout", pk=pk)


def shootout_attempt(request: HttpRequest, pk: int) -> HttpResponse:
    if request.method != "POST":
        return redirect("committee:shootout", pk=pk)
    match = _match(pk)
    if not can_log_event(request.user, match, "shootout_attempt"):
        raise PermissionDenied
    form = ShootoutAttemptForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        _send(request, match, {"id": str(data["event_id"]), "type": "shootout_attempt", "team": data["team"],
                               "number": data["number"], "scored": data["scored"]},
              _("Hit recorded."))
    else:
        _form_errors(request, form)
    return redirect("committee:shootout", pk=pk)


# -- the day, availability ---------------------------------------------------------------------------

@committee_required
def day_view(request: HttpRequest) -> HttpResponse:
    day = parse_date(request.GET.get("date") or "") or timezone.localdate()
    matches = list(
        Match.objects.filter(starts_at__date=day)
        .select_related("home__team", "away__team", "field", "tournament", "referee", "scorer")
        .prefetch_related("umpires").order_by("starts_at")
    )
    fields = sorted({m.field for m in matches} | set(Field.objects.all()), key=lambda f: (f.club, f.name))
    times = sorted({timezone.localtime(m.starts_at).strftime("%H:%M") for m in matches})
    grid = [
        {"time": t, "cells": [(f, [m for m in matches if m.field_id == f.pk and timezone.localtime(m.starts_at).strftime("%H:%M") == t])
                              for f in fields]}
        for t in times
    ]
    tournaments = list(Tournament.objects.filter(starts_on__lte=day, ends_on__gte=day))
    return render(request, "committee/day.html", {
        "day": day, "prev": day - timedelta(days=1), "next": day + timedelta(days=1),
        "fields": fields, "grid": grid, "tournaments": tournaments,
        # An empty slot offers to schedule there when the day belongs to one tournament.
        "slot_tournament": tournaments[0] if len(tournaments) == 1 else None,
        "unavailable": availability.unavailable_on(day),
    })


@committee_required
def availability_view(request: HttpRequest) -> HttpResponse:
    day = parse_date(request.GET.get("date") or "") or timezone.localdate()
    return render(request, "committee/availability.html", {
        "day": day, "prev": day - timedelta(days=1), "next": day + timedelta(days=1),
        "rows": availability.unavailable_on(day),
    })


# -- reports -----------------------------------------------------------------------------------------

def _report_data(match: Match) -> tuple[dict, object | None]:
    """The stored report of the current log position, or the data built now (provisional)."""
    stored = reports.latest_report(match)
    if stored is not None and stored.last_seq == match.last_seq:
        return stored.data, stored
    return reports.match_report_data(match), None


@committee_required
def report_html(request: HttpRequest, pk: int) -> HttpResponse:
    match = _match(pk)
    data, stored = _report_data(match)
    return render(request, "committee/report.html", {"match": match, "data": data, "stored": stored, "view": ReportView(data)})


@committee_required
def report_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    match = _match(pk)
    data, stored = _report_data(match)
    if stored is not None and stored.pdf and _lang() == settings.LANGUAGE_CODE:
        pdf = bytes(stored.pdf)
    else:
        pdf = reports.match_report_pdf(data, _lang())
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="match-{match.pk}-report.pdf"'
    return response


@committee_required
def log_csv(request: HttpRequest, pk: int) -> HttpResponse:
    match = _match(pk)
    response = HttpResponse(reports.match_log_csv(match), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="match-{match.pk}-log.csv"'
    return response


@committee_required
def log_json(request: HttpRequest, pk: int) -> HttpResponse:
    match = _match(pk)
    response = JsonResponse(reports.match_log_export(match), json_dumps_params={"ensure_ascii": False, "indent": 1})
    response["Content-Disposition"] = f'attachment; filename="match-{match.pk}-log.json"'
    return response


@committee_required
@require_POST
def report_rebuild(request: HttpRequest, pk: int) -> HttpResponse:
    match = _match(pk)
    audit_record(user=request.user, action=Action.REPORT_REBUILD, match=match, details={"last_seq": match.last_seq})
    match_report_build.delay(match.pk, match.last_seq, True)
    messages.success(request, _("The report is being rebuilt from the log."))
    return redirect("committee:report", pk=pk)


class ReportView:
    """Labels for the report template (translated in the request's language)."""

    def __init__(self, data: dict) -> None:
        self.data = data
        m = data["match"]
        self.team = {"home": m["home"]["name"], "away": m["away"]["name"]}
        self.result = reports.result_sentence(data)

    def periods(self):
        for p in self.data["periods"]:
            yield {**p, "label": reports.period_label(p["number"], p["kind"]),
                   "goals": [{**g, "team_name": self.team[g["team"]], "clock_label": reports.clock_label(g["clock"]),
                              "how_label": reports.how_label(g["how"])} for g in p["goals"]]}

    def _rows(self, key: str):
        for row in self.data.get(key) or []:
            yield {**row, "period_label": reports.period_label(row.get("period") or 0, row.get("period_kind") or "regulation"),
                   "clock_label": reports.clock_label(row.get("clock")), "team_name": self.team.get(row.get("team"), ""),
                   "reason_label": reports.reason_label(row.get("reason"))}

    def penalties(self):
        for row in self._rows("penalties"):
            yield {**row, "converted_label": _("advantage") if row["advantage"] else reports.converted_label(row["converted"]),
                   "against_name": self.team.get(row.get("against"), "")}

    def cards(self):
        for row in self._rows("cards"):
            yield {**row, "color_label": reports.card_label(row.get("color"))}

    def stoppages(self):
        return self._rows("stoppages")

    def horses(self):
        return self._rows("horses")

    def substitutions(self):
        return self._rows("substitutions")

    def clock_corrections(self):
        for row in self._rows("clock_corrections"):
            yield {**row, "from_label": reports.clock_label(row["from"]), "to_label": reports.clock_label(row["to"])}

    def committee(self):
        for row in self._rows("committee"):
            yield {**row, "label": reports.committee_label(row["type"])}

    def voided(self):
        for row in self.data.get("voided") or []:
            yield {**row, "target_label": reports.event_label(row.get("target_type"))}

    def shootout(self):
        so = self.data.get("shootout")
        if not so:
            return []
        return [{**h, "team_name": self.team.get(h["team"], "")} for h in so["hits"]]


# -- standings and bracket ----------------------------------------------------------------------------

@committee_required
def tournament_standings(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=pk)
    return render(request, "committee/standings.html", {
        "tournament": tournament, "rows": standings.tournament_standings(tournament),
        "rounds": standings.tournament_bracket(tournament),
    })


@committee_required
def tournament_bracket(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=pk)
    return render(request, "committee/bracket.html", {"tournament": tournament, "rounds": standings.tournament_bracket(tournament)})


# -- webhooks -------------------------------------------------------------------------------------------

@committee_required
def webhooks(request: HttpRequest) -> HttpResponse:
    form = WebhookForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        hook = committee_form_save(form=form, user=request.user, action=Action.WEBHOOK_CREATE, tournament=form.cleaned_data.get("tournament"))
        messages.success(request, _("Webhook %(name)s added.") % {"name": hook.name})
        return redirect("committee:webhooks")
    return render(request, "committee/webhooks.html", {"form": form, "hooks": Webhook.objects.select_related("tournament")})


@committee_required
def webhook_edit(request: HttpRequest, pk: int) -> HttpResponse:
    hook = get_object_or_404(Webhook, pk=pk)
    form = WebhookForm(request.POST or None, instance=hook)
    if request.method == "POST" and form.is_valid():
        committee_form_save(form=form, user=request.user, action=Action.WEBHOOK_EDIT, tournament=hook.tournament)
        messages.success(request, _("Webhook saved."))
        return redirect("committee:webhooks")
    return render(request, "committee/webhook.html", {"form": form, "hook": hook, "deliveries": hook.deliveries.all()[:50]})
