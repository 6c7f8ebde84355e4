"""The MVP and the Best Playing Pony: the committee of the tournament records them (the pony picked
from the horses the log says were ridden, or typed), every change in the audit trail; the public
scoreboard, the tournament pages, the report and the API show them."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from matches.awards.models import Award
from matches.awards.selectors import match_mounts
from matches.awards.services import AwardRefused, award_record
from matches.committee.models import AuditEntry
from matches.models import RosterLine

from .committee_helpers import Clock, Committee, ev, log, win_one_chukker
from .pdf_text import pdf_text
from .personas import make_committee_member, make_user

pytestmark = pytest.mark.django_db


def line(entry, number: int) -> RosterLine:
    return RosterLine.objects.select_related("player", "entry__team").get(entry=entry, number=number)


@pytest.fixture
def cast() -> Committee:
    """A one-chukker match won by home, in which home #2 rode Lucera and then Pampa, and away #1
    rode Tordillo (a mount voided later: Moro)."""
    cast = Committee(periods=1)
    clock = Clock()
    moro = ev("mount", team="away", number=1, horse="Moro")
    log(
        cast.match,
        ev("mount", team="home", number=2, horse="Lucera"),
        ev("mount", team="home", number=2, horse="Pampa"),
        ev("mount", team="away", number=1, horse="Tordillo"),
        moro,
        ev("void", target=moro["id"], reason="wrong horse"),
        clock=clock,
    )
    win_one_chukker(cast.match, clock)
    cast.match.refresh_from_db()
    return cast


def test_the_horses_offered_are_those_the_log_says_were_ridden(cast):
    mounts = match_mounts(cast.match)
    assert [(m.line.entry_id, m.line.number, m.horse) for m in mounts] == [
        (cast.match.home_id, 2, "Lucera"),
        (cast.match.home_id, 2, "Pampa"),
        (cast.match.away_id, 1, "Tordillo"),
    ]


def test_the_committee_records_the_mvp_and_a_pony_from_the_mounts(cast):
    client = cast.client()
    page = client.get(reverse("awards:match", args=[cast.match.pk]))
    assert page.status_code == 200 and "Pampa" in page.content.decode()
    home2 = line(cast.match.home, 2)
    response = client.post(reverse("awards:match_record", args=[cast.match.pk, "mvp"]), {"mvp-player": home2.pk})
    assert response.status_code == 302
    response = client.post(
        reverse("awards:match_record", args=[cast.match.pk, "bpp"]),
        {"bpp-mount": f"{home2.pk}:Pampa", "bpp-owner": "La Dolfina", "bpp-breeder": "A. Cambiaso"},
    )
    assert response.status_code == 302
    mvp = Award.objects.get(match=cast.match, kind="mvp")
    pony = Award.objects.get(match=cast.match, kind="bpp")
    assert mvp.player == home2.player and mvp.entry == cast.match.home
    assert (pony.horse, pony.player, pony.owner, pony.breeder, pony.from_mount) == (
        "Pampa",
        home2.player,
        "La Dolfina",
        "A. Cambiaso",
        True,
    )


def test_a_typed_horse_needs_its_player(cast):
    client = cast.client()
    url = reverse("awards:match_record", args=[cast.match.pk, "bpp"])
    response = client.post(url, {"bpp-horse": "Open Gate"})
    assert response.status_code == 200 and not Award.objects.exists()
    away3 = line(cast.match.away, 3)
    client.post(url, {"bpp-horse": "Open Gate", "bpp-player": away3.pk})
    pony = Award.objects.get(kind="bpp")
    assert (pony.horse, pony.player, pony.from_mount) == ("Open Gate", away3.player, False)


def test_every_award_change_is_audited_under_the_assignment(cast):
    client = cast.client()
    home2, away1 = line(cast.match.home, 2), line(cast.match.away, 1)
    client.post(reverse("awards:match_record", args=[cast.match.pk, "mvp"]), {"mvp-player": home2.pk})
    client.post(reverse("awards:match_record", args=[cast.match.pk, "mvp"]), {"mvp-player": away1.pk})
    client.post(reverse("awards:match_withdraw", args=[cast.match.pk, "mvp"]))
    entries = list(AuditEntry.objects.filter(match=cast.match, action__startswith="award").order_by("at", "pk"))
    assert [e.action for e in entries] == ["award_set", "award_set", "award_withdraw"]
    assert all(e.scope == AuditEntry.Scope.ASSIGNMENT and e.assignment is not None for e in entries)
    assert entries[1].details["player"] == away1.player.name
    assert entries[1].details["before"]["player"] == home2.player.name
    assert not Award.objects.exists()
    page = client.get(reverse("committee:match", args=[cast.match.pk])).content.decode()
    assert "Award recorded" in page and "Award withdrawn" in page


def test_it_refuses_the_committee_of_another_tournament_and_the_officials(cast):
    other = make_committee_member("otto")
    home2 = line(cast.match.home, 2)
    for user in (other, cast.umpire, cast.scorer):
        client = Client()
        client.force_login(user)
        response = client.post(reverse("awards:match_record", args=[cast.match.pk, "mvp"]), {"mvp-player": home2.pk})
        assert response.status_code == 403
    assert not Award.objects.exists()
    assert Client().get(reverse("awards:match", args=[cast.match.pk])).status_code == 302  # to the login


def test_a_match_award_waits_for_the_final_result():
    cast = Committee(periods=1)
    log(cast.match, ev("play"))
    cast.match.refresh_from_db()
    with pytest.raises(AwardRefused) as refused:
        award_record(
            user=cast.member,
            kind="mvp",
            tournament=cast.match.tournament,
            match=cast.match,
            line=line(cast.match.home, 1),
        )
    assert refused.value.code == "not_final"


def test_a_player_of_another_match_is_refused(cast):
    from .personas import make_entry

    stranger = make_entry(cast.match.tournament, "Green")
    with pytest.raises(AwardRefused):
        award_record(
            user=cast.member, kind="mvp", tournament=cast.match.tournament, match=cast.match, line=line(stranger, 1)
        )


def test_the_tournament_awards_are_recorded_on_the_tournament_page(cast):
    client = cast.client()
    tournament = cast.match.tournament
    away1 = line(cast.match.away, 1)
    page = client.get(reverse("awards:tournament", args=[tournament.pk]))
    assert "Tordillo" in page.content.decode()  # the tournament's mounts are offered
    client.post(reverse("awards:tournament_record", args=[tournament.pk, "bpp"]), {"bpp-mount": f"{away1.pk}:Tordillo"})
    award = Award.objects.get(match=None, kind="bpp")
    assert award.tournament == tournament and award.horse == "Tordillo"
    page = client.get(reverse("committee:tournament", args=[tournament.pk])).content.decode()
    assert "Tordillo" in page


def _give_both(cast):
    home2 = line(cast.match.home, 2)
    award_record(user=cast.member, kind="mvp", tournament=cast.match.tournament, match=cast.match, line=home2)
    award_record(
        user=cast.member,
        kind="bpp",
        tournament=cast.match.tournament,
        match=cast.match,
        line=home2,
        horse="Pampa",
        owner="La Dolfina",
        from_mount=True,
    )
    return home2


def test_the_public_pages_show_the_awards_of_a_final_match(cast):
    home2 = _give_both(cast)
    board = Client().get(f"/matches/{cast.match.pk}/").content.decode()
    assert 'data-award="mvp"' in board and "Pampa" in board and home2.player.name in board
    live = Client().get(f"/tournaments/{cast.match.tournament_id}/live/").content.decode()
    assert 'data-award="bpp"' in live and "Pampa" in live


def test_the_report_shows_the_awards(cast):
    _give_both(cast)
    page = cast.client().get(reverse("committee:report", args=[cast.match.pk])).content.decode()
    assert 'id="awards"' in page and "Pampa" in page and "La Dolfina" in page


def test_the_report_pdf_prints_the_awards(cast):
    from matches.committee.reports import match_report_data, match_report_pdf

    home2 = _give_both(cast)
    lines = pdf_text(match_report_pdf(match_report_data(cast.match))).splitlines()
    at = lines.index("Awards")
    assert lines[at + 1 : at + 7] == ["Award", "Player", "Team", "Horse", "Owner", "Breeder"]
    rows = lines[at + 7 : at + 16]
    assert rows[:5] == ["Best Playing Pony", home2.player.name, cast.match.home.team.name, "Pampa", "La Dolfina"]
    assert "Most Valuable Player" in rows
    es = pdf_text(match_report_pdf(match_report_data(cast.match), "es")).splitlines()
    assert "Premios" in es and "Jugador más valioso" in es


def test_the_public_tournament_page_shows_the_tournament_s_own_awards(cast):
    tournament = cast.match.tournament
    away1 = line(cast.match.away, 1)
    award_record(user=cast.member, kind="mvp", tournament=tournament, match=None, line=away1)
    award_record(
        user=cast.member, kind="bpp", tournament=tournament, match=None, line=away1, horse="Tordillo", from_mount=True
    )
    live = Client().get(f"/tournaments/{tournament.pk}/live/").content.decode()
    assert "Of the tournament" in live and "Tordillo" in live and away1.player.name in live
    es = Client().get(f"/tournaments/{tournament.pk}/live/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Del torneo" in es and "Mejor caballo" in es
    data = Client().get(f"/api/tournaments/{tournament.pk}/awards").json()
    assert sorted(a["kind"] for a in data["awards"]) == ["bpp", "mvp"]


def test_the_api_gives_the_awards_to_anyone(cast):
    home2 = _give_both(cast)
    data = Client().get(f"/api/matches/{cast.match.pk}/awards").json()
    assert [a["kind"] for a in data["awards"]] == ["bpp", "mvp"]
    pony = data["awards"][0]
    assert pony["horse"] == {"name": "Pampa", "owner": "La Dolfina", "breeder": None, "ridden_in_match": True}
    assert pony["player"]["name"] == home2.player.name and pony["player"]["number"] == 2
    data = Client().get(f"/api/tournaments/{cast.match.tournament_id}/awards").json()
    assert data["awards"] == [] and data["matches"][0]["match_id"] == cast.match.pk
    assert Client().get("/api/matches/999999/awards").status_code == 404
    spanish = Client().get(f"/api/matches/{cast.match.pk}/awards", HTTP_ACCEPT_LANGUAGE="es").json()
    assert spanish["awards"][1]["label"] == "Jugador más valioso"


def test_a_spectator_cannot_see_the_committee_awards_page(cast):
    client = Client()
    client.force_login(make_user("someone"))
    assert client.get(reverse("awards:match", args=[cast.match.pk])).status_code == 403


def test_the_scoreboard_shows_awards_only_once_the_match_is_final(cast):
    from matches.templatetags.awards import public_match_awards

    _give_both(cast)
    assert len(public_match_awards(cast.match, "final")["awards"]) == 2
    assert public_match_awards(cast.match, "in_play")["awards"] == []
