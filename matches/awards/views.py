"""The committee's award pages (``/committee/matches/<id>/awards/``, ``/committee/tournaments/<id>/
awards/``): thin views that validate a form and call one service. Only the committee of the
tournament (``committee.views.common``: others get 403, the anonymous the login page)."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from matches.committee.views.common import committee_match, committee_required, committee_tournament, form_errors
from matches.models import Match, Tournament

from . import selectors
from .forms import MvpForm, PonyForm
from .models import Award
from .services import AwardRefused, award_record, award_withdraw

FORMS = {Award.Kind.MVP: MvpForm, Award.Kind.BEST_PLAYING_PONY: PonyForm}


def _forms(tournament: Tournament, match: Match | None, data=None, kind: str | None = None) -> dict[str, object]:
    if match is not None:
        lines, mounts = selectors.match_lines(match), selectors.match_mounts(match)
    else:
        lines, mounts = selectors.tournament_lines(tournament), selectors.tournament_mounts(tournament)
    bound = {k: data if k == kind else None for k in FORMS}
    return {
        "mvp_form": MvpForm(bound[Award.Kind.MVP], lines=lines, prefix="mvp"),
        "pony_form": PonyForm(bound[Award.Kind.BEST_PLAYING_PONY], lines=lines, mounts=mounts, prefix="bpp"),
        "mounts": mounts,
    }


def _page(request: HttpRequest, tournament: Tournament, match: Match | None, **forms) -> HttpResponse:
    awards = selectors.match_awards(match) if match is not None else selectors.tournament_awards(tournament)
    context = {
        "tournament": tournament,
        "match": match,
        "awards": awards,
        "final": match is None or match.status == Match.Status.FINAL,
        **(forms or _forms(tournament, match)),
    }
    return render(request, "awards/committee.html", context)


def _back(tournament: Tournament, match: Match | None) -> HttpResponse:
    return (
        redirect("awards:match", pk=match.pk) if match is not None else redirect("awards:tournament", pk=tournament.pk)
    )


def _record(request: HttpRequest, tournament: Tournament, match: Match | None, kind: str) -> HttpResponse:
    if kind not in FORMS:
        raise Http404
    forms = _forms(tournament, match, request.POST, kind)
    form = forms["mvp_form" if kind == Award.Kind.MVP else "pony_form"]
    if not form.is_valid():
        form_errors(request, form)
        return _page(request, tournament, match, **forms)
    data = form.cleaned_data
    try:
        award = award_record(
            user=request.user,
            kind=kind,
            tournament=tournament,
            match=match,
            line=data["player"],
            horse=data.get("horse") or "",
            owner=data.get("owner") or "",
            breeder=data.get("breeder") or "",
            from_mount=bool(data.get("from_mount")),
        )
    except AwardRefused as refused:
        messages.error(request, refused.message)
        return _page(request, tournament, match, **forms)
    messages.success(request, _("%(award)s recorded: %(who)s.") % {"award": award.get_kind_display(), "who": award})
    return _back(tournament, match)


def _withdraw(request: HttpRequest, tournament: Tournament, match: Match | None, kind: str) -> HttpResponse:
    award = Award.objects.filter(tournament=tournament, match=match, kind=kind).first()
    if award is None:
        raise Http404
    award_withdraw(user=request.user, award=award)
    messages.success(request, _("%(award)s withdrawn.") % {"award": award.get_kind_display()})
    return _back(tournament, match)


@committee_required
def match_awards(request: HttpRequest, pk: int) -> HttpResponse:
    match = committee_match(request, pk)
    return _page(request, match.tournament, match)


@committee_required
@require_POST
def match_award_record(request: HttpRequest, pk: int, kind: str) -> HttpResponse:
    match = committee_match(request, pk)
    return _record(request, match.tournament, match, kind)


@committee_required
@require_POST
def match_award_withdraw(request: HttpRequest, pk: int, kind: str) -> HttpResponse:
    match = committee_match(request, pk)
    return _withdraw(request, match.tournament, match, kind)


@committee_required
def tournament_awards(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = committee_tournament(request, pk)
    return _page(request, tournament, None)


@committee_required
@require_POST
def tournament_award_record(request: HttpRequest, pk: int, kind: str) -> HttpResponse:
    tournament = committee_tournament(request, pk)
    return _record(request, tournament, None, kind)


@committee_required
@require_POST
def tournament_award_withdraw(request: HttpRequest, pk: int, kind: str) -> HttpResponse:
    tournament = committee_tournament(request, pk)
    return _withdraw(request, tournament, None, kind)
