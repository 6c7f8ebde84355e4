"""The audit trail in words, in the reader's language.

An audit entry's ``details`` are stored as plain JSON (keys and codes, never sentences), so that an
entry reads in whichever language the committee member uses when they open it. This module turns
those keys and codes into labelled lines: a team code becomes the team's name, a lot becomes the
sentence the shootout screen shows, a changed form field becomes the field's name. The voids of the
match log, shown in the same trail (``selectors.audit_trail``), read the same way: the
event voided by its position and type in words, and the reason.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.core.exceptions import FieldDoesNotExist
from django.utils.translation import gettext as _

from matches.models import Entry, Field, Match, MatchEvent, Player, RosterLine, Team, Tournament

from .forms import ShootoutLotForm
from .models import AuditEntry, Webhook
from .reports import event_label, reason_label
from .selectors import VoidRecord
from .services import Lot

_MODELS = (Match, Tournament, Field, Team, Player, Entry, RosterLine, Webhook)


def team_name(match: Match, team: str | None) -> str:
    return {"home": match.home.team.name, "away": match.away.team.name}.get(team or "", team or "")


def lot_text(match: Match, lot: Lot | None) -> str:
    """Rule 14.d's lot in a sentence: who called, how the coin fell, who hits first, and how."""
    if lot is None:
        return ""
    calls = dict(ShootoutLotForm.CALLS)
    text = _("Lot: %(caller)s called %(call)s, the coin fell %(result)s — %(winner)s hit first.") % {
        "caller": team_name(match, lot.caller),
        "call": calls.get(lot.call, lot.call),
        "result": calls.get(lot.result, lot.result),
        "winner": team_name(match, lot.winner),
    }
    how = _("(drawn by the server)") if lot.method == "draw" else _("(tossed at the field)")
    return f"{text} {how}"


def event_type_label(kind: str | None) -> str:
    """An event type in words, the committee's decisions included (the report's labels cover the
    game's events; a void can take back either kind)."""
    committee = {
        "suspend": _("suspension of the game"),
        "resume": _("resumption of the game"),
        "abandon": _("abandonment of the game"),
        "overtime": _("overtime order"),
        "shootout_start": _("start of the shootout"),
        "forfeit": _("forfeit"),
        "void": _("void"),
    }
    return committee[kind] if kind in committee else event_label(kind)


def voided_event_text(event: MatchEvent | None, target_id: str) -> str:
    """ "#12 goal": the voided event by its position in the log and its type in words."""
    if event is None:
        return _("an event not in the log (%(id)s)") % {"id": target_id}
    return _("#%(seq)s %(event)s") % {"seq": event.seq, "event": event_type_label(event.type)}


def void_lines(row: VoidRecord) -> list[tuple[str, str]]:
    """A void in the trail: which event it took back (and the team that event was for) and why."""
    lines = [(_("voided event"), voided_event_text(row.target, row.target_id))]
    team = row.target.payload.get("team") if row.target is not None else None
    if team in ("home", "away"):
        lines.append((_("team"), team_name(row.match, team)))
    lines.append((_("reason"), row.reason or _("(no reason given)")))
    return lines


def award_label(kind: str) -> str:
    from matches.awards.models import Award

    return str(dict(Award.Kind.choices).get(kind, kind))


def signer_role_label(role: str) -> str:
    from matches.scoresheet.models import Signature

    return str(dict(Signature.Role.choices).get(role, role))


def field_label(name: str) -> str:
    """A form field's name as the forms show it: the model field's verbose name where one has it."""
    for model in _MODELS:
        try:
            return str(model._meta.get_field(name).verbose_name)
        except FieldDoesNotExist:
            continue
    return name.replace("_", " ")


def _text(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return ", ".join(_text(v) for v in value if v not in (None, ""))
    return "" if value is None else str(value)


def audit_lines(entry: AuditEntry | VoidRecord) -> list[tuple[str, str]]:
    """``(label, text)`` for each detail of the entry worth showing."""
    if isinstance(entry, VoidRecord):
        return void_lines(entry)
    details: dict[str, Any] = dict(entry.details or {})
    match = entry.match
    if entry.action == AuditEntry.Action.SHOOTOUT_LOT_CORRECTED and match is not None:
        try:
            return [
                (_("lot before"), lot_text(match, Lot.from_details(details["before"]))),
                (_("corrected lot"), lot_text(match, Lot.from_details(details["lot"]))),
                (_("reason"), _text(details.get("reason"))),
            ]
        except KeyError:
            pass
    if entry.action == AuditEntry.Action.SHOOTOUT_LOT and match is not None:
        try:
            return [(_("lot"), lot_text(match, Lot.from_details(details)))]
        except KeyError:
            pass  # an entry of an older shape: show its details as they are
    labels = {
        "name": _("name"),
        "seq": _("log position"),
        "last_seq": _("log position"),
        "umpires": _("umpires"),
        "referee": _("referee"),
        "scorer": _("scorer"),
        "evidence": _("evidence"),
        "suggested": _("suggested"),
        "member": _("committee member"),
        "assignment": _("assignment"),
        "username": _("login"),
        "address": _("address"),
        "failures": _("failed attempts"),  # login unlocks
        # awards and the scoresheet (matches.awards, matches.scoresheet)
        "player": _("player"),
        "team": _("team"),
        "horse": _("horse"),
        "owner": _("owner"),
        "breeder": _("breeder"),
        "ridden_in_match": _("ridden in the match"),
        "role": _("role"),
        "log_hash": _("log hash (SHA-256)"),
        # a tournament's export (matches.transfer)
        "format": _("file format"),
        "version": _("format version"),
        "bytes": _("size (bytes)"),
    }
    lines: list[tuple[str, str]] = []
    for key, value in details.items():
        if key == "id" or value in (None, "", [], {}):
            continue
        if key == "event":
            if value.get("reason"):
                lines.append((_("reason"), reason_label(value["reason"])))
            if value.get("team"):
                lines.append((_("team"), team_name(match, value["team"])))
        elif key == "lot" and match is not None:
            lines.append((_("lot"), lot_text(match, Lot.from_details(value))))
        elif key == "award":
            lines.append((_("award"), award_label(value)))
        elif key == "before" and isinstance(value, dict):
            lines.append((_("before"), _text([value.get("player"), value.get("horse")])))
        elif key == "role" and entry.action == AuditEntry.Action.SCORESHEET_SIGN:
            lines.append((labels[key], signer_role_label(value)))
        elif key == "ridden_in_match":
            lines.append((labels[key], _("yes") if value else _("no")))
        elif key == "changed":
            lines.append((_("changed"), ", ".join(field_label(name) for name in value)))
        elif key in ("home", "away"):
            lines.append((team_name(match, key), _text(value)))
        elif key == "suggested":
            lines.append((labels[key], " – ".join(_text(v) for v in value)))
        else:
            lines.append((labels.get(key, key.replace("_", " ")), _text(value)))
    return lines


def with_lines(entries: Iterable[AuditEntry | VoidRecord]) -> list[AuditEntry | VoidRecord]:
    """The entries, each with ``lines`` for the template."""
    out = []
    for entry in entries:
        entry.lines = audit_lines(entry)
        out.append(entry)
    return out
