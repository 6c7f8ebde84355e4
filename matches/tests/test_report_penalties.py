"""The official report's Penalties table and its box score agree: both are the engine's one fold of
the log, counted once (``officiating.engine.boxscore``). A Penalty 1 is a goal awarded and play
restarts with a Penalty 5.b to the same team (Rule 14.b(2), docs/MATCH-LOG.md): the table lists the
two, as the box score counts them. A voided foul awards nothing anywhere; a foul played on
(``advantage``) is noted in the table and awards no penalty."""

from __future__ import annotations

import re
import time
from collections import Counter

import pytest
from django.urls import reverse

from matches.committee.reports import match_report_data, match_report_pdf

from .committee_helpers import BALL, HOUR, Clock, Committee, end_x, ev, log
from .pdf_text import pdf_text

pytestmark = pytest.mark.django_db


@pytest.fixture
def penalties_match() -> Committee:
    """One chukker, counted by hand:

    - home: Penalty 1 (a goal awarded, converted), its Penalty 5.b (converted: home #3 scores off
      it), a Penalty 6 after an away safety (missed: over the side);
    - away: a Penalty 3 that is voided (awards nothing), a Penalty 2 played on (advantage: none),
      a Penalty 4 (missed: over the side).
    """
    cast = Committee(periods=1)
    m = cast.match
    clock = Clock(time.time() - 2 * HOUR)
    log(
        m,
        ev("play"),
        ev("foul", against="away", number=2, penalty="1", clock=30),  # a goal to home, then its 5.b
        ev("play"),
        ev("goal", team="home", number=3, clock=40),  # the 5.b converted
        ev("play"),
        clock=clock,
    )
    wrong = ev("foul", against="home", number=1, penalty="3", clock=60)
    log(m, wrong, ev("void", target=wrong["id"], reason="the foul was on the other team"), clock=clock)
    s = log(
        m,
        ev("foul", against="home", number=4, penalty="2", advantage=True, clock=70),  # played on
        ev("foul", against="home", number=4, penalty="4", clock=80),
        ev("play"),
        ev("ball_out", line="side", at={"x": 100, "y": 0}, last_hit_by="away", deflected_off="none", clock=90),
        ev("play"),
        clock=clock,
    )
    # A safety: away hits the ball over its own end line (the one home attacks): Penalty 6 to home.
    s = log(
        m,
        ev(
            "ball_out",
            line="end",
            at={"x": end_x(s, "home"), "y": 30},
            last_hit_by="away",
            deflected_off="none",
            clock=120,
        ),
        ev("play"),
        ev("ball_out", line="side", at={"x": 150, "y": 0}, last_hit_by="home", deflected_off="none", clock=130),
        ev("play"),
        ev("horn", kind="final", clock=450, ball=BALL),
        clock=clock,
    )
    assert s["status"] == "final" and s["score"] == {"home": 2, "away": 0}
    m.refresh_from_db()
    return cast


# (team, penalty) -> (awarded, converted), counted by hand from the log above.
HAND_COUNT = {("home", "1"): (1, 1), ("home", "5b"): (1, 1), ("home", "6"): (1, 0), ("away", "4"): (1, 0)}


def table_tally(rows: list[dict]) -> dict[tuple[str, str], tuple[int, int]]:
    awarded = Counter((r["team"], r["penalty"]) for r in rows if not r["advantage"])
    converted = Counter((r["team"], r["penalty"]) for r in rows if not r["advantage"] and r["converted"])
    return {k: (n, converted[k]) for k, n in awarded.items()}


def box_tally(box: dict) -> dict[tuple[str, str], tuple[int, int]]:
    return {
        (team, x["penalty"]): (x["awarded"], x["converted"]) for team, t in box["teams"].items() for x in t["penalties"]
    }


def test_the_penalties_table_and_the_box_score_agree_with_the_hand_count(penalties_match):
    data = match_report_data(penalties_match.match)
    rows, box = data["penalties"], data["box_score"]
    assert table_tally(rows) == box_tally(box) == HAND_COUNT
    for team in ("home", "away"):
        t = box["teams"][team]
        mine = [r for r in rows if r["team"] == team and not r["advantage"]]
        assert (len(mine), sum(1 for r in mine if r["converted"])) == (t["penalties_awarded"], t["penalties_converted"])
    # In the order of the match: the Penalty 1 and its 5.b (same event), the foul played on, the
    # Penalty 4, the safety. The voided Penalty 3 is nowhere.
    assert [(r["penalty"], r["team"], r["cause"], r["number"], r["advantage"], r["converted"]) for r in rows] == [
        ("1", "home", "foul", 2, False, True),
        ("5b", "home", "after_penalty_1", None, False, True),
        ("2", "away", "foul", 4, True, None),
        ("4", "away", "foul", 4, False, False),
        ("6", "home", "safety", None, False, False),
    ]
    assert rows[0]["seq"] == rows[1]["seq"]  # the 5.b is the Penalty 1's restart
    assert rows[0]["player"] == f"{penalties_match.match.away.team.name} 2"
    assert rows[1]["player"] is None and rows[1]["against"] == "away"
    assert [(v["target_type"], v["target"]["penalty"]) for v in data["voided"]] == [("foul", "3")]
    # Each awarded row is one of the box score's penalties, field for field.
    awarded = [{k: v for k, v in r.items() if k not in ("player", "advantage")} for r in rows if not r["advantage"]]
    assert awarded == box["penalties"]


def penalties_table(html: str) -> str:
    start = html.index('id="penalties"')
    return html[start : html.index("</table>", start)]


def test_the_page_shows_the_5b_after_the_penalty_1_beside_the_box_score(penalties_match):
    m = penalties_match.match
    html = penalties_match.client().get(reverse("committee:report", args=[m.pk])).content.decode()
    table = penalties_table(html)
    causes = re.findall(r'<tr data-cause="([a-z_0-9]+)">', table)
    assert causes == ["foul", "after_penalty_1", "foul", "foul", "safety"]
    assert "after Penalty 1" in table and "<td>5b</td>" in table and "<td>3</td>" not in table
    assert re.findall(r'data-converted="([A-Za-z]+)">([^<]*)<', table) == [
        ("True", "converted"),
        ("True", "converted"),
        ("None", "advantage"),
        ("False", "missed"),
        ("False", "missed"),
    ]
    # The box score beside it: home 2 of 3 (P1 1/1, P5b 1/1, P6 0/1), away 0 of 1 (P4 0/1).
    assert "2/3 (P1 1/1, P5b 1/1, P6 0/1)" in html and "0/1 (P4 0/1)" in html

    spanish = penalties_match.client().get(reverse("committee:report", args=[m.pk]), HTTP_ACCEPT_LANGUAGE="es")
    table = penalties_table(spanish.content.decode())
    assert "tras el Penal 1" in table and "after Penalty 1" not in table
    assert "ventaja" in table and "convertido" in table.lower()


def test_the_pdf_lists_the_same_penalties(penalties_match):
    data = match_report_data(penalties_match.match)
    text = pdf_text(match_report_pdf(data, "en"))
    assert "2/3 (P1 1/1, P5b 1/1, P6 0/1)" in text and "0/1 (P4 0/1)" in text  # the box score
    start = text.index("\nPenalties\nChukker\n")  # (the box score's header says "Penalties converted")
    lines = text[start : text.index("\nCards\n", start)].splitlines()
    assert lines.count("5b") == 1 and lines.count("1") == 1 and "3" not in lines
    assert "after Penalty 1" in lines and "safety" in lines and "advantage" in lines
    assert lines.count("converted") == 2 and lines.count("missed") == 2
    spanish = pdf_text(match_report_pdf(data, "es"))
    assert "tras el Penal 1" in spanish
