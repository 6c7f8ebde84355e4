"""The USPA score sheet filled in from the log (page and PDF, the committee's): the header (event,
host club, date, officials), each team with its jersey colour, players by position with their
handicaps, the team handicap and the handicap goals; the goals lettered in the order of the match
and circled when from a penalty, the knock-ins (missed shots) and the penalty hits, circled when
converted."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from matches.stats.uspa import goal_letter, uspa_sheet_data

from .committee_helpers import Committee, ev, log
from .pdf_text import pdf_ellipses, pdf_text

pytestmark = pytest.mark.django_db


def letters(marks) -> list[str]:
    return [("(%s)" if g["circled"] else "%s") % g["letter"] for g in marks]


def test_goals_are_lettered_in_the_order_of_the_match_and_circled_from_a_penalty(counted):
    sheet = uspa_sheet_data(counted.match)
    assert [c["label"] for c in sheet["columns"]] == ["1", "2", "OT"]
    home, away = sheet["teams"]["home"], sheet["teams"]["away"]
    by_number = {p["number"]: [letters(c) for c in p["cells"]] for p in home["players"]}
    assert by_number[1] == [["A"], [], []]
    assert by_number[3] == [["(B)"], [], []]  # the Penalty 2
    assert by_number[2] == [[], [], ["F"]]  # the overtime goal
    assert [letters(c) for c in away["team_cells"]] == [["(C)"], [], []]  # the Penalty 1: the team's
    assert [letters(c) for c in home["team_cells"]] == [["D"], [], []]  # the own goal by away #2
    away1 = next(p for p in away["players"] if p["number"] == 1)
    assert [letters(c) for c in away1["cells"]] == [[], ["E"], []]  # the voided goal has no letter
    assert home["goals_by_column"] == [3, 0, 1] and away["goals_by_column"] == [1, 1, 0]


def test_knock_ins_and_penalty_hits_by_chukker(counted):
    sheet = uspa_sheet_data(counted.match)
    home, away = sheet["teams"]["home"], sheet["teams"]["away"]
    assert home["knock_ins"] == [1, 0, 0] and away["knock_ins"] == [0, 0, 0]  # home's shot wide
    assert [[(h["label"], h["circled"]) for h in c] for c in home["penalties"]] == [[("P2", True)], [], []]
    assert [[(h["label"], h["circled"]) for h in c] for c in away["penalties"]] == [
        [("P1", True), ("P5b", False)],
        [],
        [],
    ]


def test_the_header_teams_and_officials(counted):
    m = counted.match
    sheet = uspa_sheet_data(m)
    assert (sheet["event"], sheet["host_club"]) == ("Test Cup", "Test Club")
    assert sheet["officials"]["umpires"] == ["Ulises Umpire"] and sheet["officials"]["referee"] == "rita"
    home, away = sheet["teams"]["home"], sheet["teams"]["away"]
    assert (home["color"], home["handicap"], home["handicap_goals"]) == ("#1d4ed8", 6, 0)
    assert (away["color"], away["handicap_goals"], away["total"]) == ("#dc2626", 1, 3)
    assert [(p["number"], p["handicap"]) for p in home["players"]] == [(1, 2), (2, 2), (3, 1), (4, 1)]


def test_the_printable_page_in_both_languages(counted):
    m = counted.match
    url = reverse("stats:uspa_sheet", args=[m.pk])
    html = counted.client().get(url).content.decode()
    assert "USPA score sheet" in html and 'href="/static/css/scoresheet.css"' in html
    assert re.search(r'class="mark circled" data-letter="B"', html)
    assert re.search(r'class="mark" data-letter="A"', html)
    assert re.search(r'class="mark circled" data-penalty="2"', html)
    assert 'fill="#dc2626"' in html and "Test Club" in html and "Ulises Umpire" in html
    es = counted.client().get(url, HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Planilla de la USPA" in es and "Club organizador" in es and "Tiros de penal" in es


def test_the_pdf(counted):
    m = counted.match
    response = counted.client().get(reverse("stats:uspa_sheet_pdf", args=[m.pk]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")
    text = pdf_text(response.content)
    lines = text.splitlines()
    assert "USPA score sheet" in lines and "Umpires: Ulises Umpire · Referee: rita" in lines
    assert "Event: Test Cup · Host club: Test Club" in text
    assert f"{m.home.team.name} (jersey #1d4ed8) · team handicap 6 · handicap goals 0" in lines
    # every goal's letter where it was scored, drawn row by row: home #1 A, #2 F (overtime), #3 B,
    # home's own line D (the own goal); away #1 E, away's own line C (the Penalty 1)
    assert [c for c in lines if c in ("A", "B", "C", "D", "E", "F")] == ["A", "F", "B", "D", "E", "C"]
    assert {"P2", "P1", "P5b"} <= set(lines)
    # circled: B (the Penalty 2) and C (the Penalty 1), and the hits of both; the 5.b missed is not
    assert pdf_ellipses(response.content) == 4
    es = pdf_text(counted.client().get(reverse("stats:uspa_sheet_pdf", args=[m.pk]), HTTP_ACCEPT_LANGUAGE="es").content)
    assert "Planilla de la USPA" in es.splitlines() and "Club organizador: Test Club" in es


def test_the_shootout_goal_has_its_own_column_and_is_no_player_s():
    """One chukker, 0-0 at the final horn; home #1 scores the shootout's first hit, away #2 misses."""
    cast = Committee(periods=1)
    state = log(
        cast.match,
        ev("play"),
        ev("horn", kind="final", clock=450, ball={"x": 150, "y": 80}),
        ev("shootout_start", format="single", first="home", order={"home": [1], "away": [2]}),
        ev("shootout_attempt", team="home", number=1, scored=True),
        ev("shootout_attempt", team="away", number=2, scored=False),
    )
    assert state["result"] == "shootout" and state["score"] == {"home": 1, "away": 0}
    cast.match.refresh_from_db()
    sheet = uspa_sheet_data(cast.match)
    assert [c["label"] for c in sheet["columns"]] == ["1", "SO"]
    home = sheet["teams"]["home"]
    assert [letters(c) for c in home["team_cells"]] == [[], ["A"]]  # the team's, not circled
    assert all(cell == [] for p in home["players"] for cell in p["cells"])
    assert home["goals_by_column"] == [0, 1] and home["total"] == 1
    assert sheet["teams"]["away"]["goals_by_column"] == [0, 0]
    html = cast.client().get(reverse("stats:uspa_sheet", args=[cast.match.pk])).content.decode()
    assert re.search(r'class="mark" data-letter="A"', html) and "circled" not in html.split('data-letter="A"')[0][-40:]


def test_it_is_the_committee_s(counted):
    m = counted.match
    for name in ("stats:uspa_sheet", "stats:uspa_sheet_pdf"):
        url = reverse(name, args=[m.pk])
        assert Client().get(url).status_code == 302
        assert counted.client(counted.scorer).get(url).status_code == 403


def test_letters_go_on_after_z():
    assert [goal_letter(i) for i in (0, 1, 25, 26, 27, 51, 52)] == ["A", "B", "Z", "AA", "AB", "AZ", "BA"]
