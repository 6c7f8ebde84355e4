"""``{% load signoff %}``: the official scoresheet's blocks (docs/SCORESHEET.md) on the pages of
other rooms: the sign-off control of the umpires' tablet, the signatures on the committee's match
page and in the report — each saying when a later correction broke them."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse

from matches.models import Match
from matches.scoresheet.selectors import broken_note, scoresheet, signer_role

register = template.Library()


@register.inclusion_tag("scoresheet/_status.html")
def scoresheet_status(match: Match, upto: int | None = None) -> dict[str, Any]:
    """The signatures of the match's log now (``upto``: of the log at a report's position)."""
    sheet = scoresheet(match, upto=upto)
    return {"sheet": sheet, "broken_note": broken_note(sheet) if sheet.broken else "", "upto": upto}


@register.inclusion_tag("scoresheet/_signoff.html", takes_context=True)
def scoresheet_signoff(context: dict[str, Any], match: Match) -> dict[str, Any]:
    """The tablet's sign-off control: its script (``static/js/scoresheet-signoff.js``) reads the
    scoresheet from the API and signs there."""
    user = context["request"].user
    sheet = scoresheet(match)
    return {
        "signoff": {
            "url": reverse("api-match-scoresheet", args=[match.pk]),
            "sign_url": reverse("api-match-scoresheet-sign", args=[match.pk]),
            "can_sign": signer_role(user, match) is not None,
            "user": user.get_username(),
            "sheet": sheet.as_json(),
        }
    }
