"""``GET /api/matches/{id}/awards`` and ``GET /api/tournaments/{id}/awards``: the awards, public
(what the scoreboard and the tournament page show)."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache

from matches.api.openapi_components import LANGUAGE, NO_MATCH, NO_TOURNAMENT, json_content
from matches.api.operations import operation
from matches.models import Match, Tournament
from polo.api_errors import api_error

from . import selectors
from .openapi import EXAMPLE_MATCH_AWARDS, EXAMPLE_TOURNAMENT_AWARDS, MatchAwards, TournamentAwards


def _not_found(message: str) -> JsonResponse:
    return api_error(404, "not_found", message)


@never_cache
@operation(
    "get",
    "getMatchAwards",
    parameters=[LANGUAGE],
    responses={200: json_content(MatchAwards, EXAMPLE_MATCH_AWARDS, "The awards given."), 404: NO_MATCH},
)
def match_awards(request: HttpRequest, match_id: int) -> JsonResponse:
    """The match's MVP and Best Playing Pony (public)."""
    match = Match.objects.select_related("home__team", "away__team").filter(pk=match_id).first()
    if match is None:
        return _not_found(_("No such match."))
    return JsonResponse(selectors.match_awards_json(match), json_dumps_params={"ensure_ascii": False})


@never_cache
@operation(
    "get",
    "getTournamentAwards",
    parameters=[LANGUAGE],
    responses={200: json_content(TournamentAwards, EXAMPLE_TOURNAMENT_AWARDS, "The awards given."), 404: NO_TOURNAMENT},
)
def tournament_awards(request: HttpRequest, tournament_id: int) -> JsonResponse:
    """The tournament's awards and those of each of its matches (public)."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return _not_found(_("No such tournament."))
    return JsonResponse(selectors.tournament_awards_json(tournament), json_dumps_params={"ensure_ascii": False})
