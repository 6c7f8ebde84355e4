"""A match kept at the field, with two real servers (issue 35): the field server on SQLite (as
``./dev field`` runs it) and the tournament's server on its own database (PostgreSQL when
``DATABASE_URL`` names one), joined by a TCP proxy on loopback that the test cuts and restores.

A whole chukker is logged at the field, through the field server's API, while the link is down:
a goal, a foul, a knock-in and the chukker's end (the field's own clock appends the horn); the
field's sender and the tournament's server are restarted meanwhile. When the link returns, both
logs are the same event for event, with the same state and log hash, and ``verify_report`` agrees
on both."""

from __future__ import annotations

import time
import uuid

import pytest

from matches.demo import DEMO_PASSWORD

from .field_link import Paired, log_record, until

pytestmark = pytest.mark.timeout(240)


def post(client, match_id: int, event: dict) -> dict:
    status, body = client.request("POST", f"/api/matches/{match_id}/events", {"id": str(uuid.uuid4()), **event})
    assert status in (200, 201), (status, body)
    return body


def state(client, match_id: int) -> dict:
    status, body = client.request("GET", f"/api/matches/{match_id}/state")
    assert status == 200, body
    return body


def test_a_chukker_logged_at_the_field_while_the_link_is_down_reaches_the_tournaments_server_whole(
    make_server, tmp_path
):
    link = Paired(make_server, tmp_path / "field.sqlite3")
    tournament, field, proxy, remote_id, match_id, scorer = (
        link.tournament,
        link.field,
        link.proxy,
        link.remote_id,
        link.match_id,
        link.scorer,
    )
    try:
        field.start()
        sync = link.start_sync()
        public = tournament.client()
        until(lambda: state(public, remote_id)["field"]["heard_at"], what="the field's first heartbeat")

        # The officials at the field sign in with their usual password (the pairing brought its hash).
        at_field = field.client()
        at_field.login(scorer, DEMO_PASSWORD)
        refused = tournament.client()
        refused.login(scorer, DEMO_PASSWORD)
        status, body = refused.request("POST", f"/api/matches/{remote_id}/events", {"id": "x1", "type": "play"})
        assert status == 423 and body["error"]["code"] == "kept_at_field"

        proxy.cut()
        cut_at = time.time()
        post(at_field, match_id, {"type": "play"})
        post(at_field, match_id, {"type": "goal", "team": "home", "number": 1})
        post(at_field, match_id, {"type": "play"})
        post(at_field, match_id, {"type": "foul", "against": "away", "number": 2, "penalty": "3"})
        post(at_field, match_id, {"type": "play"})
        # Over the end line, last hit by the attackers: a knock-in for the defenders.
        now = state(at_field, match_id)["state"]
        x = 300.0 if now["defends"]["home"] == "north" else 0.0
        out_of_play = {"type": "ball_out", "line": "end", "at": {"x": x, "y": 60}, "last_hit_by": "home"}
        knock_in = post(at_field, match_id, {**out_of_play, "deflected_off": "none"})
        assert knock_in["state"]["restart"]["kind"] == "knock_in", knock_in["state"]["restart"]
        post(at_field, match_id, {"type": "play"})
        # The umpires set the clock one second short of 7:30: the field's clock ends the chukker.
        post(at_field, match_id, {"type": "clock_set", "clock": 449, "reason": "stopwatch"})
        ended = until(
            lambda: state(at_field, match_id)["state"]["status"] == "interval", what="the chukker's end at the field"
        )
        assert ended

        # The field keeps its log and says what is wrong; the sender and the tournament's server are
        # both restarted mid-outage (the server killed).
        uplink = until(lambda: state(at_field, match_id)["field"]["uplink"]["error"], what="the field's error")
        assert uplink["code"] == "unreachable"
        sync.stop(kill=True)
        link.start_sync()
        tournament.restart(kill=True)
        # Meanwhile the tournament's server shows the field's state as last heard, and when.
        replica = state(public, remote_id)
        assert replica["last_seq"] == 0 and replica["field"]["kept_at"] == "field"
        assert replica["field"]["heard_at"] <= cut_at + 1

        proxy.restore()
        field_last = state(at_field, match_id)["last_seq"]
        until(lambda: state(public, remote_id)["last_seq"] == field_last, timeout=60, what="the replica's catch-up")

        now = time.time()
        at_the_field, on_the_server = log_record(field, match_id, now), log_record(tournament, remote_id, now)
        # Eight events posted at the field and the double horn its clock appended.
        assert len(at_the_field["rows"]) == field_last == 9
        assert at_the_field["rows"][-1][2]["type"] == "horn" and at_the_field["rows"][-1][2]["kind"] == "final"
        assert on_the_server["rows"] == at_the_field["rows"]
        assert on_the_server["hash"] == at_the_field["hash"]
        assert on_the_server["state"] == at_the_field["state"]
        hex_hash = on_the_server["hash"][1]
        assert "OK" in tournament.manage("verify_report", "--match", str(remote_id), "--hash", hex_hash)
        assert "OK" in field.manage("verify_report", "--match", str(match_id), "--hash", hex_hash)
        assert until(lambda: state(at_field, match_id)["field"]["uplink"]["error"] is None, what="the error cleared")
    finally:
        link.close()
