"""Several rounds of ``bench_live.py`` taken together: each row's runs pooled across the rounds.

    python bench/pool_live.py bench/results/live-A.json bench/results/live-B.json ...

One round's median of five runs moves with the machine (a row's runs spread 0.9-2.0 in p99 ratio
within a round); rounds of the same code pooled give each row more runs and say how often a run
met the aim. Every file must come from the same code (the caller's job: name the commit). Prints
a Markdown table; ``--output`` also writes it as JSON.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_live import summary  # median, min and max, as each round gives them

AIM_RATIO = 1.2  # the issue's: the public within 1.2x of the floor
AIM_OFFICIALS_MS = 50.0  # officials' p99


def pool(files: list[str]) -> list[dict[str, Any]]:
    """One entry per (config, viewers) with every run of every file."""
    rows: dict[tuple[str, int], dict[str, Any]] = {}
    for name in files:
        data = json.loads(Path(name).read_text())
        for row in data["rows"]:
            key = (row["config"], row["viewers"])
            into = rows.setdefault(key, {"config": key[0], "viewers": key[1], "files": [], "runs": []})
            into["files"].append(Path(name).name)
            into["runs"].extend(row["runs"])
    pooled = []
    for (config, viewers), into in sorted(rows.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        runs = into["runs"]
        ratio_p99 = [r["ratio_p99"] for r in runs if r.get("ratio_p99") is not None]
        ratio_p50 = [r["ratio_p50"] for r in runs if r.get("ratio_p50") is not None]
        durable = [r["durable_ratio_p99"] for r in runs if r.get("durable_ratio_p99") is not None]
        officials = [r["app"]["officials_p99_ms"] for r in runs if r["app"].get("officials_p99_ms") is not None]
        pooled.append(
            {
                "config": config,
                "viewers": viewers,
                "files": into["files"],
                "runs": len(runs),
                "ratio_p99": summary(ratio_p99, 2),
                "runs_within_aim": sum(v <= AIM_RATIO for v in ratio_p99),
                "ratio_p50": summary(ratio_p50, 2),
                "durable_ratio_p99": summary(durable, 2) if durable else None,
                "officials_p99_ms": summary(officials, 1),
                "officials_runs_within_aim": sum(v <= AIM_OFFICIALS_MS for v in officials),
                "missed": sum(r["app"]["missed"] for r in runs),
                "doubled": sum(r["app"]["doubled"] for r in runs),
            }
        )
    return pooled


def _cell(s: dict[str, Any] | None) -> str:
    return "–" if s is None else f"{s['median']} ({s['min']}–{s['max']})"


def table(pooled: list[dict[str, Any]]) -> str:
    lines = [
        "| config | viewers | runs | p99 ratio to the floor | runs within 1.2× | p50 ratio | p99 ratio to the"
        " durable floor | officials' p99 ms | officials' runs within 50 ms | missed / doubled |",
        "|" + "---|" * 10,
    ]
    for p in pooled:
        lines.append(
            f"| {p['config']} | {p['viewers']:,} | {p['runs']} | {_cell(p['ratio_p99'])} | "
            f"{p['runs_within_aim']} of {p['runs']} | {_cell(p['ratio_p50'])} | {_cell(p['durable_ratio_p99'])} | "
            f"{_cell(p['officials_p99_ms'])} | {p['officials_runs_within_aim']} of {p['runs']} | "
            f"{p['missed']} / {p['doubled']} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", help="bench_live.py results of the same code")
    parser.add_argument("--output", help="write the pooled rows here as JSON")
    args = parser.parse_args()
    pooled = pool(args.files)
    print(table(pooled))
    if args.output:
        Path(args.output).write_text(json.dumps({"files": args.files, "rows": pooled}, indent=1) + "\n")


if __name__ == "__main__":
    main()
