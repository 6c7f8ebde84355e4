"""Match control from the committee's match page: suspend and resume (Rules 21.k, 22.j) — later
that day or another day — at the same score, period, clock and ball position; abandon; overtime
for a tied game (Rule 14.c). Every decision goes through the event log and into the audit trail."""

from __future__ import annotations

import time
import uuid

import pytest
from django.urls import reverse

from matches.committee.models import AuditEntry
from matches.committee.services import committee_event_send
from matches.models import MatchEvent

from .committee_helpers import HOUR, Clock, Committee, ev, log, tie_one_chukker

pytestmark = pytest.mark.django_db

BALL_OUT_OVER_THE_SIDE = dict(line="side", at={"x": 120, "y": 0}, last_hit_by="away", deflected_off="none")


CAST = Committee  # the cast fixture (conftest.py) makes one per test


def stopped_after_a_goal(match, clock: Clock) -> dict:
    """Home 1–0, the ball over the side at 1:35 of the first chukker (a free hit pending)."""
    return log(
        match,
        ev("play"),
        ev("goal", team="home", number=1, clock=40),
        ev("play"),
        ev("ball_out", clock=95, **BALL_OUT_OVER_THE_SIDE),
        clock=clock,
    )


def where_it_stands(state: dict) -> tuple:
    return (
        state["score"],
        state["period"],
        state["clock"]["elapsed"],
        (state["restart"] or {}).get("spot"),
        (state["restart"] or {}).get("kind"),
    )


def just_now() -> Clock:
    """Wall times of a few seconds ago: the page's own decisions come at the real time, and the
    clock must not have run out meanwhile."""
    return Clock(time.time() - 30)


def post(client, name: str, match, **data):
    return client.post(
        reverse(f"committee:{name}", args=[match.pk]), {"event_id": str(uuid.uuid4()), **data}, follow=True
    )


def test_suspending_and_resuming_keeps_score_period_clock_and_ball(cast):
    m = cast.match
    before = stopped_after_a_goal(m, Clock())
    client = cast.client()
    page = post(client, "match_suspend", m, reason="darkness")
    assert page.context["state"]["status"] == "suspended"
    assert "The game is suspended (Rule 21.k)." in page.content.decode()
    page = post(client, "match_resume", m)
    after = page.context["state"]
    assert after["status"] == "stopped"
    assert where_it_stands(after) == where_it_stands(before)
    assert [a.action for a in AuditEntry.objects.filter(match=m).order_by("at", "pk")] == ["suspend", "resume"]
    suspend = AuditEntry.objects.get(match=m, action="suspend")
    assert suspend.user == cast.member and suspend.details["event"]["reason"] == "darkness"


def test_a_suspended_game_resumes_another_day_where_it_stopped(cast):
    m = cast.match
    clock = Clock()
    before = stopped_after_a_goal(m, clock)
    assert committee_event_send(
        match=m, event={"type": "suspend", "reason": "weather"}, user=cast.member, now=clock()
    ).accepted
    resumed = committee_event_send(
        match=m, event={"type": "resume", "reason": "committee"}, user=cast.member, now=clock(26 * HOUR)
    )
    assert resumed.accepted
    assert where_it_stands(resumed.state) == where_it_stands(before)
    # and play goes on from there
    state = log(m, ev("play"), clock=clock)
    assert state["status"] == "in_play" and state["clock"]["elapsed"] == before["clock"]["elapsed"]


def test_suspending_a_game_in_play_records_where_the_ball_was(cast):
    m = cast.match
    log(m, ev("play"), clock=just_now())
    page = post(cast.client(), "match_suspend", m, reason="other", note="lightning", ball_x="200", ball_y="30")
    state = page.context["state"]
    assert state["status"] == "suspended"
    assert state["restart"]["kind"] == "throw_in" and state["restart"]["spot"] == {"x": 200.0, "y": 30.0}
    assert state["restart"]["rule"] == "22.j"
    assert MatchEvent.objects.get(match=m, type="suspend").payload["reason"] == "lightning"


def test_another_reason_needs_a_note(cast):
    m = cast.match
    log(m, ev("play"))
    page = post(cast.client(), "match_suspend", m, reason="other")
    assert "Say why the game is suspended." in page.content.decode()
    assert not MatchEvent.objects.filter(match=m, type="suspend").exists()


def test_only_a_suspended_game_can_be_abandoned(cast):
    m = cast.match
    stopped_after_a_goal(m, Clock())
    client = cast.client()
    page = post(client, "match_abandon", m, reason="no light")
    assert "(Rule 22.j)" in page.content.decode()
    assert page.context["state"]["status"] == "stopped"
    post(client, "match_suspend", m, reason="darkness")
    page = post(client, "match_abandon", m, reason="no conceivable effect on the outcome")
    assert page.context["state"]["status"] == "abandoned"
    assert AuditEntry.objects.filter(match=m, action="abandon", user=cast.member).exists()


def test_overtime_is_only_for_a_tied_game(cast):
    m = cast.match
    m.periods = 1
    m.save()
    client = cast.client()
    log(m, ev("play"), clock=just_now())
    page = post(client, "match_overtime", m)
    assert "(Rule 14.c)" in page.content.decode()
    assert not AuditEntry.objects.filter(match=m, action="overtime").exists()


def test_the_committee_sends_a_tied_game_into_overtime(cast):
    m = cast.match
    m.periods = 1
    m.save()
    tied = tie_one_chukker(m)
    assert tied["status"] == "tied"
    page = post(cast.client(), "match_overtime", m)
    state = page.context["state"]
    assert state["status"] == "interval" or state["period"]["kind"] == "overtime"
    # Rule 14.c: the first goal in overtime wins.
    state = log(m, ev("play"), ev("goal", team="away", number=3, clock=20))
    assert state["status"] == "final" and state["winner"] == "away" and state["result"] == "overtime"


def test_a_double_submit_records_the_decision_once(cast):
    m = cast.match
    stopped_after_a_goal(m, Clock())
    client = cast.client()
    event_id = str(uuid.uuid4())
    for _ in range(2):
        client.post(reverse("committee:match_suspend", args=[m.pk]), {"event_id": event_id, "reason": "darkness"})
    assert MatchEvent.objects.filter(match=m, type="suspend").count() == 1
    assert AuditEntry.objects.filter(match=m, action="suspend").count() == 1


def test_a_refusal_is_in_the_users_language(cast):
    m = cast.match
    log(m, ev("play"), clock=just_now())
    client = cast.client()
    client.cookies["django_language"] = "es"
    page = client.post(reverse("committee:match_resume", args=[m.pk]), {"event_id": str(uuid.uuid4())}, follow=True)
    assert "El partido no está suspendido." in page.content.decode()
