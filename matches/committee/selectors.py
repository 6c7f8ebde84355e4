"""Reads for the committee's screens that need more than one query or a little folding."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.utils.translation import gettext_lazy as _

from officiating.engine.shootout import line_for

from matches.models import Match, MatchEvent, Tournament

from .models import AuditEntry

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


@dataclass
class VoidRecord:
    """A ``void`` of the match log, read as a row of the audit trail.

    Voids are not audit entries: the officials send them through the event API, which writes the
    log and nothing else. But a void undoes a decision, so the committee must see every one in the
    trail beside its own actions (who, when, which event, why). This has what the trail's template
    reads of an ``AuditEntry`` (``at``, ``user``, ``match``, ``get_action_display``)."""

    at: datetime
    user: Any  # the user who sent the void (``None`` if since deleted)
    match: Match
    seq: int  # the void's own position in the log
    reason: str
    target_id: str
    target: MatchEvent | None  # the event voided (``None`` only for a log the engine would refuse)
    action: str = "void"
    lines: list[tuple[str, str]] = field(default_factory=list)

    @property
    def match_id(self) -> int:
        return self.match.pk

    def get_action_display(self) -> str:
        return str(_("Event voided"))


def audit_trail(*, match: Match | None = None, tournament: Tournament | None = None,
                limit: int = 50) -> list[AuditEntry | VoidRecord]:
    """The committee's audit trail of one match (or of a whole tournament), newest first: its
    audit entries and every void of its log, merged by time (a void by its server time)."""
    entries = AuditEntry.objects.select_related("user", "match__home__team", "match__away__team")
    voids = MatchEvent.objects.filter(type="void").select_related("sent_by", "match__home__team", "match__away__team")
    if match is not None:
        entries, voids = entries.filter(match=match), voids.filter(match=match)
    elif tournament is not None:
        entries, voids = entries.filter(tournament=tournament), voids.filter(match__tournament=tournament)
    else:
        raise ValueError("audit_trail needs a match or a tournament")
    rows: list[AuditEntry | VoidRecord] = list(entries.order_by("-at", "-pk")[:limit])
    void_rows = list(voids.order_by("-received_at", "-seq")[:limit])
    wanted = {(v.match_id, str(v.payload.get("target"))) for v in void_rows}
    targets = {(t.match_id, t.client_id): t for t in MatchEvent.objects.filter(
        match_id__in={pair[0] for pair in wanted}, client_id__in={pair[1] for pair in wanted})}
    for v in void_rows:
        target_id = str(v.payload.get("target"))
        rows.append(VoidRecord(at=v.received_at, user=v.sent_by, match=v.match, seq=v.seq,
                               reason=str(v.payload.get("reason") or ""), target_id=target_id,
                               target=targets.get((v.match_id, target_id))))
    rows.sort(key=lambda row: row.at, reverse=True)  # stable: each source keeps its own order on a tie
    return rows[:limit]
