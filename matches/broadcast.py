"""Tell the websockets that something changed. The one place that names the channel-layer groups.

- ``match.<id>``: "the log of match <id> now has events seq..last_seq", with those events and the
  state after them (in each language): each process's fan-out hub (``fanout.py``) encodes one
  text frame and writes it to all of its sockets of that match. A hub that missed something
  reads the log instead (sequence numbers tell it).
- ``user.<id>``: an official logged out or may have lost a role: their sockets are closed or
  re-checked.

Sending never makes the caller wait for the channel layer: the scorer's request must not pay for
Redis. In an ASGI process the send is handed to the server's event loop and the request goes on;
outside one (a management command, a Celery worker) it is sent in place. The channel layer is
at-most-once, so a lost message is repaired from the log by sequence number (the hub checks its
sockets' matches against the database on every heartbeat and after any layer error).
"""
from __future__ import annotations

import asyncio
import contextvars
import logging
import os
import threading
from typing import Any

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer
from django.contrib.auth.signals import user_logged_out
from django.db import transaction
from django.db.models.signals import m2m_changed, post_save
from django.dispatch import receiver

log = logging.getLogger(__name__)

MATCH_UPDATE = "match.update"
MATCH_ROLES = "match.roles"
USER_LOGOUT = "user.logout"
USER_ROLES = "user.roles"

_loop: asyncio.AbstractEventLoop | None = None
_loop_lock = threading.Lock()


def match_group(match_id: int) -> str:
    return f"match.{match_id}"


def user_group(user_id: int) -> str:
    return f"user.{user_id}"


def set_server_loop(loop: asyncio.AbstractEventLoop | None) -> None:
    """Called by the hub and the clock watcher: the loop where this process's sockets live."""
    global _loop
    with _loop_lock:
        _loop = loop


def _server_loop() -> asyncio.AbstractEventLoop | None:
    loop = _loop
    if loop is not None and loop.is_running() and not loop.is_closed():
        return loop
    # A sync view under ASGI runs in a thread that asgiref tags with the server's loop.
    if getattr(SyncToAsync.threadlocal, "main_event_loop_pid", None) == os.getpid():
        loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
        if loop is not None and loop.is_running() and not loop.is_closed():
            return loop
    return None


async def deliver(group: str, message: dict[str, Any], *, server: bool = False) -> None:
    """The local hub first (its sockets do not wait for Redis, and still hear of events while
    Redis is away), then every other process through the layer. The hub drops what it has already
    delivered, so hearing the same message twice is harmless. ``server``: this is the ASGI
    server's loop, where the clock watcher lives (started here if no socket has started it)."""
    from . import clock, fanout  # they import this module

    if server:
        clock.ensure_started(asyncio.get_running_loop())
    hub = fanout.current_hub()
    if hub is not None:
        hub.on_message(message)
    elif message["type"] == MATCH_UPDATE:
        clock.wake()
    layer = get_channel_layer()
    if layer is not None:
        await layer.group_send(group, message)


def spawn(loop: asyncio.AbstractEventLoop, coro) -> asyncio.Task:
    """A task in a context of its own. Tasks inherit the creator's context variables, and the
    creator here is often a request's (asgiref marks it as inside a thread executor): a hub or a
    watcher task started from there would outlive it and have its database calls refused."""
    return loop.create_task(coro, context=contextvars.Context())


def _log_failure(future) -> None:
    if not future.cancelled() and future.exception() is not None:
        log.warning("broadcast failed (viewers will be repaired from the log): %r", future.exception())


def send(group: str, message: dict[str, Any]) -> None:
    """Hand ``message`` to ``group`` without waiting for it to go out."""
    loop = _server_loop()
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
                lambda: spawn(loop, deliver(group, message, server=True)).add_done_callback(_log_failure))
    except RuntimeError as exc:  # the loop is shutting down: the log repairs the viewers later
        log.warning("broadcast dropped: %r", exc)


def broadcast_match_update(match_id: int, seq: int, last_seq: int | None = None, **update: Any) -> None:
    """The log of the match has new events ``seq``..``last_seq`` (committed). ``update`` may carry
    ``events`` (those rows), ``states`` (language → state after them) and ``server_time``: then a
    hub whose sockets are at ``seq - 1`` sends them on without reading the database."""
    send(match_group(match_id), {"type": MATCH_UPDATE, "match_id": match_id, "seq": seq,
                                 "last_seq": seq if last_seq is None else last_seq, **update})


def broadcast_match_roles(match_id: int) -> None:
    """The match's officials changed: its officials' sockets re-check their role."""
    send(match_group(match_id), {"type": MATCH_ROLES, "match_id": match_id})


def broadcast_user(user_id: int, kind: str) -> None:
    send(user_group(user_id), {"type": kind, "user_id": user_id})


# --- who may keep an official's socket open --------------------------------------------------

@receiver(user_logged_out, dispatch_uid="polo-ws-logout")
def _on_logout(sender, request, user, **kwargs) -> None:
    if user is not None and user.pk is not None:
        transaction.on_commit(lambda: broadcast_user(user.pk, USER_LOGOUT))


@receiver(m2m_changed, dispatch_uid="polo-ws-umpires")
def _on_m2m(sender, instance, action, **kwargs) -> None:
    if action not in ("post_add", "post_remove", "post_clear"):
        return
    from django.contrib.auth import get_user_model

    from .models import Match

    if sender is Match.umpires.through and isinstance(instance, Match):
        transaction.on_commit(lambda: broadcast_match_roles(instance.pk))
    elif sender is get_user_model().groups.through and isinstance(instance, get_user_model()):
        transaction.on_commit(lambda: broadcast_user(instance.pk, USER_ROLES))


@receiver(post_save, dispatch_uid="polo-ws-match-officials")
def _on_save(sender, instance, created, update_fields=None, **kwargs) -> None:
    from django.contrib.auth import get_user_model

    from .models import Match

    if sender is Match and not created:
        # The event path saves only the state cache: not a change of officials.
        if update_fields is not None and not ({"scorer", "referee"} & set(update_fields)):
            return
        transaction.on_commit(lambda: broadcast_match_roles(instance.pk))
    elif sender is get_user_model() and not created:
        if update_fields is not None and not ({"is_active", "is_superuser"} & set(update_fields)):
            return
        transaction.on_commit(lambda: broadcast_user(instance.pk, USER_ROLES))
