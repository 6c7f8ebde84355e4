"""The official clock's watcher: appends the horns a running clock makes due, at the moment they
fall due, so that every socket hears the period end even if no official touches a screen.

The server is the authority on time (Rule 14.b(1): the official time). Nobody's screen ticks
from the server: a state carries ``clock.elapsed`` read at ``clock.anchor`` (epoch seconds) and
every screen runs it locally. What the server must do itself is *record* the horns: the single
horn at 7:00 and the double horn at 7:30 (``officiating.engine.due_events``). Three places do:

- the read path (``match_caught_up``, which ``snapshots`` calls): a read that finds a horn
  overdue appends it first, so a read at 7:31 shows the period over with nobody connected;
- the event path (``services.match_event_log``): horns due before an event are appended first;
- this watcher: one asyncio task per ASGI process, started by the first websocket (or the first
  broadcast) of the process. It sleeps until the next 7:00/7:30 mark of any running clock,
  or until an update wakes it, then calls ``match_clock_catch_up``. It reads the running clocks
  from the database every ``POLL_SECONDS`` (clocks started where this process does not hear
  of it); an update it is woken by carries its state, which it takes as it is, so an update
  costs the watcher no read (a read per update per process, in the middle of its fan-out, was
  one more database connection and thread hop for every screen to wait behind).

Several processes may append the same horn: the engine gives it a deterministic id and the
service locks the match row, so the second finds nothing due. (Celery countdown tasks are not
used: they can run twice and late.)
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from channels.db import database_sync_to_async

from matches.games import horns_due, match_game
from matches.models import Match
from matches.selectors import match_with_config
from matches.services import horns_due_by, match_clock_catch_up

from .loop import cancel_and_wait, spawn

log = logging.getLogger(__name__)

POLL_SECONDS = 10.0  # also look for clocks started by other processes this often
FIELD_POLL_SECONDS = 1.0  # a horn waiting for the field to be heard after its mark: look this often


def horn_marks(state: dict[str, Any] | None) -> list[float]:
    """The wall times (epoch s) of the single and the double horn (7:00 and 7:30 under USPA 2026:
    the state's ``regular_seconds`` and ``end_seconds``, its rule edition's) of a running clock, or []."""
    clock = (state or {}).get("clock") or {}
    marks = (clock.get("regular_seconds"), clock.get("end_seconds"))
    if not clock.get("running") or clock.get("anchor") is None or None in marks:
        return []
    elapsed, anchor = float(clock.get("elapsed") or 0), float(clock["anchor"])
    return [anchor + (float(mark) - elapsed) for mark in marks]


def _running_clocks() -> list[tuple[int, dict[str, Any]]]:
    # A match kept at the field has its clock there (matches/field/): this server appends no horn.
    running = Match.objects.filter(state_cache__clock__running=True).exclude(kept_at=Match.KeptAt.FIELD)
    return list(running.values_list("pk", "state_cache"))


def _catch_up(match_id: int) -> tuple[list[int], bool]:
    """Append the horns due; and whether a horn is due that waits for the field to be heard after
    its mark (issue 34: then the watcher looks again soon)."""
    appended = match_clock_catch_up(match_id=match_id)
    if appended:
        return appended, False
    match = match_with_config(match_id)
    now = time.time()
    return [], match.field_heard_at is not None and bool(horns_due(match_game(match), now))


def match_caught_up(match: Match, now: float) -> Match:
    """The match, re-read after appending any horn the running clock has made due (the read
    path's catch-up). Only a running clock can make a horn due, and the check itself is a pure
    fold (no lock), so reads stay cheap."""
    clock = (match.state_cache or {}).get("clock") or {}
    if match.kept_at == Match.KeptAt.FIELD:
        return match  # the field's server appends this match's horns (matches/field/)
    if clock.get("running") and horns_due(match_game(match), horns_due_by(match, now)):
        if match_clock_catch_up(match_id=match.pk, now=now):
            return match_with_config(match.pk)
    return match


def _seq(state: dict[str, Any] | None) -> int:
    return int((state or {}).get("last_seq") or 0)


class Watcher:
    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.woken = asyncio.Event()
        self.checked: dict[int, float] = {}  # match id -> when we last caught it up
        self.clocks: dict[int, dict[str, Any]] = {}  # match id -> its state, as last read or heard
        self.heard: dict[int, dict[str, Any]] = {}  # states heard while a read was running
        self.read_at: float | None = None  # when the database was last read (None: read now)
        self.task = spawn(loop, self._run())

    def wake(self, message: dict[str, Any] | None = None) -> None:
        """Something changed. An update's message carries the match's state after it: taken as it
        is (unless an older one than what is known); without one, the database is read."""
        states = (message or {}).get("states")
        if states:
            state = next(iter(states.values()))  # (the clock is the same in every language)
            match_id = message["match_id"]
            if _seq(state) >= _seq(self.clocks.get(match_id)):
                self.clocks[match_id] = state
            self.heard[match_id] = state
        else:
            self.read_at = None
        self.woken.set()

    async def _read(self, read) -> None:
        """The running clocks from the database; what was heard while the read ran is newer
        where its seq says so."""
        self.heard = {}
        self.read_at = time.time()
        try:
            clocks = dict(await read())
        except asyncio.CancelledError:
            raise
        except Exception:  # the database may be restarting: try again soon
            log.exception("clock watcher: cannot read the running clocks")
            return
        for match_id, state in self.heard.items():
            if _seq(state) >= _seq(clocks.get(match_id)):
                clocks[match_id] = state
        self.clocks = clocks

    async def _run(self) -> None:
        read = database_sync_to_async(_running_clocks)
        catch_up = database_sync_to_async(_catch_up)
        while True:
            self.woken.clear()
            if self.read_at is None or time.time() - self.read_at >= POLL_SECONDS:
                await self._read(read)
            now = time.time()
            next_at = min(now + POLL_SECONDS, (self.read_at or now) + POLL_SECONDS)
            for match_id, state in list(self.clocks.items()):
                # Marks already handled are skipped: a mark where the engine had no horn to give
                # must not make the watcher spin.
                marks = [t for t in horn_marks(state) if t > self.checked.get(match_id, 0.0)]
                if marks and marks[0] <= now:
                    waiting = False
                    try:
                        _appended, waiting = await catch_up(match_id)
                    except asyncio.CancelledError:
                        raise
                    except Exception:
                        log.exception("clock watcher: catch-up of match %s failed", match_id)
                    self.read_at = None  # look again, from the log: the state has moved on
                    if waiting:
                        # The field keeps the time and has not been heard since this mark: what it
                        # keyed before the horn may still be on its way (issue 34). Look again soon.
                        next_at = min(next_at, now + FIELD_POLL_SECONDS)
                    else:
                        self.checked[match_id] = now
                        next_at = now
                elif marks:
                    next_at = min(next_at, marks[0])
            try:
                await asyncio.wait_for(self.woken.wait(), max(0.0, next_at - time.time()))
            except TimeoutError:
                pass


_watchers: dict[asyncio.AbstractEventLoop, Watcher] = {}


def ensure_started(loop: asyncio.AbstractEventLoop) -> Watcher:
    watcher = _watchers.get(loop)
    if watcher is None or watcher.task.done():
        for old in [old for old in _watchers if old.is_closed()]:
            del _watchers[old]
        watcher = _watchers[loop] = Watcher(loop)
    return watcher


def wake(message: dict[str, Any] | None = None) -> None:
    """Something changed (called on the server loop): recompute the next mark, from the state
    ``message`` (an update's) carries, else from the database."""
    try:
        watcher = _watchers.get(asyncio.get_running_loop())
    except RuntimeError:
        return
    if watcher is not None:
        watcher.wake(message)


async def stop(loop: asyncio.AbstractEventLoop) -> None:
    watcher = _watchers.pop(loop, None)
    if watcher is not None:
        await cancel_and_wait(watcher.task)
