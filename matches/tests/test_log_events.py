"""The match log's post-commit seam (``matches/log_events.py``): the rooms hear of appended events
once the transaction commits, never before and never for an event rolled back; a room that fails
does not stop the others; the live room and the committee are the ones connected."""

from __future__ import annotations

import time

import pytest
from django.db import transaction

from matches.log_events import LoggedEvents, events_logged
from matches.services import match_clock_catch_up, match_event_log

from .committee_helpers import ev
from .personas import make_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def heard():
    """What a test receiver hears (connected for the test only)."""
    calls: list[LoggedEvents] = []

    def receiver(sender, *, logged: LoggedEvents, **kwargs) -> None:
        calls.append(logged)

    events_logged.connect(receiver, dispatch_uid="test-heard")
    yield calls
    events_logged.disconnect(dispatch_uid="test-heard")


def test_the_rooms_hear_of_an_event_once_it_is_committed(heard, django_capture_on_commit_callbacks):
    match = make_match()
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        result = match_event_log(match_id=match.pk, event=ev("play"), now=time.time())
    assert result.accepted and heard == []  # not before the commit
    for callback in callbacks:
        callback()
    [logged] = heard
    assert logged.match_id == match.pk and (logged.first_seq, logged.last_seq) == (1, 1)
    assert [e["type"] for e in logged.events] == ["play"] and logged.events[0]["id"] == result.event["id"]
    assert logged.state == result.state and logged.state["last_seq"] == 1
    assert logged.state_in("es")["status"] == "in_play"


def test_the_horns_the_clock_made_due_come_in_the_same_message(heard, django_capture_on_commit_callbacks):
    match = make_match()
    t0 = time.time() - 455  # thrown in 7:35 ago: both horns are due
    match_event_log(match_id=match.pk, event=ev("play"), now=t0)
    with django_capture_on_commit_callbacks(execute=True):
        assert match_clock_catch_up(match_id=match.pk, now=t0 + 455) == [2, 3]
    assert [(e["type"], e["event"]["kind"]) for e in heard[-1].events] == [("horn", "seven"), ("horn", "final")]


def test_an_event_rolled_back_is_heard_by_nobody(heard, django_capture_on_commit_callbacks):
    match = make_match()
    with django_capture_on_commit_callbacks(execute=True):
        with pytest.raises(RuntimeError):
            with transaction.atomic():
                match_event_log(match_id=match.pk, event=ev("play"), now=time.time())
                raise RuntimeError("the caller's transaction fails after the append")
    assert heard == []


def test_a_room_that_fails_does_not_stop_the_others_nor_the_write(heard, django_capture_on_commit_callbacks):
    def broken(sender, **kwargs):
        raise ConnectionError("the broker is away")

    events_logged.connect(broken, dispatch_uid="test-broken")
    try:
        match = make_match()
        with django_capture_on_commit_callbacks(execute=True):
            result = match_event_log(match_id=match.pk, event=ev("play"), now=time.time())
    finally:
        events_logged.disconnect(dispatch_uid="test-broken")
    assert result.accepted and len(heard) == 1
    assert match.events.count() == 1


def test_the_live_room_and_the_committee_are_connected():
    from matches.committee import receivers as committee
    from matches.live import receivers as live

    connected = [receiver() for _key, receiver, *_rest in events_logged.receivers]
    assert committee.on_events_logged in connected and live.on_events_logged in connected
