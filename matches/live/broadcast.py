"""Tell the websockets that something changed (the groups are named in ``groups``).

- ``broadcast_match_update``: the log of a match has new events, sent with those events and the
  state after them (in each language): each process's fan-out hub (``fanout``) encodes one text
  frame and writes it to all of its sockets of that match. A hub that missed something reads the
  log instead (sequence numbers tell it).
- ``broadcast_match_roles`` / ``broadcast_user``: an official logged out or may have lost a role:
  their sockets are closed or re-checked.

Sending never makes the caller wait for the channel layer: the scorer's request must not pay for
Redis. In an ASGI process the send is handed to the server's event loop and the request goes on;
outside one (a management command, a Celery worker) it is sent in place. The channel layer is
at-most-once, so a lost message is repaired from the log by sequence number (the hub checks its
sockets' matches against the database on every heartbeat and after any layer error).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from . import clock, fanout
from .groups import MATCH_FIELD, MATCH_ROLES, MATCH_UPDATE, match_group, user_group
from .loop import server_loop, spawn

log = logging.getLogger(__name__)


async def deliver(group: str, message: dict[str, Any], *, server: bool = False) -> None:
    """To this process's hub and, through the layer, to every other process's, in the order that
    keeps every official first and no process's crowd waiting for another's: the layer's send
    and this process's officials at once, then this process's public (``public_after``).
    Sent after the local crowd's writes, the layer's several round trips to Redis each waited for
    the loop between chunks of that fan-out, and the other processes' screens with them (their
    officials' included). The local public waits for such a send (channels-redis's own: four
    round trips) at most ``fanout.LAYER_HEAD_START``, so this process's sockets still hear of
    events while Redis is away. The hub
    drops what it has already delivered, so hearing the same message again through the layer
    is harmless.
    ``server``: this is the ASGI server's loop, where the clock watcher lives (started here if no
    socket has started it)."""
    loop = asyncio.get_running_loop()
    if server:
        clock.ensure_started(loop)
    layer = get_channel_layer()
    sending = spawn(loop, layer.group_send(group, message)) if layer is not None else None
    hub = fanout.current_hub()
    if hub is not None:
        hub.on_message(message, public_after=sending)
    elif message["type"] == MATCH_UPDATE:
        clock.wake(message)
    if sending is not None:
        await sending


def _log_failure(future) -> None:
    if not future.cancelled() and future.exception() is not None:
        log.warning("broadcast failed (viewers will be repaired from the log): %r", future.exception())


def send(group: str, message: dict[str, Any]) -> None:
    """Hand ``message`` to ``group`` without waiting for it to go out."""
    loop = server_loop()
    if loop is None:
        try:
            async_to_sync(deliver)(group, message)
        except Exception as exc:  # noqa: BLE001 — a broadcast must never fail a committed write
            log.warning("broadcast failed (viewers will be repaired from the log): %r", exc)
        return
    try:
        running = asyncio.get_running_loop()
    except RuntimeError:
        running = None
    try:
        if running is loop:
            spawn(loop, deliver(group, message, server=True)).add_done_callback(_log_failure)
        else:
            loop.call_soon_threadsafe(
                lambda: spawn(loop, deliver(group, message, server=True)).add_done_callback(_log_failure)
            )
    except RuntimeError as exc:  # the loop is shutting down: the log repairs the viewers later
        log.warning("broadcast dropped: %r", exc)


def broadcast_match_update(match_id: int, seq: int, last_seq: int | None = None, **update: Any) -> None:
    """The log of the match has new events ``seq``..``last_seq`` (committed). ``update`` may carry
    ``events`` (those rows), ``states`` (language → state after them) and ``server_time``: then a
    hub whose sockets are at ``seq - 1`` sends them on without reading the database."""
    send(
        match_group(match_id),
        {
            "type": MATCH_UPDATE,
            "match_id": match_id,
            "seq": seq,
            "last_seq": seq if last_seq is None else last_seq,
            **update,
        },
    )


def broadcast_match_field(match_id: int, field: dict[str, Any]) -> None:
    """What the screens are told of the field changed (``snapshots.field_object``): a match kept at
    the field was just heard from its field server (issue 35). Sent as the timekeeper's ``field``
    frame is (issue 34): every screen's ``live.field`` is this object."""
    send(match_group(match_id), {"type": MATCH_FIELD, "match_id": match_id, "field": field})


def broadcast_match_roles(match_id: int) -> None:
    """The match's officials changed: its officials' sockets re-check their role."""
    send(match_group(match_id), {"type": MATCH_ROLES, "match_id": match_id})


def broadcast_user(user_id: int, kind: str) -> None:
    send(user_group(user_id), {"type": kind, "user_id": user_id})
