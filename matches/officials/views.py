"""The officials' screens: the scorer's laptop and the umpires'/referee's tablet.

Both pages are thin: they check the user's role on the match and hand the page script the match's
config (teams, colours, players, field). Everything live — state, clock, the log — comes from the
event API and the websocket (docs/LIVE-PROTOCOL.md); events are posted to the API, never here.
The umpires' score confirmation at the end of a chukker (not a match-log event; see
``officials/models.py``) is posted to the API too (``/api/matches/{id}/confirmations``).
"""

from __future__ import annotations

import time
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.cache import never_cache

from matches.api.views import request_language
from matches.games import match_config
from matches.models import Match
from matches.permissions import can_log_event, event_permissions, match_role
from matches.selectors import match_state
from matches.services import event_author

from . import field_engine
from .services import score_confirmations

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
        "event_permissions": event_permissions(),
        "state": match_state(match, now=now, lang=request_language()),
        # Issue 34: the engine this screen runs while the field has no link, in the user's language.
        "lang": request_language(),
        "author": event_author(match, request.user),
        "field_engine": field_engine.engine_urls(),
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
    return render(
        request, "officials/scorer.html", {"match": match, "page": _page_config(request, match, role, screen="scorer")}
    )


@never_cache
@login_required
def referee(request: HttpRequest, match_id: int) -> HttpResponse:
    match = _match(match_id)
    role = match_role(request.user, match)
    if role not in REFEREE_SCREEN_ROLES:
        raise PermissionDenied
    page = _page_config(
        request,
        match,
        role,
        screen="referee",
        can_log=role == "umpire",
        can_confirm=role == "umpire",
        confirmations_url=reverse("api-match-confirmations", args=[match.pk]),
        confirmations=score_confirmations(match),
    )
    return render(request, "officials/referee.html", {"match": match, "page": page})
