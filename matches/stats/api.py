"""``/api/``'s statistics: a match's box score and a tournament's statistics, as JSON or CSV
(``….csv``, or ``?format=csv``). Public like the rest of the API's reads, with the public figures
(goals, the line score, penalties, cards); a match's officials and the committee of its tournament
also get each player's injuries and horse time-outs (``matches.permissions.match_role``)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache

from matches.api.openapi_components import NO_MATCH, NO_TOURNAMENT, json_content
from matches.api.operations import operation
from matches.api.types import FormatQuery, read_query
from matches.models import Match, Tournament
from matches.permissions import match_role
from officiating.engine.boxscore_json import box_score_dict
from polo.api_errors import api_error

from . import csv as stats_csv
from .openapi import BAD_FORMAT, CSV, EXAMPLE_BOX_SCORE, EXAMPLE_TOURNAMENT_STATS, BoxScore, TournamentStats, or_csv
from .selectors import match_box_score, tournament_stats, tournament_stats_dict


def _csv(text: str, filename: str) -> HttpResponse:
    response = HttpResponse(text, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _format(request: HttpRequest, csv: bool) -> str | None:
    """ "csv" or "json" (the path ending .csv, or ``?format=``); None for a format there is not."""
    query = read_query(request, FormatQuery)
    if query is None:
        return None
    return "csv" if csv else (query.format or "json")


def _no_format() -> JsonResponse:
    return api_error(400, "invalid_format", _("format must be json or csv."))


@never_cache
@operation(
    "get",
    "getMatchStats",
    query=FormatQuery,
    responses={
        200: or_csv(
            json_content(
                BoxScore,
                EXAMPLE_BOX_SCORE,
                "The box score of the log as it stands (?format=csv: CSV). The public figures for everyone; "
                "the match's officials and its tournament's committee also get injuries and horse time-outs.",
            )
        ),
        400: BAD_FORMAT,
        404: NO_MATCH,
    },
)
@operation(
    "get",
    "getMatchStatsCsv",
    summary="A match's box score as CSV: the line score, the teams, the players",
    route_kwargs={"csv": True},
    responses={200: CSV, 404: NO_MATCH},
)
def match_stats(request: HttpRequest, match_id: int, csv: bool = False) -> HttpResponse:
    """A match's box score: per player and per team, from the log (docs/STATISTICS.md)."""
    match = Match.objects.select_related("tournament", "field", "home__team", "away__team").filter(pk=match_id).first()
    if match is None:
        return api_error(404, "not_found", _("No such match."))
    fmt = _format(request, csv)
    if fmt is None:
        return _no_format()
    public = match_role(request.user, match) is None
    data = box_score_dict(match_box_score(match), public=public)
    if fmt == "csv":
        return _csv(stats_csv.box_score_csv(data, public=public), f"match-{match.pk}-stats.csv")
    return JsonResponse({"match": match.pk, "public": public, **data})


@never_cache
@operation(
    "get",
    "getTournamentStats",
    query=FormatQuery,
    responses={
        200: or_csv(
            json_content(
                TournamentStats,
                EXAMPLE_TOURNAMENT_STATS,
                "The leading scorers, penalty conversion by team and the cards (?format=csv: CSV).",
            )
        ),
        400: BAD_FORMAT,
        404: NO_TOURNAMENT,
    },
)
@operation(
    "get",
    "getTournamentStatsCsv",
    summary="A tournament's statistics as CSV",
    route_kwargs={"csv": True},
    responses={200: CSV, 404: NO_TOURNAMENT},
)
def tournament_statistics(request: HttpRequest, tournament_id: int, csv: bool = False) -> HttpResponse:
    """A tournament's statistics: leading scorers, penalty conversion by team, cards."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return api_error(404, "not_found", _("No such tournament."))
    fmt = _format(request, csv)
    if fmt is None:
        return _no_format()
    data = tournament_stats_dict(tournament_stats(tournament))
    if fmt == "csv":
        return _csv(stats_csv.tournament_stats_csv(data), f"tournament-{tournament.pk}-stats.csv")
    return JsonResponse(data)
