"""The match websocket as a screen meets it: snapshot on connect, an update after every accepted
event (posted through the HTTP API), resync, ping/pong, heartbeats, horns from the clock watcher."""

from __future__ import annotations

import asyncio
import json
import time
import types

import pytest
import pytest_asyncio
from channels.db import database_sync_to_async

from matches.live import fanout
from matches.models import Match

from .live_helpers import (
    client_for,
    communicator,
    ev,
    log,
    post_event,
    receive_until,
    session_cookie,
    started_clock_ago,
    stop_live_machinery,
)

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@pytest_asyncio.fixture
async def live():
    yield
    await stop_live_machinery()


async def connect(match, *, user=None, lang=None):
    cookie = await database_sync_to_async(session_cookie)(user) if user else None
    comm = communicator(match.pk, cookie=cookie, lang=lang)
    connected, code = await comm.connect()
    assert connected, code
    snapshot = await receive_until(comm, "snapshot")
    return comm, snapshot


async def api_post(user, match, event, **headers):
    def post():
        return post_event(client_for(user), match, event, **headers)

    return await database_sync_to_async(post)()


async def test_a_viewer_gets_a_snapshot_on_connect(cast, live):
    await database_sync_to_async(log)(cast.match_a, ev("play"))
    before = time.time()
    comm, snapshot = await connect(cast.match_a)
    assert snapshot["match_id"] == cast.match_a.pk
    assert snapshot["last_seq"] == 1 and snapshot["state"]["last_seq"] == 1
    assert snapshot["state"]["status"] == "in_play" and snapshot["state"]["clock"]["running"] is True
    assert before <= snapshot["server_time"] <= time.time()
    await comm.disconnect()


async def test_every_viewer_gets_the_update_after_an_api_post(cast, live):
    public, _ = await connect(cast.match_a)
    spanish, _ = await connect(cast.match_a, lang="es")
    umpire, _ = await connect(cast.match_a, user=cast.umpire_a)
    other_match, _ = await connect(cast.match_b)
    response = await api_post(cast.scorer_a, cast.match_a, ev("play"))
    assert response.status_code == 201
    for comm in (public, spanish, umpire):
        update = await receive_until(comm, "update")
        assert (update["match_id"], update["seq"], update["last_seq"]) == (cast.match_a.pk, 1, 1)
        assert update["state"]["status"] == "in_play"
        assert [e["type"] for e in update["events"]] == ["play"]
        assert update["server_time"] > 0
    assert await other_match.receive_nothing(timeout=0.3)
    for comm in (public, spanish, umpire, other_match):
        await comm.disconnect()


async def test_one_encoding_serves_every_viewer_and_the_update_needs_no_read(cast, live, monkeypatch):
    comms = [(await connect(cast.match_a))[0] for _ in range(5)]
    reads, encodings = [], []
    original_read, original_dumps = fanout.selectors.match_update, json.dumps

    def counting_read(*args, **kwargs):
        reads.append(args)
        return original_read(*args, **kwargs)

    def counting_dumps(obj, *args, **kwargs):
        encodings.append(obj.get("type"))
        return original_dumps(obj, *args, **kwargs)

    monkeypatch.setattr(fanout.selectors, "match_update", counting_read)
    monkeypatch.setattr(fanout, "json", types.SimpleNamespace(dumps=counting_dumps))
    await api_post(cast.scorer_a, cast.match_a, ev("play"))
    frames = [await comm.receive_from(timeout=5) for comm in comms]
    assert len(set(frames)) == 1 and json.loads(frames[0])["type"] == "update"
    assert encodings == ["update"]  # once, for five sockets
    assert reads == []  # the broadcast carried the events and the state
    for comm in comms:
        await comm.disconnect()


async def test_private_notes_reach_officials_but_not_the_public(cast, live):
    await database_sync_to_async(log)(cast.match_a, ev("play"))
    public, _ = await connect(cast.match_a)
    scorer, _ = await connect(cast.match_a, user=cast.scorer_a)
    whistle = ev(
        "whistle", reason="lost_helmet", ball={"x": 100, "y": 50}, team="home", number=2, private_note="No. 2 argued"
    )
    assert (await api_post(cast.umpire_a, cast.match_a, whistle)).status_code == 201
    seen_by_public = (await receive_until(public, "update"))["events"][0]["event"]
    seen_by_scorer = (await receive_until(scorer, "update"))["events"][0]["event"]
    assert "private_note" not in seen_by_public and seen_by_public["reason"] == "lost_helmet"
    assert seen_by_scorer["private_note"] == "No. 2 argued"
    await public.disconnect()
    await scorer.disconnect()


async def test_resync_sends_a_snapshot_with_the_missed_events(cast, live):
    comm, snapshot = await connect(cast.match_a)
    assert snapshot["last_seq"] == 0
    for event in (ev("play"), ev("goal", team="home", number=1)):
        await api_post(cast.scorer_a, cast.match_a, event)
    await receive_until(comm, "update")  # the screen heard the first...
    await comm.send_json_to({"type": "resync", "since": 0})  # ...but asks for everything since 0
    frames = [await comm.receive_json_from(timeout=5) for _ in range(2)]
    snapshot = next(f for f in frames if f["type"] == "snapshot")
    assert snapshot["last_seq"] == 2 and snapshot["state"]["score"]["home"] == 1
    assert [e["seq"] for e in snapshot["events"]] == [1, 2]
    await comm.disconnect()


async def test_ping_gets_a_pong_with_the_server_time(cast, live):
    comm, _ = await connect(cast.match_a)
    before = time.time()
    await comm.send_json_to({"type": "ping", "client_time": 1234.5})
    pong = await receive_until(comm, "pong")
    assert pong["client_time"] == 1234.5
    assert before <= pong["server_time"] <= time.time()
    await comm.disconnect()


async def test_heartbeats_carry_the_last_seq(cast, live):
    await database_sync_to_async(log)(cast.match_a, ev("play"))
    comm, _ = await connect(cast.match_a)
    await fanout.get_hub().heartbeat()  # the hub's 15-second beat, without the wait
    beat = await receive_until(comm, "heartbeat")
    assert beat["last_seq"] == 1 and beat["server_time"] > 0
    await comm.disconnect()


async def test_an_update_the_layer_lost_is_repaired_at_the_next_heartbeat(cast, live, monkeypatch):
    comm, _ = await connect(cast.match_a)
    from matches.live import receivers

    monkeypatch.setattr(receivers, "broadcast_match_update", lambda *args, **kwargs: None)  # lost
    await database_sync_to_async(log)(cast.match_a, ev("play"))
    assert await comm.receive_nothing(timeout=0.3)
    await fanout.get_hub().heartbeat()
    frames = [await comm.receive_json_from(timeout=5) for _ in range(2)]
    update = next(f for f in frames if f["type"] == "update")
    assert update["seq"] == 1 and [e["type"] for e in update["events"]] == ["play"]
    await comm.disconnect()


async def test_the_clock_watcher_sounds_the_double_horn_to_every_viewer(cast, live):
    # Thrown in 7:24 ago: the seven-minute horn is overdue (the snapshot's read appends it), the
    # double horn is 6 s away and nobody will post anything.
    await database_sync_to_async(started_clock_ago)(cast.match_a, 444)
    viewers = await asyncio.gather(connect(cast.match_a), connect(cast.match_a, lang="es"))
    for comm, snapshot in viewers:
        assert snapshot["state"]["status"] == "in_play" and snapshot["last_seq"] == 2
        update = await receive_until(comm, "update", timeout=20)
        # The seven-minute horn's update can reach a socket whose snapshot already had it (appended
        # by the other viewer's read while this one subscribed): a screen skips what it knows.
        while update["seq"] <= snapshot["last_seq"]:
            update = await receive_until(comm, "update", timeout=20)
        assert [(e["type"], e["event"]["kind"]) for e in update["events"]] == [("horn", "final")]
        assert update["state"]["status"] == "interval" and update["state"]["clock"]["running"] is False
        assert update["state"]["interval"]["seconds"] == 180
    match = await database_sync_to_async(Match.objects.get)(pk=cast.match_a.pk)
    kinds = await database_sync_to_async(lambda: list(match.events.values_list("payload__kind", flat=True)))()
    assert kinds == [None, "seven", "final"]
    for comm, _ in viewers:
        await comm.disconnect()


async def test_the_clock_watcher_takes_an_update_s_state_without_reading_the_database(cast, live, monkeypatch):
    """An update wakes the watcher with the match's state in its message: the horn it makes due is
    sounded from that state, with no read of the running clocks between the throw-in and the horn."""
    from matches.live import clock

    reads, read_once = [], asyncio.Event()
    loop = asyncio.get_running_loop()
    real_read, real_catch_up = clock._running_clocks, clock._catch_up

    def counted_read():
        reads.append(time.time())
        loop.call_soon_threadsafe(read_once.set)
        return real_read()

    reads_at_catch_up = []

    def counted_catch_up(match_id):
        reads_at_catch_up.append(len(reads))
        return real_catch_up(match_id)

    monkeypatch.setattr(clock, "_running_clocks", counted_read)
    monkeypatch.setattr(clock, "_catch_up", counted_catch_up)
    comm, _ = await connect(cast.match_a)
    await asyncio.wait_for(read_once.wait(), 10)  # the watcher's first read: nothing runs yet
    assert len(reads) == 1
    # Thrown in 6:58 ago: the seven-minute horn is 2 s away, known only from the update's state.
    await database_sync_to_async(started_clock_ago)(cast.match_a, 418)
    play = await receive_until(comm, "update")
    assert play["state"]["clock"]["running"] is True
    horn = await receive_until(comm, "update", timeout=15)
    assert [(e["type"], e["event"]["kind"]) for e in horn["events"]] == [("horn", "seven")]
    assert reads_at_catch_up == [1]  # the horn was found from the message, not from a read
    await comm.disconnect()


async def test_two_viewers_joining_at_once_share_one_subscription(cast, live):
    results = await asyncio.gather(*(connect(cast.match_a) for _ in range(10)))
    hub = fanout.get_hub()
    assert list(hub.rooms) == [cast.match_a.pk] and len(hub.rooms[cast.match_a.pk].sockets) == 10
    assert hub.groups == {f"match.{cast.match_a.pk}"}
    for comm, _ in results:
        await comm.disconnect()
    assert hub.rooms == {} and hub.groups == set()


async def test_an_update_after_a_lost_one_brings_both_from_the_log(cast, live, monkeypatch):
    comm, _ = await connect(cast.match_a)
    from matches.live import receivers

    real = receivers.broadcast_match_update
    monkeypatch.setattr(receivers, "broadcast_match_update", lambda *args, **kwargs: None)
    await database_sync_to_async(log)(cast.match_a, ev("play"))  # its broadcast is lost
    monkeypatch.setattr(receivers, "broadcast_match_update", real)
    await api_post(cast.scorer_a, cast.match_a, ev("goal", team="home", number=1))
    update = await receive_until(comm, "update")
    assert (update["seq"], update["last_seq"]) == (1, 2)
    assert [e["type"] for e in update["events"]] == ["play", "goal"]
    assert await comm.receive_nothing(timeout=0.3)  # nothing doubled
    await comm.disconnect()
