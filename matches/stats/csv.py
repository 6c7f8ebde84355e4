"""The statistics as CSV: a match's box score (the line score, then the teams, then one row per
player) and a tournament's statistics (the scorers, then the teams), each part under a heading row
and separated by a blank line, so a spreadsheet opens it as it is. Headings are in the request's
language; the figures are the API's."""

from __future__ import annotations

import csv
import io
from typing import Any

from django.utils.translation import gettext as _

from . import labels


def _writer() -> tuple[io.StringIO, Any]:
    out = io.StringIO()
    return out, csv.writer(out)


def box_score_csv(box: dict[str, Any], *, public: bool) -> str:
    out, w = _writer()
    w.writerow([_("Line score")])
    w.writerow(labels.line_score_header(box))
    w.writerows(labels.line_score_rows(box))
    w.writerow([])
    w.writerow([_("Teams")])
    w.writerow(labels.team_summary_header())
    w.writerows(labels.team_summary_rows(box))
    w.writerow([])
    w.writerow([_("Players")])
    w.writerow(labels.player_header(public=public))
    w.writerows(labels.player_rows(box, public=public))
    return out.getvalue()


def tournament_stats_csv(stats: dict[str, Any]) -> str:
    out, w = _writer()
    w.writerow([_("Leading scorers")])
    w.writerow([_("Player"), _("Team"), _("Goals from play"), _("Penalty goals"), _("Total goals"), _("Matches")])
    for s in stats["scorers"]:
        w.writerow([s["name"], s["team"], s["goals"], s["penalty_goals"], s["total"], s["matches"]])
    w.writerow([])
    w.writerow([_("Penalty conversion by team")])
    w.writerow([_("Team"), _("Matches"), _("Goals"), _("Penalties converted / awarded"), _("By penalty"), _("Cards")])
    for t in stats["teams"]:
        by_number = ", ".join(
            f"{labels.penalty_short(p['penalty'])} {p['converted']}/{p['awarded']}" for p in t["penalties"]
        )
        w.writerow(
            [
                t["team"],
                t["matches"],
                t["goals"],
                f"{t['penalties_converted']}/{t['penalties_awarded']}",
                by_number,
                labels.cards_text(t["cards"]),
            ]
        )
    w.writerow([])
    w.writerow([_("Cards")])
    w.writerow([_("Match"), _("Team"), _("No."), _("Player"), _("Card")])
    for c in stats["cards"]:
        w.writerow([c["match"], c["team"], c["number"] or "", c["name"] or "", labels.card_label(c["color"])])
    return out.getvalue()
