"""The official match report and the log's exports: the report (teams and handicaps, goals by
chukker with scorers, penalties and whether converted, knock-ins per chukker, cards, injuries and
horse changes, clock corrections, voided events with their reasons, officials) as a printable
page and a PDF; the log as CSV, and as JSON that ``manage.py replay`` folds to the app's state."""

from __future__ import annotations

import csv
import io
import json
import time

import pytest
from django.core.management import call_command
from django.urls import reverse

from matches.committee.reports import match_log_export, match_report_data
from matches.selectors import match_state

from .committee_helpers import BALL, HOUR, Clock, Committee, end_x, ev, log

pytestmark = pytest.mark.django_db


@pytest.fixture
def played() -> Committee:
    """A two-chukker match with a bit of everything, ended by the final horn."""
    cast = Committee(periods=2)
    m = cast.match
    cast.umpire.first_name, cast.umpire.last_name = "Ulises", "Umpire"
    cast.umpire.save()
    clock = Clock(time.time() - 2 * HOUR)
    s = log(m, ev("play"), ev("goal", team="home", number=3, clock=50), ev("play"), clock=clock)
    # A knock-in for away: home hit it over the end line it attacks.
    s = log(
        m,
        ev(
            "ball_out",
            line="end",
            at={"x": end_x(s, "home"), "y": 30},
            last_hit_by="home",
            deflected_off="none",
            clock=80,
        ),
        ev("play"),
        # Penalty 2 to away, converted; a yellow card to home #4.
        ev("foul", against="home", number=4, penalty="2", card="yellow", clock=120),
        ev("play"),
        ev("goal", team="away", number=2, from_penalty=True, clock=125),
        ev("play"),
        # Penalty 4 to home, missed (the ball goes over the side).
        ev("foul", against="away", number=1, penalty="4", clock=200),
        ev("play"),
        ev("ball_out", line="side", at={"x": 100, "y": 0}, last_hit_by="home", deflected_off="none", clock=210),
        ev("play"),
        clock=clock,
    )
    wrong = ev("goal", team="away", number=1, clock=300)
    log(m, wrong, ev("void", target=wrong["id"], reason="the ball went wide of the post"), clock=clock)
    s = log(
        m,
        ev("whistle", reason="injured_player", team="away", number=3, ball={"x": 140, "y": 70}, clock=330),
        ev("mount", team="away", number=3, horse="Pampa"),
        ev("clock_set", clock=325, reason="timer late"),
        ev("play"),
        ev("horn", kind="final", clock=450, ball=BALL),
        # Chukker 2
        ev("play"),
        ev("goal", team="home", number=1, clock=100),
        ev("play"),
        ev("horn", kind="final", clock=450, ball=BALL),
        clock=clock,
    )
    assert s["status"] == "final"
    m.refresh_from_db()
    return cast


def test_the_report_has_every_part(played):
    m = played.match
    data = match_report_data(m)
    assert data["result"] == {
        "status": "final",
        "score": {"home": 2, "away": 1},
        "winner": "home",
        "result": "regulation",
        "periods_played": 2,
    }
    home = data["match"]["home"]
    assert [p["name"] for p in home["players"]] == [f"{m.home.team.name} {n}" for n in range(1, 5)]
    assert home["handicap"] == 6 and home["handicap_goals"] == 0
    goals = [(p["number"], g["team"], g["number"], g["how"]) for p in data["periods"] for g in p["goals"]]
    assert goals == [(1, "home", 3, "field"), (1, "away", 2, "penalty"), (2, "home", 1, "field")]
    assert data["periods"][0]["goals"][0]["player"] == f"{m.home.team.name} 3"
    assert [(p["number"], p["knock_ins"]) for p in data["periods"]] == [
        (1, {"home": 0, "away": 1}),
        (2, {"home": 0, "away": 0}),
    ]
    assert [(p["penalty"], p["team"], p["number"], p["converted"]) for p in data["penalties"]] == [
        ("2", "away", 4, True),
        ("4", "home", 1, False),
    ]
    assert [(c["team"], c["number"], c["color"]) for c in data["cards"]] == [("home", 4, "yellow")]
    assert [(s["reason"], s["team"], s["number"]) for s in data["stoppages"]] == [("injured_player", "away", 3)]
    assert [(h["team"], h["number"], h["horse"]) for h in data["horses"]] == [("away", 3, "Pampa")]
    assert [(c["from"], c["to"], c["reason"]) for c in data["clock_corrections"]] == [(330.0, 325, "timer late")]
    assert [(v["target_type"], v["reason"]) for v in data["voided"]] == [("goal", "the ball went wide of the post")]
    assert data["officials"] == {"umpires": ["Ulises Umpire"], "referee": "rita", "scorer": "sam"}
    assert data["last_seq"] == m.last_seq


def test_the_printable_page(played):
    m = played.match
    page = played.client().get(reverse("committee:report", args=[m.pk]))
    html = page.content.decode()
    assert page.status_code == 200
    assert 'href="/static/css/committee.css"' in html  # its @media print hides everything but the report
    for text in (
        "Official match report",
        "Goals by chukker",
        f"{m.home.team.name} 3 (#3)",
        "penalty goal",
        "Knock-ins: ",
        "converted",
        "missed",
        "yellow",
        "injured player",
        "change of horse",
        "Pampa",
        "5:30 → 5:25",
        "timer late",
        "the ball went wide of the post",
        "Ulises Umpire",
        f"{m.home.team.name} won in regulation time.",
    ):
        assert text in html, text
    css = open("static/css/committee.css").read()
    assert "@media print" in css


def test_the_report_says_its_times_are_time_played(played):
    """A report is a document with no clock beside it: every time is time played in the chukker,
    and its columns and a note say so (the public scoreboard's clock shows time left)."""
    html = played.client().get(reverse("committee:report", args=[played.match.pk])).content.decode()
    assert "Times are time played in the chukker, counted from its start (m:ss)." in html
    for table in ("goals", "penalties", "cards", "injuries", "clock", "committee"):
        head = html[html.index(f'id="{table}"') :]
        head = head[: head.index("</thead>")]
        assert '<th scope="col">Time played</th>' in head, table
        assert ">Clock<" not in head, table
    goals = html[html.index('id="goals"') : html.index("</table>", html.index('id="goals"'))]
    assert "<td>0:50</td>" in goals and "<td>1:40</td>" in goals  # played, not 6:10 or 5:20 left
    spanish = played.client().get(reverse("committee:report", args=[played.match.pk]), HTTP_ACCEPT_LANGUAGE="es")
    assert '<th scope="col">Tiempo jugado</th>' in spanish.content.decode()


def test_the_pdf(played):
    response = played.client().get(reverse("committee:report_pdf", args=[played.match.pk]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF-") and b"/Title (Official match report)" in response.content


def test_the_log_as_csv(played):
    m = played.match
    response = played.client().get(reverse("committee:log_csv", args=[m.pk]))
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert response["Content-Disposition"].startswith("attachment;")
    assert [int(r["seq"]) for r in rows] == list(range(1, m.last_seq + 1))
    void = next(r for r in rows if r["type"] == "void")
    assert json.loads(void["event"])["reason"] == "the ball went wide of the post"
    assert (
        rows[0]["sent_by"] == ""
        and rows[1]["type"] == "goal"
        and rows[1]["team"] == "home"
        and rows[1]["number"] == "3"
    )


STATE_KEYS = (
    "status",
    "score",
    "period",
    "winner",
    "result",
    "restart",
    "defends",
    "excused_horses",
    "unavailable_players",
    "shootout",
    "last_seq",
)


def test_the_json_export_replays_to_the_same_state(played, tmp_path):
    m = played.match
    response = played.client().get(reverse("committee:log_json", args=[m.pk]))
    path = tmp_path / "log.json"
    path.write_bytes(response.content)
    out = io.StringIO()
    call_command("replay", str(path), stdout=out)
    replayed = json.loads(out.getvalue())
    assert all(r["accepted"] for r in replayed["results"])
    app = match_state(m)
    assert {k: replayed["state"][k] for k in STATE_KEYS} == {k: app[k] for k in STATE_KEYS}
    assert json.loads(response.content) == match_log_export(m)
