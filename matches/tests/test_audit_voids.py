"""Every void appears in the committee's audit trail (issue 9: "the committee's audit trail did not
show it").

A void is a ``void`` event of the match log, sent by an official through the event API; it is not
an audit entry. The committee's match page (and the tournament's) lists each one among its own
actions, newest first: when, who, which event it took back (its position in the log and its type
in words, with the team) and the reason — in English and in Spanish.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from matches.committee.models import AuditEntry
from matches.committee.selectors import VoidRecord, audit_trail
from matches.models import MatchEvent
from matches.services import match_event_log

from .committee_helpers import Committee, ev
from .live_helpers import post_event

pytestmark = pytest.mark.django_db


CAST = Committee  # the cast fixture (conftest.py) makes one per test


def rows(page: str) -> list[str]:
    """The audit trail's rows, top to bottom."""
    trail = page[page.index('id="audit"') :]
    trail = trail[: trail.index("</table>")]
    return [chunk[: chunk.index("</tr>")] for chunk in trail.split("<tr data-action=")[1:]]


def void_rows(page: str) -> list[str]:
    return [r for r in rows(page) if r.startswith('"void"')]


def scorer_logs_a_goal_and_voids_it(cast, reason: str = "Wrong team: the goal was Red's") -> tuple[dict, dict]:
    """Through the event API, as the scorer's screen does: play, a goal for home, the void."""
    scorer = cast.client(cast.scorer)
    assert post_event(scorer, cast.match, ev("play")).status_code == 201
    goal = ev("goal", team="home", number=2)
    assert post_event(scorer, cast.match, goal).status_code == 201
    void = ev("void", target=goal["id"], reason=reason)
    response = post_event(scorer, cast.match, void)
    assert response.status_code == 201, response.content
    return goal, void


def test_a_void_by_the_scorer_shows_in_the_audit_trail_with_its_target_and_reason(cast):
    m = cast.match
    _goal, void = scorer_logs_a_goal_and_voids_it(cast)
    stored = MatchEvent.objects.get(match=m, client_id=void["id"])
    page = cast.client().get(reverse("committee:match", args=[m.pk])).content.decode()
    [row] = void_rows(page)
    assert f'data-seq="{stored.seq}"' in row
    assert "Event voided" in row
    assert "<td>sam</td>" in row  # who: the scorer
    when = timezone.localtime(stored.received_at).strftime("%Y-%m-%d %H:%M:%S")
    assert f">{when}</time>" in row
    assert "<b>voided event</b> #2 goal" in row  # the goal was the log's second event
    assert f"<b>team</b> {m.home.team.name}" in row
    assert "<b>reason</b> Wrong team: the goal was Red&#x27;s" in row


def test_voids_are_merged_in_time_with_the_committee_actions(cast):
    """Newest first, by time: an audit entry before the void is below it, one after above it."""
    m = cast.match
    t0 = time.time() - 600
    for dt, event in [
        (0, ev("play")),
        (10, ev("goal", team="away", number=1, id="g1")),
        (30, ev("void", target="g1", reason="no goal: the ball went wide")),
    ]:
        result = match_event_log(match_id=m.pk, event=event, user=cast.umpire, now=t0 + dt)
        assert result.accepted, (event, result.error and result.error.message("en"))

    def at(dt: float) -> datetime:
        return datetime.fromtimestamp(t0 + dt, tz=UTC)

    AuditEntry.objects.create(
        user=cast.member,
        action="officials",
        match=m,
        tournament=m.tournament,
        at=at(29),
        details={"umpires": ["ulises"]},
    )
    AuditEntry.objects.create(
        user=cast.member, action="report_rebuild", match=m, tournament=m.tournament, at=at(31), details={"last_seq": 3}
    )
    page = cast.client().get(reverse("committee:match", args=[m.pk])).content.decode()
    actions = [r.split('"')[1] for r in rows(page)]
    assert actions == ["report_rebuild", "void", "officials"]
    [row] = void_rows(page)
    assert "<td>ulises</td>" in row and "<b>voided event</b> #2 goal" in row and m.away.team.name in row
    assert "<b>reason</b> no goal: the ball went wide" in row
    # The selector says the same, newest first.
    trail = audit_trail(match=m)
    assert [r.action for r in trail] == ["report_rebuild", "void", "officials"]
    assert isinstance(trail[1], VoidRecord) and trail[1].target.client_id == "g1" and trail[1].seq == 3


def test_every_void_is_listed_and_a_void_without_a_reason_says_so(cast):
    m = cast.match
    t0 = time.time() - 600
    events = [
        ev("play"),
        ev("goal", id="g1", team="home", number=3),
        ev("void", target="g1", reason="it was a foul"),
        ev("goal", id="g2", team="away", number=4),
        ev("void", target="g2"),
    ]
    for dt, event in enumerate(events):
        result = match_event_log(match_id=m.pk, event=event, user=cast.scorer, now=t0 + 10 * dt)
        assert result.accepted, (event, result.error and result.error.message("en"))
    page = cast.client().get(reverse("committee:match", args=[m.pk])).content.decode()
    found = void_rows(page)
    assert len(found) == 2 == MatchEvent.objects.filter(match=m, type="void").count()
    assert "<b>voided event</b> #4 goal" in found[0] and "<b>reason</b> (no reason given)" in found[0]
    assert f"<b>team</b> {m.away.team.name}" in found[0]
    assert "<b>voided event</b> #2 goal" in found[1] and "<b>reason</b> it was a foul" in found[1]
    assert f"<b>team</b> {m.home.team.name}" in found[1]


def test_a_void_of_a_committee_decision_is_named_in_words(cast):
    m = cast.match
    t0 = time.time() - 600
    for dt, event, user in [
        (0, ev("play"), cast.umpire),
        (10, ev("whistle", reason="injured_player"), cast.umpire),
        (20, ev("suspend", id="s1", reason="weather"), cast.member),
    ]:
        result = match_event_log(match_id=m.pk, event=event, user=user, now=t0 + dt)
        assert result.accepted, (event, result.error and result.error.message("en"))
    result = match_event_log(
        match_id=m.pk, event=ev("void", target="s1", reason="the rain stopped"), user=cast.member, now=t0 + 30
    )
    assert result.accepted, result.error and result.error.message("en")
    page = cast.client().get(reverse("committee:match", args=[m.pk])).content.decode()
    [row] = void_rows(page)
    assert "<b>voided event</b> #3 suspension of the game" in row and "<td>carmen</td>" in row


def test_the_tournament_trail_lists_the_void_with_its_match(cast):
    m = cast.match
    scorer_logs_a_goal_and_voids_it(cast)
    page = cast.client().get(reverse("committee:tournament", args=[m.tournament.pk])).content.decode()
    [row] = void_rows(page)
    assert reverse("committee:match", args=[m.pk]) in row and "<b>voided event</b> #2 goal" in row


def test_the_void_reads_in_spanish(cast):
    m = cast.match
    scorer_logs_a_goal_and_voids_it(cast, reason="era del otro equipo")
    for event in (ev("goal", id="g2", team="away", number=1), ev("void", target="g2")):
        result = match_event_log(match_id=m.pk, event=event, user=cast.scorer)
        assert result.accepted, (event, result.error and result.error.message("en"))
    page = cast.client().get(reverse("committee:match", args=[m.pk]), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    found = void_rows(page)
    assert len(found) == 2
    goal = next(r for r in found if "era del otro equipo" in r)
    assert "Evento anulado" in goal
    assert "<b>evento anulado</b> #2 gol" in goal
    assert f"<b>equipo</b> {m.home.team.name}" in goal
    assert "<b>motivo</b> era del otro equipo" in goal
    unexplained = next(r for r in found if r is not goal)
    assert "<b>evento anulado</b> #4 gol" in unexplained and "<b>motivo</b> (sin motivo)" in unexplained
    for english in ("Event voided", "voided event", "<b>reason</b>", "(no reason given)"):
        assert english not in goal + unexplained
