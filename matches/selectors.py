"""The match log's reads: what the API, the pages and the websockets show. No writes here (the
reads that first append the horns a running clock has made due are ``live.snapshots``).

Vocabulary: the *meta* of a match is what does not change during play (teams, colours, field,
tournament, start time); its *state* is the engine's state (``to_state``) projected to now.
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Iterable
from typing import Any

from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils import timezone

from officiating.engine import to_state
from officiating.engine.boxscore_json import goal_rows

from .bounds import FIRST_DAY, LAST_DAY
from .games import match_game, team_side, with_rosters
from .models import Match, MatchEvent

# Fields of an event that only the match's officials (and the committee) may read.
PRIVATE_FIELDS = ("note", "private_note")
# Keys of the state a list of matches carries (the rest is for the match's own page).
# A day list's summary of each state: enough for a card to say the phase (a stopped match's restart
# and its rule, static/js/phase.js ``restartText``) and, when final, who won and how.
# A day's list summarises each state with these keys (null where the state has none): ``interval``
# says whether the break is half-time and when its countdown started, for a card off screen.
SUMMARY_KEYS = ("status", "score", "period", "clock", "restart", "interval", "shootout", "winner", "result")


def matches_with_config() -> QuerySet[Match]:
    """Matches with the rows ``match_config`` reads but the rosters (``games.with_rosters``)."""
    return Match.objects.select_related("tournament", "field", "home__team", "away__team")


def match_with_config(match_id: int) -> Match:
    return with_rosters([matches_with_config().get(pk=match_id)])[0]


def match_meta(match: Match) -> dict[str, Any]:
    return {
        "id": match.pk,
        "tournament": {"id": match.tournament_id, "name": match.tournament.name, "club": match.tournament.club},
        "field": {
            "name": match.field.name,
            "length": match.field.length,
            "width": match.field.width,
            "boarded": match.field.boarded,
        },
        "starts_at": match.starts_at.timestamp(),
        "stage": match.stage or None,
        "periods": match.periods,
        "period_seconds": match.period_seconds,
        "home": team_side(match.home, match.home_handicap_goals),
        "away": team_side(match.away, match.away_handicap_goals),
    }


def match_state(match: Match, *, now: float | None = None, lang: str = "en") -> dict[str, Any]:
    """The state to show now: the (cached) fold of the log projected to ``now``."""
    now = time.time() if now is None else now
    return to_state(match_game(match), now=now, lang=lang)


def public_event(payload: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in payload.items() if k not in PRIVATE_FIELDS}


def _event_rows(match_id: int, since: int, upto: int | None, official: bool, limit: int | None) -> list[dict[str, Any]]:
    rows = MatchEvent.objects.filter(match_id=match_id, seq__gt=since).order_by("seq")
    if upto is not None:
        rows = rows.filter(seq__lte=upto)
    if limit is not None:
        rows = rows[:limit]
    return [
        {
            "seq": seq,
            "id": client_id,
            "type": type_,
            "event": payload if official else public_event(payload),
            "received_at": received_at.timestamp(),
        }
        for seq, client_id, type_, payload, received_at in rows.values_list(
            "seq", "client_id", "type", "payload", "received_at"
        )
    ]


def match_events_since(match_id: int, since: int, *, official: bool, limit: int | None = None) -> dict[str, Any]:
    """The log after ``since`` in order, private notes only for officials, and the match's last_seq."""
    last_seq = Match.objects.filter(pk=match_id).values_list("last_seq", flat=True).get()
    return {"events": _event_rows(match_id, since, last_seq, official, limit), "last_seq": last_seq}


def match_last_seq(match_id: int) -> int | None:
    return Match.objects.filter(pk=match_id).values_list("last_seq", flat=True).first()


def matches_last_seq(match_ids: Iterable[int]) -> dict[int, int]:
    return dict(Match.objects.filter(pk__in=list(match_ids)).values_list("pk", "last_seq"))


def match_update(match_id: int, since: int, langs: Iterable[str], *, limit: int = 200) -> dict[str, Any] | None:
    """What the websocket fan-out sends after ``since``: the new events (public and officials'
    versions) and the state in each language asked for. None when nothing is new."""
    now = time.time()
    match = match_with_config(match_id)
    if match.last_seq <= since:
        return None
    game = match_game(match)
    rows = _event_rows(match_id, since, match.last_seq, True, limit)
    return {
        "match_id": match_id,
        "seq": rows[0]["seq"] if rows else match.last_seq,
        "last_seq": match.last_seq,
        "server_time": now,
        "states": {lang: to_state(game, now=now, lang=lang) for lang in set(langs)},
        "official_events": rows,
        "events": [{**row, "event": public_event(row["event"])} for row in rows],
        "goals": goal_rows(game, since=since),
    }


def parse_day(value: str | None) -> dt.date:
    """``YYYY-MM-DD`` or today (the app's time zone); ValueError on anything else, a day outside
    ``bounds`` included."""
    if not value:
        return timezone.localdate()
    day = dt.date.fromisoformat(value)
    if not FIRST_DAY <= day <= LAST_DAY:
        raise ValueError(f"{day} is outside {FIRST_DAY}..{LAST_DAY}")
    return day


# A match in one of these is under way: its play may run past midnight.
UNDER_WAY = (
    Match.Status.IN_PLAY,
    Match.Status.STOPPED,
    Match.Status.INTERVAL,
    Match.Status.TIED,
    Match.Status.SHOOTOUT,
)


def _day_start(day: dt.date) -> dt.datetime:
    return timezone.make_aware(dt.datetime.combine(day, dt.time.min), timezone.get_current_timezone())


def _ran_past(start: dt.datetime) -> Q:
    """Started in the day before ``start`` and ran past it: still under way, or an event logged
    since."""
    return Q(starts_at__gte=start - dt.timedelta(days=1), starts_at__lt=start) & (
        Q(status__in=UNDER_WAY) | Exists(MatchEvent.objects.filter(match=OuterRef("pk"), received_at__gte=start))
    )


def played_on(day: dt.date) -> Q:
    """The matches played on ``day`` (local time): those starting on it, and those that started
    the day before and ran past midnight, so that a late match stays on the day's lists."""
    start = _day_start(day)
    return Q(starts_at__gte=start, starts_at__lt=start + dt.timedelta(days=1)) | _ran_past(start)


def played_from(day: dt.date) -> Q:
    """The matches played on ``day`` or later (an official's coming matches)."""
    start = _day_start(day)
    return Q(starts_at__gte=start) | _ran_past(start)


def day_matches(day: dt.date, *, tournament_id: int | None = None) -> list[Match]:
    """The matches played on ``day`` (``played_on``), in order, with their config's rows."""
    matches = matches_with_config().filter(played_on(day))
    if tournament_id is not None:
        matches = matches.filter(tournament_id=tournament_id)
    return with_rosters(list(matches.order_by("starts_at", "field__name")))
