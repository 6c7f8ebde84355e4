"""``{% load awards %}``: the awards' blocks the pages of other rooms include (the public
scoreboard and tournament page, the committee's match and tournament pages, the report), so that
each page shows them with one tag and no view of its own changes."""

from __future__ import annotations

from typing import Any

from django import template

from matches.awards import selectors
from matches.models import Match, Tournament

register = template.Library()


@register.inclusion_tag("awards/_public_match.html")
def public_match_awards(match: Match, status: str | None = None) -> dict[str, Any]:
    """A finished match's awards (nothing while it is being played, or without awards)."""
    final = (status or match.status) == Match.Status.FINAL
    return {"awards": selectors.match_awards(match) if final else []}


@register.inclusion_tag("awards/_public_tournament.html")
def public_tournament_awards(tournament: Tournament) -> dict[str, Any]:
    return {
        "awards": selectors.tournament_awards(tournament),
        "match_awards": selectors.tournament_match_awards(tournament),
    }


@register.inclusion_tag("awards/_committee_block.html")
def committee_awards(match: Match | None = None, tournament: Tournament | None = None) -> dict[str, Any]:
    if match is not None:
        return {"match": match, "tournament": match.tournament, "awards": selectors.match_awards(match)}
    assert tournament is not None
    return {
        "match": None,
        "tournament": tournament,
        "awards": selectors.tournament_awards(tournament),
        "match_awards": selectors.tournament_match_awards(tournament),
    }


@register.inclusion_tag("awards/_report.html")
def report_awards(match: Match) -> dict[str, Any]:
    return {"awards": selectors.match_awards(match)}
