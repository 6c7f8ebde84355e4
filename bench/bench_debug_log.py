"""What DEBUG's query log costs an event's POST (issue 14: DEBUG-only work on the hot path).

    python bench/bench_debug_log.py                    # PostgreSQL (127.0.0.1:5432) with its pool
    DATABASE_URL=sqlite:// python bench/bench_debug_log.py   # a SQLite file

``./dev run`` (and ``bench_live.py``, which starts the app as it does) runs with ``DEBUG=true``;
Django then records every statement in ``connection.queries``, composing its SQL with the
parameters. Production runs with DEBUG off and never pays it. One process, a fresh database with
the demo, the scorer posting ``whistle`` and ``play`` in turn through Django's test client (the
view, its middleware and the database; no HTTP, no ASGI); ``settings.DEBUG`` switched at run time
between interleaved rounds, so both sides share the machine's moment. The floor here is the same
POST without the log. Writes ``bench/results/debug_log.json``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
import uuid
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE_DIR))
sys.path.insert(0, str(BASE_DIR / "bench"))

from demo_db import demo_database  # noqa: E402

WARMUP = 30


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--posts", type=int, default=100, help="POSTs per round and side")
    parser.add_argument("--output", default=str(BASE_DIR / "bench" / "results" / "debug_log.json"))
    args = parser.parse_args()
    with demo_database("debuglog", DEBUG="true") as database_url:
        rounds = measure(args.rounds, args.posts)
    on = [r["debug_on_p50_ms"] for r in rounds]
    off = [r["debug_off_p50_ms"] for r in rounds]
    out = {
        "what": "an event's POST through Django's test client, DEBUG's query log on and off (interleaved rounds)",
        "when": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "database": database_url.split(":", 1)[0],
        "posts_per_round_and_side": args.posts,
        "debug_on_p50_ms": round(statistics.median(on), 2),
        "debug_off_p50_ms": round(statistics.median(off), 2),
        "ratio_on_to_off": round(statistics.median(on) / statistics.median(off), 3),
        "rounds": rounds,
    }
    print(json.dumps({k: v for k, v in out.items() if k != "rounds"}, indent=2))
    Path(args.output).write_text(json.dumps(out, indent=2) + "\n")


def measure(n_rounds: int, posts: int) -> list[dict]:
    from django.conf import settings
    from django.test import Client

    client = Client(HTTP_HOST="127.0.0.1")
    if not client.login(username="scorer", password="polo-demo"):
        raise RuntimeError("the demo's scorer could not log in")
    live = ("in_play", "stopped", "interval")
    match_id = next(m["id"] for m in client.get("/api/matches").json()["matches"] if m["state"]["status"] in live)
    status = client.get(f"/api/matches/{match_id}/state").json()["state"]["status"]

    def post(n: int) -> list[float]:
        nonlocal status
        times = []
        for _ in range(n):
            event = {"type": "whistle", "reason": "other"} if status == "in_play" else {"type": "play"}
            body = json.dumps({"id": str(uuid.uuid4()), **event})
            started = time.perf_counter()
            answer = client.post(f"/api/matches/{match_id}/events", data=body, content_type="application/json")
            times.append((time.perf_counter() - started) * 1000)
            if answer.status_code not in (200, 201):
                raise RuntimeError(f"refused: {answer.status_code} {answer.content[:200]!r}")
            status = answer.json()["state"]["status"]
        return times

    post(WARMUP)
    rounds = []
    for n in range(n_rounds):
        measured = {}
        for debug in (True, False) if n % 2 == 0 else (False, True):
            settings.DEBUG = debug
            measured[f"debug_{'on' if debug else 'off'}_p50_ms"] = round(statistics.median(post(posts)), 2)
        print(f"round {n + 1}: {measured}", flush=True)
        rounds.append(measured)
    return rounds


if __name__ == "__main__":
    main()
