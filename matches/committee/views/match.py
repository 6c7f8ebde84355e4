"""A match's page and its control: the officials, the handicap goals, and the committee's events
(suspend, resume, abandon, overtime, forfeit), each sent through the event log."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from matches import availability
from matches.models import Match
from matches.selectors import match_state

from .. import reports
from ..audit import team_name, with_lines
from ..forms import (
    AbandonForm,
    EventIdForm,
    ForfeitForm,
    HandicapGoalsForm,
    OfficialsForm,
    SuspendForm,
    officials_clashes,
)
from ..selectors import audit_trail
from ..services import match_handicap_goals_set, match_officials_assign, shootout_lot
from .common import committee_match, committee_required, event_form_initial, event_send, form_errors, language

# Rule 21.k: the statuses a game can be suspended from (the engine's gate).
SUSPENDABLE = frozenset({"scheduled", "in_play", "stopped", "interval", "tied", "shootout"})


@committee_required
def match_detail(request: HttpRequest, pk: int) -> HttpResponse:
    match = committee_match(request, pk)
    state = match_state(match, lang=language())
    suggested = match.suggested_handicap_goals()
    lot = shootout_lot(match)
    knock_outs = availability.knock_outs_on(timezone.localdate(), exclude_match_id=match.pk)
    line_up = availability.line_up(match)
    unavailable = [
        (team, number, identity, k)
        for (team, number), identity in sorted(line_up.items())
        for k in [availability.knock_out_of(identity, knock_outs)]
        if k
    ]
    return render(
        request,
        "committee/match.html",
        {
            "match": match,
            "state": state,
            "board": _board(match, state),
            "officials_form": OfficialsForm(
                initial={"umpires": match.umpires.all(), "referee": match.referee, "scorer": match.scorer}
            ),
            "handicap_form": HandicapGoalsForm(
                initial={"home": match.home_handicap_goals, "away": match.away_handicap_goals}
            ),
            "suggested": suggested,
            "suspend_form": SuspendForm(initial=event_form_initial()),
            "resume_form": EventIdForm(initial=event_form_initial()),
            "abandon_form": AbandonForm(initial=event_form_initial()),
            "overtime_form": EventIdForm(initial=event_form_initial()),
            "lot": lot,
            "clashes": officials_clashes(match),
            "unavailable": unavailable,
            "audit": with_lines(audit_trail(match=match, limit=50)),
            "report": reports.latest_report(match),
        },
    )


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
        "period": reports.period_label(period["number"], period.get("kind") or "regulation")
        if period.get("number")
        else "—",
        "clock": reports.clock_label((state.get("clock") or {}).get("elapsed")),
        # The ball's position (Rule 22.j: a suspended game resumes where the ball was), in yards.
        "ball": (
            _("%(x)s yd from the north end, %(y)s yd from the west side")
            % {"x": f"{spot['x']:g}", "y": f"{spot['y']:g}"}
        )
        if spot
        else _("in play"),
        "forfeit_team": team_name(match, (state.get("forfeit") or {}).get("team")),
        "result": result,
        "suspendable": status in SUSPENDABLE,
    }


@committee_required
@require_POST
def match_officials(request: HttpRequest, pk: int) -> HttpResponse:
    match = committee_match(request, pk)
    form = OfficialsForm(request.POST)
    if form.is_valid():
        match_officials_assign(
            match=match,
            umpires=list(form.cleaned_data["umpires"]),
            referee=form.cleaned_data["referee"],
            scorer=form.cleaned_data["scorer"],
            user=request.user,
        )
        messages.success(request, _("Officials assigned."))
    else:
        form_errors(request, form)
    return redirect("committee:match", pk=pk)


@committee_required
@require_POST
def match_handicap(request: HttpRequest, pk: int) -> HttpResponse:
    match = committee_match(request, pk)
    form = HandicapGoalsForm(request.POST)
    if form.is_valid():
        refusal = match_handicap_goals_set(
            match=match, home=form.cleaned_data["home"], away=form.cleaned_data["away"], user=request.user
        )
        if refusal:
            messages.error(request, refusal.message(language()))
        else:
            messages.success(request, _("Handicap goals set."))
    else:
        form_errors(request, form)
    return redirect("committee:match", pk=pk)


# -- match control: committee events ----------------------------------------------------------------


@committee_required
@require_POST
def match_suspend(request: HttpRequest, pk: int) -> HttpResponse:
    match = committee_match(request, pk)
    form = SuspendForm(request.POST)
    if form.is_valid():
        event = {"id": str(form.cleaned_data["event_id"]), "type": "suspend", "reason": form.event_reason()}
        if form.ball():
            event["ball"] = form.ball()
        event_send(
            request, match, event, _("The game is suspended (Rule 21.k). It resumes where it stopped (Rule 22.j).")
        )
    else:
        form_errors(request, form)
    return redirect("committee:match", pk=pk)


@committee_required
@require_POST
def match_resume(request: HttpRequest, pk: int) -> HttpResponse:
    match = committee_match(request, pk)
    form = EventIdForm(request.POST)
    if form.is_valid():
        event_send(
            request,
            match,
            {"id": str(form.cleaned_data["event_id"]), "type": "resume", "reason": "committee"},
            _("The game is resumed at the same score, period, clock and ball position (Rule 22.j)."),
        )
    else:
        form_errors(request, form)
    return redirect("committee:match", pk=pk)


@committee_required
@require_POST
def match_abandon(request: HttpRequest, pk: int) -> HttpResponse:
    match = committee_match(request, pk)
    form = AbandonForm(request.POST)
    if form.is_valid():
        event_send(
            request,
            match,
            {"id": str(form.cleaned_data["event_id"]), "type": "abandon", "reason": form.cleaned_data["reason"]},
            _("The game is abandoned."),
        )
    else:
        form_errors(request, form)
    return redirect("committee:match", pk=pk)


@committee_required
@require_POST
def match_overtime(request: HttpRequest, pk: int) -> HttpResponse:
    match = committee_match(request, pk)
    form = EventIdForm(request.POST)
    if form.is_valid():
        event_send(
            request,
            match,
            {"id": str(form.cleaned_data["event_id"]), "type": "overtime"},
            _("Overtime ordered (Rule 14.c): the first goal wins."),
        )
    else:
        form_errors(request, form)
    return redirect("committee:match", pk=pk)


@committee_required
def match_forfeit(request: HttpRequest, pk: int) -> HttpResponse:
    match = committee_match(request, pk)
    state = match_state(match, lang=language())
    form = ForfeitForm(request.POST or None, initial={**event_form_initial(), **_forfeit_initial(state)})
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        ok = event_send(
            request,
            match,
            {"id": str(data["event_id"]), "type": "forfeit", "team": data["team"], "reason": data["reason"]},
            _("Forfeit recorded: the result has changed."),
            audit_details={"evidence": data["evidence"]},
        )
        if ok:
            return redirect("committee:match", pk=pk)
    return render(request, "committee/forfeit.html", {"match": match, "state": state, "form": form})


def _forfeit_initial(state: dict) -> dict:
    """What the engine says Rule 21.f(5) requires (an excused horse returned), if anything."""
    required = state.get("forfeit") or {}
    if required.get("team"):
        return {"team": required["team"], "reason": required.get("reason") or "other"}
    return {}
