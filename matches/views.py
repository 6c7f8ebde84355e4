"""The home page (today's matches, and the official's own). The probes, ``/healthz`` and
``/readyz``, are answered before the host check: ``polo/health.py``."""

from __future__ import annotations

from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from .models import Match, Tournament
from .permissions import is_committee
from .selectors import played_from, played_on


def home(request: HttpRequest) -> HttpResponse:
    today = timezone.localdate()
    matches = (
        Match.objects.filter(played_on(today))
        .select_related("home__team", "away__team", "field", "tournament")
        .order_by("starts_at")
    )
    mine = Match.objects.none()
    if request.user.is_authenticated:
        mine = (
            Match.objects.filter(Q(scorer=request.user) | Q(referee=request.user) | Q(umpires=request.user))
            .filter(played_from(today))
            .select_related("home__team", "away__team", "field")
            .distinct()
            .order_by("starts_at")
        )
    # The day's start sheet of each tournament playing today (matches/public/views.py, start_day).
    playing = {m.tournament_id: m.tournament for m in matches}
    return render(
        request,
        "matches/home.html",
        {
            "today": today,
            "matches": matches,
            "playing": list(playing.values()),
            "mine": mine,
            "tournaments": Tournament.objects.filter(ends_on__gte=today).order_by("starts_on")[:10],
            "is_committee": is_committee(request.user),
        },
    )
