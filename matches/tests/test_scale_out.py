"""Two ASGI processes on one database and one Redis serve the same match: a viewer connected to
process A sees an event posted to process B; a thousand sockets connecting at once all get their
snapshot and the next update (redis-py's async pool must not run out: ``max_connections``)."""

from __future__ import annotations

import asyncio
import time

from .live_servers import demo_live_match, post, receive, redis_env, ws_connect

VIEWERS = 1000


def two_servers(make_server):
    env = redis_env()
    prefix = "scale" + str(time.time_ns())[-8:]
    a = make_server("scale-a", extra_env=env, channel_prefix=prefix)
    b = make_server("scale-b", extra_env=env, channel_prefix=prefix, database_url=a.database_url, demo=False)
    return a.start(), b.start()


def test_a_viewer_on_one_process_sees_an_event_posted_to_the_other(make_server):
    a, b = two_servers(make_server)
    scorer = b.client()
    scorer.login("scorer", "polo-demo")
    match_id = demo_live_match(scorer)

    async def scenario():
        async with ws_connect(a, match_id) as on_a, ws_connect(b, match_id) as on_b:
            snapshots = [await receive(ws, "snapshot") for ws in (on_a, on_b)]
            assert snapshots[0]["last_seq"] == snapshots[1]["last_seq"]
            status, answer = post(scorer, match_id, "play")
            assert status == 201
            updates = [await receive(ws, "update") for ws in (on_a, on_b)]
            for update in updates:
                assert update["seq"] == update["last_seq"] == answer["seq"]
                assert [e["id"] for e in update["events"]] == [answer["event"]["id"]]
                assert update["state"]["status"] == "in_play"
            # And the other way round: posted to A, heard on B.
            umpire = a.client()
            umpire.login("umpire1", "polo-demo")
            status, goal = await asyncio.to_thread(post, umpire, match_id, "goal", team="away", number=2)
            assert status == 201
            heard = await receive(on_b, "update")
            assert heard["seq"] == goal["seq"] and heard["state"]["score"] == goal["state"]["score"]

    asyncio.run(scenario())


def test_a_thousand_sockets_connecting_at_once_all_get_the_next_update(make_server):
    a, b = two_servers(make_server)
    scorer = b.client()
    scorer.login("scorer", "polo-demo")
    match_id = demo_live_match(scorer)

    async def viewer(ready: asyncio.Event, posted: asyncio.Event, seqs: list):
        async with ws_connect(a if len(seqs) % 2 else b, match_id) as ws:
            snapshot = await receive(ws, "snapshot", timeout=120)
            seqs.append(snapshot["last_seq"])
            ready.set()
            await posted.wait()
            update = await receive(ws, "update", timeout=120)
            return update["last_seq"]

    async def scenario():
        posted = asyncio.Event()
        readies = [asyncio.Event() for _ in range(VIEWERS)]
        seqs: list = []
        started = time.monotonic()
        tasks = [asyncio.create_task(viewer(r, posted, seqs)) for r in readies]
        await asyncio.wait_for(asyncio.gather(*(r.wait() for r in readies)), 180)
        connected = time.monotonic() - started
        status, answer = await asyncio.to_thread(post, scorer, match_id, "play")
        assert status == 201
        sent = time.monotonic()
        posted.set()
        results = await asyncio.wait_for(asyncio.gather(*tasks), 180)
        delivered = time.monotonic() - sent
        print(
            f"\n{VIEWERS} sockets on 2 processes: all connected in {connected:.1f} s; "
            f"update delivered to all in {delivered:.2f} s"
        )
        return answer["seq"], results

    seq, results = asyncio.run(scenario())
    assert len(results) == VIEWERS
    assert set(results) == {seq}
    for server in (a, b):
        assert "Too many connections" not in server.log_path.read_text()
