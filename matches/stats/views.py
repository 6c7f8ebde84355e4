"""The statistics' pages: a match's box score (public figures for everyone, the full box score in
the committee's area), a tournament's statistics, and the USPA score sheet (page and PDF) beside
the committee's official report."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from matches.committee.views.common import committee_match, committee_required, language
from matches.models import Tournament
from officiating.engine.boxscore_json import box_score_dict

from .labels import box_tables
from .selectors import match_box_score, stats_match_get, tournament_stats, tournament_stats_dict
from .uspa import uspa_sheet_data
from .uspa_pdf import uspa_sheet_pdf


def _box_page(request: HttpRequest, match, *, public: bool) -> HttpResponse:
    box = box_score_dict(match_box_score(match), public=public)
    return render(
        request,
        "stats/match.html",
        {"match": match, "box": box, "tables": box_tables(box, public=public), "public": public},
    )


def match_box_score_page(request: HttpRequest, match_id: int) -> HttpResponse:
    """The public box score: goals, the line score, penalties and cards."""
    return _box_page(request, stats_match_get(match_id), public=True)


@committee_required
def committee_box_score_page(request: HttpRequest, pk: int) -> HttpResponse:
    return _box_page(request, committee_match(request, pk), public=False)


def tournament_stats_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    stats = tournament_stats(tournament)
    return render(
        request,
        "stats/tournament.html",
        {"tournament": tournament, "stats": tournament_stats_dict(stats), "matches": stats.matches},
    )


@committee_required
def uspa_sheet_page(request: HttpRequest, pk: int) -> HttpResponse:
    match = committee_match(request, pk)
    return render(request, "stats/uspa_sheet.html", {"match": match, "sheet": uspa_sheet_data(match)})


@committee_required
def uspa_sheet_pdf_view(request: HttpRequest, pk: int) -> HttpResponse:
    match = committee_match(request, pk)
    response = HttpResponse(uspa_sheet_pdf(uspa_sheet_data(match), language()), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="match-{match.pk}-uspa-sheet.pdf"'
    return response
