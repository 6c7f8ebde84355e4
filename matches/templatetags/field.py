"""``{% load field %}``: a match kept at the field (``matches.field``) on the committee's match page
(``field_panel``), and on the scorer's screen of a field server (``field_uplink_shown``)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from django import template
from django.conf import settings

from matches.field.models import FieldLink, FieldToken
from matches.field.selectors import field_presence
from matches.models import Match

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
        "csrf_token": context.get("csrf_token"),
    }


@register.simple_tag
def field_uplink_shown(match: Match) -> bool:
    """On a field server, for a match it keeps for a tournament's server: show how the upload stands
    (``field/_uplink.html``, included by the scorer's page)."""
    return bool(getattr(settings, "FIELD_SERVER", False)) and FieldLink.objects.filter(match=match).exists()
