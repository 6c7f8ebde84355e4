"""The statistics' pages in both languages: the public box score (public figures only), the
committee's (every figure), the tournament's statistics, the links to them from the standings,
the bracket, the scoreboard and the committee's match page, and the box score in the official
report (page and PDF)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from matches.committee.reports import match_report_data, match_report_pdf

from .pdf_text import pdf_text

pytestmark = pytest.mark.django_db


def page(client: Client, url: str, lang: str = "en") -> str:
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 200, url
    return response.content.decode()


def test_the_public_box_score_shows_the_public_figures_only(counted):
    m = counted.match
    html = page(Client(), reverse("stats:match", args=[m.pk]))
    assert "Box score" in html and 'id="line-score"' in html and 'id="player-stats"' in html
    assert "<b>4 – 3</b>" in html
    assert "P2 ×1" in html and "yellow ×1" in html  # penalties and cards are public
    assert "Injuries" not in html and "Horse time-outs" not in html


def test_the_public_box_score_in_spanish(counted):
    html = page(Client(), reverse("stats:match", args=[counted.match.pk]), "es")
    assert "Estadísticas del partido" in html and "Goles de juego" in html and "Supl." in html
    assert "Lesiones" not in html


def test_the_committee_s_box_score_has_every_figure(counted):
    m = counted.match
    url = reverse("stats:committee_match", args=[m.pk])
    for lang, words in (("en", ("Injuries", "Horse time-outs")), ("es", ("Lesiones", "Descansos de caballo"))):
        html = page(counted.client(), url, lang)
        assert all(w in html for w in words)
    assert Client().get(url).status_code == 302  # the login page
    assert counted.client(counted.umpire).get(url).status_code == 403


def test_the_tournament_s_statistics_page(counted):
    m = counted.match
    url = reverse("stats:tournament", args=[m.tournament_id])
    html = page(Client(), url)
    assert "Leading scorers" in html and f"{m.home.team.name} 3" in html
    assert reverse("stats:match", args=[m.pk]) in html
    assert "Goleadores" in page(Client(), url, "es")


def test_the_standings_and_the_bracket_link_to_each_box_score(counted):
    m = counted.match
    link = reverse("stats:committee_match", args=[m.pk])
    for name in ("committee:standings", "committee:bracket"):
        html = page(counted.client(), reverse(name, args=[m.tournament_id]))
        assert link in html and reverse("stats:tournament", args=[m.tournament_id]) in html


def test_the_match_pages_link_to_the_box_score(counted):
    m = counted.match
    assert reverse("stats:match", args=[m.pk]) in page(Client(), reverse("scoreboard", args=[m.pk]))
    html = page(counted.client(), reverse("committee:match", args=[m.pk]))
    assert reverse("stats:committee_match", args=[m.pk]) in html and reverse("stats:uspa_sheet", args=[m.pk]) in html
    live = page(Client(), reverse("tournament_live", args=[m.tournament_id]))
    assert reverse("stats:tournament", args=[m.tournament_id]) in live


def test_the_report_carries_the_box_score_of_its_own_fold(counted):
    m = counted.match
    data = match_report_data(m)
    box = data["box_score"]
    assert box["teams"]["home"]["line"]["total"] == data["result"]["score"]["home"] == 4
    assert box["last_seq"] == m.last_seq
    for lang, words in (
        ("en", ("Box score", "Goals from play")),
        ("es", ("Estadísticas del partido", "Goles de juego")),
    ):
        html = page(counted.client(), reverse("committee:report", args=[m.pk]), lang)
        assert all(w in html for w in words) and reverse("stats:uspa_sheet", args=[m.pk]) in html
    assert match_report_pdf(data, "es").startswith(b"%PDF")


def test_the_report_pdf_prints_the_box_score(counted):
    m = counted.match
    home, away = m.home.team.name, m.away.team.name
    lines = pdf_text(match_report_pdf(match_report_data(m))).splitlines()
    at = lines.index("Box score")
    # the line score: chukkers 1 and 2, overtime, handicap goals apart, the total
    header = ["Team", "1", "2", "OT", "Hcp", "Total"]
    assert lines[at + 1 : at + 19] == [*header, home, "3", "0", "1", "0", "4", away, "1", "1", "0", "1", "3"]
    box = lines[at:]
    assert "1/1 (P2 1/1)" in box and "1/2 (P1 1/1, P5b 0/1)" in box  # penalties converted / awarded
    assert "1 (P2 ×1)" in box and "P1 ×1" in box and "yellow ×1" in box  # home #3, home #4, home #1
    assert "Injuries" in box and "Horse time-outs" in box  # the report is the officials'
    es = pdf_text(match_report_pdf(match_report_data(m), "es")).splitlines()
    assert "Estadísticas del partido" in es and "Goles de juego" in es


def test_a_report_stored_before_box_scores_still_renders(counted):
    m = counted.match
    data = match_report_data(m)
    del data["box_score"]
    assert match_report_pdf(data).startswith(b"%PDF")


def test_a_match_not_begun_has_an_empty_box_score():
    from .committee_helpers import Committee

    cast = Committee(periods=4)
    m = cast.match
    html = page(Client(), reverse("stats:match", args=[m.pk]))
    assert "<b>0 – 0</b>" in html
    sheet = page(cast.client(), reverse("stats:uspa_sheet", args=[m.pk]))
    assert sheet.count('class="chukker"') == 2 * 4  # four chukkers, two teams, no goal
    assert "No matches played yet." in page(Client(), reverse("stats:tournament", args=[m.tournament_id]))
