"""The Server-Sent Events fallback (issue 14), ``GET /api/matches/{id}/stream``, against a real
server: a snapshot first, then every update the websocket would get (the private notes only for
the match's officials), an ``id:`` per update, and the missed events on a reconnect that says
``Last-Event-ID``; a client that did not ask for an event stream gets 406."""

from __future__ import annotations

import http.client
import json
from urllib.parse import urlsplit

from .live_servers import demo_live_match, post

TIMEOUT = 20.0


class Stream:
    """An EventSource's request, read one event at a time (each read bounded by ``TIMEOUT``)."""

    def __init__(self, server, match_id: int, *, headers: dict | None = None) -> None:
        url = urlsplit(server.url)
        self.conn = http.client.HTTPConnection(url.hostname, url.port, timeout=TIMEOUT)
        self.conn.request(
            "GET", f"/api/matches/{match_id}/stream", headers={"Accept": "text/event-stream", **(headers or {})}
        )
        self.response = self.conn.getresponse()

    def next_event(self, skip=("heartbeat",)) -> tuple[str | None, dict]:
        """(its id, its frame) of the next event whose frame is not of a type in ``skip``."""
        while True:
            fields: dict[str, str] = {}
            while True:
                line = self.response.fp.readline().decode()
                assert line, "the stream ended"
                if line == "\n":
                    break
                name, _, value = line.rstrip("\n").partition(": ")
                fields[name] = value
            if "data" in fields:
                frame = json.loads(fields["data"])
                if frame["type"] not in skip:
                    return fields.get("id"), frame

    def close(self) -> None:
        self.conn.close()


def test_the_stream_sends_a_snapshot_then_every_update(make_server):
    server = make_server("stream").start()
    scorer = server.client()
    scorer.login("scorer", "polo-demo")
    match_id = demo_live_match(scorer)
    public = Stream(server, match_id)
    official = Stream(server, match_id, headers={"Cookie": "; ".join(f"{c.name}={c.value}" for c in scorer.jar)})
    try:
        assert public.response.status == 200
        assert public.response.getheader("Content-Type").startswith("text/event-stream")
        assert "no-cache" in public.response.getheader("Cache-Control")
        _id, snapshot = public.next_event()
        assert snapshot["type"] == "snapshot" and snapshot["match_id"] == match_id
        official.next_event()
        before = snapshot["last_seq"]
        status, answer = post(scorer, match_id, "play")
        if status == 422:  # the demo's match may be in play already: stop it instead
            status, answer = post(scorer, match_id, "whistle", reason="other", private_note="for the officials")
        assert status == 201, answer
        for stream in (public, official):
            event_id, update = stream.next_event()
            assert update["type"] == "update" and update["seq"] == update["last_seq"] == answer["seq"] == before + 1
            assert event_id == str(answer["seq"])
            assert update["state"]["last_seq"] == answer["seq"]
        # A reconnect that says where it was gets what it missed with its snapshot.
        again = Stream(server, match_id, headers={"Last-Event-ID": str(before)})
        _id, resumed = again.next_event()
        assert resumed["type"] == "snapshot" and [e["seq"] for e in resumed["events"]] == [before + 1]
        again.close()
    finally:
        public.close()
        official.close()


def test_a_client_that_does_not_ask_for_a_stream_is_refused(make_server):
    server = make_server("stream-406").start()
    status, body = server.client().request("GET", "/api/matches/1/stream")
    assert status == 406 and body["error"]["code"] == "not_acceptable"
    stream = Stream(server, 999999)
    assert stream.response.status == 404
    stream.close()
