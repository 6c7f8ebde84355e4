"""The committee's writes: every one is recorded in the audit trail, in the same transaction.

Setting a tournament up (tournaments, fields, entries, rosters, matches, officials, handicap goals)
saves validated forms; running a match (suspend, resume, abandon, overtime, shootout, forfeit) sends
the committee's events through ``matches.services.match_event_log``, the one code path of the event
log, so the rules engine decides exactly as it does for the API.

Vocabulary: the *lot* decides which team hits first in a shootout (Rule 14.d): one team's captain
calls heads or tails, and the coin is either drawn here (``secrets``) or tossed at the field and
entered; both are recorded with who called.
"""
from __future__ import annotations

import secrets
import uuid
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.forms import ModelForm
from django.utils.translation import gettext_lazy as _

from .models import Match, Tournament
from .models_committee import AuditEntry
from .services import LogResult, ServiceRejection, match_event_log

Action = AuditEntry.Action

# Committee events and the audit action each one is recorded as.
EVENT_ACTIONS = {
    "suspend": Action.SUSPEND,
    "resume": Action.RESUME,
    "abandon": Action.ABANDON,
    "overtime": Action.OVERTIME,
    "shootout_start": Action.SHOOTOUT_START,
    "shootout_attempt": Action.SHOOTOUT_ATTEMPT,
    "forfeit": Action.FORFEIT,
}

MATCH_STARTED = ServiceRejection(
    "match_started", _("The match has started: its handicap goals can no longer change.")
)


def audit_record(*, user, action: str, match: Match | None = None, tournament=None,
                 details: dict[str, Any] | None = None) -> AuditEntry:
    if match is not None and tournament is None:
        tournament = match.tournament
    return AuditEntry.objects.create(
        user=user if getattr(user, "is_authenticated", False) else None,
        action=action, match=match, tournament=tournament, details=details or {},
    )


def _describe(instance) -> dict[str, Any]:
    return {"id": instance.pk, "name": str(instance)}


@transaction.atomic
def committee_form_save(*, form: ModelForm, user, action: str, match: Match | None = None, tournament=None):
    """Save a validated model form and record who changed what."""
    instance = form.save()
    if isinstance(instance, Match):
        match = instance
    elif isinstance(instance, Tournament):
        tournament = instance
    details = {**_describe(instance), "changed": list(form.changed_data)}
    audit_record(user=user, action=action, match=match, tournament=tournament, details=details)
    return instance


@transaction.atomic
def committee_delete(*, instance, user, action: str, tournament=None) -> None:
    details = _describe(instance)
    instance.delete()
    audit_record(user=user, action=action, tournament=tournament, details=details)


@transaction.atomic
def match_officials_assign(*, match: Match, umpires, referee, scorer, user) -> Match:
    match.umpires.set(umpires)
    match.referee, match.scorer = referee, scorer
    match.save(update_fields=["referee", "scorer"])
    audit_record(user=user, action=Action.OFFICIALS, match=match, details={
        "umpires": [u.username for u in umpires],
        "referee": referee.username if referee else None,
        "scorer": scorer.username if scorer else None,
    })
    return match


@transaction.atomic
def match_handicap_goals_set(*, match: Match, home: Decimal, away: Decimal, user) -> ServiceRejection | None:
    """Handicap goals are the score at the first throw-in: they are fixed once the match starts."""
    match = Match.objects.select_for_update(of=("self",)).get(pk=match.pk)
    if match.last_seq > 0:
        return MATCH_STARTED
    suggested = match.suggested_handicap_goals()
    match.home_handicap_goals, match.away_handicap_goals = home, away
    match.save(update_fields=["home_handicap_goals", "away_handicap_goals"])
    audit_record(user=user, action=Action.HANDICAP_GOALS, match=match, details={
        "home": str(home), "away": str(away), "suggested": [str(suggested[0]), str(suggested[1])],
    })
    return None


@transaction.atomic
def committee_event_send(*, match: Match, event: dict[str, Any], user, now: float | None = None,
                         audit_details: dict[str, Any] | None = None) -> LogResult:
    """Send one committee event through the event log; record it in the audit trail if accepted.

    ``event["id"]`` should be the id the form was rendered with, so that a double submit records
    the event once (the log answers a retry with the first answer, ``duplicate=True``)."""
    event = {**event, "id": str(event.get("id") or uuid.uuid4())}
    result = match_event_log(match_id=match.pk, event=event, user=user, now=now)
    if result.accepted and not result.duplicate:
        action = EVENT_ACTIONS.get(event["type"], event["type"])
        audit_record(user=user, action=action, match=match,
                     details={"seq": result.seq, "event": result.event, **(audit_details or {})})
    return result


@dataclass(frozen=True)
class Lot:
    caller: str  # "home" | "away": whose captain called
    call: str  # "heads" | "tails"
    result: str  # how the coin fell
    method: str  # "draw" (drawn by the server) | "entered" (tossed at the field)
    winner: str  # the team that won the lot: it hits first

    @classmethod
    def from_details(cls, details: dict[str, Any]) -> "Lot":
        return cls(**{k: details[k] for k in ("caller", "call", "result", "method", "winner")})


def _other(team: str) -> str:
    return "away" if team == "home" else "home"


@transaction.atomic
def shootout_lot_draw(*, match: Match, user, caller: str, call: str, result: str | None = None) -> Lot:
    """Rule 14.d: "The team to hit first shall be decided by lot." Draw it here (unpredictably)
    unless the result of a toss at the field is entered; record both ways in the audit trail."""
    method = "entered" if result else "draw"
    result = result or secrets.choice(("heads", "tails"))
    lot = Lot(caller=caller, call=call, result=result, method=method, winner=caller if call == result else _other(caller))
    audit_record(user=user, action=Action.SHOOTOUT_LOT, match=match, details=lot.__dict__)
    return lot


def shootout_lot(match: Match) -> Lot | None:
    """The latest lot drawn for this match, if any."""
    entry = match.audit_entries.filter(action=Action.SHOOTOUT_LOT).order_by("-at", "-pk").first()
    return Lot.from_details(entry.details) if entry else None
