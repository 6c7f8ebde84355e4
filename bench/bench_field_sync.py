"""A match kept at the field: how long the tournament's server takes to catch up with the field's log
once the link returns, for 100 and 1,000 events queued at the field, beside a floor (the same events
inserted directly into the tournament's database, in one transaction, with the fold of the log).

    python bench/bench_field_sync.py                 # 100 and 1,000 events, 3 rounds each
    python bench/bench_field_sync.py --events 100 --rounds 1
    python bench/bench_field_sync.py --latency 40    # with the link up: 40 events, one at a time

Each round: the tournament's server (uvicorn, the demo, PostgreSQL when DATABASE_URL names one, else
SQLite) and a field server's database (SQLite, as ``./dev field``) paired with it through a TCP proxy
on loopback (``matches/tests/field_link.py``), ``manage.py field_sync`` running. The proxy is cut, the
events are logged at the field through the write path (``play`` and a ball out over the side in
turn, 0.2 s apart), the sender finds the link down, then the link returns: the time is from the
proxy's restore to the tournament's server's state API answering the field's last seq (read every
20 ms). It includes the sender's wait before its next try (at most 1 s ±20 % while the link is
down), reported apart as ``retry_wait`` (until the replica shows the first batch). Writes
``bench/results/field_sync.json``.

``--latency N``: with the link up, an event's time from the field's POST (the scorer, at the field
server's API) to its update on a websocket of the tournament's server, for N events one at a time;
floor: the same events posted to the tournament's server directly, on a match it keeps, heard on
its own websocket. Writes ``bench/results/field_latency.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE_DIR))

from matches.tests.field_link import Paired, manage_json, until  # noqa: E402
from polo.testing import ServerProcess  # noqa: E402

STEP = 0.2  # seconds between two events at the field
DEMO_PASSWORD = "polo-demo"  # the demo's (matches.demo.DEMO_PASSWORD)


def generate(match_id: int, count: int) -> None:
    """(In the field server's shell.) ``count`` events logged at the field through the write path."""
    import uuid

    from matches.models import Match
    from matches.services import match_event_log

    match = Match.objects.select_related("scorer").get(pk=match_id)
    t0 = time.time() - count * STEP - 60
    out = {"type": "ball_out", "line": "side", "at": {"x": 150, "y": 0}, "last_hit_by": "home", "deflected_off": "none"}
    for n in range(count):
        event = {"type": "play"} if n % 2 == 0 else out
        result = match_event_log(
            match_id=match.pk, event={"id": str(uuid.uuid4()), **event}, user=match.scorer, now=t0 + n * STEP
        )
        assert result.accepted, result.error


def floor(match_id: int, path: str) -> float:
    """(In the tournament's server's shell.) Seconds to insert the events of ``path`` (the field's
    log, as the protocol carries it) into match ``match_id`` directly, with the fold and the cache."""
    from django.db import transaction

    from matches.field.wire import event_item
    from matches.games import forget_cached_game, match_game
    from matches.models import Match, MatchEvent
    from officiating.engine import to_state

    items = json.loads(Path(path).read_text())
    read = [event_item(item, n) for n, item in enumerate(items, start=1)]
    start = time.perf_counter()
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match_id)
        MatchEvent.objects.bulk_create(
            MatchEvent(match=match, seq=seq, client_id=event_id, type=event_type, payload=event, received_at=received)
            for seq, event_id, event_type, event, received, _sent_by in read
        )
        match.last_seq = len(items)
        forget_cached_game(match.pk)
        match.state_cache = to_state(match_game(match))
        match.save(update_fields=["last_seq", "state_cache"])
    return time.perf_counter() - start


def one_round(tmp: Path, count: int) -> dict[str, float]:
    link = Paired(lambda name, **kwargs: ServerProcess(tmp / name, name, **kwargs), tmp / "field" / "field.sqlite3")
    tournament, field, proxy, remote_id, match_id = (
        link.tournament,
        link.field,
        link.proxy,
        link.remote_id,
        link.match_id,
    )
    try:
        link.start_sync()

        def replica() -> dict:
            return link.replica_state()

        until(lambda: replica()["field"]["heard_at"], timeout=60, what="the field's first heartbeat")
        proxy.cut()
        bench = f"import sys; sys.path.insert(0, {str(BASE_DIR / 'bench')!r}); import bench_field_sync as b; "
        field.manage("shell", "-c", bench + f"b.generate({match_id}, {count})")
        status = "from matches.field.models import FieldLink; import json; "
        status += f"l = FieldLink.objects.get(match_id={match_id}); print(json.dumps(l.error_code))"
        until(lambda: manage_json(field, status) == "unreachable", timeout=60, what="the sender finding the link down")

        proxy.restore()
        restored = time.monotonic()
        first = None
        while True:
            seq = replica()["last_seq"]
            if seq and first is None:
                first = time.monotonic() - restored
            if seq >= count:
                break
            if time.monotonic() - restored > 300:
                raise AssertionError("the replica did not catch up within 300 s")
            time.sleep(0.02)
        caught_up = time.monotonic() - restored

        export = tmp / "log.json"
        code = "import json; from matches.field.wire import log_items; "
        code += f"open({str(export)!r}, 'w').write(json.dumps(log_items({match_id}))); print(1)"
        field.manage("shell", "-c", code)
        other = manage_json(
            tournament,
            "import json; from matches.models import Match; "
            f"print(json.dumps(Match.objects.filter(last_seq=0).exclude(pk={remote_id}).first().pk))",
        )
        direct = float(
            manage_json(tournament, bench + f"import json; print(json.dumps(b.floor({other}, {str(export)!r})))")
        )
        return {"caught_up": caught_up, "retry_wait": first or 0.0, "floor": direct}
    finally:
        link.close()
        field.close()
        tournament.close()


def _post_and_hear(client, post_id: int, ws, count: int) -> list[float]:
    """Post ``count`` events (play, then a ball out, in turn) with ``client`` on match ``post_id``,
    each once the previous one was heard on ``ws``: the seconds from each POST to its update."""
    import asyncio
    import uuid

    from matches.tests.live_servers import receive

    out = {"type": "ball_out", "line": "side", "at": {"x": 150, "y": 0}, "last_hit_by": "home", "deflected_off": "none"}
    times = []

    async def one(n: int) -> float:
        event = {"id": str(uuid.uuid4()), **({"type": "play"} if n % 2 == 0 else out)}
        start = time.perf_counter()
        status, body = await asyncio.to_thread(client.request, "POST", f"/api/matches/{post_id}/events", event)
        assert status == 201, body
        while True:
            update = await receive(ws, "update", timeout=30)
            if update["last_seq"] >= body["last_seq"]:
                return time.perf_counter() - start

    async def run() -> None:
        for n in range(count):
            times.append(await one(n))

    asyncio.get_event_loop().run_until_complete(run())
    return times


def latency(tmp: Path, count: int) -> dict[str, float]:
    import asyncio

    from matches.tests.live_servers import receive, ws_connect

    for sub in ("tournament", "field"):
        (tmp / sub).mkdir(exist_ok=True)
    link = Paired(lambda name, **kwargs: ServerProcess(tmp / name, name, **kwargs), tmp / "field" / "field.sqlite3")
    try:
        link.field.start()
        link.start_sync()
        until(lambda: link.replica_state()["field"]["heard_at"], timeout=60, what="the field's first heartbeat")
        direct_id, direct_scorer = manage_json(
            link.tournament,
            "import json; from matches.models import Match; "
            f"m = Match.objects.filter(last_seq=0, scorer__isnull=False).exclude(pk={link.remote_id}).first(); "
            "print(json.dumps([m.pk, m.scorer.username]))",
        )
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        results = {}
        for name, server, post_id, watch_id, scorer in (
            ("via_field", link.field, link.match_id, link.remote_id, link.scorer),
            ("direct", link.tournament, direct_id, direct_id, direct_scorer),
        ):
            client = server.client()
            client.login(scorer, DEMO_PASSWORD)  # (matches.demo would load Django here)
            ws = loop.run_until_complete(ws_connect(link.tournament, watch_id))
            loop.run_until_complete(receive(ws, "snapshot"))
            times = _post_and_hear(client, post_id, ws, count)
            loop.run_until_complete(ws.close())
            ordered = sorted(times[5:])  # the first five warm the processes up
            results[name] = {
                "median_ms": round(statistics.median(ordered) * 1000, 1),
                "p95_ms": round(ordered[int(len(ordered) * 0.95) - 1] * 1000, 1),
            }
            print(f"{name}: {results[name]}")
        return results
    finally:
        link.close()
        link.field.close()
        link.tournament.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, action="append")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--latency", type=int, metavar="N", help="the link-up latency of N events instead")
    args = parser.parse_args()
    if args.latency:
        with tempfile.TemporaryDirectory(prefix="bench-field-") as tmp:
            measured = latency(Path(tmp), args.latency)
        out = BASE_DIR / "bench" / "results" / "field_latency.json"
        out.write_text(json.dumps({"events": args.latency, "results": measured}, indent=2) + "\n")
        return
    results = {}
    for count in args.events or [100, 1000]:
        rounds = []
        for n in range(args.rounds):
            with tempfile.TemporaryDirectory(prefix="bench-field-") as tmp:
                for sub in ("tournament", "field"):
                    (Path(tmp) / sub).mkdir()
                measured = one_round(Path(tmp), count)
            rounds.append(measured)
            print(f"{count} events, round {n + 1}: " + ", ".join(f"{k} {v:.2f} s" for k, v in measured.items()))
        results[str(count)] = {
            key: round(statistics.median(r[key] for r in rounds), 3) for key in ("caught_up", "retry_wait", "floor")
        }
        results[str(count)]["rounds"] = rounds
    out = BASE_DIR / "bench" / "results" / "field_sync.json"
    database = "postgresql" if os.environ.get("DATABASE_URL", "").startswith("postgres") else "sqlite"
    out.write_text(json.dumps({"tournament_database": database, "results": results}, indent=2) + "\n")
    print(json.dumps({k: {x: v[x] for x in ("caught_up", "retry_wait", "floor")} for k, v in results.items()}))


if __name__ == "__main__":
    main()
