"""The per-process fan-out hub: one channel-layer subscription per match per process.

A Channels consumer per viewer that joins the match's group costs about 0.2 ms of CPU per viewer
per message (the layer delivers to every consumer, each decodes and encodes the state). Here the hub
is the only thing in the process that joins the layer's groups; sockets register with it. When a
match's log moves on, the layer's message brings the new events, their goals and the state (in each
language); the hub encodes each variant of the frame once (per language, with or without the
officials' private notes) and writes the same text to every local socket of that match. When a
message does not follow on from what the hub delivered (a lost or late message), the hub reads
the log after its last seq instead: one read per process, whatever the number of viewers.

Officials first: a room keeps its officials' sockets (the scorer's laptop, the umpires' tablets,
the committee) apart from the public's, and every update and heartbeat is written to them before
the crowd, each side in seq order under a lock of its own, so that an official's screen never
waits behind thousands of viewers (nor behind the crowd's share of the previous update).

No cold first update: what the first update would do lazily is done ahead. The process's first
socket has the API's event validators built and every language's catalogs loaded
(``warm_process``: the first event a process took paid some 300 ms for them, every screen
waiting), and a socket in a language not seen yet has that language's catalogs loaded. Once a
crowd's connections settle, what is alive is frozen out of the garbage collector's full passes
(``_settle``), which otherwise held the loop for 50–150 ms every few seconds under a crowd.

Delivery is by sequence number: the hub remembers the last seq it delivered for each match and
reads "everything after it" from the log, so a lost or doubled layer message, several events in
one message, or an outage of the layer only delays an update, never loses or doubles one. After
a layer error the hub re-subscribes (the groups may have gone with a restarted Redis) and
repairs every match from the log; every heartbeat (15 s) it also compares its seq with the log's.
"""

from __future__ import annotations

import asyncio
import gc
import json
import logging
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Protocol

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from matches import selectors

from . import clock, snapshots, wire
from .groups import MATCH_FIELD, MATCH_ROLES, MATCH_UPDATE, USER_LOGOUT, USER_ROLES, match_group, user_group
from .loop import cancel_and_wait, set_server_loop, spawn

log = logging.getLogger(__name__)

HEARTBEAT_SECONDS = 15.0
# A snapshot read for one socket serves the others of that match connecting within this time
# (a crowd connecting at once at the start of a match) while the log has not moved on. The state
# in it stays right (the clock is ``elapsed`` read at ``anchor``); only its server_time ages,
# and a screen's first pings replace that guess of its offset.
SNAPSHOT_REUSE_SECONDS = 1.0
# A write to a socket that needs no waiting does not give the event loop back: a crowd's fan-out
# would hold the loop (and the scorer's HTTP answer) for its whole length without a pause.
YIELD_EVERY = 50
# An update posted to this process: its public sockets here wait at most this long for the
# layer's send to the other processes (``broadcast.deliver``), so that Redis's round trips do not
# wait between chunks of this crowd's writes, nor this crowd for a Redis that is away.
LAYER_HEAD_START = 0.05
# Layer errors: wait this long before trying again, doubling up to the cap.
RETRY_FIRST, RETRY_CAP = 0.2, 5.0
# The garbage collector (``_settle``): once this many sockets have joined since the last time and
# none has joined for ``SETTLE_SECONDS``, what is alive is frozen out of its full passes.
FREEZE_AFTER_SOCKETS, SETTLE_SECONDS = 100, 0.5


def _db_read(func):
    """The hub's reads share the one thread of the process's websocket work (Django runs each HTTP
    request in a thread of its own, so the scorer's requests do not queue behind them)."""
    return database_sync_to_async(func)


class Socket(Protocol):
    """What the hub needs of a websocket (``consumers.MatchConsumer``)."""

    match_id: int
    lang: str
    official: bool
    user_id: int | None

    def push_now(self, frame: bytes) -> bool: ...
    def push_queued(self, text: str, last_seq: int) -> bool: ...
    async def push(self, text: str, last_seq: int) -> None: ...
    async def recheck_role(self) -> None: ...
    async def close_for(self, code: int, error: str) -> None: ...


@dataclass(eq=False)
class Room:
    """The local sockets of one match, and how far they have been brought."""

    match_id: int
    sockets: set = field(default_factory=set)  # every local socket of the match
    officials: set = field(default_factory=set)  # those of its officials: written first
    public: set = field(default_factory=set)  # the others
    last_seq: int = 0
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    fetching: bool = False
    wanted: int = 0  # the highest seq heard of (a read is needed while it is ahead of last_seq)
    check: bool = False  # read the log even if nothing was heard of (after a layer outage)
    sending: asyncio.Lock = field(default_factory=asyncio.Lock)  # the public's writes, in seq order
    field_said: tuple | None = None  # what the sockets were last told of the field (issue 34): (silent, heard_at)
    officials_sending: asyncio.Lock = field(default_factory=asyncio.Lock)  # the officials', likewise
    snapshots: dict = field(default_factory=dict)  # lang -> (snapshot, monotonic time read)
    written_at: float = float("-inf")  # (monotonic) when an update was last written to all of it
    reading: dict = field(default_factory=dict)  # lang -> future of the snapshot being read

    def add(self, socket: Socket) -> None:
        self.sockets.add(socket)
        (self.officials if socket.official else self.public).add(socket)

    def discard(self, socket: Socket) -> None:
        self.sockets.discard(socket)
        self.officials.discard(socket)
        self.public.discard(socket)


class Hub:
    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.layer = get_channel_layer()
        self.channel: str | None = None
        self.rooms: dict[int, Room] = {}
        self.users: dict[int, set] = {}
        self.addresses: Counter[str] = Counter()  # open sockets per client address (consumers)
        self.groups: set[str] = set()
        self.healthy = True  # false between a layer error and the re-subscription
        self._tasks: list[asyncio.Task] = []
        self._started = False
        self._warmed_langs: set[str] = set()
        self._joined_since_freeze = 0
        self._settle_timer: asyncio.TimerHandle | None = None
        self._socket_count = 0  # every local socket, all matches
        self._frozen_sockets = 0  # the count at the last freeze (0: nothing frozen)
        self.direct_writes = 0  # frames written straight to a connection (``wire``)
        self.sent_writes = 0  # frames that went through a socket's own ``send``, awaited
        self.queued_writes = 0  # frames left to a slow socket's own task

    # --- lifecycle -----------------------------------------------------------------------
    def _start(self) -> None:
        if self._started:
            return
        self._started = True
        set_server_loop(self.loop)
        spawn(self.loop, asyncio.to_thread(warm_process))
        self._tasks.append(spawn(self.loop, self._heartbeats()))
        if self.layer is not None:
            self._tasks.append(spawn(self.loop, self._read()))
        clock.ensure_started(self.loop)

    async def stop(self) -> None:
        """Stop reading and heart-beating, and leave the groups (tests; a server just exits)."""
        for group in list(self.groups):
            await self._leave(group)
        if self._settle_timer is not None:
            self._settle_timer.cancel()
            self._settle_timer = None
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            await cancel_and_wait(task)
        self._tasks.clear()
        self._started = False

    # --- sockets -------------------------------------------------------------------------
    async def register(self, socket: Socket) -> None:
        """Subscribe (once per process) before the socket reads its snapshot: nothing committed
        after the snapshot can then be missed."""
        self._start()
        while True:
            room = self.rooms.get(socket.match_id)
            if room is None:
                room = self.rooms[socket.match_id] = Room(socket.match_id)
                try:
                    await self._join(match_group(socket.match_id))
                    room.last_seq = await _db_read(selectors.match_last_seq)(socket.match_id) or 0
                finally:
                    room.ready.set()
            else:
                await room.ready.wait()
            if self.rooms.get(socket.match_id) is room:
                break  # (else its last socket left while we waited: make it again)
        room.add(socket)
        self._socket_count += 1
        self._joined(socket.lang)
        if socket.official and socket.user_id is not None:
            mine = self.users.setdefault(socket.user_id, set())
            if not mine:
                await self._join(user_group(socket.user_id))
            mine.add(socket)

    async def unregister(self, socket: Socket) -> None:
        room = self.rooms.get(socket.match_id)
        if room is not None:
            if socket in room.sockets:
                room.discard(socket)
                self._thawed()
            if not room.sockets and room.ready.is_set():
                del self.rooms[socket.match_id]
                await self._leave(match_group(socket.match_id))
        if socket.user_id is not None and socket.user_id in self.users:
            mine = self.users[socket.user_id]
            mine.discard(socket)
            if not mine:
                del self.users[socket.user_id]
                await self._leave(user_group(socket.user_id))

    # --- no cold start ----------------------------------------------------------------------
    def _joined(self, lang: str) -> None:
        """A socket joined: a language not yet warmed is warmed now, in a thread (a catalog is
        read from disk), before an update in it has to be encoded."""
        if lang not in self._warmed_langs:
            self._warmed_langs.add(lang)
            spawn(self.loop, asyncio.to_thread(warm_language, lang))
        self._joined_since_freeze += 1
        if self._joined_since_freeze >= FREEZE_AFTER_SOCKETS:
            if self._settle_timer is not None:
                self._settle_timer.cancel()
            self._settle_timer = self.loop.call_later(SETTLE_SECONDS, self._settle)

    def _settle(self) -> None:
        """A crowd has connected (nobody joined for ``SETTLE_SECONDS``): freeze what is alive out
        of the garbage collector's full passes (``gc.freeze``: no traversal, it costs nothing).
        Measured with 1,000 sockets: full passes came every 1–3 s and held the event loop 50–150 ms
        each, every socket's update (the officials' included) waiting behind them; collecting here
        instead took seconds with 5,000 under load, right before the first update. Frozen objects
        are still freed when nothing refers to them; those a crowd leaves in reference cycles are
        handed back to the collector once half of the frozen crowd has gone (``_thawed``)."""
        self._settle_timer = None
        self._joined_since_freeze = 0
        gc.freeze()
        self._frozen_sockets = max(self._frozen_sockets, self._socket_count)

    def _thawed(self) -> None:
        """A socket left: once fewer than half of the sockets there were at the last freeze are
        left (a match over, a crowd gone), unfreeze: the collector reclaims their cycles at its
        next full pass, now that few are watching."""
        self._socket_count -= 1
        if self._frozen_sockets and self._socket_count < self._frozen_sockets // 2:
            self._frozen_sockets = 0
            gc.unfreeze()

    async def snapshot(self, match_id: int, lang: str) -> dict[str, Any]:
        """The match's snapshot (``snapshots.match_snapshot``), read once for every socket of
        this process that asks within ``SNAPSHOT_REUSE_SECONDS`` while the log stays put."""
        room = self.rooms[match_id]
        cached = room.snapshots.get(lang)
        if cached and cached[0]["last_seq"] >= room.last_seq and time.monotonic() - cached[1] < SNAPSHOT_REUSE_SECONDS:
            return cached[0]
        pending = room.reading.get(lang)
        if pending is not None:
            return await asyncio.shield(pending)
        pending = room.reading[lang] = self.loop.create_future()
        try:
            snapshot = await _db_read(snapshots.match_snapshot)(match_id, lang=lang)
        except BaseException as exc:
            pending.set_exception(exc)
            pending.exception()  # retrieved: the waiters get it, not the loop's log
            raise
        finally:
            room.reading.pop(lang, None)
        room.snapshots[lang] = (snapshot, time.monotonic())
        pending.set_result(snapshot)
        return snapshot

    # --- the layer -----------------------------------------------------------------------
    async def _join(self, group: str) -> None:
        self.groups.add(group)
        if self.layer is None:
            return
        try:
            if self.channel is None:
                self.channel = await self.layer.new_channel()
            await self.layer.group_add(group, self.channel)
        except Exception as exc:  # noqa: BLE001 — the reader's recovery joins it again
            log.warning("hub could not join %s: %r", group, exc)

    async def _leave(self, group: str) -> None:
        self.groups.discard(group)
        if self.layer is None or self.channel is None:
            return
        try:
            await self.layer.group_discard(group, self.channel)
        except Exception as exc:  # noqa: BLE001 — an unused membership expires by itself
            log.warning("hub could not leave %s: %r", group, exc)

    async def _subscribe(self) -> None:
        if self.channel is None:
            self.channel = await self.layer.new_channel()
        for group in list(self.groups):
            await self.layer.group_add(group, self.channel)

    async def _read(self) -> None:
        delay = RETRY_FIRST
        subscribed = False
        while True:
            try:
                if not subscribed:
                    await self._subscribe()
                    subscribed = True
                    if not self.healthy:
                        log.info("hub: channel layer back; repairing %d match(es) from the log", len(self.rooms))
                        self.healthy = True
                        self.repair_all()
                    delay = RETRY_FIRST
                message = await self.layer.receive(self.channel)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 — Redis went away: wait, re-subscribe, repair
                log.warning("hub: channel layer error %r; retrying in %.1f s", exc, delay)
                self.healthy = False
                subscribed = False
                await asyncio.sleep(delay)
                delay = min(delay * 2, RETRY_CAP)
                continue
            self.on_message(message)

    # --- messages ------------------------------------------------------------------------
    def on_message(self, message: dict[str, Any], *, public_after: asyncio.Future | None = None) -> None:
        """A message from the layer (or from this process's broadcast, which hands the layer's send
        as ``public_after``: the update's public writes wait for it, at most ``LAYER_HEAD_START``)."""
        kind = message.get("type")
        if kind == MATCH_UPDATE:
            clock.wake(message)
            room = self.rooms.get(message.get("match_id"))
            if room is None or message.get("last_seq", 0) <= room.last_seq:
                return  # not watched here, or already delivered
            if (
                "states" in message
                and room.ready.is_set()
                and not room.fetching
                and message.get("seq") == room.last_seq + 1
            ):
                # The next events, carried with their state: send them on, no read needed.
                room.last_seq = message["last_seq"]
                spawn(
                    self.loop,
                    self._send_update(
                        room,
                        {
                            **message,
                            "official_events": message["events"],
                            "events": [{**e, "event": selectors.public_event(e["event"])} for e in message["events"]],
                        },
                        public_after,
                    ),
                )
            else:  # a gap (or no state with it): read the log after what was delivered
                self._schedule(room, message["last_seq"])
        elif kind == MATCH_FIELD:
            room = self.rooms.get(message.get("match_id"))
            said = (message["field"].get("silent"), message["field"].get("heard_at"))
            if room is not None and room.field_said != said:  # (heard again through the layer: once)
                room.field_said = said
                room.snapshots.clear()  # (a snapshot read before this says the field's old word)
                field_frame = {"type": "field", "match_id": room.match_id, "field": message["field"]}
                frame = _Frame(json.dumps({**field_frame, "server_time": time.time()}, separators=(",", ":")))
                spawn(self.loop, self._write_field(room, frame))
        elif kind == MATCH_ROLES:
            room = self.rooms.get(message.get("match_id"))
            for socket in list(room.sockets if room else ()):
                if socket.official:
                    spawn(self.loop, socket.recheck_role())
        elif kind == USER_LOGOUT:
            for socket in list(self.users.get(message.get("user_id"), ())):
                spawn(self.loop, socket.close_for(4003, "logged_out"))
        elif kind == USER_ROLES:
            for socket in list(self.users.get(message.get("user_id"), ())):
                spawn(self.loop, socket.recheck_role())

    def repair_all(self) -> None:
        """After a layer outage: read every room's log, whatever was (not) heard meanwhile."""
        for room in list(self.rooms.values()):
            self._schedule(room, check=True)

    def _schedule(self, room: Room, seq: int = 0, *, check: bool = False) -> None:
        """Bring the room up to the log; while a read runs, note what else was heard of (one
        more read afterwards covers all of it, and none when the first read already did)."""
        room.wanted = max(room.wanted, seq)
        room.check = room.check or check
        if room.fetching:
            return
        room.fetching = True
        spawn(self.loop, self._bring_up_to_date(room))

    async def _bring_up_to_date(self, room: Room) -> None:
        try:
            await room.ready.wait()
            while room.check or room.wanted > room.last_seq:
                room.check = False
                langs = {socket.lang for socket in room.sockets} or {"en"}
                update = await _db_read(selectors.match_update)(room.match_id, room.last_seq, langs)
                if update is None or update["last_seq"] <= room.last_seq:
                    break
                room.last_seq = update["last_seq"]
                await self._send_update(room, update)
        except Exception:  # the next message or heartbeat tries again
            log.exception("hub: could not bring match %s up to date", room.match_id)
        finally:
            room.fetching = False

    async def _send_update(
        self, room: Room, update: dict[str, Any], public_after: asyncio.Future | None = None
    ) -> None:
        """The officials' sockets first, then the public's; each side gets the updates one after
        the other in seq order (a lock each), so the officials never wait for the crowd's share
        of this update or of the one before. ``public_after``: the layer's send of this update to
        the other processes, which the public's writes let go first (``LAYER_HEAD_START`` at most)."""
        frames = _Frames(update)
        room.written_at = time.monotonic()  # (a heartbeat can wait: see ``heartbeat``)
        timed = log.isEnabledFor(logging.DEBUG)  # (LIVE_LOG_LEVEL=DEBUG: bench_live reads the line)
        async with room.officials_sending:
            await self._write_all(room.officials, frames, update["last_seq"])
        officials_at = time.time() if timed else 0.0
        async with room.sending:
            if public_after is not None and not public_after.done():
                await asyncio.wait([public_after], timeout=LAYER_HEAD_START)
            await self._write_all(room.public, frames, update["last_seq"])
        if timed:
            decided = update["server_time"]
            log.debug(
                "fan-out match=%s seq=%s officials=%d at %.1f ms public=%d at %.1f ms (after the decision)",
                room.match_id,
                update["last_seq"],
                len(room.officials),
                1000 * (officials_at - decided),
                len(room.public),
                1000 * (time.time() - decided),
            )

    async def _write_all(self, sockets, frames: _Frames | _Frame, last_seq: int) -> None:
        """Every socket of ``sockets`` gets the frame: written at once where the connection takes
        the bytes encoded once for all (``wire``); queued behind what it is still sending where it
        cannot take them now (a slow client waits alone); else through its own awaited ``send``."""
        for n, socket in enumerate(list(sockets), start=1):
            if socket.push_now(frames.frame(socket)):
                self.direct_writes += 1
            elif socket.push_queued(frames.text(socket), last_seq):
                self.queued_writes += 1
            else:
                self.sent_writes += 1
                await socket.push(frames.text(socket), last_seq)
            if n % YIELD_EVERY == 0:
                await asyncio.sleep(0)  # let the officials' HTTP answers out between viewers

    async def _write_field(self, room: Room, frame: _Frame) -> None:
        """The field fell silent or was heard again (issue 34): every socket of the match hears it,
        officials first."""
        for side in (room.officials, room.public):
            await self._write_all(side, frame, 0)

    # --- heartbeats ----------------------------------------------------------------------
    async def _heartbeats(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT_SECONDS)
            try:
                await self.heartbeat()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("hub: heartbeat failed")

    async def heartbeat(self) -> None:
        """A check of each match against the log (the layer is at-most-once: a missed update is
        found here within 15 s), and one frame per match to every local socket, unless an update
        went to all of them since the last beat.

        A screen takes any frame as a sign of life (``live.js``: it gives a socket up after 35 s of
        silence) and an update carries what a heartbeat does (``last_seq``, ``server_time``). So a
        match being played, with an event every few seconds, costs its crowd no heartbeat; a quiet
        one gets its beat at least every two intervals (under 30 s of silence)."""
        if not self.rooms:
            return
        logged = await _db_read(selectors.matches_last_seq)(list(self.rooms))
        now = time.time()
        fresh = time.monotonic() - HEARTBEAT_SECONDS
        for match_id, room in list(self.rooms.items()):
            if logged.get(match_id, 0) > room.last_seq:
                self._schedule(room, logged[match_id])
            if room.written_at > fresh:
                continue
            beat = _Frame(
                json.dumps({"type": "heartbeat", "server_time": now, "last_seq": room.last_seq}, separators=(",", ":"))
            )
            for side in (room.officials, room.public):  # (officials first here too)
                await self._write_all(side, beat, 0)
        if self.layer is not None and self.channel is not None and self.healthy:
            # Refresh the memberships (they expire in Redis, and a flushed Redis forgets them).
            for group in list(self.groups):
                try:
                    await self.layer.group_add(group, self.channel)
                except Exception as exc:  # noqa: BLE001
                    log.warning("hub could not refresh %s: %r", group, exc)
                    break


class _Frame:
    """One text for every socket (a heartbeat), and its frame encoded once."""

    def __init__(self, text: str) -> None:
        self._text = text
        self._frame: bytes | None = None

    def text(self, socket: Socket) -> str:
        return self._text

    def frame(self, socket: Socket) -> bytes:
        if self._frame is None:
            self._frame = wire.text_frame(self._text)
        return self._frame


class _Frames:
    """The text frames of one update, each variant (language, officials' or public events) encoded once,
    when the first socket needing it is written, and as bytes (``wire.text_frame``) for direct writes."""

    def __init__(self, update: dict[str, Any]) -> None:
        self.update = update
        self.frames: dict[tuple[str, bool], str] = {}
        self.encoded: dict[tuple[str, bool], bytes] = {}

    def frame(self, socket: Socket) -> bytes:
        key = (socket.lang, socket.official)
        encoded = self.encoded.get(key)
        if encoded is None:
            encoded = self.encoded[key] = wire.text_frame(self.text(socket))
        return encoded

    def text(self, socket: Socket) -> str:
        key = (socket.lang, socket.official)
        text = self.frames.get(key)
        if text is None:
            update = self.update
            text = self.frames[key] = json.dumps(
                {
                    "type": "update",
                    "match_id": update["match_id"],
                    "seq": update["seq"],
                    "last_seq": update["last_seq"],
                    "state": update["states"].get(socket.lang) or next(iter(update["states"].values())),
                    "server_time": update["server_time"],
                    "events": update["official_events"] if socket.official else update["events"],
                    "goals": update.get("goals", []),
                },
                separators=(",", ":"),
            )
        return text


def warm_process() -> None:
    """What the first event of a process would otherwise load on its way to the screens (the
    first socket of the process starts this, in a thread): the API's event validators and every
    language's catalogs."""
    from django.conf import settings

    from matches.api.views import warm_validators

    warm_validators()
    for code, _name in settings.LANGUAGES:
        warm_language(code)


def warm_language(lang: str) -> None:
    """Load what a state in ``lang`` needs (Django's catalog and the engine's), so that the first
    update in that language does not read them from disk."""
    from django.utils import translation

    from officiating.engine import messages

    with translation.override(lang):
        translation.gettext("Live")
    messages.translation(lang)


_hubs: dict[asyncio.AbstractEventLoop, Hub] = {}


def get_hub() -> Hub:
    """The hub of the running event loop (one per process under uvicorn; one per test's loop)."""
    loop = asyncio.get_running_loop()
    hub = _hubs.get(loop)
    if hub is None:
        for old in [old for old in _hubs if old.is_closed()]:
            del _hubs[old]
        hub = _hubs[loop] = Hub(loop)
    return hub


def current_hub() -> Hub | None:
    """The running loop's hub, if a socket has made one."""
    try:
        return _hubs.get(asyncio.get_running_loop())
    except RuntimeError:
        return None
