"""The shootout screen (Rule 14.d): the lot, drawn once (or corrected, with a reason), the start
and each hit. The committee runs it; the match's officials follow it and may record hits."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from matches.models import Match
from matches.permissions import can_log_event, is_committee_of, is_official
from matches.selectors import match_state
from matches.services import ServiceRejection

from ..audit import lot_text
from ..forms import EventIdForm, ShootoutAttemptForm, ShootoutLotCorrectionForm, ShootoutLotForm, ShootoutStartForm
from ..selectors import shootout_rounds
from ..services import shootout_lot, shootout_lot_correct, shootout_lot_correction, shootout_lot_draw, shootout_started
from .common import (
    committee_match,
    committee_required,
    event_form_initial,
    event_send,
    form_errors,
    language,
    match_or_404,
)

# -- the shootout screen -----------------------------------------------------------------------------


def match_shootout(request: HttpRequest, pk: int) -> HttpResponse:
    match = match_or_404(pk)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    # The committee of its tournament runs it (lot, format, order); the match's officials follow it.
    runs = is_committee_of(request.user, match.tournament_id)
    if not runs and not is_official(request.user, match):
        raise PermissionDenied
    state = match_state(match, lang=language())
    so = state.get("shootout")
    lot = shootout_lot(match)
    context = {
        "match": match,
        "state": state,
        "runs": runs,
        "lot": lot,
        "so": so,
        "lot_text": lot_text(match, lot),
        # The lot may be corrected until the shootout starts; after that the panel no longer offers
        # it (and the service would refuse it anyway).
        "lot_correction": shootout_lot_correction(match),
        "can_correct_lot": runs and lot is not None and not shootout_started(match),
        "can_hit": can_log_event(request.user, match, "shootout_attempt"),
        "rounds": shootout_rounds(match) if so else [],
        "next_player": _player_name(match, (so or {}).get("next")),
        "attempt_form": ShootoutAttemptForm(initial={**event_form_initial(), **((so or {}).get("next") or {})}),
        "lot_form": ShootoutLotForm(),
        "lot_correction_form": ShootoutLotCorrectionForm(lot=lot, prefix="correct"),
        "start_form": ShootoutStartForm(
            match=match, initial={**event_form_initial(), "first": lot.winner if lot else None}
        ),
        "overtime_form": EventIdForm(initial=event_form_initial()),
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
    match = committee_match(request, pk)
    if request.POST.get("action") == "correct":
        return _shootout_lot_correct(request, match)
    form = ShootoutLotForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        lot = shootout_lot_draw(
            match=match, user=request.user, caller=data["caller"], call=data["call"], result=data["result"]
        )
        if isinstance(lot, ServiceRejection):
            form.add_error(None, _lot_refusal(lot))
            form_errors(request, form)
        else:
            winner = match.home if lot.winner == "home" else match.away
            messages.success(
                request,
                _("The coin fell %(result)s: %(team)s won the lot and hits first.")
                % {"result": dict(ShootoutLotForm.CALLS)[lot.result], "team": winner.team.name},
            )
    else:
        form_errors(request, form)
    return redirect("committee:shootout", pk=pk)


def _shootout_lot_correct(request: HttpRequest, match: Match) -> HttpResponse:
    form = ShootoutLotCorrectionForm(request.POST, prefix="correct")
    if form.is_valid():
        data = form.cleaned_data
        lot = shootout_lot_correct(
            match=match,
            user=request.user,
            caller=data["caller"],
            call=data["call"],
            result=data["result"],
            reason=data["reason"],
        )
        if isinstance(lot, ServiceRejection):
            form.add_error(None, _lot_refusal(lot))
            form_errors(request, form)
        else:
            messages.success(request, _("Lot corrected: %(lot)s") % {"lot": lot_text(match, lot)})
    else:
        form_errors(request, form)
    return redirect("committee:shootout", pk=match.pk)


def _lot_refusal(refusal: ServiceRejection) -> str:
    return _("%(message)s (Rule %(rule)s)") % {"message": refusal.message(language()), "rule": refusal.rule}


@committee_required
@require_POST
def shootout_start(request: HttpRequest, pk: int) -> HttpResponse:
    match = committee_match(request, pk)
    form = ShootoutStartForm(request.POST, match=match)
    if form.is_valid():
        data = form.cleaned_data
        lot = shootout_lot(match)
        event_send(
            request,
            match,
            {
                "id": str(data["event_id"]),
                "type": "shootout_start",
                "format": data["format"],
                "first": data["first"],
                "order": form.order(),
            },
            _("Shootout started (Rule 14.d)."),
            audit_details={"lot": lot.__dict__ if lot else None},
        )
    else:
        form_errors(request, form)
    return redirect("committee:shootout", pk=pk)


def shootout_attempt(request: HttpRequest, pk: int) -> HttpResponse:
    if request.method != "POST":
        return redirect("committee:shootout", pk=pk)
    match = match_or_404(pk)  # its officials record hits too: the role on the match decides
    if not can_log_event(request.user, match, "shootout_attempt"):
        raise PermissionDenied
    form = ShootoutAttemptForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        event_send(
            request,
            match,
            {
                "id": str(data["event_id"]),
                "type": "shootout_attempt",
                "team": data["team"],
                "number": data["number"],
                "scored": data["scored"],
            },
            _("Hit recorded."),
        )
    else:
        form_errors(request, form)
    return redirect("committee:shootout", pk=pk)
