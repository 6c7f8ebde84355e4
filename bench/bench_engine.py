"""Benchmark of the rules engine: full replay, appending one event, memory of a folded game.

    python bench/bench_engine.py [--seed N] [--runs N] [--append-runs N] [--json-only]

Builds a realistic six-chukker match (``bench.matchgen.realistic_match``, about 400 events) and
reports, with the number of runs:

- the full replay (``officiating.engine.replay``: load the log, fold every event, state out);
- appending one event: ``decide`` on the folded game (what the server does when an event is
  posted): every decide of a linear fold timed on its own, and the last event of the match on a
  game folded up to it;
- ``to_state`` of a folded game (what every push to the screens costs);
- the engine's ``fold`` of the stored log with its steps and a state before and after each (what
  the official report and the scoreboard's last goals read);
- memory: the peak while folding the whole match, and what the folded game keeps (tracemalloc).

Prints a small table, then one JSON object. A benchmark, not a test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import copy
import gc
import json
import platform
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.matchgen import realistic_match  # noqa: E402
from officiating.engine import MatchConfig, decide, fold as engine_fold, load_log, new_game, replay, to_state  # noqa: E402


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = (len(ordered) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def summary(seconds: list[float]) -> dict[str, Any]:
    ms = [s * 1000 for s in seconds]
    return {
        "runs": len(ms),
        "median_ms": round(statistics.median(ms), 4),
        "p95_ms": round(percentile(ms, 0.95), 4),
        "min_ms": round(min(ms), 4),
        "max_ms": round(max(ms), 4),
    }


def timed(fn: Callable[[], Any]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def fold(config: MatchConfig, events: list[dict[str, Any]]):
    game = new_game(config)
    accepted = 0
    for event in events:
        decision = decide(game, event)
        if decision.accepted:
            game = decision.game
            accepted += 1
    return game, accepted


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--runs", type=int, default=30, help="full replays to time")
    parser.add_argument("--append-runs", type=int, default=10, help="folds whose every decide is timed")
    parser.add_argument("--json-only", action="store_true")
    args = parser.parse_args(argv)

    data = realistic_match(args.seed)
    events = data["events"]
    config, _ = load_log(copy.deepcopy(data))

    # warm up (imports, caches) and check what the engine makes of the match
    out = replay(copy.deepcopy(data))
    accepted = sum(1 for r in out["results"] if r["accepted"])
    rejected = [r.get("error", {}).get("code") for r in out["results"] if not r["accepted"]]

    gc.collect()
    replays = [timed(lambda: replay(copy.deepcopy(data))) for _ in range(args.runs)]
    # the same without the deep copy, for a fair comparison (replay must not mutate its input;
    # the copy guards that). The copy itself is measured separately.
    copies = [timed(lambda: copy.deepcopy(data)) for _ in range(args.runs)]
    folds = [timed(lambda: fold(config, events)) for _ in range(args.runs)]

    # append one event: ``decide`` on the newest folded game, i.e. every step of a linear fold
    # (what a server that keeps the folded game does when an event is posted). Each run folds the
    # whole match and times each decide on its own.
    appends: list[float] = []
    for _ in range(args.append_runs):
        game = new_game(config)
        for event in events:
            start = time.perf_counter()
            decision = decide(game, event)
            appends.append(time.perf_counter() - start)
            if decision.accepted:
                game = decision.game
    final_game = game
    # the same on the last event only: decide on a game folded up to the end of the match
    last_appends: list[float] = []
    for _ in range(args.runs):
        before, _ = fold(config, events[:-1])
        start = time.perf_counter()
        decide(before, events[-1])
        last_appends.append(time.perf_counter() - start)
    states = [timed(lambda: to_state(final_game)) for _ in range(args.runs * 5)]
    stored = [entry.event for entry in final_game.log.entries[: final_game.log_len]]
    report_folds = [timed(lambda: engine_fold(config, stored, lang="en").steps) for _ in range(args.runs)]

    # memory: peak while folding the whole match, and what the folded game keeps
    gc.collect()
    tracemalloc.start()
    base, _ = tracemalloc.get_traced_memory()
    kept_game, _ = fold(config, events)
    current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    del kept_game

    result = {
        "benchmark": "officiating.engine",
        "python": platform.python_version(),
        "machine": platform.machine(),
        "seed": args.seed,
        "events": len(events),
        "periods": data["match"]["periods"],
        "accepted": accepted,
        "rejected": len(rejected),
        "rejection_codes": sorted({c for c in rejected if c}),
        "final_score": out["state"]["score"],
        "full_replay": summary(replays),
        "deepcopy_of_the_log": summary(copies),
        "fold_with_decide": summary(folds),
        "append_one_event": {**summary(appends), "folds": args.append_runs},
        "append_the_last_event": summary(last_appends),
        "to_state": summary(states),
        "fold_steps_with_states": summary(report_folds),
        "memory": {
            "fold_peak_kib": round((peak - base) / 1024, 1),
            "folded_game_kib": round((current - base) / 1024, 1),
        },
    }
    if not args.json_only:
        rows = [
            ("full replay (replay(), incl. deepcopy)", result["full_replay"]),
            ("fold with decide (no replay wrapper)", result["fold_with_decide"]),
            ("append one event (each decide of a fold)", result["append_one_event"]),
            ("append the last event (decide, full game)", result["append_the_last_event"]),
            ("to_state of the folded game", result["to_state"]),
            ("fold() with steps and states (report)", result["fold_steps_with_states"]),
        ]
        print(
            f"match: {len(events)} events, {data['match']['periods']} chukkers, seed {args.seed}; "
            f"{accepted} accepted, {len(rejected)} rejected {result['rejection_codes']}"
        )
        print(f"{'operation':42} {'runs':>6} {'median ms':>10} {'p95 ms':>10} {'max ms':>10}")
        for name, s in rows:
            print(f"{name:42} {s['runs']:>6} {s['median_ms']:>10.3f} {s['p95_ms']:>10.3f} {s['max_ms']:>10.3f}")
        print(
            f"memory: peak while folding {result['memory']['fold_peak_kib']} KiB, "
            f"folded game keeps {result['memory']['folded_game_kib']} KiB"
        )
    print(json.dumps(result, indent=None if args.json_only else 2))
    return result


if __name__ == "__main__":
    main()
