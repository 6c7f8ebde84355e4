"""The official report as a PDF (reportlab): the data of ``reports.match_report_data`` in the
words of ``report_labels``, in the language asked for.
"""

from __future__ import annotations

import io
from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _, pgettext

from matches.scoresheet.pdf import pdf_metadata, scoresheet_story
from matches.stats import labels as stats_labels

from . import report_labels as labels


def match_report_pdf(data: dict[str, Any], lang: str | None = None, note: str | None = None) -> bytes:
    """The report as a PDF (A4, reportlab's built-in fonts); ``note``: a line under the result (a
    match kept at the field: when the field was last heard from, ``matches.field.heard``)."""
    from xml.sax.saxutils import escape

    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.lib.units import mm
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

    lang = lang or settings.LANGUAGE_CODE
    with translation.override(lang):
        styles = getSampleStyleSheet()
        story: list[Any] = []
        m, res = data["match"], data["result"]
        team = {t: m[t]["name"] for t in labels.TEAMS}

        def para(text: str, style: str = "BodyText") -> Paragraph:
            return Paragraph(escape(str(text)), styles[style])

        def table(header: list[str], rows: list[list[Any]]) -> None:
            if not rows:
                story.append(para(_("None."), "Italic"))
                return
            t = Table(
                [header] + [[("" if c is None else str(c)) for c in r] for r in rows], repeatRows=1, hAlign="LEFT"
            )
            t.setStyle(
                TableStyle(
                    [
                        ("FONT", (0, 0), (-1, 0), "Helvetica-Bold", 8),
                        ("FONT", (0, 1), (-1, -1), "Helvetica", 8),
                        ("GRID", (0, 0), (-1, -1), 0.25, colors.grey),
                        ("BACKGROUND", (0, 0), (-1, 0), colors.whitesmoke),
                        ("VALIGN", (0, 0), (-1, -1), "TOP"),
                    ]
                )
            )
            story.append(t)

        story.append(para(_("Official match report"), "Title"))
        story.append(para(f"{m['tournament']} — {m['field']} — {m['starts_at'][:16].replace('T', ' ')}"))
        score = res.get("score") or {}
        story.append(
            para(f"{team['home']} {score.get('home', '')} – {score.get('away', '')} {team['away']}", "Heading2")
        )
        story.append(para(labels.result_sentence(data)))
        if note:
            story.append(para(note, "Italic"))
        story.append(para(labels.clock_note(), "Italic"))
        story.append(Spacer(1, 4 * mm))

        story.append(para(_("Teams and handicaps"), "Heading3"))
        rows = []
        for t in labels.TEAMS:
            for p in m[t]["players"]:
                rows.append([team[t], p["number"], p.get("name") or "", p.get("handicap")])
            rows.append(
                [team[t], "", _("Team handicap / handicap goals"), f"{m[t]['handicap']} / {m[t]['handicap_goals']}"]
            )
        table([_("Team"), _("No."), _("Player"), _("Handicap")], rows)

        story.append(para(_("Goals by chukker"), "Heading3"))
        rows = []
        for p in data["periods"]:
            for g in p["goals"]:
                rows.append(
                    [
                        labels.period_label(p["number"], p["kind"]),
                        labels.clock_label(g["clock"]),
                        team[g["team"]],
                        g.get("player") or (f"#{g['number']}" if g.get("number") else ""),
                        labels.how_label(g["how"], g.get("penalty")),
                    ]
                )
        table([_("Chukker"), _("Time played"), _("Team"), pgettext("who scored a goal", "Scorer"), _("How")], rows)

        story.append(para(_("Knock-ins per chukker"), "Heading3"))
        table(
            [_("Chukker"), team["home"], team["away"]],
            [
                [labels.period_label(p["number"], p["kind"]), p["knock_ins"]["home"], p["knock_ins"]["away"]]
                for p in data["periods"]
            ],
        )

        box = data.get("box_score")
        if box:  # (a report stored before box scores were counted has none)
            story.append(para(_("Box score"), "Heading3"))
            table(stats_labels.line_score_header(box), stats_labels.line_score_rows(box))
            story.append(Spacer(1, 2 * mm))
            table(stats_labels.team_summary_header(), stats_labels.team_summary_rows(box))
            story.append(Spacer(1, 2 * mm))
            table(stats_labels.player_header(public=False), stats_labels.player_rows(box, public=False))

        # The box score's penalties (a Penalty 1 and the 5.b after it are two rows) and the fouls
        # played on: the rows of the page's table (reports.match_report_data).
        story.append(para(_("Penalties"), "Heading3"))
        causes = {
            "after_penalty_1": _("after Penalty 1"),
            "safety": _("safety"),
            "restart_violation": _("restart violation"),
        }
        table(
            [_("Chukker"), _("Time played"), _("Penalty"), _("To"), _("Against"), _("Converted")],
            [
                [
                    labels.period_label(p["period"], p["period_kind"]),
                    labels.clock_label(p["clock"]),
                    p["penalty"],
                    team.get(p["team"], ""),
                    causes.get(p.get("cause") or "foul")
                    or p.get("player")
                    or (f"#{p['number']}" if p.get("number") else ""),
                    _("advantage") if p["advantage"] else labels.converted_label(p["converted"]),
                ]
                for p in data["penalties"]
            ],
        )

        story.append(para(_("Cards"), "Heading3"))
        table(
            [_("Chukker"), _("Time played"), _("Team"), _("Player"), _("Card")],
            [
                [
                    labels.period_label(c["period"], c["period_kind"]),
                    labels.clock_label(c["clock"]),
                    team.get(c["team"], ""),
                    c.get("player") or f"#{c['number']}",
                    labels.card_label(c["color"]),
                ]
                for c in data["cards"]
            ],
        )

        story.append(para(_("Injuries and horse changes"), "Heading3"))
        rows = [
            [
                labels.period_label(s["period"], s["period_kind"]),
                labels.clock_label(s["clock"]),
                labels.reason_label(s["reason"]),
                team.get(s["team"], ""),
                s.get("player") or "",
                s.get("horse") or "",
                _("unconscious") if s["unconscious"] else "",
            ]
            for s in data["stoppages"]
        ]
        rows += [
            [
                labels.period_label(h["period"], h["period_kind"]),
                labels.clock_label(h["clock"]),
                _("change of horse"),
                team.get(h["team"], ""),
                h.get("player") or "",
                h.get("horse") or "",
                "",
            ]
            for h in data["horses"]
        ]
        rows += [
            [
                labels.period_label(s["period"], s["period_kind"]),
                labels.clock_label(s["clock"]),
                _("substitution"),
                team.get(s["team"], ""),
                f"{s.get('player_out') or ''} → {s.get('player_in') or ''}",
                "",
                "",
            ]
            for s in data["substitutions"]
        ]
        table([_("Chukker"), _("Time played"), _("What"), _("Team"), _("Player"), _("Horse"), ""], rows)

        story.append(para(_("Clock corrections"), "Heading3"))
        table(
            [_("Chukker"), _("From"), _("To"), _("Reason")],
            [
                [
                    labels.period_label(c["period"], c["period_kind"]),
                    labels.clock_label(c["from"]),
                    labels.clock_label(c["to"]),
                    c.get("reason") or "",
                ]
                for c in data["clock_corrections"]
            ],
        )

        story.append(para(_("Voided events"), "Heading3"))
        table(
            [_("Event"), _("Voided by"), _("Reason")],
            [
                [f"#{v['target_seq']} {labels.event_label(v['target_type'])}", v.get("by") or "", v.get("reason") or ""]
                for v in data["voided"]
            ],
        )

        story.append(para(_("Committee decisions"), "Heading3"))
        table(
            [_("Decision"), _("Reason"), _("By")],
            [
                [labels.committee_label(c["type"]), labels.reason_label(c.get("reason")), c.get("by") or ""]
                for c in data["committee"]
            ],
        )

        if data.get("shootout"):
            story.append(para(_("Shootout"), "Heading3"))
            table(
                [_("Round"), _("Line"), _("Team"), _("Player"), _("Scored")],
                [
                    [
                        h["round"],
                        h["line"],
                        team.get(h["team"], ""),
                        h.get("player") or f"#{h['number']}",
                        _("yes") if h["scored"] else _("no"),
                    ]
                    for h in data["shootout"]["hits"]
                ],
            )

        o = data["officials"]
        story.append(para(_("Officials"), "Heading3"))
        story.append(para(_("Umpires: %(names)s") % {"names": ", ".join(o["umpires"]) or "—"}))
        story.append(para(_("Referee: %(name)s") % {"name": o["referee"] or "—"}))
        story.append(para(_("Scorer: %(name)s") % {"name": o["scorer"] or "—"}))
        scoresheet_story(data, story, para, table)  # the awards and the signatures (matches.scoresheet.pdf)
        story.append(Spacer(1, 4 * mm))
        story.append(para(_("Built from the match log at position %(seq)s.") % {"seq": data["last_seq"]}, "Italic"))

        buffer = io.BytesIO()
        doc = SimpleDocTemplate(
            buffer,
            pagesize=A4,
            title=_("Official match report"),
            **pdf_metadata(data),  # the log hash and the signatures, for manage.py verify_report
            leftMargin=15 * mm,
            rightMargin=15 * mm,
            topMargin=15 * mm,
            bottomMargin=15 * mm,
        )
        doc.build(story)
        return buffer.getvalue()
