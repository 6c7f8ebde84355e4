"""``GET /api/matches/{id}/awards`` and ``GET /api/tournaments/{id}/awards``: the awards, public
(what the scoreboard and the tournament page show)."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from matches.models import Match, Tournament
from polo.api_errors import api_error

from . import selectors


def _not_found(message: str) -> JsonResponse:
    return api_error(404, "not_found", message)


@never_cache
@require_GET
def match_awards(request: HttpRequest, match_id: int) -> JsonResponse:
    match = Match.objects.select_related("home__team", "away__team").filter(pk=match_id).first()
    if match is None:
        return _not_found(_("No such match."))
    return JsonResponse(selectors.match_awards_json(match), json_dumps_params={"ensure_ascii": False})


@never_cache
@require_GET
def tournament_awards(request: HttpRequest, tournament_id: int) -> JsonResponse:
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return _not_found(_("No such tournament."))
    return JsonResponse(selectors.tournament_awards_json(tournament), json_dumps_params={"ensure_ascii": False})
