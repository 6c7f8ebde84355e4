"""Results: the official report (HTML and PDF, rebuilt on request), the log's exports (CSV and the
match-log JSON that ``manage.py replay`` reads), a tournament's standings and its bracket, and the
whole tournament's export (``matches.transfer``)."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from matches import transfer
from matches.field.heard import heard_sentence
from matches.models import Match

from .. import reports, standings
from ..models import AuditEntry
from ..services import audit_record
from ..tasks import match_report_build
from .common import committee_match, committee_required, committee_tournament, language

Action = AuditEntry.Action


# -- reports -----------------------------------------------------------------------------------------


def _report_data(match: Match) -> tuple[dict, object | None]:
    """The stored report of the current log position, or the data built now (provisional)."""
    stored = reports.latest_report(match)
    if stored is not None and stored.last_seq == match.last_seq:
        return stored.data, stored
    return reports.match_report_data(match), None


@committee_required
def report_html(request: HttpRequest, pk: int) -> HttpResponse:
    match = committee_match(request, pk)
    data, stored = _report_data(match)
    return render(
        request, "committee/report.html", {"match": match, "data": data, "stored": stored, "view": ReportView(data)}
    )


@committee_required
def report_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    match = committee_match(request, pk)
    data, stored = _report_data(match)
    with translation.override(language()):
        note = heard_sentence(match)  # (a match kept at the field: the stored PDF does not say it)
    if stored is not None and stored.pdf and language() == settings.LANGUAGE_CODE and note is None:
        pdf = bytes(stored.pdf)
    else:
        pdf = reports.match_report_pdf(data, language(), note)
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="match-{match.pk}-report.pdf"'
    return response


@committee_required
def log_csv(request: HttpRequest, pk: int) -> HttpResponse:
    match = committee_match(request, pk)
    response = HttpResponse(reports.match_log_csv(match), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="match-{match.pk}-log.csv"'
    return response


@committee_required
def log_json(request: HttpRequest, pk: int) -> HttpResponse:
    match = committee_match(request, pk)
    response = JsonResponse(reports.match_log_export(match), json_dumps_params={"ensure_ascii": False, "indent": 1})
    response["Content-Disposition"] = f'attachment; filename="match-{match.pk}-log.json"'
    return response


@committee_required
@require_POST
def tournament_export(request: HttpRequest, pk: int) -> HttpResponse:
    """The tournament as one file (docs/EXPORT.md), for its committee; each download is audited
    (after the file is made: the file is the tournament as it was asked for)."""
    tournament = committee_tournament(request, pk)
    text = transfer.export_text(transfer.tournament_export(tournament))
    audit_record(
        user=request.user,
        action=Action.TOURNAMENT_EXPORT,
        tournament=tournament,
        details={"format": transfer.FORMAT, "version": transfer.VERSION, "bytes": len(text.encode("utf-8"))},
    )
    response = HttpResponse(text, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{transfer.export_filename(tournament)}"'
    return response


@committee_required
@require_POST
def report_rebuild(request: HttpRequest, pk: int) -> HttpResponse:
    match = committee_match(request, pk)
    audit_record(user=request.user, action=Action.REPORT_REBUILD, match=match, details={"last_seq": match.last_seq})
    match_report_build.delay(match.pk, match.last_seq, True)
    messages.success(request, _("The report is being rebuilt from the log."))
    return redirect("committee:report", pk=pk)


class ReportView:
    """Labels for the report template (translated in the request's language)."""

    def __init__(self, data: dict) -> None:
        self.data = data
        m = data["match"]
        self.team = {"home": m["home"]["name"], "away": m["away"]["name"]}
        self.result = reports.result_sentence(data)

    def periods(self):
        for p in self.data["periods"]:
            yield {
                **p,
                "label": reports.period_label(p["number"], p["kind"]),
                "goals": [
                    {
                        **g,
                        "team_name": self.team[g["team"]],
                        "clock_label": reports.clock_label(g["clock"]),
                        "how_label": reports.how_label(g["how"], g.get("penalty")),
                    }
                    for g in p["goals"]
                ],
            }

    def _rows(self, key: str):
        for row in self.data.get(key) or []:
            yield {
                **row,
                "period_label": reports.period_label(row.get("period") or 0, row.get("period_kind") or "regulation"),
                "clock_label": reports.clock_label(row.get("clock")),
                "team_name": self.team.get(row.get("team"), ""),
                "reason_label": reports.reason_label(row.get("reason")),
            }

    def penalties(self):
        for row in self._rows("penalties"):
            yield {
                **row,
                "converted_label": _("advantage") if row["advantage"] else reports.converted_label(row["converted"]),
                "against_name": self.team.get(row.get("against"), ""),
            }

    def cards(self):
        for row in self._rows("cards"):
            yield {**row, "color_label": reports.card_label(row.get("color"))}

    def stoppages(self):
        return self._rows("stoppages")

    def horses(self):
        return self._rows("horses")

    def substitutions(self):
        return self._rows("substitutions")

    def clock_corrections(self):
        for row in self._rows("clock_corrections"):
            yield {**row, "from_label": reports.clock_label(row["from"]), "to_label": reports.clock_label(row["to"])}

    def committee(self):
        for row in self._rows("committee"):
            yield {**row, "label": reports.committee_label(row["type"])}

    def voided(self):
        for row in self.data.get("voided") or []:
            yield {**row, "target_label": reports.event_label(row.get("target_type"))}

    def shootout(self):
        so = self.data.get("shootout")
        if not so:
            return []
        return [{**h, "team_name": self.team.get(h["team"], "")} for h in so["hits"]]


# -- standings and bracket ----------------------------------------------------------------------------


@committee_required
def tournament_standings(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = committee_tournament(request, pk)
    return render(
        request,
        "committee/standings.html",
        {
            "tournament": tournament,
            "rows": standings.tournament_standings(tournament),
            "rounds": standings.tournament_bracket(tournament),
        },
    )


@committee_required
def tournament_bracket(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = committee_tournament(request, pk)
    return render(
        request,
        "committee/bracket.html",
        {"tournament": tournament, "rounds": standings.tournament_bracket(tournament)},
    )
