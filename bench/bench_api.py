"""How fast the event API takes a scorer's events: median and p95 POST latency, and the events per
second it accepts with several officials posting at once (each on a match of their own, as on a
tournament day with several fields), with and without websocket viewers watching.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres REDIS_URL=redis://127.0.0.1:6379/0 \\
        python bench/bench_api.py                        # the default runs below
    python bench/bench_api.py --events 100 --clients 1 4 --viewers 0     # a quick look (SQLite)

Plain script, not a test. It starts its own server (``polo.testing.ServerProcess``: uvicorn, a
fresh database next to DATABASE_URL's, the demo loaded) and posts over real HTTP with keep-alive
connections, logged in as the demo's officials (each match as an umpire of its field's crew). Each
client plays a simple valid sequence on its own match: throw-in, inadvertent whistle, throw-in…
(the clock stays under 7:00 for any run shorter than that). With ``--viewers`` that many public
websockets watch the clients' matches (one event loop in a thread), so the POSTs pay for any
broadcast work that is on their path. Bounded: every run stops after ``--events`` per client.

``--fanout N`` measures instead what one update costs the server per viewer: N public sockets
on the demo's match in progress, events posted one after the other, the server process's CPU
compared with the same run with a single viewer.

Prints one line per run and writes ``bench/results/api.json``.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import statistics
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from urllib.parse import urlencode

BASE_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE_DIR))

RESULTS = BASE_DIR / "bench" / "results" / "api.json"


class Official:
    """One logged-in official on a keep-alive HTTP connection (stdlib only)."""

    def __init__(self, port: int, username: str, password: str = "polo-demo") -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.cookies: dict[str, str] = {}
        self.port = port
        self._request("GET", "/accounts/login/")
        form = urlencode({"username": username, "password": password, "csrfmiddlewaretoken": self.cookies["csrftoken"]})
        self._request("POST", "/accounts/login/", form, {"Content-Type": "application/x-www-form-urlencoded"})
        assert "sessionid" in self.cookies, f"login failed for {username}"

    def _request(self, method: str, path: str, body: str | None = None, headers: dict | None = None):
        hdrs = {"Referer": f"http://127.0.0.1:{self.port}/", **(headers or {})}
        if self.cookies:
            hdrs["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if method != "GET" and "csrftoken" in self.cookies:
            hdrs["X-CSRFToken"] = self.cookies["csrftoken"]
        self.conn.request(method, path, body=body, headers=hdrs)
        response = self.conn.getresponse()
        data = response.read()
        for header, value in response.getheaders():
            if header.lower() == "set-cookie":
                name, _, rest = value.partition("=")
                self.cookies[name] = rest.split(";", 1)[0]
        return response.status, data

    def post_event(self, match_id: int, event: dict) -> tuple[int, float]:
        started = time.perf_counter()
        status, _ = self._request(
            "POST", f"/api/matches/{match_id}/events", json.dumps(event), {"Content-Type": "application/json"}
        )
        return status, time.perf_counter() - started


def events(n: int):
    for i in range(n):
        if i % 2 == 0:
            yield {"id": str(uuid.uuid4()), "type": "play"}
        else:
            yield {"id": str(uuid.uuid4()), "type": "whistle", "reason": "inadvertent", "ball": {"x": 100, "y": 60}}


# The demo's crews: each field has its own for the day (``matches/demo.py``).
UMPIRE_OF_FIELD = {"Field 1": "umpire1", "Field 2": "umpire3"}


def fresh_matches(port: int, count: int) -> list[tuple[int, str]]:
    """Matches of the demo with nothing logged yet (the scheduled ones, today's and tomorrow's:
    late in the evening the demo schedules the rest of its day after midnight), each with the
    login of one of its umpires."""
    import datetime as dt

    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    found: list[dict] = []
    conn.request("GET", "/api/matches")  # the app's today (its time zone, not this machine's)
    body = json.loads(conn.getresponse().read())
    found += [m for m in body["matches"] if m["last_seq"] == 0]
    tomorrow = dt.date.fromisoformat(body["date"]) + dt.timedelta(days=1)
    conn.request("GET", f"/api/matches?date={tomorrow.isoformat()}")
    found += [m for m in json.loads(conn.getresponse().read())["matches"] if m["last_seq"] == 0]
    assert len(found) >= count, f"need {count} fresh matches, the demo has {len(found)}"
    return [(m["id"], UMPIRE_OF_FIELD[m["field"]["name"]]) for m in found[:count]]


def run(server, *, clients: int, per_client: int, viewers: int) -> dict:
    fresh = fresh_matches(server.port, clients)
    match_ids = [match_id for match_id, _umpire in fresh]
    officials = [Official(server.port, umpire) for _match_id, umpire in fresh]
    stop_viewers = watch(server, match_ids, viewers) if viewers else None
    latencies: list[float] = []
    statuses: list[int] = []
    lock = threading.Lock()

    def client(official: Official, match_id: int) -> None:
        mine, codes = [], []
        for event in events(per_client):
            try:
                status, seconds = official.post_event(match_id, event)
            except OSError as exc:  # a timeout or a reset: counted, not fatal
                print(f"POST failed: {exc!r}", file=sys.stderr)
                official.conn.close()
                status, seconds = 0, 0.0
            mine.append(seconds)
            codes.append(status)
        with lock:
            latencies.extend(mine)
            statuses.extend(codes)

    threads = [threading.Thread(target=client, args=(o, m)) for o, m in zip(officials, match_ids, strict=True)]
    cpu_before = process_cpu(server.proc.pid)
    started = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - started
    cpu = process_cpu(server.proc.pid) - cpu_before
    if stop_viewers:
        stop_viewers()
    accepted = statuses.count(201)
    latencies = sorted(t for t, code in zip(latencies, statuses, strict=True) if code == 201) or [float("nan")]
    return {
        "clients": clients,
        "viewers": viewers,
        "events": len(statuses),
        "accepted": accepted,
        "median_ms": round(statistics.median(latencies) * 1000, 2),
        "p95_ms": round(latencies[int(0.95 * (len(latencies) - 1))] * 1000, 2),
        "events_per_second": round(accepted / wall, 1),
        # The server process's CPU per event (its share of the viewers' fan-out included): less
        # at the mercy of a busy machine than the wall-clock figures.
        "server_cpu_ms_per_event": round(cpu / max(1, len(statuses)) * 1000, 2),
        "load_average": os.getloadavg()[0],
    }


def process_cpu(pid: int) -> float:
    """User + system CPU seconds of a process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def watch(server, match_ids: list[int], viewers: int):
    """``viewers`` public websockets on the clients' matches, read in a thread; returns stop()."""
    from websockets.asyncio.client import connect

    stop = threading.Event()
    ready = threading.Event()

    async def viewer(match_id: int, opened: list) -> None:
        url = f"ws://127.0.0.1:{server.port}/ws/matches/{match_id}/"
        async with connect(url, origin=server.url, proxy=None, open_timeout=120) as ws:
            await ws.recv()  # the snapshot
            opened.append(1)
            while not stop.is_set():
                try:
                    await asyncio.wait_for(ws.recv(), 0.5)
                except TimeoutError:
                    pass

    async def main() -> None:
        opened: list = []
        tasks = [asyncio.create_task(viewer(match_ids[i % len(match_ids)], opened)) for i in range(viewers)]
        while len(opened) < viewers:
            await asyncio.sleep(0.1)
        ready.set()
        await asyncio.gather(*tasks, return_exceptions=True)

    thread = threading.Thread(target=lambda: asyncio.run(main()), daemon=True)
    thread.start()
    ready.wait(300)

    def stop_all() -> None:
        stop.set()
        thread.join(30)

    return stop_all


def fanout_cost(tmp: Path, viewers: int, count: int = 20) -> dict:
    """Server CPU per update per viewer (the hub's encoding and every socket's write)."""
    from websockets.asyncio.client import connect

    from polo.testing import ServerProcess

    def one_run(n: int) -> float:
        server = ServerProcess(tmp, f"fanout{n}").start()
        try:
            official = Official(server.port, "scorer")
            conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
            conn.request("GET", "/api/matches")
            match_id = next(m["id"] for m in json.loads(conn.getresponse().read())["matches"] if m["last_seq"] > 0)
            heard = [0]

            async def viewer(ready: list, stop: asyncio.Event) -> None:
                url = f"ws://127.0.0.1:{server.port}/ws/matches/{match_id}/"
                async with connect(url, origin=server.url, proxy=None, open_timeout=120) as ws:
                    await ws.recv()
                    ready.append(1)
                    while not stop.is_set():
                        try:
                            if '"update"' in (await asyncio.wait_for(ws.recv(), 0.5))[:20]:
                                heard[0] += 1
                        except TimeoutError:
                            pass

            async def scenario() -> float:
                ready: list = []
                stop = asyncio.Event()
                tasks = [asyncio.create_task(viewer(ready, stop)) for _ in range(n)]
                while len(ready) < n:
                    await asyncio.sleep(0.1)
                before = process_cpu(server.proc.pid)
                for event in events(count):
                    status, _ = await asyncio.to_thread(official.post_event, match_id, event)
                    assert status == 201, status
                while heard[0] < n * count:
                    await asyncio.sleep(0.05)
                spent = process_cpu(server.proc.pid) - before
                stop.set()
                await asyncio.gather(*tasks, return_exceptions=True)
                return spent

            return asyncio.run(scenario())
        finally:
            server.close()

    alone, crowd = one_run(1), one_run(viewers)
    return {
        "viewers": viewers,
        "events": count,
        "server_cpu_ms_per_event_1_viewer": round(alone / count * 1000, 2),
        "server_cpu_ms_per_event": round(crowd / count * 1000, 2),
        "ms_per_viewer_per_update": round((crowd - alone) / count / (viewers - 1) * 1000, 4),
        "load_average": os.getloadavg()[0],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=300, help="events per client per run")
    parser.add_argument("--clients", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--viewers", type=int, nargs="+", default=[0, 500])
    parser.add_argument("--fanout", type=int, metavar="N", help="measure the server CPU per viewer per update instead")
    args = parser.parse_args()
    if args.fanout:
        with tempfile.TemporaryDirectory() as tmp:
            row = fanout_cost(Path(tmp), args.fanout)
        print(json.dumps(row))
        return

    from polo.testing import ServerProcess

    backend = "postgresql" if os.environ.get("DATABASE_URL", "").startswith("postgres") else "sqlite"
    layer = "redis" if os.environ.get("REDIS_URL") else "memory"
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for viewers in args.viewers:
            for clients in args.clients:
                # As deployed: psycopg's connection pool on PostgreSQL (the test servers turn it off).
                server = ServerProcess(
                    Path(tmp), f"bench{viewers}x{clients}", extra_env={"DATABASE_POOL": "true"}
                ).start()
                try:
                    row = {
                        "database": backend,
                        "layer": layer,
                        **run(server, clients=clients, per_client=args.events, viewers=viewers),
                    }
                finally:
                    server.close()
                rows.append(row)
                print(
                    f"{backend:10} {layer:6} clients={row['clients']} viewers={row['viewers']:4} "
                    f"events={row['events']:5} accepted={row['accepted']:5} median={row['median_ms']:6.2f} ms "
                    f"p95={row['p95_ms']:6.2f} ms  {row['events_per_second']:6.1f} events/s  "
                    f"server CPU {row['server_cpu_ms_per_event']:5.2f} ms/event  load {row['load_average']:.1f}",
                    flush=True,
                )
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps({"machine": f"{os.cpu_count()} cores", "runs": rows}, indent=1) + "\n")


if __name__ == "__main__":
    main()
