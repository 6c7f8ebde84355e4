"""The match websocket, ``/ws/matches/{id}/`` (docs/LIVE-PROTOCOL.md).

Anyone may watch (the origin is checked in ``polo/asgi.py``); a socket only reads. On connect it
gets a ``snapshot`` (state, last_seq, server time); then an ``update`` after every accepted event,
written by the process's fan-out hub (``fanout.py``) — the consumer itself never joins a
channel-layer group. A client may send only ``ping`` (answered with ``pong``, for its clock
offset) and ``resync`` (answered with a snapshot and the events it missed). Anything else — a
frame that is not strict JSON (``polo.json_input``: nested too deep, NaN, NUL...), a ``ping`` whose
``client_time`` is not a number, a ``resync`` whose ``since`` is not a sequence number — a frame
over ``WS_MAX_MESSAGE_BYTES`` or more than ``WS_MAX_MESSAGES_PER_SECOND`` frames in a second is
refused with an ``error`` and the socket is closed (4008 / 4029), never with an exception (a
failure that is not the frame's closes it with 1011). A client address (``matches.auth``) holds at
most ``WS_MAX_CONNECTIONS_PER_ADDRESS`` sockets open on a process: one more is accepted, told
``too_many_connections`` and closed with 4029. The match's officials (its
scorer, umpires and referee, and the committee of its tournament: ``permissions.match_role``; a
committee member of another tournament watches as the public does) get the private notes. An
official's socket is closed (4003) when they log out or are no longer an official of the match
(their committee assignment revoked included), and when the session it was opened with ends by any
other path (signed out everywhere, a password change, the account deactivated): the socket checks
its session again whenever the user's sessions or roles change (``receivers``).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from importlib import import_module
from types import SimpleNamespace
from typing import Any

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.sessions import InstanceSessionWrapper
from django.conf import settings
from django.contrib.auth import get_user
from django.http import HttpRequest
from django.utils import translation
from django.utils.translation import get_language_from_request, get_supported_language_variant, gettext as _

from matches import selectors
from matches.auth import address_of
from matches.models import Match
from matches.permissions import match_role
from polo import seams
from polo.json_input import JSONInputError, loads

from . import broadcast, clock, fanout, field, wire
from .groups import MATCH_FIELD, match_group
from .loop import spawn

log = logging.getLogger(__name__)

CLEAN_CLOSES = (1000, 1001)  # a page closed or left: not a link that dropped
CLOSE_FORBIDDEN = 4003
CLOSE_NOT_FOUND = 4004
CLOSE_POLICY = 4008
CLOSE_RATE = 4029
CLOSE_ERROR = 1011
RESYNC_MAX_EVENTS = 500
SINCE_MAX = 2**63 - 1  # a sequence number a database column can hold
SIGNED_OUT = "signed_out"
# An alias with no layer behind it: Channels then gives the consumer no layer channel of its own
# (the hub holds the process's only subscription).
NO_LAYER = "polo-ws-no-layer"


def socket_language(scope: dict[str, Any]) -> str:
    """?lang=, then as Django reads a request's: its language cookie, then Accept-Language; the
    site's default else (Django's public ``get_language_from_request`` on the socket's headers)."""
    query = scope.get("query_string", b"").decode("latin-1")
    for asked in (part[5:] for part in query.split("&") if part.startswith("lang=")):
        try:
            return get_supported_language_variant(asked)
        except LookupError:
            continue
    request = HttpRequest()
    request.COOKIES = dict(scope.get("cookies") or {})
    header = dict(scope.get("headers") or []).get(b"accept-language", b"")
    request.META["HTTP_ACCEPT_LANGUAGE"] = header.decode("latin-1")
    return get_language_from_request(request)


def frame_sender(send):
    """The server's own ``send`` under Channels' session wrapper, which for a websocket frame only
    reads the session (it saves it on ``http.response.start`` alone): two lazy lookups per frame,
    a fifth of the fan-out's cost per socket (profiled, docs/CAPACITY.md), for nothing. It reads
    Channels' wrapper, which is not its API: part of the seam ``uvicorn-direct-write``
    (``polo/seams.py``); with the seam off, the wrapper's ``send``."""
    wrapper = getattr(send, "__self__", None)
    if not seams.on("uvicorn-direct-write"):
        return send
    if isinstance(wrapper, InstanceSessionWrapper) and "websocket.send" not in wrapper.save_message_types:
        return wrapper.real_send
    return send


def snapshot_frame(match_id: int, snapshot: dict[str, Any]) -> dict[str, Any]:
    """The ``snapshot`` frame of a match (the socket's and the SSE stream's)."""
    return {
        "type": "snapshot",
        "match_id": match_id,
        "last_seq": snapshot["last_seq"],
        "state": snapshot["state"],
        "server_time": snapshot["server_time"],
        "field": snapshot["field"],
    }


def _scope_address(scope: dict[str, Any]) -> str:
    """The client's address as the login throttle counts it (``matches.auth``: believing
    X-Forwarded-For from the trusted proxies only; an IPv6 client by its /64)."""
    peer = (scope.get("client") or ("",))[0]
    forwarded = b",".join(v for k, v in scope.get("headers") or () if k == b"x-forwarded-for").decode("latin-1")
    return address_of(peer, forwarded) or str(peer)


def _match_exists(match_id: int) -> bool:
    return Match.objects.filter(pk=match_id).exists()


def _viewer(match_id: int, user) -> tuple[bool, str | None]:
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        return False, None
    return True, match_role(user, match) if user is not None else None


def _signed_in(session_key: str | None, user_id: int):
    """The user the session still signs in, by Django's own checks (the session exists and has not
    expired, the password it was signed in with is still the user's, the account is active); None
    when it no longer does."""
    if not session_key:
        return None
    store = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
    user = get_user(SimpleNamespace(session=store))  # type: ignore[arg-type]
    return user if user.is_authenticated and user.pk == user_id else None


def _current_role(match_id: int, user_id: int, session_key: str | None) -> str | None:
    """The user's role on the match now; ``SIGNED_OUT`` when the socket's session has ended."""
    user = _signed_in(session_key, user_id)
    if user is None:
        return SIGNED_OUT
    match = Match.objects.filter(pk=match_id).first()
    return match_role(user, match) if match is not None else None


class MatchConsumer(AsyncWebsocketConsumer):
    channel_layer_alias = NO_LAYER

    match_id: int
    lang: str = "en"
    official: bool = False
    user_id: int | None = None
    session_key: str | None = None
    address: str | None = None  # the client's, counted in the hub's ``addresses`` while open
    ready: bool = False
    closed: bool = False
    direct: wire.Direct | None = None
    sending: int = 0

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels' own, less its ``aclose_old_connections()`` before every message: a hop onto
        the process's one thread for websocket database work (the snapshots of sockets
        connecting, the hub's repairs) per connect, frame and disconnect — a crowd leaving at the
        final whistle queued thousands of them there (profiled: docs/CAPACITY.md). This consumer
        reads the database only through ``database_sync_to_async``, which closes stale
        connections around each call itself."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def connect(self) -> None:
        self.match_id = int(self.scope["url_route"]["kwargs"]["match_id"])
        self.lang = socket_language(self.scope)
        self.ready = False
        self.closed = False
        self.registered = False
        self.address = None
        self.early: list[tuple[int, str]] = []  # updates that arrived while the snapshot was read
        self.window_start, self.window_count = time.monotonic(), 0
        self.send_frame = frame_sender(self.base_send)
        self.sending = 0  # this socket's own sends in flight (a direct write never overtakes one)
        user = self.scope.get("user")
        self.hub = fanout.get_hub()
        address = _scope_address(self.scope)
        if self.hub.addresses[address] >= settings.WS_MAX_CONNECTIONS_PER_ADDRESS:
            await self.accept()  # (a refused handshake carries no reason: say it, then close)
            await self.close_for(CLOSE_RATE, "too_many_connections")
            return
        self.hub.addresses[address] += 1
        self.address = address
        if user is not None and user.is_authenticated:
            found, role = await database_sync_to_async(_viewer)(self.match_id, user)
        else:  # the public: only whether the match exists (known without a read while watched)
            found = self.match_id in self.hub.rooms or await database_sync_to_async(_match_exists)(self.match_id)
            role = None
        if not found:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        self.official = role is not None
        self.role = role
        self.user_id = user.pk if self.official else None
        session = self.scope.get("session")
        self.session_key = session.session_key if self.official and session is not None else None
        await self.accept()
        # The hub's encode-once path, where the connection allows it (after the handshake: an
        # extension such as per-message deflate is known by then, and rules it out).
        self.direct = wire.direct_writer(self.send_frame)
        await self.hub.register(self)
        self.registered = True
        snapshot_seq = await self._send_snapshot()
        self.ready = True
        for last_seq, text in self.early:
            if last_seq > snapshot_seq:
                await self._send_text(text)
        self.early.clear()

    async def disconnect(self, code: int) -> None:
        self.closed = True
        if self.address is not None:
            self.hub.addresses[self.address] -= 1
            if not self.hub.addresses[self.address]:
                del self.hub.addresses[self.address]
            self.address = None
        if self.registered:
            self.registered = False
            await self.hub.unregister(self)
        if code in CLEAN_CLOSES and getattr(self, "field_sent_all", False):
            # The scorer's screen closed (a tab closed, the page left) with everything sent: the
            # field hands the clock back, unless it is heard again meanwhile (a reload). A link
            # that drops closes no socket cleanly: then the field stays the authority (issue 34).
            spawn(asyncio.get_running_loop(), self._field_release(self.field_heard_at))

    # --- from the client -----------------------------------------------------------------
    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """One frame: answered per the protocol, or the socket closed with its code — never an
        exception out of here (one would drop the socket with no close code at all)."""
        try:
            await self._receive(text_data, bytes_data)
        except Exception:  # not the frame's fault (a read failed): say so and close
            log.exception("match %s: a websocket frame could not be answered", self.match_id)
            if not self.closed:
                self.closed = True
                await self.close(code=CLOSE_ERROR)

    async def _receive(self, text_data: str | None, bytes_data: bytes | None) -> None:
        if bytes_data is not None:
            size = len(bytes_data)
        else:  # (a lone surrogate cannot come from a real socket, whose text is UTF-8; count it anyway)
            size = len((text_data or "").encode("utf-8", "surrogatepass"))
        if size > settings.WS_MAX_MESSAGE_BYTES:
            await self.close_for(CLOSE_POLICY, "message_too_large")
            return
        now = time.monotonic()
        if now - self.window_start >= 1.0:
            self.window_start, self.window_count = now, 0
        self.window_count += 1
        if self.window_count > settings.WS_MAX_MESSAGES_PER_SECOND:
            await self.close_for(CLOSE_RATE, "rate_limited")
            return
        # Strict JSON (polo.json_input): too deep, NaN, NUL or a lone surrogate is no message.
        try:
            message = loads(text_data) if text_data is not None else None
        except JSONInputError:
            message = None
        kind = message.get("type") if isinstance(message, dict) else None
        if not isinstance(kind, str):
            await self.close_for(CLOSE_POLICY, "invalid_message")
        elif kind == "ping":
            client_time = message.get("client_time")
            pending = message.get("pending")
            if (client_time is not None and type(client_time) not in (int, float)) or (  # (finite: loads)
                pending is not None and (type(pending) is not int or pending < 0)
            ):
                await self.close_for(CLOSE_POLICY, "invalid_message")
                return
            await self._send_text(json.dumps({"type": "pong", "client_time": client_time, "server_time": time.time()}))
            if self.role == field.TIMEKEEPER_ROLE and pending is not None:
                self.field_sent_all = pending == 0
                if pending == 0:
                    await self._field_heard()
        elif kind == "resync":
            since = message.get("since")
            if since is not None and (type(since) is not int or not 0 <= since <= SINCE_MAX):
                await self.close_for(CLOSE_POLICY, "invalid_message")
                return
            await self._send_snapshot(since=since)
        else:
            await self.close_for(CLOSE_POLICY, "forbidden")

    # --- the field's timekeeper (issue 34: ``field.py``) ---------------------------------------
    async def _field_heard(self) -> None:
        """The scorer's screen has sent everything it kept: note it; if the field had been silent,
        tell every screen, and let the clock watcher append the horns that waited for it. Then
        watch for the next word (``_field_watch``)."""
        was_silent, heard_at = await database_sync_to_async(field.field_heard)(self.match_id)
        if was_silent:
            await broadcast.deliver(
                match_group(self.match_id),
                {"type": MATCH_FIELD, "match_id": self.match_id, "field": field.field_info(heard_at, time.time())},
            )
            clock.wake()
        self.field_heard_at = heard_at
        watch = getattr(self, "field_watch", None)
        if watch is None or watch.done():
            self.field_watch = spawn(asyncio.get_running_loop(), self._field_watch())

    async def _field_release(self, heard_at: float | None) -> None:
        """After ``FIELD_RELEASE_SECONDS``: if the field has not been heard since this screen closed,
        the server keeps the match's time again (``field.field_release``); every screen is told."""
        await asyncio.sleep(field.RELEASE_SECONDS)
        if heard_at is None or not await database_sync_to_async(field.field_release)(self.match_id, heard_at):
            return
        await broadcast.deliver(
            match_group(self.match_id),
            {"type": MATCH_FIELD, "match_id": self.match_id, "field": field.field_info(None, time.time())},
        )
        clock.wake()

    async def _field_watch(self) -> None:
        """Until the field is heard again: announce its silence once it lasts ``FIELD_SILENT_SECONDS``
        (on this socket's process; it goes on after the socket closes, since a field that went away
        is what it is for). Another tab or device may have been heard meanwhile: the database says."""
        while True:
            wait = self.field_heard_at + field.silent_after() - time.time()
            await asyncio.sleep(max(0.05, wait + 0.05))
            heard_at = await database_sync_to_async(field.field_heard_at)(self.match_id)
            now = time.time()
            if heard_at is None:
                return  # the clock was handed back: nothing to watch
            if not field.field_is_silent(heard_at, now):
                if self.closed and heard_at > self.field_heard_at:
                    return  # heard through another screen since this one closed: its watch goes on
                self.field_heard_at = heard_at
                continue
            await broadcast.deliver(
                match_group(self.match_id),
                {"type": MATCH_FIELD, "match_id": self.match_id, "field": field.field_info(heard_at, now)},
            )
            return

    # --- to the client -------------------------------------------------------------------
    async def _send_snapshot(self, since: int | None = None) -> int:
        snapshot = await self.hub.snapshot(self.match_id, self.lang)
        frame = snapshot_frame(self.match_id, snapshot)
        if since is not None:
            missed = await database_sync_to_async(selectors.match_events_since)(
                self.match_id, since, official=self.official, limit=RESYNC_MAX_EVENTS
            )
            frame["events"] = [e for e in missed["events"] if e["seq"] <= snapshot["last_seq"]]
        await self._send_text(json.dumps(frame, separators=(",", ":")))
        return snapshot["last_seq"]

    async def _send_text(self, text: str) -> None:
        if self.closed:
            return
        self.sending += 1
        try:
            await self.send_frame({"type": "websocket.send", "text": text})
        except Exception:  # noqa: BLE001 — the socket went away under us; disconnect follows
            self.closed = True
        finally:
            self.sending -= 1

    def push_now(self, frame: bytes) -> bool:
        """From the hub: an update's encoded frame (``wire.text_frame``), written at once if this
        connection takes it without waiting and nothing of its own is still going out; False
        (nothing written): the hub awaits ``push`` instead."""
        if not self.ready or self.closed or self.sending or self.direct is None:
            return False
        return self.direct.write(frame)

    def push_queued(self, text: str, last_seq: int) -> bool:
        """From the hub, when ``push_now`` could not write: a connection on the direct path that
        cannot take the frame at once (paused by flow control: a client reading slowly; or a send
        of its own in flight) gets it on a task of its own, behind what already waits for it, and
        the hub goes on to the next socket — one slow phone holds up nobody else. (Frames stay in
        order: no direct write while one is queued, and the queued ones wait in turn.) False for a
        socket without the direct path, or not yet ready: the hub awaits ``push``."""
        if self.direct is None or not self.ready or self.closed:
            return False
        self.sending += 1
        spawn(asyncio.get_running_loop(), self._queued(text, last_seq))
        return True

    async def _queued(self, text: str, last_seq: int) -> None:
        try:
            await self.push(text, last_seq)
        finally:
            self.sending -= 1

    async def push(self, text: str, last_seq: int) -> None:
        """From the hub: an update (``last_seq`` > 0) or a heartbeat (0)."""
        if not self.ready:
            if last_seq:
                self.early.append((last_seq, text))
            return
        await self._send_text(text)

    async def close_for(self, code: int, error: str) -> None:
        with translation.override(self.lang):
            messages = {
                "message_too_large": _("Message too large."),
                "rate_limited": _("Too many messages: slow down."),
                "too_many_connections": _("Too many connections from your address: close some screens."),
                "forbidden": _("This connection only reads. Events are sent through the HTTP API."),
                "invalid_message": _("Messages must be JSON objects with a type."),
                "logged_out": _("You logged out."),
                "role_lost": _("You are no longer an official of this match."),
                SIGNED_OUT: _("You were signed out."),
            }
            text = json.dumps({"type": "error", "code": error, "message": messages.get(error, error)})
        await self._send_text(text)
        if not self.closed:
            self.closed = True
            await self.close(code=code)

    async def recheck_role(self) -> None:
        if not self.official or self.user_id is None or self.closed:
            return
        role = await database_sync_to_async(_current_role)(self.match_id, self.user_id, self.session_key)
        if role is None:
            await self.close_for(CLOSE_FORBIDDEN, "role_lost")
        elif role == SIGNED_OUT:
            await self.close_for(CLOSE_FORBIDDEN, SIGNED_OUT)
