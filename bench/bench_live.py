"""Event-to-screen latency of the live core: a scorer posts an event over HTTP, N websocket
viewers receive the update; latency = receipt time - post time, per viewer per event.

    python bench/bench_live.py                       # memory and redis, 100 / 1000 / 5000 viewers
    python bench/bench_live.py --layers memory --viewers 100 --events 5    # a quick look

Plain script, not a test. It starts its own servers (``polo.testing.ServerProcess``: uvicorn, a
fresh database, the demo loaded): one process on the in-memory channel layer; two processes on
Redis (127.0.0.1:6379, a channel prefix of its own), the viewers split between them so that the
update crosses Redis. The load generator runs in its own process (this script with
``--generator``): asyncio and the ``websockets`` client, every socket in one event loop. Each
posted event's id carries its send time (``bench-<n>-<epoch>``), so a viewer needs no clock
sync: poster and viewers share this machine's wall clock. Three sockets per run belong to an
official (the scorer's session), to see what the officials' screens get under public load; a
row with only those three is the "officials" case.

Each row also gives the servers' resident memory (VmRSS) once every socket is open, and what each
socket added to it (the RSS then, minus the RSS before the load generator connected, per socket).

Prints a table and writes ``bench/results/live.json``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import re
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

BASE_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE_DIR))

RESULTS = BASE_DIR / "bench" / "results" / "live.json"
AIMS_MS = {"officials": 50, 1000: 250, 5000: 1000}
OFFICIAL_SOCKETS = 3
ID_RE = re.compile(r'"id":"bench-(\d+)-(\d+\.\d+)"')


# --- the load generator (its own process) ------------------------------------------------------


async def _viewer(url: str, origin: str, cookie: str | None, ready: asyncio.Queue, record: list) -> None:
    from websockets.asyncio.client import connect

    headers = {"Cookie": cookie} if cookie else None
    # Browsers offer permessage-deflate, and so do we by default: the server's cost per viewer
    # then includes compressing each frame. --no-deflate measures without it.
    compression = None if os.environ.get("BENCH_NO_DEFLATE") else "deflate"
    try:
        async with connect(
            url,
            origin=origin,
            additional_headers=headers,
            max_size=2**22,
            compression=compression,
            open_timeout=120,
            ping_interval=None,
            close_timeout=1,
        ) as ws:
            first = await ws.recv()
            assert '"type":"snapshot"' in first[:40]
            await ready.put(True)
            async for message in ws:  # one wake-up per frame, nothing while idle
                received = time.time()
                if message.startswith('{"type":"update"'):
                    for n, sent in set(ID_RE.findall(message)):  # the id is in the row and in its event
                        record.append((int(n), received - float(sent)))
    except asyncio.CancelledError:
        raise
    except Exception as exc:  # noqa: BLE001 — counted as a failed viewer
        await ready.put(repr(exc))


async def _loop_lag(lags: list, stop: asyncio.Event) -> None:
    """How late this process's own event loop runs: a receipt time is only as good as this."""
    while not stop.is_set():
        due = time.perf_counter() + 0.05
        await asyncio.sleep(0.05)
        lags.append((time.perf_counter() - due) * 1000)


async def _generate(urls: list[str], origins: list[str], viewers: int, cookie: str) -> None:
    ready: asyncio.Queue = asyncio.Queue()
    stop = asyncio.Event()
    public: list = []
    official: list = []
    lags: list = []
    tasks = []
    started = time.time()
    gate = asyncio.Semaphore(64)  # connections opening at once: a ramp, not a stampede

    async def one(i: int) -> None:
        k = i % len(urls)
        async with gate:
            inner: asyncio.Queue = asyncio.Queue()
            task = asyncio.create_task(
                _viewer(
                    urls[k],
                    origins[k],
                    cookie if i < OFFICIAL_SOCKETS else None,
                    inner,
                    official if i < OFFICIAL_SOCKETS else public,
                )
            )
            tasks.append(task)
            await ready.put(await inner.get())

    openers = [asyncio.create_task(one(i)) for i in range(OFFICIAL_SOCKETS + viewers)]
    outcomes = [await ready.get() for _ in openers]
    failures = [o for o in outcomes if o is not True]
    print(
        json.dumps(
            {
                "ready": len(outcomes) - len(failures),
                "failed": len(failures),
                "errors": sorted(set(map(str, failures)))[:3],
                "connect_seconds": time.time() - started,
            }
        ),
        flush=True,
    )
    monitor = asyncio.create_task(_loop_lag(lags, stop))
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, sys.stdin.readline)  # the poster says when it is done
    stop.set()
    await monitor
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    print(
        json.dumps(
            {
                "public": public,
                "official": official,
                "loop_lag_p99_ms": percentile(lags, 99),
                "loop_lag_max_ms": max(lags, default=None),
            }
        ),
        flush=True,
    )


# --- the poster and the report -----------------------------------------------------------------


def percentile(values: list[float], p: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, round(p / 100 * len(ordered) + 0.4999))  # nearest rank
    return ordered[min(rank, len(ordered)) - 1]


def _servers(layer: str, tmp: Path) -> list:
    from polo.testing import ServerProcess

    env = {"LOG_LEVEL": "WARNING"}
    saved = {k: os.environ.pop(k, None) for k in ("REDIS_URL",)}
    try:
        if layer == "redis":
            os.environ["REDIS_URL"] = "redis://127.0.0.1:6379/0"
        prefix = f"bench{uuid.uuid4().hex[:8]}"
        first = ServerProcess(tmp, f"{layer}0", extra_env=env, channel_prefix=prefix).start()
        servers = [first]
        if layer == "redis":
            servers.append(
                ServerProcess(
                    tmp, f"{layer}1", demo=False, extra_env=env, database_url=first.database_url, channel_prefix=prefix
                ).start()
            )
        return servers
    finally:
        os.environ.pop("REDIS_URL", None)
        for k, v in saved.items():
            if v is not None:
                os.environ[k] = v


def _match_id(server) -> int:
    client = server.client()
    for match_id in range(1, 30):
        status, data = client.request("GET", f"/api/matches/{match_id}/state")
        if status == 200 and data["last_seq"] > 0:
            return match_id
    raise RuntimeError("no demo match with events")


def _event(status: str) -> dict[str, Any]:
    if status == "in_play":
        return {
            "type": "ball_out",
            "line": "side",
            "at": {"x": 150, "y": 0},
            "last_hit_by": "home",
            "deflected_off": "none",
        }
    return {"type": "play"}


def _rss_kib(server) -> int:
    """The server process's resident memory (VmRSS, KiB), from /proc."""
    with open(f"/proc/{server.proc.pid}/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))


def run_config(servers: list, match_id: int, viewers: int, events: int, spacing: float) -> dict[str, Any]:
    scorer = servers[0].client()
    scorer.login("scorer", "polo-demo")
    cookie = "; ".join(f"{c.name}={c.value}" for c in scorer.jar)
    urls = [s.url.replace("http://", "ws://") + f"/ws/matches/{match_id}/" for s in servers]
    origins = [s.url for s in servers]
    gen = subprocess.Popen(
        [
            sys.executable,
            __file__,
            "--generator",
            "--urls",
            ",".join(urls),
            "--origins",
            ",".join(origins),
            "--viewers",
            str(viewers),
            "--cookie",
            cookie,
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=BASE_DIR,
    )
    rss_before = sum(_rss_kib(s) for s in servers)
    try:
        ready = json.loads(gen.stdout.readline())
        rss_connected = sum(_rss_kib(s) for s in servers)  # every socket open, nothing sent yet
        _, data = scorer.request("GET", f"/api/matches/{match_id}/state")
        status = data["state"]["status"]
        time.sleep(1.0)
        posted = 0
        post_ms: list[float] = []
        for n in range(events + 1):  # the first is a warm-up, not counted
            event = _event(status)
            sent = time.time()
            event["id"] = f"{'warm' if n == 0 else 'bench'}-{n}-{sent:.6f}"
            code, answer = scorer.request("POST", f"/api/matches/{match_id}/events", event)
            if n > 0:
                post_ms.append((time.time() - sent) * 1000)
            if code not in (200, 201):
                raise RuntimeError(f"event refused: {code} {answer}")
            status = answer["state"]["status"]
            posted += n > 0
            time.sleep(spacing)
        time.sleep(1.0 + viewers / 2000)
        gen.stdin.write("done\n")
        gen.stdin.flush()
        got = json.loads(gen.stdout.readline())
    finally:
        try:
            gen.wait(timeout=120)
        except subprocess.TimeoutExpired:
            gen.kill()
    public = [lat * 1000 for _, lat in got["public"]]
    official = [lat * 1000 for _, lat in got["official"]]
    everyone = public + official
    return {
        "viewers": viewers,
        "official_sockets": OFFICIAL_SOCKETS,
        "events": posted,
        "connected": ready["ready"],
        "failed_connections": ready["failed"],
        "connect_errors": ready["errors"],
        "connect_seconds": round(ready["connect_seconds"], 1),
        "expected_deliveries": posted * (viewers + OFFICIAL_SOCKETS),
        "deliveries": len(everyone),
        "p50_ms": _r(percentile(everyone, 50)),
        "p99_ms": _r(percentile(everyone, 99)),
        "max_ms": _r(max(everyone, default=None)),
        "officials_p50_ms": _r(percentile(official, 50)),
        "officials_p99_ms": _r(percentile(official, 99)),
        "post_answer_p50_ms": _r(percentile(post_ms, 50)),
        "generator_loop_lag_p99_ms": _r(got.get("loop_lag_p99_ms")),
        "server_rss_mib": round(rss_connected / 1024, 1),
        "server_kib_per_socket": round((rss_connected - rss_before) / (viewers + OFFICIAL_SOCKETS), 1),
        "load_average_1min": round(os.getloadavg()[0], 2),  # the machine is shared: context for the figures
    }


def _r(value: float | None) -> float | None:
    return None if value is None else round(value, 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--layers", default="memory,redis")
    parser.add_argument("--viewers", default="0,100,1000,5000", help="public viewers per run; 0 = the officials alone")
    parser.add_argument("--events", type=int, default=6)
    parser.add_argument("--spacing", type=float, default=1.0, help="seconds between events")
    parser.add_argument("--generator", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--urls", help=argparse.SUPPRESS)
    parser.add_argument("--origins", help=argparse.SUPPRESS)
    parser.add_argument("--cookie", help=argparse.SUPPRESS)
    parser.add_argument("--output", default=str(RESULTS))
    parser.add_argument("--no-deflate", action="store_true", help="viewers refuse permessage-deflate")
    args = parser.parse_args()
    if args.generator:
        asyncio.run(_generate(args.urls.split(","), args.origins.split(","), int(args.viewers), args.cookie))
        return

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "polo.settings_test")
    if args.no_deflate:
        os.environ["BENCH_NO_DEFLATE"] = "1"  # inherited by the generator
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-live-") as tmp:
        for layer in args.layers.split(","):
            servers = _servers(layer, Path(tmp) / layer)
            try:
                match_id = _match_id(servers[0])
                for viewers in [int(v) for v in args.viewers.split(",")]:
                    row = {
                        "layer": layer,
                        "server_processes": len(servers),
                        **run_config(servers, match_id, viewers, args.events, args.spacing),
                    }
                    rows.append(row)
                    print(_line(row), flush=True)
            finally:
                for server in servers:
                    server.close()

    print()
    print(_table(rows))
    out = Path(args.output)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(
        json.dumps(
            {
                "what": "event-to-screen latency: websocket receipt time minus HTTP post time, per viewer per event",
                "when": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
                "machine": {
                    "cpus": os.cpu_count(),
                    "python": platform.python_version(),
                    "platform": platform.platform(),
                },
                "aims_p99_ms": {str(k): v for k, v in AIMS_MS.items()},
                "results": rows,
            },
            indent=2,
        )
        + "\n"
    )
    print(f"\nwritten to {out}")


HEAD = (
    f"{'layer':<7} {'procs':>5} {'viewers':>7} {'events':>6} {'delivered':>11} {'p50 ms':>8} {'p99 ms':>8} "
    f"{'max ms':>8} {'official p99':>12} {'POST ms':>8} {'gen lag':>8} {'connect s':>9} {'RSS MiB':>8} {'KiB/sock':>8}"
)


def _line(row: dict[str, Any]) -> str:
    def f(v):
        return "-" if v is None else f"{v:.1f}"

    viewers = "officials" if row["viewers"] == 0 else str(row["viewers"])
    return (
        f"{row['layer']:<7} {row['server_processes']:>5} {viewers:>7} {row['events']:>6} "
        f"{row['deliveries']:>5}/{row['expected_deliveries']:<5} {f(row['p50_ms']):>8} {f(row['p99_ms']):>8} "
        f"{f(row['max_ms']):>8} {f(row['officials_p99_ms']):>12} {f(row['post_answer_p50_ms']):>8} "
        f"{f(row['generator_loop_lag_p99_ms']):>8} "
        f"{row['connect_seconds']:>9} {f(row.get('server_rss_mib')):>8} {f(row.get('server_kib_per_socket')):>8}"
    )


def _table(rows: list[dict[str, Any]]) -> str:
    return "\n".join([HEAD, *(_line(r) for r in rows)])


if __name__ == "__main__":
    main()
