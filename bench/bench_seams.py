"""Each fast path into a library's internals (``polo/seams.py``) against the library's public path,
in the same run, on the figure it is kept for (issue 37: stock parts by default).

    python bench/bench_seams.py post --rounds 5           # an event POST's latency
    python bench/bench_seams.py live --seam uvicorn-direct-write --config memory:1 --viewers 5000
    python bench/bench_seams.py live --seam channels-redis-one-round-trip --config redis:2 --viewers 1000

``post``: one uvicorn process on PostgreSQL (its pool on, as deployed), the demo loaded, no viewer;
the scorer posts ``whistle`` and ``play`` in turn (``bench_post_hops.one_round``). Each round runs
every side afresh in a rotated order: every seam on ("fast"), each POST seam off alone, and all off
("stock", ``STOCK_PARTS=all``). ``live``: the live bench's measurement (``bench_live.measure``: a
crowd and the officials' 3 sockets, 2 warm-up events then 20) against two sets of servers started
side by side, one with ``STOCK_PARTS=<seam>``, the runs alternating between them. Every ratio is
stock ÷ fast within a round or a pair of runs (above 1: the fast path is faster); the medians of
those ratios are what ``docs/CAPACITY.md`` reports. Writes ``bench/results/seams-<mode>.json``.
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
sys.path.insert(0, str(BASE_DIR / "bench"))

import bench_live  # noqa: E402
from bench_post_hops import one_round  # noqa: E402

POST_SEAMS = ("orm-compiled",)


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered) + 0.4999) - 1))]


def post(args) -> dict:
    sides = {"fast": "", **{f"stock:{seam}": seam for seam in POST_SEAMS}, "stock": "all"}
    if args.seams:  # (only these seams' stock sides beside the fast one)
        sides = {"fast": "", **{f"stock:{seam}": seam for seam in args.seams.split(",")}}
    names = list(sides)
    rounds = []
    with tempfile.TemporaryDirectory(prefix="bench-seams-") as tmp:
        for n in range(args.rounds):
            measured: dict[str, dict] = {}
            for name in names[n % len(names) :] + names[: n % len(names)]:  # (each side first in turn)
                folder = f"{name.replace(':', '-')}{n}"
                Path(tmp, folder).mkdir()
                times, cpu_ms = one_round(
                    Path(tmp), folder, "polo.asgi:application", args.posts, {"STOCK_PARTS": sides[name]}
                )
                measured[name] = {
                    "p50_ms": round(statistics.median(times), 2),
                    "p90_ms": round(percentile(times, 90), 2),
                    "p99_ms": round(percentile(times, 99), 2),
                    "server_cpu_ms_per_post": round(cpu_ms, 2),
                }
            for name in names[1:]:
                for key in ("p50_ms", "p99_ms", "server_cpu_ms_per_post"):
                    measured.setdefault("ratios", {})[f"{name} {key}"] = round(
                        measured[name][key] / measured["fast"][key], 3
                    )
            print(f"round {n + 1}: {json.dumps(measured)}", flush=True)
            rounds.append(measured)
    ratio_keys = list(rounds[0]["ratios"])
    return {
        "what": "an event's POST (PostgreSQL with its pool, one uvicorn process, no viewer): every seam on, "
        "each POST seam off, all off (STOCK_PARTS=all); ratios stock ÷ fast per round",
        "posts_per_round": args.posts,
        "rounds": rounds,
        "median": {
            name: {k: statistics.median(r[name][k] for r in rounds) for k in rounds[0]["fast"]} for name in names
        },
        "median_ratio": {k: statistics.median(r["ratios"][k] for r in rounds) for k in ratio_keys},
    }


FIGURES = ("p50_ms", "p99_ms", "officials_p99_ms", "post_answer_p50_ms", "server_cpu_us_per_delivery")


def live(args) -> dict:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "polo.settings_test")
    runs = []
    with tempfile.TemporaryDirectory(prefix="bench-seams-live-") as tmp:
        sides = {}
        try:
            for name, stock in (("fast", ""), ("stock", args.seam)):
                os.environ["STOCK_PARTS"] = stock
                Path(tmp, name).mkdir()
                sides[name] = bench_live.start_app(args.config, Path(tmp) / name)
            os.environ.pop("STOCK_PARTS", None)
            matches = {name: bench_live.demo_match(servers[0]) for name, servers in sides.items()}
            spacing = bench_live.spacing_for(args.viewers)
            for n in range(args.runs):
                pair = {}
                for name in ("fast", "stock") if n % 2 == 0 else ("stock", "fast"):
                    target = bench_live.AppTarget(sides[name], matches[name])
                    got = bench_live.measure(target, args.viewers, args.events, spacing, None)
                    pair[name] = {k: got[k] for k in (*FIGURES, "missed", "doubled", "load_average_1min")}
                pair["ratios"] = {
                    k: round(pair["stock"][k] / pair["fast"][k], 3)
                    for k in FIGURES
                    if pair["stock"][k] and pair["fast"][k]
                }
                print(f"run {n + 1}: {json.dumps(pair)}", flush=True)
                runs.append(pair)
        finally:
            for servers in sides.values():
                for server in servers:
                    server.close()
    return {
        "what": f"event-to-screen with the seam {args.seam} on (fast) and off (stock: STOCK_PARTS), "
        f"{args.config}, {args.viewers} viewers, runs alternating; ratios stock ÷ fast per pair of runs",
        "seam": args.seam,
        "config": args.config,
        "viewers": args.viewers,
        "runs": runs,
        "median": {
            name: {k: statistics.median(r[name][k] for r in runs if r[name][k] is not None) for k in FIGURES}
            for name in ("fast", "stock")
        },
        "median_ratio": {k: statistics.median(r["ratios"][k] for r in runs if k in r["ratios"]) for k in FIGURES},
        "missed": sum(r[s]["missed"] for r in runs for s in ("fast", "stock")),
        "doubled": sum(r[s]["doubled"] for r in runs for s in ("fast", "stock")),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="mode", required=True)
    p = sub.add_parser("post")
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--posts", type=int, default=300)
    p.add_argument("--seams", default="", help="only these seams off, one at a time (default: each, then all)")
    p.add_argument("--output", default=None)
    q = sub.add_parser("live")
    q.add_argument("--seam", required=True)
    q.add_argument("--config", default="memory:1")
    q.add_argument("--viewers", type=int, default=1000)
    q.add_argument("--events", type=int, default=20)
    q.add_argument("--runs", type=int, default=6)
    q.add_argument("--output", default=None)
    args = parser.parse_args()
    started = time.time()
    if args.mode == "post":
        os.environ.setdefault("DATABASE_URL", bench_live.POSTGRES_URL)
        out = post(args)
    else:
        out = live(args)
    out["when"] = time.strftime("%Y-%m-%dT%H:%M:%S%z")
    out["minutes"] = round((time.time() - started) / 60, 1)
    out["load_average"] = os.getloadavg()
    default = BASE_DIR / "bench" / "results" / f"seams-{args.mode}{'-' + args.seam if args.mode == 'live' else ''}.json"
    bench_live.write_results(args.output or default, out)
    print(json.dumps(out["median_ratio"], indent=2))


if __name__ == "__main__":
    main()
