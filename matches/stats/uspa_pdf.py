"""The USPA score sheet as a PDF (reportlab, like the report's): the data of
``uspa.uspa_sheet_data`` on a landscape A4 page, the letters of the goals and the penalty
hits drawn circled where the form circles them."""

from __future__ import annotations

import io
from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _

from .labels import TEAMS


def uspa_sheet_pdf(sheet: dict[str, Any], lang: str | None = None) -> bytes:
    from xml.sax.saxutils import escape

    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4, landscape
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.lib.units import mm
    from reportlab.platypus import Flowable, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

    class Marks(Flowable):
        """Letters (or penalty numbers) in a row, each circled when the form circles it."""

        size = 8.0

        def __init__(self, marks: list[dict[str, Any]], key: str) -> None:
            super().__init__()
            self.marks = [(str(m[key]), bool(m["circled"])) for m in marks]

        def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
            width = sum(self.size * 0.62 * max(1, len(t)) + 6 for t, _c in self.marks)
            return width, self.size + 4

        def draw(self) -> None:
            c = self.canv
            x = 0.0
            c.setFont("Helvetica", self.size)
            for text, circled in self.marks:
                w = self.size * 0.62 * max(1, len(text))
                c.drawString(x + 1, 2, text)
                if circled:
                    c.ellipse(x - 1, 0, x + w + 3, self.size + 3)
                x += w + 6

    lang = lang or settings.LANGUAGE_CODE
    with translation.override(lang):
        styles = getSampleStyleSheet()
        story: list[Any] = []

        def para(text: str, style: str = "BodyText") -> Paragraph:
            return Paragraph(escape(str(text)), styles[style])

        columns = sheet["columns"]
        story.append(para(_("USPA score sheet"), "Title"))
        story.append(
            para(
                _("Event: %(event)s · Host club: %(club)s · Date: %(date)s · Field: %(field)s")
                % {
                    "event": sheet["event"],
                    "club": sheet["host_club"] or "—",
                    "date": sheet["date"][:10],
                    "field": sheet["field"],
                }
            )
        )
        o = sheet["officials"]
        story.append(
            para(
                _("Umpires: %(names)s") % {"names": ", ".join(n for n in o["umpires"] if n) or "—"}
                + " · "
                + _("Referee: %(name)s") % {"name": o["referee"] or "—"}
            )
        )
        for team in TEAMS:
            t = sheet["teams"][team]
            story.append(Spacer(1, 3 * mm))
            story.append(
                para(
                    _("%(team)s (jersey %(color)s) · team handicap %(handicap)s · handicap goals %(goals)s")
                    % {
                        "team": t["name"],
                        "color": t["color"] or "—",
                        "handicap": t["handicap"],
                        "goals": t["handicap_goals"],
                    },
                    "Heading3",
                )
            )
            header = [_("Position"), _("Player"), _("Handicap")] + [c["label"] for c in columns]
            rows: list[list[Any]] = [header]
            for p in t["players"]:
                rows.append(
                    [p["number"], p["name"] or "", p["handicap"] if p["handicap"] is not None else ""]
                    + [Marks(marks, "letter") for marks in p["cells"]]
                )
            rows.append(["", _("Team (no player's goal)"), ""] + [Marks(marks, "letter") for marks in t["team_cells"]])
            rows.append(["", _("Goals"), ""] + t["goals_by_column"])
            rows.append(["", _("Knock-ins (missed shots)"), ""] + t["knock_ins"])
            rows.append(["", _("Penalty hits"), ""] + [Marks(hits, "label") for hits in t["penalties"]])
            table = Table(
                rows, repeatRows=1, hAlign="LEFT", colWidths=[18 * mm, 55 * mm, 18 * mm] + [None] * len(columns)
            )
            table.setStyle(
                TableStyle(
                    [
                        ("FONT", (0, 0), (-1, 0), "Helvetica-Bold", 8),
                        ("FONT", (0, 1), (-1, -1), "Helvetica", 8),
                        ("GRID", (0, 0), (-1, -1), 0.25, colors.grey),
                        ("BACKGROUND", (0, 0), (-1, 0), colors.whitesmoke),
                        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                    ]
                )
            )
            story.append(table)
            story.append(para(_("Total: %(total)s") % {"total": t["total"]}))
        story.append(Spacer(1, 3 * mm))
        story.append(
            para(
                _(
                    "Goals are lettered in the order they were scored in the match; a circle marks a goal from a "
                    "penalty, or a penalty hit that was converted. Built from the match log at position %(seq)s."
                )
                % {"seq": sheet["last_seq"]},
                "Italic",
            )
        )
        buffer = io.BytesIO()
        doc = SimpleDocTemplate(
            buffer,
            pagesize=landscape(A4),
            title=_("USPA score sheet"),
            leftMargin=12 * mm,
            rightMargin=12 * mm,
            topMargin=12 * mm,
            bottomMargin=12 * mm,
        )
        doc.build(story)
        return buffer.getvalue()
