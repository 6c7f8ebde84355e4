"""Reads for the committee's screens that need more than one query or a little folding."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from django.utils.translation import gettext_lazy as _

from matches import availability
from matches.games import match_game
from matches.models import Match, MatchEvent, Tournament
from officiating.engine import shootout_rounds as engine_shootout_rounds

from .models import AuditEntry

TEAMS = ("home", "away")


def shootout_rounds(match: Match) -> list[dict[str, Any]]:
    """The shootout round by round (Rule 14.d): its line and the hits that stand, as the engine
    folds them (``officiating.engine.shootout_rounds``), each hit with the hitter's name."""
    rounds = engine_shootout_rounds(match_game(match))
    if not rounds:
        return []
    names = {
        (team, line.number): line.player.name
        for team, entry in (("home", match.home), ("away", match.away))
        for line in entry.roster.select_related("player")
    }
    return [
        {
            "number": r.number,
            "line": r.line,
            "hits": [
                {"team": team, "number": number, "scored": scored, "player": names.get((team, number), "")}
                for team, number, scored in r.attempts
            ],
        }
        for r in rounds
    ]


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
    role: str = ""  # the voider's role on the match, as stored with the void (``by``)
    action: str = "void"
    lines: list[tuple[str, str]] = field(default_factory=list)

    @property
    def match_id(self) -> int:
        return self.match.pk

    def get_action_display(self) -> str:
        return str(_("Event voided"))

    @property
    def scope(self) -> str:
        return self.role

    def acting_as(self) -> str:
        """The role the void was sent under (the committee's, the umpires' or the scorer's)."""
        roles = {
            "committee": _("committee of the tournament"),
            "umpire": _("umpire or referee of the match"),
            "scorer": _("scorer of the match"),
        }
        return str(roles.get(self.role, ""))


def audit_trail(
    *, match: Match | None = None, tournament: Tournament | None = None, limit: int = 50
) -> list[AuditEntry | VoidRecord]:
    """The committee's audit trail of one match (or of a whole tournament), newest first: its
    audit entries and every void of its log, merged by time (a void by its server time)."""
    entries = AuditEntry.objects.select_related(
        "user", "match__home__team", "match__away__team", "assignment__tournament"
    )
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
    targets = {
        (t.match_id, t.client_id): t
        for t in MatchEvent.objects.filter(
            match_id__in={pair[0] for pair in wanted}, client_id__in={pair[1] for pair in wanted}
        )
    }
    for v in void_rows:
        target_id = str(v.payload.get("target"))
        by = v.payload.get("by")
        rows.append(
            VoidRecord(
                at=v.received_at,
                user=v.sent_by,
                match=v.match,
                seq=v.seq,
                reason=str(v.payload.get("reason") or ""),
                target_id=target_id,
                target=targets.get((v.match_id, target_id)),
                role=str(by.get("role") or "") if isinstance(by, dict) else "",
            )
        )
    rows.sort(key=lambda row: row.at, reverse=True)  # stable: each source keeps its own order on a tie
    return rows[:limit]


@dataclass(frozen=True)
class UnavailableRow:
    """A row of the unavailable players (Rule 21.d) as one committee sees it: the knock-out, the
    later matches of their tournaments that name the player, and whether the knock-out happened in
    one of their tournaments (its match then links to its page)."""

    knock_out: availability.KnockOut
    affected: list[tuple[Match, str, int]]
    ours: bool


def unavailable_for(tournament_ids: set[int] | None, day: date) -> list[UnavailableRow]:
    """Who may not play again on ``day`` (Rule 21.d), for the committee of ``tournament_ids``
    (``None``: every tournament). Rule 21.d follows the player across tournaments, so a knock-out in
    another tournament's match is shown when it touches a line-up of theirs; their other matches,
    never."""
    rows = []
    for row in availability.unavailable_on(day):
        ours = tournament_ids is None or row.knock_out.match.tournament_id in tournament_ids
        affected = [a for a in row.affected if tournament_ids is None or a[0].tournament_id in tournament_ids]
        if ours or affected:
            rows.append(UnavailableRow(row.knock_out, affected, ours))
    return rows
