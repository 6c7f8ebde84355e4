"""A tournament as one file and back (docs/EXPORT.md): its teams, rosters, fields, matches with
their logs, signatures and score confirmations, its awards, its committee and its audit trail.

Vocabulary: an *export* is one JSON document, ``{"format": "polo-tournament", "version": 1, ...}``,
written by ``export_text(tournament_export(t))``; *importing* it (``tournament_import``) makes the
same tournament on another server, in one transaction. The file names no database id: the rows it
holds refer to each other by their place in the file's lists (``"field": 0`` is the first of
``"fields"``), teams by their name (unique) and people by their username, so two servers holding
the same tournament write the same file, byte for byte (keys sorted, times in UTC).

What is left out, and why: a user's password, e-mail and groups (the server's, not the tournament's);
the signatures' seals (HMACs under the exporting server's secret: the importing server seals the
signatures again, with its own, once it has checked that each still signs its match's log); the
stored reports and PDFs (rebuilt from the log); the webhooks (addresses and secrets of the server's).

The commands (``export_tournament``, ``import_tournament``) and the committee's download are thin:
this module is the one that reads and writes the format.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

from django.db.models import Q

from .awards.models import Award
from .committee.models import AuditEntry
from .models import Field, Match, Player, RosterLine, Tournament
from .scoresheet.hashing import log_hash

FORMAT = "polo-tournament"
VERSION = 1
# The years a time or a day of the file may fall in: any real tournament's, with room, and far from
# the ends of the databases' and Python's calendars (a time of 9999-12-31 in New York is year 10000
# in UTC).
YEARS = (1900, 2999)


class ImportRefused(Exception):
    """A file the importer will not read, or a tournament it will not write: ``message`` says why."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


# -- writing ----------------------------------------------------------------------------------------


def _when(value: datetime | None) -> str | None:
    return value.astimezone(UTC).isoformat() if value is not None else None


def _decimal(value: Decimal) -> str:
    return str(value)


def export_text(data: dict[str, Any]) -> str:
    """The file: JSON with sorted keys, one level of indent a step, UTF-8 as it is, a final newline."""
    return json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True, allow_nan=False) + "\n"


def export_filename(tournament: Tournament) -> str:
    return f"tournament-{tournament.starts_on.isoformat()}-{tournament.pk}.json"


class People:
    """The users the file names, by username (``"people"``: who they are, never their password)."""

    def __init__(self) -> None:
        self.users: dict[str, Any] = {}

    def __call__(self, user) -> str | None:
        if user is None:
            return None
        self.users[user.get_username()] = user
        return user.get_username()

    def rows(self) -> list[dict[str, str]]:
        return [
            {"username": name, "first_name": user.first_name, "last_name": user.last_name}
            for name, user in sorted(self.users.items())
        ]


# -- the parts the field's pairing and push carry too (matches/field/wire.py) ----------------------


def tournament_data(tournament: Tournament) -> dict[str, Any]:
    """A tournament's own settings (what its matches' rules read)."""
    return {
        "name": tournament.name,
        "club": tournament.club,
        "starts_on": tournament.starts_on.isoformat(),
        "ends_on": tournament.ends_on.isoformat(),
        "lower_handicap_limit": tournament.lower_handicap_limit,
        "upper_handicap_limit": tournament.upper_handicap_limit,
        "rules_edition": tournament.rules_edition,
        "courtesy_change": tournament.courtesy_change,
        "tack_allowance": tournament.tack_allowance,
    }


def field_data(field: Field) -> dict[str, Any]:
    return {
        "name": field.name,
        "club": field.club,
        "length": field.length,
        "width": field.width,
        "boarded": field.boarded,
    }


def match_setup(match: Match) -> dict[str, Any]:
    """When a match starts and what its rules fix (not who plays or officiates it)."""
    return {
        "starts_at": _when(match.starts_at),
        "periods": match.periods,
        "period_seconds": match.period_seconds,
        "stage": match.stage,
        "home_defends": match.home_defends,
        "home_handicap_goals": _decimal(match.home_handicap_goals),
        "away_handicap_goals": _decimal(match.away_handicap_goals),
    }


def event_data(
    seq: int, event_id: str, event_type: str, event: dict[str, Any], received_at: datetime, sent_by: str | None
) -> dict[str, Any]:
    """One event of a match's log, as the export's file, the field's pairing and its push all carry
    it (``transfer_import.event_read`` reads it back): the event as stored (``server_time`` and
    ``by`` included), when the server received it (UTC) and who sent it (a username)."""
    return {
        "seq": seq,
        "id": event_id,
        "type": event_type,
        "event": event,
        "received_at": _when(received_at),
        "sent_by": sent_by,
    }


def tournament_export(tournament: Tournament) -> dict[str, Any]:
    """The tournament as the export's document (``export_text`` writes it)."""
    person = People()
    matches = list(
        Match.objects.filter(tournament=tournament)
        .select_related("field", "home__team", "away__team", "referee", "scorer")
        .prefetch_related("umpires")
        .order_by("pk")
    )
    match_at = {m.pk: i for i, m in enumerate(matches)}
    entries = list(tournament.entries.select_related("team").order_by("pk"))
    lines = list(RosterLine.objects.filter(entry__tournament=tournament).select_related("player").order_by("number"))
    awards = list(
        Award.objects.filter(tournament=tournament).select_related("entry__team", "awarded_by").order_by("pk")
    )
    player_ids = sorted({line.player_id for line in lines} | {award.player_id for award in awards})
    players = list(Player.objects.filter(pk__in=player_ids).order_by("pk"))
    player_at = {p.pk: i for i, p in enumerate(players)}
    fields = list(Field.objects.filter(matches__tournament=tournament).distinct().order_by("pk"))
    field_at = {f.pk: i for i, f in enumerate(fields)}
    assignments = list(tournament.committee_assignments.select_related("user", "assigned_by", "revoked_by"))
    assignments.sort(key=lambda a: a.pk)
    assignment_at = {a.pk: i for i, a in enumerate(assignments)}
    audit = AuditEntry.objects.filter(Q(tournament=tournament) | Q(match__tournament=tournament)).select_related("user")

    data = {
        "format": FORMAT,
        "version": VERSION,
        "tournament": {**tournament_data(tournament), "created_at": _when(tournament.created_at)},
        "fields": [field_data(f) for f in fields],
        "players": [{"name": p.name, "handicap": p.handicap} for p in players],
        "entries": [
            {
                "team": {"name": e.team.name, "color": e.team.color},
                "roster": [
                    {"number": line.number, "player": player_at[line.player_id], "handicap": line.handicap}
                    for line in lines
                    if line.entry_id == e.pk
                ],
            }
            for e in entries
        ],
        "committee": [
            {
                "user": person(a.user),
                "assigned_at": _when(a.assigned_at),
                "assigned_by": person(a.assigned_by),
                "revoked_at": _when(a.revoked_at),
                "revoked_by": person(a.revoked_by),
            }
            for a in assignments
        ],
        "matches": [match_export(m, field_at, person) for m in matches],
        "awards": [
            {
                "match": match_at[a.match_id] if a.match_id is not None else None,
                "kind": a.kind,
                "player": player_at[a.player_id],
                "team": a.entry.team.name if a.entry_id is not None else None,
                "horse": a.horse,
                "owner": a.owner,
                "breeder": a.breeder,
                "from_mount": a.from_mount,
                "awarded_at": _when(a.awarded_at),
                "awarded_by": person(a.awarded_by),
            }
            for a in awards
        ],
        "audit": [
            {
                "at": _when(entry.at),
                "user": person(entry.user),
                "action": entry.action,
                "match": match_at.get(entry.match_id) if entry.match_id is not None else None,
                "details": entry.details,
                "scope": entry.scope,
                "assignment": assignment_at.get(entry.assignment_id) if entry.assignment_id is not None else None,
            }
            for entry in audit.order_by("pk")
        ],
    }
    data["people"] = person.rows()
    return data


def match_export(match: Match, field_at: dict[int, int], person: People) -> dict[str, Any]:
    """One match of the file: its setup, officials, log, signatures and confirmations (``field_at``:
    the place of each field in the file's ``fields``; ``person`` collects the users it names)."""
    events = list(match.events.select_related("sent_by").order_by("seq"))
    last_seq, digest = log_hash(match.pk)
    return {
        "field": field_at[match.field_id],
        "home": match.home.team.name,
        "away": match.away.team.name,
        **match_setup(match),
        "umpires": sorted(person(u) or "" for u in match.umpires.all()),
        "referee": person(match.referee),
        "scorer": person(match.scorer),
        "status": match.status,
        "last_seq": last_seq,
        "log_hash": digest,
        "events": [
            event_data(row.seq, row.client_id, row.type, row.payload, row.received_at, person(row.sent_by))
            for row in events
        ],
        "signatures": [
            {
                "official": person(s.official),
                "role": s.role,
                "last_seq": s.last_seq,
                "log_hash": s.log_hash,
                "signed_at": _when(s.signed_at),
            }
            for s in match.scoresheet_signatures.select_related("official").order_by("pk")
        ],
        "confirmations": [
            {
                "period": c.period,
                "umpire": person(c.umpire),
                "home": _decimal(c.home),
                "away": _decimal(c.away),
                "last_seq": c.last_seq,
                "at": _when(c.at),
            }
            for c in match.score_confirmations.select_related("umpire").order_by("pk")
        ],
    }


# -- reading ----------------------------------------------------------------------------------------


# Reading an export back in (``read_export``, ``tournament_import``): ``matches/transfer_import.py``.
