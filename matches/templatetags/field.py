"""``{% load field %}``: the committee's panel of a match kept at the field (``matches.field``)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from django import template

from matches.field.models import FieldToken
from matches.field.selectors import field_presence
from matches.models import Match

register = template.Library()


@register.inclusion_tag("field/_panel.html", takes_context=True)
def field_panel(context: dict[str, Any], match: Match) -> dict[str, Any]:
    presence = field_presence(match) or {}
    heard = presence.get("heard_at")
    return {
        "match": match,
        "kept_at_field": match.kept_at == Match.KeptAt.FIELD,
        "heard_at": datetime.fromtimestamp(heard, tz=UTC) if heard else None,
        "tokens": list(FieldToken.objects.filter(match=match)[:10]),
        "csrf_token": context.get("csrf_token"),
    }
