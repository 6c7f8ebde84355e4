"""The field keeps the time (issue 34): an outage at the field loses nothing and leaves the record as
the field kept it.

The scorer's laptop stamps every entry with the moment of its first key (``keyed_at``) and keeps it
until the server has it; the server decides each entry at that moment, appends no horn while it
cannot hear the field, and stamps the horns the clock made due at their marks. So the same match
played with a ten-minute outage across the seven-minute horn and the chukker's end, and played with
the link up, leave the same log, the same state and the same log hash.

The server's clock is driven by the test (``ServerClock``): nothing waits for real time.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from matches.games import match_config
from matches.live import field
from matches.live.clock import match_caught_up
from matches.live.snapshots import match_snapshot
from matches.models import MatchEvent
from matches.scoresheet.hashing import log_hash
from matches.selectors import match_state, match_with_config
from matches.services import match_clock_catch_up, match_event_log
from officiating.engine.field import field_state

from .personas import make_match

pytestmark = pytest.mark.django_db

T0 = 1_900_000_000.0  # the wall time of the first throw-in
SIDE_OUT = {"line": "side", "at": {"x": 120, "y": 0}, "last_hit_by": "away", "deflected_off": "none"}


class ServerClock:
    """The server's wall clock, set by the test (every ``time.time()`` the write path reads)."""

    def __init__(self, monkeypatch) -> None:
        self.now = T0
        for module in ("matches.services.time", "matches.live.clock.time", "matches.live.snapshots.time"):
            monkeypatch.setattr(module + ".time", lambda: self.now, raising=True)


# What the scorer keys at the field, in order: (seconds after the first throw-in, the entry).
# Chukker 1: a whistle at 3:20, play at 3:50 (the clock runs on from 3:20), a ball out at 5:00,
# play at 5:15: the single horn falls at 7:00 of the clock (T0 + 465), the double at 7:30 (T0 + 495),
# then the interval (3 minutes) and chukker 2's throw-in at T0 + 700, and a goal 30 s into it.
FIELD_ENTRIES: list[tuple[float, dict[str, Any]]] = [
    (0.0, {"id": "e1", "type": "play"}),
    (200.0, {"id": "e2", "type": "whistle", "reason": "other", "ball": {"x": 150, "y": 80}, "clock": 200.0}),
    (230.0, {"id": "e3", "type": "play"}),
    (300.0, {"id": "e4", "type": "ball_out", **SIDE_OUT, "clock": 270.0}),
    (315.0, {"id": "e5", "type": "play"}),
    (700.0, {"id": "e6", "type": "play"}),
    (730.0, {"id": "e7", "type": "goal", "team": "home", "number": 1, "clock": 30.0}),
]
MARKS = (465.0, 495.0)  # the two horns of chukker 1, after the first throw-in


def keyed(at: float, entry: dict[str, Any]) -> dict[str, Any]:
    return {**entry, "keyed_at": T0 + at}


def post(match, entry: dict[str, Any], user) -> Any:
    result = match_event_log(match_id=match.pk, event=entry, user=user)
    assert result.accepted, (entry, result.error and result.error.code)
    return result


def rows(match) -> list[tuple[int, str, str, dict[str, Any]]]:
    events = MatchEvent.objects.filter(match=match).order_by("seq")
    return list(events.values_list("seq", "client_id", "type", "payload"))


def play_with_the_link_up(match, user, clock: ServerClock) -> None:
    """Each entry reaches the server 50 ms after its key; the field is heard all along, and the
    clock watcher appends each horn at its mark."""
    field_heard = field.field_heard
    steps = [(at, "entry", e) for at, e in FIELD_ENTRIES] + [(m, "horn", None) for m in MARKS]
    pending = sorted(steps, key=lambda x: x[0])
    for at, what, entry in pending:
        clock.now = T0 + at + 0.05
        field_heard(match.pk, now=clock.now)
        if what == "entry":
            post(match, keyed(at, entry), user)
        else:
            match_clock_catch_up(match_id=match.pk)


def play_through_an_outage(match, user, clock: ServerClock) -> None:
    """The throw-in reaches the server; then the link is down from T0 + 100 to T0 + 760 (eleven
    minutes) while the field goes on; then the field's queue arrives, in order."""
    first_at, first = FIELD_ENTRIES[0]
    clock.now = T0 + first_at + 0.05
    field.field_heard(match.pk, now=clock.now)
    post(match, keyed(first_at, first), user)
    field.field_heard(match.pk, now=T0 + 99.0)
    for mark in MARKS:  # the clock watcher and a crowd's reads at the marks: the field is silent
        clock.now = T0 + mark + 0.1
        assert match_clock_catch_up(match_id=match.pk) == []
        match_caught_up(match_with_config(match.pk), clock.now)
        assert match_with_config(match.pk).last_seq == 1
    for i, (at, entry) in enumerate(FIELD_ENTRIES[1:]):
        clock.now = T0 + 760.0 + i * 0.2
        post(match, keyed(at, entry), user)
    clock.now += 1.0
    field.field_heard(match.pk, now=clock.now)
    match_clock_catch_up(match_id=match.pk)


@pytest.fixture
def twins(cast):
    """Two matches alike in everything the log records, kept by the same scorer."""
    a = cast.match_a
    b = make_match(tournament=a.tournament, field=a.field, home=a.home, away=a.away, scorer=cast.scorer_a)
    return a, b, cast.scorer_a


def test_a_ten_minute_outage_across_the_horns_and_the_chukkers_end_leaves_the_same_record(twins, monkeypatch):
    up, down, scorer = twins
    clock = ServerClock(monkeypatch)
    play_with_the_link_up(up, scorer, clock)
    play_through_an_outage(down, scorer, clock)

    def content(match):
        return [(seq, cid, t, p) for seq, cid, t, p in rows(match)]

    assert content(down) == content(up)
    assert [r[1] for r in rows(down)] == ["e1", "e2", "e3", "e4", "e5", "auto:1:seven", "auto:1:final", "e6", "e7"]
    assert log_hash(down.pk) == log_hash(up.pk)
    later = T0 + 800.0
    assert match_state(match_with_config(down.pk), now=later) == match_state(match_with_config(up.pk), now=later)


def test_every_entry_kept_through_the_outage_lands_at_the_fields_time(twins, monkeypatch):
    _, down, scorer = twins
    clock = ServerClock(monkeypatch)
    play_through_an_outage(down, scorer, clock)
    stored = {cid: p for _, cid, _, p in rows(down)}
    for at, entry in FIELD_ENTRIES:
        assert stored[entry["id"]]["server_time"] == pytest.approx(T0 + at)
        if "clock" in entry:
            assert stored[entry["id"]]["clock"] == entry["clock"]
    assert stored["auto:1:seven"]["server_time"] == pytest.approx(T0 + 465.0)
    assert stored["auto:1:final"]["server_time"] == pytest.approx(T0 + 495.0)
    assert "by" not in stored["auto:1:seven"]  # the clock's horn, not a person's


def test_no_horn_while_the_field_is_silent_and_the_screens_are_told(twins, monkeypatch):
    _, down, scorer = twins
    clock = ServerClock(monkeypatch)
    clock.now = T0 + 0.05
    field.field_heard(down.pk, now=clock.now)
    post(down, keyed(0.0, FIELD_ENTRIES[0][1]), scorer)
    clock.now = T0 + 5.0
    heard = {"heard_at": T0 + 0.05, "silent": False, "silent_for": None}
    assert match_snapshot(down.pk, now=clock.now)["field"] == heard
    clock.now = T0 + 600.0  # past both horns, nothing heard for ten minutes
    assert match_clock_catch_up(match_id=down.pk) == []
    snapshot = match_snapshot(down.pk, now=clock.now)
    assert snapshot["last_seq"] == 1  # the read appended no horn either
    assert snapshot["field"]["silent"] is True
    assert snapshot["field"]["silent_for"] == pytest.approx(600.0 - 0.05, abs=0.1)


def test_with_no_timekeeper_ever_heard_the_server_keeps_the_time(twins, monkeypatch):
    _, match, scorer = twins
    clock = ServerClock(monkeypatch)
    clock.now = T0
    post(match, {"id": "p", "type": "play"}, scorer)
    clock.now = T0 + 500.0
    assert len(match_clock_catch_up(match_id=match.pk)) == 2  # the single and the double horn
    assert match_snapshot(match.pk, now=clock.now)["field"] == {"heard_at": None, "silent": False, "silent_for": None}


def test_a_horn_waits_for_the_field_to_be_heard_after_its_mark(twins, monkeypatch):
    _, match, scorer = twins
    clock = ServerClock(monkeypatch)
    clock.now = T0
    field.field_heard(match.pk, now=T0)
    post(match, {"id": "p", "type": "play", "keyed_at": T0}, scorer)
    field.field_heard(match.pk, now=T0 + 419.0)
    clock.now = T0 + 420.5  # the mark has passed, but the field was last heard before it
    assert match_clock_catch_up(match_id=match.pk) == []
    field.field_heard(match.pk, now=T0 + 421.0)
    appended = match_clock_catch_up(match_id=match.pk)
    assert len(appended) == 1
    assert MatchEvent.objects.get(match=match, seq=appended[0]).payload["server_time"] == pytest.approx(T0 + 420.0)


def test_an_entry_kept_longer_than_the_window_is_refused_with_the_way_to_record_it(twins, monkeypatch):
    _, match, scorer = twins
    clock = ServerClock(monkeypatch)
    clock.now = T0
    post(match, {"id": "p", "type": "play", "keyed_at": T0}, scorer)
    clock.now = T0 + 1900.0
    old = {"id": "w", "type": "card", "team": "home", "number": 1, "color": "yellow", "keyed_at": T0 + 60.0}
    result = match_event_log(match_id=match.pk, event=old, user=scorer, lang="es")
    assert not result.accepted and result.error.code == "clock_too_old" and result.error.rule == "14.b(1)"
    assert "minutos" in result.error.message("es")
    assert "record it at the official time now" in result.error.message("en")
    assert not MatchEvent.objects.filter(match=match, client_id="w").exists()


def test_what_the_field_shows_offline_is_what_the_server_records_when_the_link_returns(twins, monkeypatch):
    """The screen's own fold (the engine in the browser: ``officiating.engine.field``) of the log it
    had and the entries it kept, at the end of the outage, is the server's state once they arrive."""
    _, down, scorer = twins
    clock = ServerClock(monkeypatch)
    clock.now = T0 + 0.05
    field.field_heard(down.pk, now=clock.now)
    post(down, keyed(0.0, FIELD_ENTRIES[0][1]), scorer)
    stored = [p for _, _, _, p in rows(down)]
    kept = [keyed(at, entry) for at, entry in FIELD_ENTRIES[1:]]
    at_the_field = json.loads(
        field_state(
            json.dumps(
                {
                    "config": match_config(down),
                    "stored": stored,
                    "kept": kept,
                    "now": T0 + 760.0,
                    "lang": "es",
                    "author": {"role": "scorer", "name": scorer.get_username()},
                }
            )
        )
    )
    assert at_the_field["refused"] == []
    for i, entry in enumerate(kept):
        clock.now = T0 + 760.0 + i * 0.2
        post(down, entry, scorer)
    server = match_state(match_with_config(down.pk), now=T0 + 760.0, lang="es")
    assert at_the_field["last_seq"] == match_with_config(down.pk).last_seq == 9
    assert at_the_field["state"] == server


def test_the_field_shows_an_entry_the_rules_refuse_as_the_server_will_refuse_it(twins):
    _, match, _ = twins
    kept = [{"id": "g", "type": "goal", "team": "home", "number": 1, "keyed_at": T0}]  # no throw-in yet
    payload = {"config": match_config(match), "stored": [], "kept": kept, "now": T0 + 1, "lang": "es"}
    out = json.loads(field_state(json.dumps(payload)))
    assert [r["id"] for r in out["refused"]] == ["g"]
    assert out["refused"][0]["message"]  # in the official's language
    assert out["last_seq"] == 0
