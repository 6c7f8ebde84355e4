"""The report task: built when a match ends, again after a correction or a forfeit, once per log
position (running it twice changes nothing); thin (fetch by id, call the service)."""

from __future__ import annotations

import time
from functools import partial

import pytest
from django.urls import reverse

from matches.committee.models import AuditEntry, MatchReport
from matches.committee.services import committee_event_send
from matches.committee.tasks import match_report_build

from .committee_helpers import HOUR, Clock, Committee, ev, log, win_one_chukker

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_celery")]


CAST = partial(Committee, periods=1)  # the cast fixture (conftest.py) makes one per test


def test_the_report_is_built_when_the_match_ends(cast):
    m = cast.match
    clock = Clock(time.time() - HOUR)
    log(m, ev("play"), ev("goal", team="home", number=2, clock=60), ev("play"), clock=clock)
    assert not MatchReport.objects.filter(match=m).exists()
    log(m, ev("horn", kind="final", clock=450, ball={"x": 150, "y": 80}), clock=clock)
    m.refresh_from_db()
    report = MatchReport.objects.get(match=m)
    assert report.last_seq == m.last_seq and report.data["result"]["winner"] == "home"
    assert bytes(report.pdf).startswith(b"%PDF-")


def test_it_is_built_again_after_a_correction(cast):
    m = cast.match
    clock = Clock(time.time() - HOUR)
    card = ev("card", team="away", number=2, color="yellow")
    log(
        m,
        ev("play"),
        ev("goal", team="home", number=2, clock=60),
        card,
        ev("play"),
        ev("horn", kind="final", clock=450, ball={"x": 150, "y": 80}),
        clock=clock,
    )
    log(m, ev("void", target=card["id"], reason="shown to the wrong player"), clock=clock)
    m.refresh_from_db()
    reports = list(MatchReport.objects.filter(match=m).order_by("last_seq"))
    assert [len(r.data["cards"]) for r in reports] == [1, 0]
    assert reports[-1].last_seq == m.last_seq
    assert reports[-1].data["voided"][0]["reason"] == "shown to the wrong player"


def test_running_it_twice_builds_one_report(cast):
    m = cast.match
    win_one_chukker(m, Clock(time.time() - HOUR))
    m.refresh_from_db()
    first = MatchReport.objects.get(match=m)
    for _ in range(2):
        assert match_report_build.apply(args=(m.pk, m.last_seq)).get() == first.pk
    assert MatchReport.objects.filter(match=m).count() == 1
    assert MatchReport.objects.get(match=m).built_at == first.built_at


def test_a_match_that_is_gone_is_ignored(cast):
    assert match_report_build.apply(args=(987654, 3)).get() is None


def test_a_forfeit_builds_it_again(cast):
    m = cast.match
    clock = Clock(time.time() - HOUR)
    win_one_chukker(m, clock, winner="away")
    assert committee_event_send(
        match=m, event={"type": "forfeit", "team": "away", "reason": "other"}, user=cast.member, now=clock()
    ).accepted
    latest = MatchReport.objects.filter(match=m).order_by("-last_seq").first()
    assert latest.data["result"]["winner"] == "home" and latest.data["result"]["result"] == "forfeit"


def test_the_committee_rebuilds_it_and_it_is_audited(cast):
    m = cast.match
    win_one_chukker(m, Clock(time.time() - HOUR))
    before = MatchReport.objects.get(match=m).built_at
    response = cast.client().post(reverse("committee:report_rebuild", args=[m.pk]), follow=True)
    assert "The report is being rebuilt from the log." in response.content.decode()
    assert MatchReport.objects.get(match=m).built_at > before
    entry = AuditEntry.objects.get(match=m, action="report_rebuild")
    assert entry.user == cast.member
