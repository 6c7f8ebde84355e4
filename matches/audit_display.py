"""The audit trail in words, in the reader's language.

An audit entry's ``details`` are stored as plain JSON (keys and codes, never sentences), so that an
entry reads in whichever language the committee member uses when they open it. This module turns
those keys and codes into labelled lines: a team code becomes the team's name, a lot becomes the
sentence the shootout screen shows, a changed form field becomes the field's name.
"""
from __future__ import annotations

from typing import Any, Iterable

from django.core.exceptions import FieldDoesNotExist
from django.utils.translation import gettext as _

from .forms_committee import ShootoutLotForm
from .models import Entry, Field, Match, Player, RosterLine, Team, Tournament
from .models_committee import AuditEntry, Webhook
from .reports import reason_label
from .services_committee import Lot

_MODELS = (Match, Tournament, Field, Team, Player, Entry, RosterLine, Webhook)


def team_name(match: Match, team: str | None) -> str:
    return {"home": match.home.team.name, "away": match.away.team.name}.get(team or "", team or "")


def lot_text(match: Match, lot: Lot | None) -> str:
    """Rule 14.d's lot in a sentence: who called, how the coin fell, who hits first, and how."""
    if lot is None:
        return ""
    calls = dict(ShootoutLotForm.CALLS)
    text = _("Lot: %(caller)s called %(call)s, the coin fell %(result)s — %(winner)s hit first.") % {
        "caller": team_name(match, lot.caller), "call": calls.get(lot.call, lot.call),
        "result": calls.get(lot.result, lot.result), "winner": team_name(match, lot.winner)}
    how = _("(drawn by the server)") if lot.method == "draw" else _("(tossed at the field)")
    return f"{text} {how}"


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


def audit_lines(entry: AuditEntry) -> list[tuple[str, str]]:
    """``(label, text)`` for each detail of the entry worth showing."""
    details: dict[str, Any] = dict(entry.details or {})
    match = entry.match
    if entry.action == AuditEntry.Action.SHOOTOUT_LOT and match is not None:
        try:
            return [(_("lot"), lot_text(match, Lot.from_details(details)))]
        except KeyError:
            pass  # an entry of an older shape: show its details as they are
    labels = {
        "name": _("name"), "seq": _("log position"), "last_seq": _("log position"), "umpires": _("umpires"),
        "referee": _("referee"), "scorer": _("scorer"), "evidence": _("evidence"), "suggested": _("suggested"),
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
        elif key == "changed":
            lines.append((_("changed"), ", ".join(field_label(name) for name in value)))
        elif key in ("home", "away"):
            lines.append((team_name(match, key), _text(value)))
        elif key == "suggested":
            lines.append((labels[key], " – ".join(_text(v) for v in value)))
        else:
            lines.append((labels.get(key, key.replace("_", " ")), _text(value)))
    return lines


def with_lines(entries: Iterable[AuditEntry]) -> list[AuditEntry]:
    """The entries, each with ``lines`` for the template."""
    out = []
    for entry in entries:
        entry.lines = audit_lines(entry)
        out.append(entry)
    return out
