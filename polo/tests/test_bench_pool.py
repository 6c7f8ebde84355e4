"""``bench/pool_live.py``: rounds of the live bench taken together, row by row."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent.parent


def _pool_live():
    spec = importlib.util.spec_from_file_location("pool_live", BASE_DIR / "bench" / "pool_live.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _run(ratio_p99: float, officials: float, missed: int = 0) -> dict:
    return {
        "app": {"officials_p99_ms": officials, "missed": missed, "doubled": 0},
        "ratio_p99": ratio_p99,
        "ratio_p50": ratio_p99 + 0.1,
        "durable_ratio_p99": 1.0,
    }


def _round(path: Path, rows: list[tuple[str, int, list[dict]]]) -> str:
    path.write_text(json.dumps({"rows": [{"config": c, "viewers": v, "runs": runs} for c, v, runs in rows]}))
    return str(path)


def test_each_rows_runs_are_pooled_across_rounds_and_counted_against_the_aims(tmp_path):
    pool_live = _pool_live()
    first = _round(
        tmp_path / "a.json", [("redis:2", 1000, [_run(1.1, 20), _run(1.3, 30)]), ("memory:1", 5000, [_run(0.9, 40)])]
    )
    second = _round(tmp_path / "b.json", [("redis:2", 1000, [_run(1.15, 60, missed=2), _run(1.25, 25), _run(1.0, 22)])])

    pooled = pool_live.pool([first, second])

    # Ordered by viewers, then config; a row present in one round only keeps its own runs.
    assert [(p["config"], p["viewers"], p["runs"]) for p in pooled] == [("redis:2", 1000, 5), ("memory:1", 5000, 1)]
    redis = pooled[0]
    assert redis["files"] == ["a.json", "b.json"]
    assert redis["ratio_p99"] == {"median": 1.15, "min": 1.0, "max": 1.3}
    assert redis["runs_within_aim"] == 3  # 1.1, 1.15, 1.0 (1.3 and 1.25 are over 1.2)
    assert redis["officials_p99_ms"] == {"median": 25.0, "min": 20.0, "max": 60.0}
    assert redis["officials_runs_within_aim"] == 4
    assert (redis["missed"], redis["doubled"]) == (2, 0)

    table = pool_live.table(pooled)
    assert "| redis:2 | 1,000 | 5 | 1.15 (1.0–1.3) | 3 of 5 |" in table
    assert "| memory:1 | 5,000 | 1 | 0.9 (0.9–0.9) | 1 of 1 |" in table
