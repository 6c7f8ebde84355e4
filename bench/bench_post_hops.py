"""An event's POST through the app's ASGI handler (the middleware chain in one thread hop,
``polo/handler.py``) beside Django's stock handler (a hop per middleware step, ``stock_asgi.py``).

    python bench/bench_post_hops.py            # 3 rounds of 300 POSTs each way, interleaved

One uvicorn process on PostgreSQL (127.0.0.1:5432, a fresh database, its pool on, as deployed) and
the in-memory layer, the demo loaded, no viewer; the scorer posts ``whistle`` and ``play`` in turn
over keep-alive HTTP, one at a time; the first 20 of each round are left out (warm-up). Each round
starts both servers afresh, stock first. Writes ``bench/results/post_hops.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE_DIR))
sys.path.insert(0, str(BASE_DIR / "bench"))

from bench_live import cpu_seconds  # noqa: E402  (the processes' CPU, as the live bench reads it)

from polo.testing import ServerProcess  # noqa: E402

HANDLERS = {"stock": "bench.stock_asgi:application", "one_hop": "polo.asgi:application"}
WARMUP = 20


def one_round(
    tmp: Path, name: str, app: str, posts: int, extra_env: dict[str, str] | None = None
) -> tuple[list[float], float]:
    """Each counted POST's answer time (ms), and the server's CPU per counted POST (ms)."""
    env = {"DATABASE_POOL": "true", **(extra_env or {})}
    server = ServerProcess(tmp / name, name, extra_env=env, app=app).start()
    try:
        client = server.client()
        client.login("scorer", "polo-demo")
        live = ("in_play", "stopped", "interval")  # the demo's match in progress
        matches = client.request("GET", "/api/matches")[1]["matches"]
        match_id = next(m["id"] for m in matches if m["state"]["status"] in live)
        status = client.request("GET", f"/api/matches/{match_id}/state")[1]["state"]["status"]
        times = []
        cpu_at_warm = 0.0
        for n in range(WARMUP + posts):
            if n == WARMUP:
                cpu_at_warm = cpu_seconds([server.proc.pid])
            event = {"type": "whistle", "reason": "other"} if status == "in_play" else {"type": "play"}
            started = time.perf_counter()
            code, answer = client.request("POST", f"/api/matches/{match_id}/events", {"id": str(uuid.uuid4()), **event})
            times.append((time.perf_counter() - started) * 1000)
            if code not in (200, 201):
                raise RuntimeError(f"refused: {code} {answer}")
            status = answer["state"]["status"]
        return times[WARMUP:], 1000 * (cpu_seconds([server.proc.pid]) - cpu_at_warm) / posts
    finally:
        server.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--posts", type=int, default=300)
    parser.add_argument("--output", default=str(BASE_DIR / "bench" / "results" / "post_hops.json"))
    args = parser.parse_args()
    os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
    rounds = []
    with tempfile.TemporaryDirectory(prefix="bench-hops-") as tmp:
        for n in range(args.rounds):
            measured = {}
            for name, app in HANDLERS.items():
                Path(tmp, f"{name}{n}").mkdir()
                times, cpu_ms = one_round(Path(tmp), f"{name}{n}", app, args.posts)
                times.sort()
                measured[name] = {
                    "p50_ms": round(statistics.median(times), 2),
                    "p90_ms": round(times[int(len(times) * 0.9)], 2),
                    "server_cpu_ms_per_post": round(cpu_ms, 2),
                }
            measured["ratio_p50"] = round(measured["one_hop"]["p50_ms"] / measured["stock"]["p50_ms"], 2)
            print(f"round {n + 1}: {json.dumps(measured)}", flush=True)
            rounds.append(measured)
    out = {
        "what": "POST an event (PostgreSQL with its pool, one uvicorn process, no viewer): the app's "
        "one-hop handler beside Django's stock ASGI handler",
        "when": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "posts_per_round": args.posts,
        "rounds": rounds,
        "median_p50_ms": {name: statistics.median(r[name]["p50_ms"] for r in rounds) for name in HANDLERS},
        "median_server_cpu_ms_per_post": {
            name: statistics.median(r[name]["server_cpu_ms_per_post"] for r in rounds) for name in HANDLERS
        },
        "median_ratio_p50": statistics.median(r["ratio_p50"] for r in rounds),
    }
    Path(args.output).write_text(json.dumps(out, indent=2) + "\n")
    print(json.dumps({k: out[k] for k in ("median_p50_ms", "median_server_cpu_ms_per_post", "median_ratio_p50")}))


if __name__ == "__main__":
    main()
