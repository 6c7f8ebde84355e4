"""Reads for the committee's screens that need more than one query or a little folding."""
from __future__ import annotations

from typing import Any

from officiating.engine.shootout import line_for

from .models import Match, MatchEvent

TEAMS = ("home", "away")


def shootout_rounds(match: Match, state: dict[str, Any]) -> list[dict[str, Any]]:
    """The shootout round by round (Rule 14.d): its line and each hit, from the log.

    The hits are the ``shootout_attempt`` events after the last ``shootout_start`` that no ``void``
    took back; the line of each round is the engine's (40 yards, then 60, or 30 when nothing scored
    in the first two rounds of a game of upper limit 6 or less)."""
    rows = list(MatchEvent.objects.filter(match=match, type__in=["shootout_start", "shootout_attempt", "void"]).order_by("seq"))
    voided = {str(r.payload.get("target")) for r in rows if r.type == "void"}
    start = next((r for r in reversed(rows) if r.type == "shootout_start" and r.client_id not in voided), None)
    if start is None:
        return []
    order = start.payload.get("order") or {}
    per_round = 2 * max(1, len(order.get("home") or []))
    names = {(team, line.number): line.player.name
             for team, entry in (("home", match.home), ("away", match.away))
             for line in entry.roster.select_related("player")}
    hits = [r.payload for r in rows if r.type == "shootout_attempt" and r.seq > start.seq and r.client_id not in voided]
    scored_in_first_two = any(h.get("scored") for h in hits[: 2 * per_round])
    upper = match.tournament.upper_handicap_limit
    current = (state.get("shootout") or {}).get("round") or 1
    rounds = []
    for number in range(1, max(current, (len(hits) + per_round - 1) // per_round) + 1):
        chunk = hits[(number - 1) * per_round: number * per_round]
        rounds.append({
            "number": number,
            "line": line_for(number, scored_in_first_two, upper),
            "hits": [{**h, "player": names.get((h.get("team"), h.get("number")), "")} for h in chunk],
        })
    return rounds
