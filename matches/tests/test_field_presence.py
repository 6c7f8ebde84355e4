"""The field's timekeeper on the match websocket (issue 34): the scorer's screen says, with each ping,
whether it has sent everything it kept; the server notes it, tells every screen when the field falls
silent and when it is heard again, and appends a horn that waited for it once it is heard."""

from __future__ import annotations

import time

import pytest
import pytest_asyncio
from channels.db import database_sync_to_async

from matches.live import field
from matches.models import Match

from .live_helpers import communicator, ev, log, receive_close, receive_until, session_cookie, stop_live_machinery

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@pytest_asyncio.fixture
async def live(settings):
    settings.FIELD_SILENT_SECONDS = 2
    yield
    await stop_live_machinery()


async def connect(match, *, user=None):
    cookie = await database_sync_to_async(session_cookie)(user) if user else None
    comm = communicator(match.pk, cookie=cookie)
    connected, code = await comm.connect()
    assert connected, code
    return comm, await receive_until(comm, "snapshot")


def heard_at(match) -> float | None:
    return Match.objects.get(pk=match.pk).field_heard_at


async def test_the_scorers_word_is_noted_and_a_silence_is_told_to_every_screen(cast, live):
    await database_sync_to_async(log)(cast.match_a, ev("play"))
    public, snapshot = await connect(cast.match_a)
    assert snapshot["field"] == {"heard_at": None, "silent": False, "silent_for": None}  # no timekeeper yet
    scorer, _ = await connect(cast.match_a, user=cast.scorer_a)
    before = time.time()
    await scorer.send_json_to({"type": "ping", "client_time": before, "pending": 0})
    assert (await receive_until(scorer, "pong"))["server_time"] >= before
    heard = await receive_until(public, "field")  # first heard: every screen is told
    assert heard["field"]["silent"] is False and heard["field"]["heard_at"] >= before
    assert await database_sync_to_async(heard_at)(cast.match_a) >= before

    # Then nothing from the field: after FIELD_SILENT_SECONDS every screen hears it is silent.
    silent = await receive_until(public, "field", timeout=10.0)
    assert silent["field"]["silent"] is True and silent["field"]["silent_for"] >= 2
    # Heard again: told again.
    await scorer.send_json_to({"type": "ping", "client_time": time.time(), "pending": 0})
    back = await receive_until(public, "field", timeout=5.0)
    assert back["field"]["silent"] is False
    await public.disconnect()
    await scorer.disconnect()


async def test_a_scorer_with_entries_still_to_send_is_not_heard(cast, live):
    scorer, _ = await connect(cast.match_a, user=cast.scorer_a)
    await scorer.send_json_to({"type": "ping", "client_time": time.time(), "pending": 3})
    await receive_until(scorer, "pong")
    assert await database_sync_to_async(heard_at)(cast.match_a) is None
    await scorer.disconnect()


async def test_an_umpires_or_the_publics_word_does_not_speak_for_the_field(cast, live):
    umpire, _ = await connect(cast.match_a, user=cast.umpire_a)
    public, _ = await connect(cast.match_a)
    for comm in (umpire, public):
        await comm.send_json_to({"type": "ping", "client_time": time.time(), "pending": 0})
        await receive_until(comm, "pong")
    assert await database_sync_to_async(heard_at)(cast.match_a) is None
    await umpire.disconnect()
    await public.disconnect()


@pytest.mark.parametrize("pending", [-1, 1.5, "0", True])
async def test_a_ping_with_a_bad_pending_count_is_refused(cast, live, pending):
    scorer, _ = await connect(cast.match_a, user=cast.scorer_a)
    await scorer.send_json_to({"type": "ping", "client_time": time.time(), "pending": pending})
    error = await receive_until(scorer, "error")
    assert error["code"] == "invalid_message"
    assert await receive_close(scorer) == 4008
    assert await database_sync_to_async(heard_at)(cast.match_a) is None


async def test_a_horn_that_waited_for_the_field_follows_once_it_is_heard(cast, live):
    """The seven-minute mark passed while the field was silent: no horn (a read appends none either);
    the scorer's screen is heard again with everything sent, and the clock watcher appends it, at
    its mark, for every screen."""
    started = time.time() - 425.0  # the throw-in: the single horn fell 5 s ago
    await database_sync_to_async(log)(cast.match_a, ev("play"), now=started)
    await database_sync_to_async(field.field_heard)(cast.match_a.pk, time.time() - 30.0)
    public, snapshot = await connect(cast.match_a)
    assert snapshot["last_seq"] == 1 and snapshot["field"]["silent"] is True
    scorer, _ = await connect(cast.match_a, user=cast.scorer_a)
    await scorer.send_json_to({"type": "ping", "client_time": time.time(), "pending": 0})
    update = await receive_until(public, "update", timeout=10.0, skip=("heartbeat", "field", "pong"))
    assert [e["id"] for e in update["events"]] == ["auto:1:seven"]
    assert update["events"][0]["event"]["server_time"] == pytest.approx(started + 420.0)
    await public.disconnect()
    await scorer.disconnect()


async def test_a_scorers_screen_closed_with_everything_sent_hands_the_clock_back(cast, live, settings, monkeypatch):
    settings.FIELD_SILENT_SECONDS = 60  # (this test is about the release, not the silence)
    monkeypatch.setattr(field, "RELEASE_SECONDS", 0.0)
    scorer, _ = await connect(cast.match_a, user=cast.scorer_a)
    public, _ = await connect(cast.match_a)
    await scorer.send_json_to({"type": "ping", "client_time": time.time(), "pending": 0})
    await receive_until(public, "field")  # heard
    assert await database_sync_to_async(heard_at)(cast.match_a) is not None
    await scorer.disconnect(code=1001)  # the tab closed
    released = await receive_until(public, "field", timeout=10.0)
    assert released["field"] == {"heard_at": None, "silent": False, "silent_for": None}
    assert await database_sync_to_async(heard_at)(cast.match_a) is None
    await public.disconnect()


@pytest.mark.parametrize("pending, code", [(2, 1001), (0, 1006)], ids=["entries unsent", "the link dropped"])
async def test_a_scorers_screen_gone_otherwise_leaves_the_field_the_authority(cast, live, monkeypatch, pending, code):
    monkeypatch.setattr(field, "RELEASE_SECONDS", 0.0)  # a release, if any, would come at once
    scorer, _ = await connect(cast.match_a, user=cast.scorer_a)
    await scorer.send_json_to({"type": "ping", "client_time": time.time(), "pending": 0})
    await receive_until(scorer, "pong", skip=("heartbeat", "field"))
    await scorer.send_json_to({"type": "ping", "client_time": time.time(), "pending": pending})
    await receive_until(scorer, "pong", skip=("heartbeat", "field"))
    heard = await database_sync_to_async(heard_at)(cast.match_a)
    await scorer.disconnect(code=code)
    public, _ = await connect(cast.match_a)  # (a round trip through the loop and the database thread)
    await public.send_json_to({"type": "ping", "client_time": time.time()})
    await receive_until(public, "pong", skip=("heartbeat", "field"))
    assert heard is not None
    assert await database_sync_to_async(heard_at)(cast.match_a) == heard  # still the field's
    await public.disconnect()
