"""The officials' screens: the scorer's laptop and the umpires'/referee's tablet.

Both pages are thin: they check the user's role on the match and hand the page script the match's
config (teams, colours, players, field). Everything live — state, clock, the log — comes from the
event API and the websocket (docs/LIVE-PROTOCOL.md); events are posted to the API, never here.
The one write here is the umpires' score confirmation at the end of a chukker (not a match-log
event; see ``matches.models_officials``).
"""
from __future__ import annotations

import json
import time
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from .api import request_language
from .models import Match
from .permissions import can_log_event, match_role
from .services import match_config, match_state
from .services_officials import ScoreConfirmationError, score_confirmation_record, score_confirmations

# Who opens which screen (matches.permissions.match_role): the referee counts as an umpire.
SCORER_SCREEN_ROLES = frozenset({"scorer", "umpire", "committee"})
REFEREE_SCREEN_ROLES = frozenset({"umpire", "committee", "scorer"})  # the scorer may only watch


def _match(match_id: int) -> Match:
    return get_object_or_404(
        Match.objects.select_related("tournament", "field", "home__team", "away__team"), pk=match_id
    )


def _page_config(request: HttpRequest, match: Match, role: str, **extra: Any) -> dict[str, Any]:
    """What the page script needs to start (read by JSON.parse from a json_script block): the
    state is there too so the screen is whole before the websocket's snapshot arrives."""
    now = time.time()
    return {
        "match_id": match.pk,
        "role": role,
        "user": request.user.get_username(),
        "config": match_config(match),
        "title": match.title,
        "tournament": match.tournament.name,
        "field_name": match.field.name,
        "can_log": can_log_event(request.user, match, "play"),
        "state": match_state(match, now=now, lang=request_language()),
        "last_seq": match.last_seq,
        "server_time": now,
        **extra,
    }


@never_cache  # the page carries the state of the moment
@login_required
def scorer(request: HttpRequest, match_id: int) -> HttpResponse:
    match = _match(match_id)
    role = match_role(request.user, match)
    if role not in SCORER_SCREEN_ROLES:
        raise PermissionDenied
    return render(request, "officials/scorer.html",
                  {"match": match, "page": _page_config(request, match, role, screen="scorer")})


@never_cache
@login_required
def referee(request: HttpRequest, match_id: int) -> HttpResponse:
    match = _match(match_id)
    role = match_role(request.user, match)
    if role not in REFEREE_SCREEN_ROLES:
        raise PermissionDenied
    page = _page_config(
        request, match, role, screen="referee",
        can_log=role == "umpire",
        can_confirm=role == "umpire",
        confirmations_url=reverse("score_confirmations", args=[match.pk]),
        confirmations=score_confirmations(match),
    )
    return render(request, "officials/referee.html", {"match": match, "page": page})


@never_cache
@require_http_methods(["GET", "POST"])
def confirmations(request: HttpRequest, match_id: int) -> JsonResponse:
    """GET: the match's score confirmations. POST {period, score: {home, away}}: an umpire confirms
    the score at the end of a chukker (201), refused with 409 when the log says otherwise."""
    match = _match(match_id)
    role = match_role(request.user, match)
    if role is None:
        return JsonResponse({"error": {"code": "forbidden", "message": _("Officials only.")}}, status=403)
    if request.method == "GET":
        return JsonResponse({"confirmations": score_confirmations(match)})
    if role != "umpire":
        return JsonResponse(
            {"error": {"code": "forbidden", "message": _("Only the match's umpires and referee confirm the score.")}},
            status=403,
        )
    try:
        body = json.loads(request.body or b"null")
        period = int(body["period"])
        home, away = float(body["score"]["home"]), float(body["score"]["away"])
    except (ValueError, TypeError, KeyError):
        return JsonResponse(
            {"error": {"code": "invalid", "message": _("Send the chukker and the score you confirm.")}}, status=400
        )
    try:
        score_confirmation_record(match_id=match.pk, umpire=request.user, period=period, home=home, away=away)
    except ScoreConfirmationError as refused:
        status = 409 if refused.code == "score_changed" else 422
        return JsonResponse(
            {"error": {"code": refused.code, "message": refused.message}, "state": refused.state}, status=status
        )
    return JsonResponse({"confirmations": score_confirmations(match)}, status=201)
