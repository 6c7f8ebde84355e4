"""The time an event is decided at is read once the match is locked, and the log's server times
never go backwards (issue 9: a "Play" that waited 4.7 s for the lock started the clock 4.7 s
early; concurrent posts were stamped before the event ahead of them in the log).

On PostgreSQL (CI's second pass) the posts really race for the match row's lock; SQLite has no
row locks and one writer at a time, so there the same posts go one after another.
"""

from __future__ import annotations

import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection, connections, transaction

from matches.models import Match, MatchEvent
from matches.services import match_event_log

from .personas import make_match, make_user

pytestmark = pytest.mark.django_db(transaction=True)


def _post(match_id: int, event: dict, user, serial: threading.Lock | None):
    try:
        if serial is None:
            return match_event_log(match_id=match_id, event=event, user=user)
        with serial:
            return match_event_log(match_id=match_id, event=event, user=user)
    finally:
        connections.close_all()


def test_concurrent_posts_are_stamped_in_the_order_of_the_log():
    scorer = make_user("scorer-times")
    match = make_match(scorer=scorer)
    assert match_event_log(match_id=match.pk, event={"id": "p1", "type": "play"}, user=scorer).accepted
    serial = None if connection.vendor == "postgresql" else threading.Lock()
    events = [
        {"id": str(uuid.uuid4()), "type": "mount", "team": "home", "number": 1 + i % 4, "horse": f"Horse {i}"}
        for i in range(20)
    ]
    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(lambda e: _post(match.pk, e, scorer, serial), events))
    assert all(r.accepted for r in results)
    rows = list(MatchEvent.objects.filter(match=match).order_by("seq"))
    assert len(rows) == 21
    times = [row.payload["server_time"] for row in rows]
    assert times == sorted(times), "a later event of the log was stamped before an earlier one"
    received = [row.received_at for row in rows]
    assert received == sorted(received)


def test_a_play_that_waited_for_the_lock_starts_the_clock_when_it_got_it():
    scorer = make_user("scorer-lock")
    match = make_match(scorer=scorer)
    if connection.vendor != "postgresql":
        # No row locks on SQLite: the play is stamped when it is decided, after whatever came first.
        before = time.time()
        result = match_event_log(match_id=match.pk, event={"id": "p", "type": "play"}, user=scorer)
        assert result.event["server_time"] >= before
        return

    locked = threading.Event()
    waiting = threading.Event()
    holder_pid: list[int] = []
    released_at: list[float] = []

    def hold_the_lock() -> None:
        try:
            with transaction.atomic():
                Match.objects.select_for_update().get(pk=match.pk)
                with connection.cursor() as cursor:
                    cursor.execute("SELECT pg_backend_pid()")
                    holder_pid.append(cursor.fetchone()[0])
                locked.set()
                waiting.wait(timeout=60)  # until the play is waiting for this lock
                released_at.append(time.time())
        finally:
            connections.close_all()

    holder = threading.Thread(target=hold_the_lock)
    holder.start()
    assert locked.wait(timeout=60), "the holder never got the lock"
    with ThreadPoolExecutor(max_workers=1) as pool:
        future = pool.submit(_post, match.pk, {"id": "p", "type": "play"}, scorer, None)
        # Wait for the event, not for time: PostgreSQL says when a backend is blocked by the holder's
        # (any other wait in the database, e.g. a server left by another test, is not this one).
        with connections["default"].cursor() as cursor:
            for _ in range(6000):
                cursor.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE %s = ANY(pg_blocking_pids(pid))", [holder_pid[0]]
                )
                if cursor.fetchone()[0]:
                    break
                time.sleep(0.01)
            else:
                pytest.fail("the post never waited for the lock")
        waiting.set()
        result = future.result(timeout=60)
    holder.join(timeout=60)
    assert result.accepted
    assert result.event["server_time"] >= released_at[0]
    assert result.state["clock"]["anchor"] >= released_at[0]
