"""``GET /api/matches/{id}/stream``: the match websocket's frames as Server-Sent Events, for the
screens of a network that blocks websockets (a venue's proxy, a corporate firewall).

The same frames as the socket (docs/LIVE-PROTOCOL.md), each as one ``data:`` line: a
``snapshot`` first, then every ``update`` and ``heartbeat`` the process's fan-out hub writes (a
stream registers with the hub as a socket does, so it costs one queue per viewer and no read per
update). An update's ``id:`` is its ``last_seq``: a browser's EventSource that reconnects sends it
back as ``Last-Event-ID`` and its snapshot then carries the events it missed (as a ``resync``).
The match's officials get the private notes, and their stream ends when they log out or lose the
role, or when their session ends any other way (as a socket's: ``consumers``); the stream only
reads (nothing is sent the other way: the clock's offset is guessed from ``server_time``). An
async view: it holds no thread while it waits.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from channels.db import database_sync_to_async
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _

from matches import selectors
from matches.api.openapi_components import NO_MATCH, error_response
from matches.api.operations import operation
from matches.api.responses import ServerSentEvent
from polo.api_errors import api_error

from . import fanout
from .consumers import RESYNC_MAX_EVENTS, SIGNED_OUT, _current_role, _viewer, snapshot_frame, socket_language

RETRY_MS = 2000  # the EventSource's wait before it reconnects
QUEUE_LIMIT = 256  # frames a stream may fall behind by before it is ended (a reader that stalled)


class StreamSocket:
    """One SSE client as the hub sees it (``fanout.Socket``): the hub's writes go to a queue that
    the response's iterator drains."""

    def __init__(
        self, match_id: int, lang: str, official: bool, user_id: int | None, session_key: str | None = None
    ) -> None:
        self.match_id, self.lang, self.official, self.user_id = match_id, lang, official, user_id
        self.session_key = session_key  # an official's: the stream ends with it (as a socket does)
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.ready = False
        self.early: list[tuple[int, str]] = []  # updates that came while the snapshot was read

    def push_now(self, frame: bytes) -> bool:
        """(A stream takes no websocket frame: the hub always calls ``push``.)"""
        return False

    def push_queued(self, text: str, last_seq: int) -> bool:
        return False

    async def push(self, text: str, last_seq: int) -> None:
        if not self.ready:
            if last_seq:
                self.early.append((last_seq, text))
            return
        if self.queue.qsize() >= QUEUE_LIMIT:
            self.end()
            return
        self.queue.put_nowait(_event(text, last_seq))

    def end(self) -> None:
        self.queue.put_nowait(None)

    async def recheck_role(self) -> None:
        if self.official and self.user_id is not None:
            role = await database_sync_to_async(_current_role)(self.match_id, self.user_id, self.session_key)
            if role is None or role == SIGNED_OUT:
                self.end()

    async def close_for(self, code: int, error: str) -> None:
        self.end()


def _event(text: str, last_seq: int = 0) -> str:
    """One SSE event; an update's ``id`` is its last seq (for ``Last-Event-ID``)."""
    head = f"id: {last_seq}\n" if last_seq else ""
    return f"{head}data: {text}\n\n"


def _last_event_id(request: HttpRequest) -> int | None:
    value = request.headers.get("Last-Event-ID", "")
    return int(value) if value.isascii() and value.isdigit() and len(value) <= 18 else None


async def _frames(socket: StreamSocket, hub: fanout.Hub, since: int | None):
    try:
        await hub.register(socket)
        snapshot = await hub.snapshot(socket.match_id, socket.lang)
        frame = snapshot_frame(socket.match_id, snapshot)
        if since is not None:
            missed = await database_sync_to_async(selectors.match_events_since)(
                socket.match_id, since, official=socket.official, limit=RESYNC_MAX_EVENTS
            )
            frame["events"] = [e for e in missed["events"] if e["seq"] <= snapshot["last_seq"]]
        yield f"retry: {RETRY_MS}\n" + _event(json.dumps(frame, separators=(",", ":")), snapshot["last_seq"])
        socket.ready = True
        for last_seq, text in socket.early:
            if last_seq > snapshot["last_seq"]:
                socket.queue.put_nowait(_event(text, last_seq))
        socket.early.clear()
        while True:
            chunk = await socket.queue.get()
            if chunk is None:
                return
            yield chunk
    finally:  # the client went away (Django cancels the iterator) or the stream ended
        await hub.unregister(socket)


# What an EventSource sends: named in the document so that generated requests send it too.
ACCEPT_STREAM = {
    "name": "Accept",
    "in": "header",
    "required": True,
    "schema": {"const": "text/event-stream"},
    "description": "What an EventSource sends (named here so that generated requests send it too: the stream "
    "answers nothing else).",
}


@operation(
    "get",
    "streamMatch",
    summary="The websocket's frames as Server-Sent Events (for networks that block websockets)",
    description="For an EventSource (Accept: text/event-stream): a snapshot frame, then every update and "
    "heartbeat of /ws/matches/{id}/, each as one `data:` line; an update's `id:` is its last_seq, and a "
    "reconnect's Last-Event-ID gets the missed events with its snapshot. The match's officials get the private "
    "notes. Any other Accept: 406.",
    parameters=[ACCEPT_STREAM],
    responses={
        200: {
            "description": "An endless event stream: each event one frame of the websocket.",
            "content": {"text/event-stream": {"schema": ServerSentEvent}},
        },
        404: NO_MATCH,
        406: error_response(
            "Not asked for as text/event-stream.",
            "not_acceptable",
            "This address streams events: ask for text/event-stream.",
        ),
    },
)
async def match_stream(request: HttpRequest, match_id: int) -> HttpResponse:
    """The match's live frames as ``text/event-stream`` (404 JSON for no such match; 406 for a
    client that did not ask for an event stream, which would otherwise wait on it for ever)."""
    if "text/event-stream" not in request.headers.get("Accept", ""):
        return api_error(406, "not_acceptable", _("This address streams events: ask for text/event-stream."))
    user = await request.auser()
    found, role = await database_sync_to_async(_viewer)(match_id, user if user.is_authenticated else None)
    if not found:
        return api_error(404, "not_found", _("No such match."))
    official = role is not None
    scope: dict[str, Any] = {
        "query_string": request.META.get("QUERY_STRING", "").encode("latin-1"),
        "cookies": request.COOKIES,
        "headers": [(b"accept-language", request.headers.get("Accept-Language", "").encode("latin-1"))],
    }
    socket = StreamSocket(
        match_id,
        socket_language(scope),
        official,
        user.pk if official else None,
        request.session.session_key if official else None,
    )
    frames = _frames(socket, fanout.get_hub(), _last_event_id(request))
    response = StreamingHttpResponse(frames, content_type="text/event-stream")
    response["Cache-Control"] = "no-cache, no-transform"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    patch_vary_headers(response, ("Cookie",))
    return response
