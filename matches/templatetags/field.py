"""``{% load field %}``: a match kept at the field (``matches.field``) on the committee's match page
(``field_panel``) and tournament page (``field_day_panel``: a day's tokens), on the statistics and
the committee's report of a match kept at the field (``field_heard_note``), and on the scorer's
screen of a field server (``field_uplink_shown``)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from django import template
from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from matches.field.heard import heard_sentence
from matches.field.models import FieldLink, FieldToken
from matches.field.selectors import field_presence
from matches.models import Field, Match, Tournament

register = template.Library()


@register.inclusion_tag("field/_panel.html", takes_context=True)
def field_panel(context: dict[str, Any], match: Match) -> dict[str, Any]:
    if getattr(settings, "FIELD_SERVER", False):
        return {"on_field_server": True}  # the field server keeps the match: nothing to hand over here
    presence = field_presence(match) or {}
    heard = presence.get("heard_at")
    return {
        "match": match,
        "kept_at_field": match.kept_at == Match.KeptAt.FIELD,
        "heard_at": datetime.fromtimestamp(heard, tz=UTC) if heard else None,
        "tokens": list(FieldToken.objects.filter(match=match)[:10]),
        "day_tokens": [
            t for t in _day_tokens(Q(tournament_id=match.tournament_id) | Q(field_id=match.field_id)) if t.covers(match)
        ],
        "csrf_token": context.get("csrf_token"),
    }


def _day_tokens(where: Q) -> list[FieldToken]:
    return list(FieldToken.objects.filter(where, match__isnull=True).select_related("tournament", "field")[:20])


@register.inclusion_tag("field/_day_panel.html", takes_context=True)
def field_day_panel(context: dict[str, Any], tournament: Tournament) -> dict[str, Any]:
    """A day's tokens of ``tournament``: the form that issues one (the days and fields of its
    matches) and the tokens issued."""
    if getattr(settings, "FIELD_SERVER", False):
        return {"on_field_server": True}
    starts = tournament.matches.values_list("starts_at", flat=True)
    days = sorted({timezone.localtime(at).date() for at in starts})
    return {
        "tournament": tournament,
        "days": days,
        "fields": Field.objects.filter(matches__tournament=tournament).distinct().order_by("name"),
        "tokens": _day_tokens(Q(tournament=tournament)),
        "csrf_token": context.get("csrf_token"),
    }


@register.inclusion_tag("field/_heard.html")
def field_heard_note(match: Match) -> dict[str, Any]:
    """ "Last heard from the field" on a page that shows a match kept at the field (``heard``)."""
    return {"sentence": heard_sentence(match)}


@register.simple_tag
def field_uplink_shown(match: Match) -> bool:
    """On a field server, for a match it keeps for a tournament's server: show how the upload stands
    (``field/_uplink.html``, included by the scorer's page)."""
    return bool(getattr(settings, "FIELD_SERVER", False)) and FieldLink.objects.filter(match=match).exists()
