"""The public live pages (no login): a match's scoreboard, its stream overlay, a tournament's day,
a match's play-by-play, and the start pages (every screen of a match, or of a tournament's day, with
its address and QR code: ``screens``).

Each page is rendered with the state as it is now (a first paint without waiting for the socket)
and hands the same data to its script, which then follows the match live through
``static/js/live.js`` (docs/LIVE-PROTOCOL.md). The data is the websocket snapshot's
(``live.snapshots``), so the page and the socket start from the same place. The scoreboard's
last goals come from ``selectors.match_goals`` (and, after a gap, ``GET /api/matches/{id}/goals``).
"""

from __future__ import annotations

import datetime as dt
import math
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import get_language, gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from matches.live.snapshots import match_snapshot, matches_of_day
from matches.selectors import day_matches, parse_day

from .play_by_play import match_play_by_play
from .screens import match_screens
from .selectors import match_goals, public_match_get, tournament_get


def _labels() -> dict[str, object]:
    """Words the scripts need too, translated once here (the scripts' own words use gettext())."""
    return {
        "status": {
            "scheduled": _("Not started"),
            "in_play": _("In play"),
            "stopped": _("Stopped"),
            "interval": _("Interval"),
            "tied": _("Tied — waiting for the committee"),
            "shootout": _("Shootout"),
            "suspended": _("Suspended"),
            "final": _("Final"),
            "abandoned": _("Abandoned"),
        },
        "attacks": {"north": _("Attacks the north goal"), "south": _("Attacks the south goal")},
        "period": {"regulation": _("Chukker"), "overtime": _("Overtime")},
        "halftime": _("Half-time"),
        "penalty_goal": _("Penalty goal"),
        "own_goal": _("Own goal"),
        "no_restart": _("Ball in play"),
        # An official is typing a stoppage (or a goal was voided): the clock waits for the entry.
        "held": _("In play — clock held"),
        "held_restart": _("Clock held: an official is logging a stoppage"),
        "winner": _("Winner"),
        "next_in": _("Next chukker in %s"),
        # Issue 34 (static/js/field-status.js), for the overlay, which has no JS catalog.
        "field_waiting": _("Waiting for the field · %(time)s"),
        "field_waiting_note": _("The umpires' clock is kept at the field; the record follows when the link is back."),
        # Issue 35 (field-status.js's keptNote): a match kept at the field's own server.
        "kept_heard": _("Kept at the field: last heard from the field %s ago"),
        "kept_unheard": _("Kept at the field: not heard from the field yet"),
        # The clock's convention (static/js/clock-convention.js), for the overlay, which has no JS catalog.
        "clock": {
            "left": _("time left"),
            "played": _("time played"),
            "heading_left": _("Time left"),
            "heading_played": _("Time played"),
            "extra": _("extra time"),
        },
    }


def _language() -> str:
    return (get_language() or "en").split("-")[0]


def _live_data(match_id: int) -> dict:
    data = match_snapshot(match_id, lang=_language())
    data["labels"] = _labels()
    return data


def _page_context(match, data: dict) -> dict:
    state = data["state"]
    return {
        "match": match,
        "data": data,
        "state": state,
        "labels": data["labels"],
        "status": data["labels"]["status"].get(state.get("status"), ""),
    }


def _mss(seconds: float) -> str:
    seconds = max(0, math.floor(seconds + 1e-6))
    return f"{seconds // 60}:{seconds % 60:02d}"


def time_left_text(seconds: float | None, regular_seconds: float) -> str:
    """A time of the period as a public scoreboard shows it by default (time left, as
    ``PoloClockConvention.format(…, "left")``): the time left to the seven-minute horn, "+m:ss" in
    the extra time after it."""
    if not isinstance(seconds, (int, float)):
        return ""
    if seconds > regular_seconds:
        return "+" + _mss(seconds - regular_seconds)
    return _mss(math.ceil(regular_seconds - seconds - 1e-6))


@never_cache
@require_GET
def scoreboard(request: HttpRequest, match_id: int) -> HttpResponse:
    match = public_match_get(match_id)
    data = _live_data(match.pk)
    goals = match_goals(match)
    data["goals"] = goals["goals"]
    data["goals_seq"] = goals["last_seq"]
    data["lang"] = _language()
    # The first paint (and a page without script) in the scoreboard's default convention, time left.
    rows = [{**g, "clock_text": time_left_text(g["clock"], match.period_seconds)} for g in goals["goals"]]
    return render(
        request,
        "public/scoreboard.html",
        {
            **_page_context(match, data),
            "goals": rows,
            "tv": request.GET.get("tv") == "1",
            "lang_switch": _language_switch(request),
        },
    )


# Each language's name in itself, as a switch offers it.
LANGUAGE_NAMES = {"en": "English", "es": "Español"}


def _language_switch(request: HttpRequest) -> dict[str, str]:
    """The page's address in the other language (``?lang=``: a link, where the header's form is not shown)."""
    other = "en" if _language() == "es" else "es"
    query = request.GET.copy()
    query["lang"] = other
    return {"lang": other, "label": LANGUAGE_NAMES[other], "url": "?" + query.urlencode()}


@never_cache
@require_GET
def overlay(request: HttpRequest, match_id: int) -> HttpResponse:
    """A browser source in streaming software has no header to switch languages from and a cookie
    jar nobody visits: ``?lang=es`` picks the language of the bar (and of its socket).

    The one page that may be framed: by the origins in ``OVERLAY_FRAME_ANCESTORS`` (a production
    switcher that embeds the bar), written into its CSP's frame-ancestors by ``polo.middleware``.
    X-Frame-Options cannot name an origin, so the page sends none then (the CSP decides). Unset:
    framed by no one, as every other page."""
    match = public_match_get(match_id)
    lang = request.GET.get("lang", "")
    if lang not in dict(settings.LANGUAGES):
        lang = _language()
    with translation.override(lang):
        data = _live_data(match.pk)
        data["lang"] = lang
        response = render(request, "public/overlay.html", _page_context(match, data))
    response["Content-Language"] = lang
    if settings.OVERLAY_FRAME_ANCESTORS:
        response.csp_frame_ancestors = settings.OVERLAY_FRAME_ANCESTORS
        response.xframe_options_exempt = True
    return response


def _status_label(labels: dict[str, Any], state: dict[str, Any]) -> str:
    """A card's status before its script runs (phase.js words it the same): half-time is an interval
    of kind halftime (Rule 14.a)."""
    if state.get("status") == "interval" and (state.get("interval") or {}).get("kind") == "halftime":
        return labels["halftime"]
    return labels["status"].get(state.get("status"), "")


@never_cache
@require_GET
def tournament_live(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = tournament_get(tournament_id)
    today = timezone.localdate()
    try:
        day = parse_day(request.GET.get("date"))
    except ValueError:
        day = today
    matches = matches_of_day(day, tournament_id=tournament.pk)
    labels = _labels()
    rows = [
        {
            "match": m,
            "starts_at": dt.datetime.fromtimestamp(m["starts_at"], tz=dt.UTC),
            "status": _status_label(labels, m["state"]),
        }
        for m in matches
    ]
    data = {
        "tournament": {"id": tournament.pk, "name": tournament.name},
        "date": day.isoformat(),
        "matches": matches,
        "labels": labels,
    }
    return render(
        request,
        "public/tournament_live.html",
        {
            "tournament": tournament,
            "day": day,
            "today": today,
            "rows": rows,
            "data": data,
            "previous_day": day - dt.timedelta(days=1),
            "next_day": day + dt.timedelta(days=1),
        },
    )


# The screens of each match on the day's sheet: the ones a steward sets up at the field (a match's
# own start page has them all).
DAY_SHEET_SCREENS = ("scoreboard", "tv", "overlay", "referee", "scorer")


@require_GET
def start_match(request: HttpRequest, match_id: int) -> HttpResponse:
    match = public_match_get(match_id)
    screens = match_screens(request, match, lang=_language())
    return render(request, "public/start_match.html", {"match": match, "screens": screens})


@require_GET
def start_day(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The field steward's sheet: a page per match of the day (printed), ``?date=YYYY-MM-DD``."""
    tournament = tournament_get(tournament_id)
    try:
        day = parse_day(request.GET.get("date"))
    except ValueError:
        day = timezone.localdate()
    lang = _language()
    rows = [
        {"match": m, "screens": match_screens(request, m, lang=lang, keys=DAY_SHEET_SCREENS)}
        for m in day_matches(day, tournament_id=tournament.pk)
    ]
    return render(
        request,
        "public/start_day.html",
        {
            "tournament": tournament,
            "day": day,
            "rows": rows,
            "previous_day": day - dt.timedelta(days=1),
            "next_day": day + dt.timedelta(days=1),
        },
    )


@never_cache
@require_GET
def play_by_play(request: HttpRequest, match_id: int) -> HttpResponse:
    """Every event of the match that counts, in words with its rule; the script follows the match
    live and reads the entries again (``play_by_play_entries``) after each update."""
    match = public_match_get(match_id)
    data = _live_data(match.pk)
    match.refresh_from_db(fields=["last_seq"])  # (the snapshot appends a horn it finds due)
    pbp = match_play_by_play(match, lang=_language())
    data["entries_url"] = reverse("play_by_play_entries", args=[match.pk])
    data["entries_seq"] = pbp["last_seq"]
    return render(request, "public/play_by_play.html", {**_page_context(match, data), "pbp": pbp})


@never_cache
@require_GET
def play_by_play_entries(request: HttpRequest, match_id: int) -> HttpResponse:
    """The entries alone (the page's list), as HTML for the page's script to swap in."""
    match = public_match_get(match_id)
    pbp = match_play_by_play(match, lang=_language())
    return render(request, "public/_play_by_play_entries.html", {"match": match, "pbp": pbp})
