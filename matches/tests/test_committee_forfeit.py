"""Forfeits (Rule 21.f(5)): recorded by the committee up to 24 hours after the game, with the
evidence noted; refused later with a clear, translated error. The result changes everywhere:
the state, the standings and the official report."""

from __future__ import annotations

import time
import uuid
from functools import partial

import pytest
from django.urls import reverse

from matches.committee.models import AuditEntry, MatchReport
from matches.committee.standings import tournament_standings
from matches.models import MatchEvent

from .committee_helpers import HOUR, Clock, Committee, ev, log, win_one_chukker

# The report is built on commit, by the Celery task (in-process here).
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_celery")]

EVIDENCE = "Video from the east stands: Blue #2 back on Lucera in the 1st chukker."


CAST = partial(Committee, periods=1)  # the cast fixture (conftest.py) makes one per test


def forfeit(client, match, team: str = "home"):
    return client.post(
        reverse("committee:match_forfeit", args=[match.pk]),
        {"event_id": str(uuid.uuid4()), "team": team, "reason": "excused_horse_returned", "evidence": EVIDENCE},
        follow=True,
    )


def row(rows, entry):
    return next(r for r in rows if r.entry == entry)


def test_a_forfeit_after_the_game_changes_the_result_everywhere(cast):
    m = cast.match
    win_one_chukker(m, Clock(time.time() - 2 * HOUR), winner="home")
    m.refresh_from_db()
    assert row(tournament_standings(m.tournament), m.home).wins == 1
    first_report = MatchReport.objects.get(match=m)
    assert first_report.data["result"]["winner"] == "home"

    page = forfeit(cast.client(), m, team="home")
    state = page.context["state"]
    assert state["winner"] == "away" and state["result"] == "forfeit" and state["status"] == "final"
    assert "Forfeit recorded: the result has changed." in page.content.decode()
    rows = tournament_standings(m.tournament)
    assert (row(rows, m.home).wins, row(rows, m.home).losses, row(rows, m.home).forfeits) == (0, 1, 1)
    assert (row(rows, m.away).wins, row(rows, m.away).losses) == (1, 0)
    m.refresh_from_db()
    report = MatchReport.objects.get(match=m, last_seq=m.last_seq)
    assert report.pk != first_report.pk
    assert report.data["result"]["result"] == "forfeit" and report.data["result"]["winner"] == "away"
    audit = AuditEntry.objects.get(match=m, action="forfeit")
    assert audit.user == cast.member and audit.details["evidence"] == EVIDENCE
    assert MatchEvent.objects.get(match=m, type="forfeit").payload["reason"] == "excused_horse_returned"


def test_a_forfeit_more_than_24_hours_after_the_game_is_refused(cast):
    m = cast.match
    win_one_chukker(m, Clock(time.time() - 26 * HOUR))
    page = forfeit(cast.client(), m)
    assert "A forfeiture may be exacted only within 24 hours after the game. (Rule 21.f(5))" in page.content.decode()
    assert not MatchEvent.objects.filter(match=m, type="forfeit").exists()
    assert not AuditEntry.objects.filter(match=m, action="forfeit").exists()


def test_the_refusal_is_translated(cast):
    m = cast.match
    win_one_chukker(m, Clock(time.time() - 26 * HOUR))
    client = cast.client()
    client.cookies["django_language"] = "es"
    page = forfeit(client, m)
    assert "24 horas" in page.content.decode()


def test_the_page_shows_the_forfeiture_the_engine_recorded(cast):
    m = cast.match
    # Rule 21.f(1): an injured horse is excused; 21.f(5): riding it again forfeits the game.
    log(
        m,
        ev("play"),
        ev("mount", team="away", number=3, horse="Lucera"),
        ev(
            "whistle", reason="injured_horse", team="away", number=3, horse="Lucera", ball={"x": 100, "y": 60}, clock=50
        ),
        ev("mount", team="away", number=3, horse="Pampa"),
        ev("play"),
        ev("mount", team="away", number=3, horse="Lucera"),
        clock=Clock(time.time() - 60),
    )
    page = cast.client().get(reverse("committee:match_forfeit", args=[m.pk]))
    assert page.context["state"]["forfeit"]["team"] == "away"
    assert page.context["form"].initial["team"] == "away"
    assert "The rules engine has recorded the forfeiture the rule requires" in page.content.decode()
