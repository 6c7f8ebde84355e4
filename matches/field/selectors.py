"""Reads of a match kept at the field: what the public screens and the API say about it."""

from __future__ import annotations

from typing import Any

from django.conf import settings

from matches.models import Match


def field_presence(match: Match, lang: str | None = None) -> dict[str, Any] | None:
    """The state API's ``field`` object. On the tournament's server, for a match kept at the field:
    ``{"kept_at": "field", "heard_at": <epoch s or null>}`` (when the field server last reached this
    one: the state shown is the field's as of then). On a field server, for a match it keeps for a
    tournament's server: ``{"kept_at": "here", "uplink": {...}}`` (how the log's upload stands, its
    error said in ``lang``). None otherwise (no query unless the match is kept at the field or this
    is a field server)."""
    if match.kept_at == Match.KeptAt.FIELD:
        from .models import FieldHeard

        heard = FieldHeard.objects.filter(match=match).values_list("at", flat=True).first()
        return {"kept_at": "field", "heard_at": heard.timestamp() if heard else None}
    if getattr(settings, "FIELD_SERVER", False):
        from .models import FieldLink
        from .sender import link_status

        link = FieldLink.objects.filter(match=match).first()
        if link is not None:
            return {"kept_at": "here", "uplink": link_status(link, lang)}
    return None
