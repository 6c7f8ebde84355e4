"""Officials first (issue 14): the hub writes an update to the match's officials' sockets before
the public's, and an official never waits behind the crowd's share of an earlier update; each
socket still gets every update once, in seq order. No cold start: what the first update needs
(the API's validators, each language's catalogs) is loaded when the first sockets connect. The
hub is driven directly with stand-in sockets (no database, no layer)."""

from __future__ import annotations

import asyncio
import importlib.util
import logging
import time

import pytest

from matches.live import broadcast, clock, fanout

pytestmark = pytest.mark.asyncio


class FakeSocket:
    """A socket as the hub sees it (``fanout.Socket``), recording what it is written into a log
    shared by all of them; ``gate``, when set, holds its writes until opened."""

    def __init__(self, name: str, written: list, *, official: bool = False, lang: str = "en") -> None:
        self.name, self.written, self.official, self.lang = name, written, official, lang
        self.match_id, self.user_id = 1, (7 if official else None)
        self.gate: asyncio.Event | None = None
        self.texts: list[str] = []

    def push_now(self, frame: bytes) -> bool:  # (never a direct write: every write is recorded by push)
        return False

    def push_queued(self, text: str, last_seq: int) -> bool:
        return False

    async def push(self, text: str, last_seq: int) -> None:
        if self.gate is not None:
            await self.gate.wait()
        self.written.append((self.name, last_seq))
        self.texts.append(text)

    async def recheck_role(self) -> None:  # (the hub's protocol; not used here)
        return None

    async def close_for(self, code: int, error: str) -> None:
        return None


def update_message(seq: int) -> dict:
    event = {"seq": seq, "id": f"e{seq}", "type": "play", "event": {"type": "play", "note": "private"}}
    return {
        "type": "match.update",
        "match_id": 1,
        "seq": seq,
        "last_seq": seq,
        "states": {"en": {"status": "in_play", "last_seq": seq}},
        "events": [event],
        "server_time": 1.0,
    }


def hub_with(*sockets: FakeSocket) -> fanout.Hub:
    hub = fanout.Hub(asyncio.get_running_loop())
    hub.layer = None  # no channel layer: the messages are handed to on_message directly
    room = hub.rooms[1] = fanout.Room(1)
    room.ready.set()
    for socket in sockets:
        room.add(socket)
    return hub


async def until(predicate, timeout: float = 5.0) -> None:
    async def wait():
        while not predicate():
            await asyncio.sleep(0)

    await asyncio.wait_for(wait(), timeout)


async def test_an_officials_socket_is_written_before_the_public_ones():
    written: list = []
    public = [FakeSocket(f"viewer{n}", written) for n in range(120)]  # more than one YIELD_EVERY batch
    officials = [FakeSocket("scorer", written, official=True), FakeSocket("umpire", written, official=True)]
    hub = hub_with(*public[:60], *officials, *public[60:])  # joined among the crowd
    hub.on_message(update_message(1))
    await until(lambda: len(written) == 122)
    assert {name for name, _ in written[:2]} == {"scorer", "umpire"}
    assert all(name.startswith("viewer") for name, _ in written[2:])
    # Each socket once, with its own variant: the officials' frame carries the private note.
    assert sorted(name for name, _ in written) == sorted(s.name for s in public + officials)
    assert '"note":"private"' in officials[0].texts[0] and '"note"' not in public[0].texts[0]


async def test_an_official_does_not_wait_for_the_crowds_share_of_an_earlier_update():
    written: list = []
    crowd = [FakeSocket(f"viewer{n}", written) for n in range(3)]
    stuck = asyncio.Event()
    for socket in crowd:
        socket.gate = stuck  # the public's writes of update 1 hang (a slow crowd)
    scorer = FakeSocket("scorer", written, official=True)
    hub = hub_with(*crowd, scorer)
    hub.on_message(update_message(1))
    await until(lambda: ("scorer", 1) in written)
    hub.on_message(update_message(2))
    await until(lambda: ("scorer", 2) in written)  # while the crowd still waits on update 1
    assert [entry for entry in written if entry[0].startswith("viewer")] == []
    stuck.set()
    await until(lambda: len(written) == 8)
    for socket in crowd:  # each viewer: update 1 then 2, once each
        assert [seq for name, seq in written if name == socket.name] == [1, 2]
    assert [seq for name, seq in written if name == "scorer"] == [1, 2]


class GatedLayer:
    """A channel layer whose sends to the other processes are held until ``gate`` opens."""

    def __init__(self, written: list) -> None:
        self.written = written
        self.gate = asyncio.Event()

    async def group_send(self, group: str, message: dict) -> None:
        self.written.append(("layer", message["last_seq"]))
        await self.gate.wait()
        self.written.append(("layer sent", message["last_seq"]))


def local_delivery(monkeypatch, hub: fanout.Hub, layer: GatedLayer, head_start: float) -> None:
    monkeypatch.setattr(broadcast, "get_channel_layer", lambda: layer)
    monkeypatch.setattr(broadcast.fanout, "current_hub", lambda: hub)
    monkeypatch.setattr(fanout, "LAYER_HEAD_START", head_start)


async def test_an_update_posted_here_reaches_the_other_processes_before_this_processs_crowd(monkeypatch):
    """Officials first across processes: this process's officials at once, then the layer's send
    to the others, then this process's public (whose writes would otherwise hold the loop while
    Redis's round trips wait, and every other process's screens with them)."""
    written: list = []
    crowd = [FakeSocket(f"viewer{n}", written) for n in range(3)]
    hub = hub_with(*crowd, FakeSocket("scorer", written, official=True))
    layer = GatedLayer(written)
    local_delivery(monkeypatch, hub, layer, head_start=60.0)
    delivery = asyncio.create_task(broadcast.deliver("match-1", update_message(1)))
    await until(lambda: ("scorer", 1) in written and ("layer", 1) in written)
    assert not [name for name, _ in written if name.startswith("viewer")]  # the crowd waits for the send
    layer.gate.set()
    await delivery
    await until(lambda: len(written) == 6)
    first_viewer = min(n for n, (name, _) in enumerate(written) if name.startswith("viewer"))
    assert written.index(("layer sent", 1)) < first_viewer
    assert written.index(("scorer", 1)) < first_viewer


async def test_with_the_layer_stuck_this_processs_crowd_still_gets_the_update(monkeypatch):
    """Redis away (its send hangs): this process's public waits for it only ``LAYER_HEAD_START``."""
    written: list = []
    crowd = [FakeSocket(f"viewer{n}", written) for n in range(3)]
    hub = hub_with(*crowd, FakeSocket("scorer", written, official=True))
    layer = GatedLayer(written)  # never opened
    local_delivery(monkeypatch, hub, layer, head_start=0.01)
    delivery = asyncio.create_task(broadcast.deliver("match-1", update_message(1)))
    try:
        await until(lambda: sum(name.startswith("viewer") for name, _ in written) == 3)
        assert ("layer sent", 1) not in written and ("scorer", 1) in written
    finally:
        delivery.cancel()
        await asyncio.gather(delivery, return_exceptions=True)


async def test_heartbeats_reach_the_officials_first(monkeypatch):
    written: list = []
    crowd = [FakeSocket(f"viewer{n}", written) for n in range(5)]
    hub = hub_with(*crowd, FakeSocket("referee", written, official=True))

    async def no_logged(ids):
        return {}

    monkeypatch.setattr(fanout, "_db_read", lambda func: no_logged)  # the log agrees: nothing to repair
    await hub.heartbeat()
    assert written[0] == ("referee", 0) and len(written) == 6


async def test_a_match_that_had_an_update_since_the_last_beat_gets_no_heartbeat(monkeypatch):
    """A match being played costs its crowd no heartbeat (an update is a sign of life and carries
    the heartbeat's last_seq); a quiet match still gets its beat, and the log is checked for both."""
    written: list = []
    hub = hub_with(FakeSocket("viewer", written), FakeSocket("referee", written, official=True))
    quiet = hub.rooms[2] = fanout.Room(2)
    quiet.ready.set()
    watcher = FakeSocket("watcher", written)
    watcher.match_id = 2
    quiet.add(watcher)
    checked: list = []

    async def logged(ids):
        checked.append(sorted(ids))
        return {}

    monkeypatch.setattr(fanout, "_db_read", lambda func: logged)
    hub.on_message(update_message(1))
    await until(lambda: len(written) == 2)
    await hub.heartbeat()
    assert written[2:] == [("watcher", 0)] and checked == [[1, 2]]

    # A beat later, with nothing posted since: the played match gets its heartbeat too. (Its last
    # update is moved back one interval, rather than the clock forward: the test's event loop
    # reads that clock too.)
    hub.rooms[1].written_at -= fanout.HEARTBEAT_SECONDS
    await hub.heartbeat()
    assert sorted(written[3:]) == [("referee", 0), ("viewer", 0), ("watcher", 0)] and len(checked) == 2


async def test_what_the_first_update_needs_is_loaded_before_it(monkeypatch):
    """No cold start: the first socket of a process has the event validators built and every
    language loaded; a socket in a language not seen yet has that one loaded, once."""
    warmed: list = []
    started: list = []
    monkeypatch.setattr(fanout, "warm_language", warmed.append)
    monkeypatch.setattr(fanout, "warm_process", lambda: started.append(True))
    hub = hub_with()
    hub._start()
    try:
        for n in range(10):
            hub._joined("es" if n % 2 else "en")
        await until(lambda: sorted(warmed) == ["en", "es"] and started == [True])
        hub._joined("en")
        await asyncio.sleep(0)  # (a task it would have spawned gets its turn)
        assert sorted(warmed) == ["en", "es"]
    finally:
        await hub.stop()
        await clock.stop(asyncio.get_running_loop())


async def test_the_process_warm_up_builds_every_validator_and_loads_every_language():
    from django.conf import settings

    from matches.api import views
    from officiating.engine import messages

    views._event_validator.cache_clear()
    messages.translation.cache_clear()
    fanout.warm_process()
    assert views._event_validator.cache_info().currsize >= 20  # every event type of the log
    assert messages.translation.cache_info().currsize == len(settings.LANGUAGES)


async def test_a_crowd_that_has_connected_is_frozen_out_of_the_collectors_full_passes(monkeypatch):
    """Once a crowd's connections settle, what is alive is frozen out of the garbage collector's
    full passes (they no longer hold the loop mid-update); once half of it has gone, it is handed
    back to the collector."""
    calls: list = []
    monkeypatch.setattr(fanout.gc, "unfreeze", lambda: calls.append("unfreeze"))
    monkeypatch.setattr(fanout.gc, "collect", lambda *args: calls.append("collect"))
    monkeypatch.setattr(fanout.gc, "freeze", lambda: calls.append("freeze"))
    monkeypatch.setattr(fanout, "warm_language", lambda lang: None)
    monkeypatch.setattr(fanout, "SETTLE_SECONDS", 0.01)
    written: list = []
    crowd = [FakeSocket(f"viewer{n}", written) for n in range(fanout.FREEZE_AFTER_SOCKETS)]
    hub = hub_with()
    room = hub.rooms[1]
    room.last_seq = 1

    try:
        for socket in crowd[:-1]:  # (the room exists: no layer, no read)
            await hub.register(socket)
        assert hub._settle_timer is None and calls == []  # not a crowd yet
        await hub.register(crowd[-1])
        await until(lambda: calls == ["freeze"])  # no collection: freezing costs nothing
        assert hub._settle_timer is None and hub._frozen_sockets == len(crowd)
        for socket in crowd[: len(crowd) // 2]:
            await hub.unregister(socket)
        assert calls == ["freeze"]  # half of the crowd is still there
        await hub.unregister(crowd[len(crowd) // 2])
        assert calls == ["freeze", "unfreeze"] and hub._frozen_sockets == 0
    finally:
        await hub.stop()
        await clock.stop(asyncio.get_running_loop())


async def test_at_debug_the_hub_logs_each_updates_fan_out_as_the_benchmark_reads_it(caplog):
    """``LIVE_LOG_LEVEL=DEBUG``: one line per update, when its officials' and its public's sockets
    were written after the decision; ``bench/bench_live.py`` takes the server's side of every
    latency from these lines (its pattern is checked against them here)."""
    from polo.testing import BASE_DIR

    spec = importlib.util.spec_from_file_location("bench_live", BASE_DIR / "bench" / "bench_live.py")
    bench_live = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench_live)
    written: list = []
    hub = hub_with(*(FakeSocket(f"viewer{n}", written) for n in range(3)), FakeSocket("scorer", written, official=True))
    message = update_message(1)
    message["server_time"] = time.time()
    with caplog.at_level(logging.DEBUG, logger="matches.live.fanout"):
        hub.on_message(message)
        await until(lambda: any("fan-out" in r.getMessage() for r in caplog.records))
    line = next(r.getMessage() for r in caplog.records if "fan-out" in r.getMessage())
    parsed = bench_live.FANOUT_LINE.search(line)
    assert parsed is not None, line
    assert (int(parsed["match"]), int(parsed["seq"])) == (1, 1)
    assert "officials=1 " in line and "public=3 " in line
    assert 0 <= float(parsed["officials"]) <= float(parsed["public"]) < 60_000
    assert len(written) == 4


async def test_without_debug_the_hub_logs_nothing_per_update(caplog):
    written: list = []
    hub = hub_with(FakeSocket("viewer", written))
    with caplog.at_level(logging.INFO, logger="matches.live.fanout"):
        hub.on_message(update_message(1))
        await until(lambda: len(written) == 1)
    assert not [r for r in caplog.records if "fan-out" in r.getMessage()]
