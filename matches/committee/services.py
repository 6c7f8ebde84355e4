"""The committee's writes: every one is recorded in the audit trail, in the same transaction.

Setting a tournament up (tournaments, fields, entries, rosters, matches, officials, handicap goals)
saves validated forms; running a match (suspend, resume, abandon, overtime, shootout, forfeit) sends
the committee's events through ``matches.services.match_event_log``, the one code path of the event
log, so the rules engine decides exactly as it does for the API.

Vocabulary: the *lot* decides which team hits first in a shootout (Rule 14.d): one team's captain
calls heads or tails, and the coin is either drawn here (``secrets``) or tossed at the field and
entered; both are recorded with who called. It is drawn once; changing it afterwards is a
*correction* (with a reason, the lot before and after in the audit trail), possible only until the
shootout starts.
"""

from __future__ import annotations

import secrets
import uuid
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.forms import ModelForm
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from matches.models import CommitteeAssignment, Match, Tournament
from matches.permissions import can_log_event, committee_scope, is_committee, match_role
from matches.services import LogResult, ServiceRejection, match_event_log

from .models import AuditEntry

Action = AuditEntry.Action
Scope = AuditEntry.Scope

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

MATCH_STARTED = ServiceRejection("match_started", _("The match has started: its handicap goals can no longer change."))


NOT_THE_COMMITTEE = ServiceRejection(
    "forbidden",
    _(
        "You may not send this event: you are neither the committee of this match's tournament nor "
        "one of its officials."
    ),
)


def acting_scope(
    user, *, tournament: Tournament | None = None, match: Match | None = None
) -> tuple[str, CommitteeAssignment | None]:
    """Under what authority ``user`` acts on the tournament (or the match): their assignment to it,
    else the federation's role, else (an action of no one tournament, such as a shared field) their
    membership of the committee, else their role as an official of the match."""
    if not getattr(user, "is_authenticated", False):
        return "", None
    scope = committee_scope(user, tournament if tournament is not None else getattr(match, "tournament_id", None))
    if scope is not None:
        return (Scope.FEDERATION, None) if scope.federation else (Scope.ASSIGNMENT, scope.assignment)
    if match is not None and match_role(user, match) in ("scorer", "umpire"):
        return Scope.OFFICIAL, None
    if tournament is None and is_committee(user):
        return Scope.COMMITTEE, None
    return "", None


def audit_record(
    *,
    user,
    action: str,
    match: Match | None = None,
    tournament=None,
    details: dict[str, Any] | None = None,
    scope: str | None = None,
) -> AuditEntry:
    """Record one action, with the authority it was taken under (``acting_scope``; ``scope`` only
    for the server's own shell, where no user is logged in: ``manage.py create_official``)."""
    if match is not None and tournament is None:
        tournament = match.tournament
    acting, assignment = acting_scope(user, tournament=tournament, match=match)
    return AuditEntry.objects.create(
        user=user if getattr(user, "is_authenticated", False) else None,
        action=action,
        match=match,
        tournament=tournament,
        details=details or {},
        scope=scope if scope is not None else acting,
        assignment=assignment,
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
def tournament_create(*, form: ModelForm, user) -> Tournament:
    """Save a new tournament and assign its creator to its committee, in one transaction: the audit
    entry of the creation names that assignment."""
    tournament = form.save()
    if getattr(user, "is_authenticated", False):
        committee_assign(member=user, tournament=tournament, by=user, record=False)
    details = {**_describe(tournament), "changed": list(form.changed_data)}
    audit_record(user=user, action=Action.TOURNAMENT_CREATE, tournament=tournament, details=details)
    return tournament


@transaction.atomic
def committee_assign(*, member, tournament: Tournament, by=None, record: bool = True) -> CommitteeAssignment:
    """Assign ``member`` to the committee of ``tournament`` (an active assignment is kept as it is).
    ``by``: who assigns (``None``: the server's shell). Recorded in the audit trail unless the
    assignment is part of a tournament's creation, which records itself."""
    current = CommitteeAssignment.objects.active().filter(user=member, tournament=tournament).first()
    if current is not None:
        return current
    by = by if getattr(by, "is_authenticated", False) else None
    assignment = CommitteeAssignment.objects.create(user=member, tournament=tournament, assigned_by=by)
    if record:
        audit_record(
            user=by,
            action=Action.COMMITTEE_ASSIGN,
            tournament=tournament,
            details={"member": member.get_username(), "assignment": assignment.pk},
            scope=None if by is not None else Scope.FEDERATION,
        )
    return assignment


@transaction.atomic
def committee_revoke(*, assignment: CommitteeAssignment, by=None) -> CommitteeAssignment:
    """End an assignment (kept, never deleted: the audit trail names it)."""
    assignment = CommitteeAssignment.objects.select_for_update().get(pk=assignment.pk)
    if assignment.revoked_at is not None:
        return assignment
    by = by if getattr(by, "is_authenticated", False) else None
    assignment.revoked_at, assignment.revoked_by = timezone.now(), by
    assignment.save(update_fields=["revoked_at", "revoked_by"])
    audit_record(
        user=by,
        action=Action.COMMITTEE_REVOKE,
        tournament=assignment.tournament,
        details={"member": assignment.user.get_username(), "assignment": assignment.pk},
        scope=None if by is not None else Scope.FEDERATION,
    )
    return assignment


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
    audit_record(
        user=user,
        action=Action.OFFICIALS,
        match=match,
        details={
            "umpires": [u.username for u in umpires],
            "referee": referee.username if referee else None,
            "scorer": scorer.username if scorer else None,
        },
    )
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
    audit_record(
        user=user,
        action=Action.HANDICAP_GOALS,
        match=match,
        details={"home": str(home), "away": str(away), "suggested": [str(suggested[0]), str(suggested[1])]},
    )
    return None


@transaction.atomic
def committee_event_send(
    *, match: Match, event: dict[str, Any], user, now: float | None = None, audit_details: dict[str, Any] | None = None
) -> LogResult:
    """Send one committee event through the event log; record it in the audit trail if accepted.

    ``event["id"]`` should be the id the form was rendered with, so that a double submit records
    the event once (the log answers a retry with the first answer, ``duplicate=True``). Refused
    (``forbidden``) to anyone who may not log it on this match: the committee of another tournament
    included (the views check first; this is the service's own guard)."""
    event = {**event, "id": str(event.get("id") or uuid.uuid4())}
    if not can_log_event(user, match, event.get("type")):
        return LogResult(accepted=False, state=match.state_cache, last_seq=match.last_seq, error=NOT_THE_COMMITTEE)
    result = match_event_log(match_id=match.pk, event=event, user=user, now=now)
    if result.accepted and not result.duplicate:
        action = EVENT_ACTIONS.get(event["type"], event["type"])
        audit_record(
            user=user,
            action=action,
            match=match,
            details={"seq": result.seq, "event": result.event, **(audit_details or {})},
        )
    return result


@dataclass(frozen=True)
class Lot:
    caller: str  # "home" | "away": whose captain called
    call: str  # "heads" | "tails"
    result: str  # how the coin fell
    method: str  # "draw" (drawn by the server) | "entered" (tossed at the field)
    winner: str  # the team that won the lot: it hits first

    @classmethod
    def from_details(cls, details: dict[str, Any]) -> Lot:
        return cls(**{k: details[k] for k in ("caller", "call", "result", "method", "winner")})


def _other(team: str) -> str:
    return "away" if team == "home" else "home"


LOT_DRAWN = ServiceRejection(
    "lot_drawn",
    _("The lot has already been drawn: it is drawn once. To change it, correct it and say why."),
    rule="14.d",
)
LOT_NOT_DRAWN = ServiceRejection(
    "lot_not_drawn", _("No lot has been drawn yet: there is nothing to correct."), rule="14.d"
)
LOT_UNCHANGED = ServiceRejection(
    "lot_unchanged", _("This is the lot already recorded: nothing to correct."), rule="14.d"
)
SHOOTOUT_STARTED = ServiceRejection(
    "shootout_started", _("The shootout has started: its lot can no longer be drawn or corrected."), rule="14.d"
)
LOT_ACTIONS = (Action.SHOOTOUT_LOT, Action.SHOOTOUT_LOT_CORRECTED)


def _lot_gate(match: Match) -> tuple[Match, AuditEntry | None, ServiceRejection | None]:
    """Lock the match, then read its lot and whether the shootout has started.

    The lock is the event log's (``match_event_log`` takes it too), so a draw, a correction and a
    ``shootout_start`` are serialised: two committee members pressing "Decide the lot" at once get
    one lot, and no correction slips in after the start. Any ``shootout_start`` in the log closes
    the lot, even one voided later: the teams have seen who hits first."""
    match = Match.objects.select_for_update(of=("self",)).get(pk=match.pk)
    if shootout_started(match):
        return match, None, SHOOTOUT_STARTED
    return match, _lot_entry(match), None


def shootout_started(match: Match) -> bool:
    """Whether a ``shootout_start`` was ever logged: from then on the lot is closed."""
    return match.events.filter(type="shootout_start").exists()


def _lot_of(caller: str, call: str, result: str, method: str) -> Lot:
    return Lot(
        caller=caller, call=call, result=result, method=method, winner=caller if call == result else _other(caller)
    )


@transaction.atomic
def shootout_lot_draw(
    *, match: Match, user, caller: str, call: str, result: str | None = None
) -> Lot | ServiceRejection:
    """Rule 14.d: "The team to hit first shall be decided by lot." Draw it here (unpredictably)
    unless the result of a toss at the field is entered; record both ways in the audit trail.

    The lot is drawn once: a second draw would let the committee toss until the coin falls its
    way, so it is refused (``LOT_DRAWN``) and changing a lot is ``shootout_lot_correct``, with a
    reason."""
    match, entry, refusal = _lot_gate(match)
    if refusal is not None:
        return refusal
    if entry is not None:
        return LOT_DRAWN
    method = "entered" if result else "draw"
    lot = _lot_of(caller, call, result or secrets.choice(("heads", "tails")), method)
    audit_record(user=user, action=Action.SHOOTOUT_LOT, match=match, details=lot.__dict__)
    return lot


@transaction.atomic
def shootout_lot_correct(
    *, match: Match, user, caller: str, call: str, result: str, reason: str
) -> Lot | ServiceRejection:
    """Correct a lot recorded wrongly (the wrong captain, call or fall of the coin entered): an
    explicit committee decision with a reason, recorded with the lot before and after, and only
    until the shootout starts (the lot decides who hits first, Rule 14.d: once the shootout has
    started on it, it has been used).

    The coin is never drawn again here: a correction states what happened. A result unchanged
    keeps the lot's method (a server draw stays one); a new result is a toss made at the field."""
    reason = reason.strip()
    if not reason:
        raise ValueError("a lot correction needs a reason")  # the form requires one
    match, entry, refusal = _lot_gate(match)
    if refusal is not None:
        return refusal
    if entry is None:
        return LOT_NOT_DRAWN
    before = _lot_from(entry)
    lot = _lot_of(caller, call, result, before.method if result == before.result else "entered")
    if lot == before:
        return LOT_UNCHANGED
    audit_record(
        user=user,
        action=Action.SHOOTOUT_LOT_CORRECTED,
        match=match,
        details={"before": before.__dict__, "lot": lot.__dict__, "reason": reason},
    )
    return lot


def _lot_entry(match: Match) -> AuditEntry | None:
    """The audit entry of the lot in force: the draw, or its latest correction. By insertion order
    (the trail is append-only and these writes hold the match lock), not by wall time, which a
    machine's clock stepping back could reorder."""
    return match.audit_entries.filter(action__in=LOT_ACTIONS).order_by("-pk").first()


def _lot_from(entry: AuditEntry) -> Lot:
    details = entry.details
    return Lot.from_details(details["lot"] if entry.action == Action.SHOOTOUT_LOT_CORRECTED else details)


def shootout_lot(match: Match) -> Lot | None:
    """The lot in force for this match, if one was drawn: the draw, or its latest correction."""
    entry = _lot_entry(match)
    return _lot_from(entry) if entry else None


def shootout_lot_correction(match: Match) -> AuditEntry | None:
    """The latest correction of the lot, when the lot in force is a corrected one (its details
    hold the lot before, the lot after and the reason)."""
    entry = _lot_entry(match)
    return entry if entry is not None and entry.action == Action.SHOOTOUT_LOT_CORRECTED else None
