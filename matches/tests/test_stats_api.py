"""GET /api/matches/{id}/stats and /api/tournaments/{id}/stats (JSON and CSV): the box score of a
match counted by hand (``stats_helpers``), public figures for the public, the officials' for them."""

from __future__ import annotations

import csv
import io

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def players(data: dict) -> dict[tuple[str, int], dict]:
    return {(p["team"], p["number"]): p for p in data["players"]}


def test_it_works(counted):
    m = counted.match
    response = Client().get(f"/api/matches/{m.pk}/stats")
    assert response.status_code == 200
    data = response.json()
    assert data["match"] == m.pk and data["public"] is True and data["last_seq"] == m.last_seq
    home, away = data["teams"]["home"], data["teams"]["away"]
    assert home["line"] == {"chukkers": [3, 0], "overtime": 1, "shootout": 0, "handicap": 0, "total": 4}
    assert away["line"] == {"chukkers": [1, 1], "overtime": 0, "shootout": 0, "handicap": 1, "total": 3}
    assert home["goals"] == {
        "field": 2,
        "penalty": 1,
        "penalty_1": 0,
        "own_goals_for": 1,
        "unattributed": 0,
        "shootout": 0,
        "total": 4,
    }
    assert away["goals"]["penalty_1"] == 1 and away["goals"]["field"] == 1
    assert home["penalties"] == [{"penalty": "2", "awarded": 1, "converted": 1}]
    assert away["penalties"] == [
        {"penalty": "1", "awarded": 1, "converted": 1},
        {"penalty": "5b", "awarded": 1, "converted": 0},
    ]
    assert (away["knock_ins"], home["shots_wide"]) == (1, 1)
    p = players(data)
    assert (p[("home", 1)]["goals"], p[("home", 2)]["goals"], p[("away", 1)]["goals"]) == (1, 1, 1)  # void not counted
    assert p[("home", 3)]["penalty_goals"] == {"2": 1} and p[("home", 3)]["total_goals"] == 1
    assert p[("away", 2)]["own_goals"] == 1 and p[("away", 2)]["penalties_conceded"] == {"2": 1}
    assert p[("home", 1)]["cards"] == {"yellow": 1, "red": 0}


def test_it_gives_the_public_no_injuries_or_horse_time_outs(counted):
    data = Client().get(f"/api/matches/{counted.match.pk}/stats").json()
    assert all("injuries" not in p and "horse_timeouts" not in p for p in data["players"])


def test_it_gives_the_officials_and_the_committee_every_figure(counted):
    m = counted.match
    for user in (counted.umpire, counted.member):
        data = counted.client(user).get(f"/api/matches/{m.pk}/stats").json()
        assert data["public"] is False
        p = players(data)
        assert p[("home", 1)]["horse_timeouts"] == 1 and p[("away", 3)]["injuries"] == 1


def test_it_answers_404_for_no_such_match():
    response = Client().get("/api/matches/999999/stats")
    assert response.status_code == 404 and response.json()["error"]["code"] == "not_found"


def test_the_csv_has_the_line_score_the_teams_and_the_players(counted):
    m = counted.match
    for url in (f"/api/matches/{m.pk}/stats.csv", f"/api/matches/{m.pk}/stats?format=csv"):
        response = Client().get(url)
        assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
        rows = list(csv.reader(io.StringIO(response.content.decode())))
        assert rows[0] == ["Line score"]
        assert rows[1] == ["Team", "1", "2", "OT", "Hcp", "Total"]
        assert rows[2] == [m.home.team.name, "3", "0", "1", "0", "4"]
        assert rows[3] == [m.away.team.name, "1", "1", "0", "1", "3"]
        at = rows.index(["Players"]) + 1
        header = rows[at]
        assert "Injuries" not in header  # the public's CSV
        blue3 = next(r for r in rows[at:] if r[:2] == [m.home.team.name, "3"])
        assert blue3[header.index("Penalty goals")] == "1 (P2 ×1)"


def test_the_csv_speaks_spanish(counted):
    m = counted.match
    response = Client().get(f"/api/matches/{m.pk}/stats.csv", HTTP_ACCEPT_LANGUAGE="es")
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0] == ["Resultado por chukker"]
    assert "Goles de juego" in rows[rows.index(["Jugadores"]) + 1]


def test_the_tournament_s_statistics(counted):
    m = counted.match
    response = Client().get(f"/api/tournaments/{m.tournament_id}/stats")
    assert response.status_code == 200
    data = response.json()
    assert data["matches"] == [m.pk]
    top = {(s["name"], s["total"]) for s in data["scorers"]}
    home = m.home.team.name
    assert top == {(f"{home} 1", 1), (f"{home} 2", 1), (f"{home} 3", 1), (f"{m.away.team.name} 1", 1)}
    teams = {t["team"]: t for t in data["teams"]}
    assert (teams[home]["penalties_awarded"], teams[home]["penalties_converted"]) == (1, 1)
    assert (teams[m.away.team.name]["penalties_awarded"], teams[m.away.team.name]["penalties_converted"]) == (2, 1)
    assert [(c["team"], c["number"], c["color"]) for c in data["cards"]] == [(home, 1, "yellow")]
    csv_text = Client().get(f"/api/tournaments/{m.tournament_id}/stats.csv").content.decode()
    assert csv_text.startswith("Leading scorers")
    assert Client().get("/api/tournaments/999999/stats").status_code == 404


def test_it_rejects_a_format_there_is_not(counted):
    m = counted.match
    for url in (f"/api/matches/{m.pk}/stats?format=xml", f"/api/tournaments/{m.tournament_id}/stats?format=pdf"):
        response = Client().get(url)
        assert response.status_code == 400 and response.json()["error"]["code"] == "invalid_format"


def test_its_answers_match_the_openapi_document(counted):
    from .test_api_openapi import _response_schema, _validator

    m = counted.match
    checks = [
        ("/api/matches/{match_id}/stats", Client().get(f"/api/matches/{m.pk}/stats")),
        ("/api/matches/{match_id}/stats", counted.client().get(f"/api/matches/{m.pk}/stats")),
        ("/api/matches/{match_id}/stats", Client().get("/api/matches/999999/stats")),
        ("/api/matches/{match_id}/stats", Client().get(f"/api/matches/{m.pk}/stats?format=x")),
        ("/api/tournaments/{tournament_id}/stats", Client().get(f"/api/tournaments/{m.tournament_id}/stats")),
    ]
    for path, response in checks:
        schema = _response_schema(path, "get", response.status_code)
        assert [e.message for e in _validator(schema).iter_errors(response.json())] == [], path
    assert [r.status_code for _p, r in checks] == [200, 200, 404, 400, 200]


def test_the_tournament_s_statistics_add_up_its_matches(counted):
    """A second match of the same teams, won 1-0 by home #2 (``win_one_chukker``): home #2 leads
    with 2 goals in 2 matches; a match not begun adds nothing."""
    from datetime import timedelta

    from .committee_helpers import win_one_chukker
    from .personas import make_match

    m = counted.match
    later = m.starts_at + timedelta(hours=2)
    second = make_match(tournament=m.tournament, field=m.field, home=m.home, away=m.away, periods=1, starts_at=later)
    win_one_chukker(second)
    tomorrow = m.starts_at + timedelta(days=1)
    make_match(tournament=m.tournament, field=m.field, home=m.home, away=m.away, starts_at=tomorrow)
    data = Client().get(f"/api/tournaments/{m.tournament_id}/stats").json()
    assert data["matches"] == [m.pk, second.pk]
    home, away = m.home.team.name, m.away.team.name
    leader = data["scorers"][0]
    assert (leader["name"], leader["team"], leader["goals"], leader["total"], leader["matches"]) == (
        f"{home} 2",
        home,
        2,
        2,
        2,
    )
    assert [s["total"] for s in data["scorers"]] == [2, 1, 1, 1]
    teams = {t["team"]: t for t in data["teams"]}
    assert (teams[home]["matches"], teams[home]["goals"]) == (2, 5)  # 4 + 1 (handicap goals apart)
    assert (teams[away]["matches"], teams[away]["goals"]) == (2, 2)  # a Penalty 1 and a field goal
    text = Client().get(f"/api/tournaments/{m.tournament_id}/stats.csv").content.decode()
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == ["Leading scorers"] and rows[2] == [f"{home} 2", home, "2", "0", "2", "2"]
    tournament_page = Client().get(f"/tournaments/{m.tournament_id}/stats/").content.decode()
    assert f"/matches/{second.pk}/stats/" in tournament_page
