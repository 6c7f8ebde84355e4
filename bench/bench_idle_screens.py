"""What an open screen costs the device showing it while nothing happens: the browser's CPU per
second, page by page, beside a page that shows text and runs no script (the floor).

    python bench/bench_idle_screens.py [--seconds 10] [--rounds 3]

Plain script, not a test. It starts its own server (``polo.testing.ServerProcess``: uvicorn, a
fresh database, the demo loaded), puts a match of the demo in play (its clock running) and opens
each page in Debian's Chromium (Playwright, one tab at a phone's width), waits until it is live,
then reads the CPU time of every Chromium process (``/proc``: the browser, its renderer, its GPU
and utility processes) across ``--seconds`` of quiet: no event is logged meanwhile, so what the
page spends is its own clock's redraws and whatever else it wakes up for. A phone at the field
shows the scoreboard for a whole match; this is its battery.

The floor is the help page (text and pictures, no live connection, no timer). Rounds are
interleaved (each page once per round) and the median per page is reported with its ratio to the
floor's. Writes ``bench/results/idle_screens.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
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

from polo.testing import CHROMIUM, CHROMIUM_ARGS, ServerProcess  # noqa: E402

RESULTS = BASE_DIR / "bench" / "results" / "idle_screens.json"
LIVE = (
    "() => window.PoloLive && PoloLive.instances.length > 0"
    " && PoloLive.instances.every((l) => l.status === 'live' && l.state)"
)


def descendants_cpu(root: int) -> float:
    """CPU seconds (user + system) of every process below ``root`` (``bench_live.cpu_seconds``)."""
    parent = {}
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/stat") as f:
                parent[int(entry)] = int(f.read().rpartition(")")[2].split()[1])
        except (OSError, ValueError):  # (not a process, or one that has just ended)
            continue

    def below(pid: int) -> bool:
        while pid and pid != root:
            pid = parent.get(pid, 0)
        return pid == root

    return cpu_seconds([pid for pid in parent if pid != root and below(pid)])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--output", default=str(RESULTS))
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    server = ServerProcess(Path(tempfile.mkdtemp(prefix="polo-idle-")), "idle").start()
    try:
        client = server.client()
        client.login("scorer", "polo-demo")
        match = next(m for m in client.request("GET", "/api/matches")[1]["matches"] if m["last_seq"] > 0)["id"]
        state = client.request("GET", f"/api/matches/{match}/state")[1]
        if not state["state"]["clock"]["running"]:
            play = {"id": str(uuid.uuid4()), "type": "play"}
            status, answer = client.request("POST", f"/api/matches/{match}/events", play)
            assert status in (200, 201) and answer["state"]["clock"]["running"], (status, answer)
        pages = {
            "floor: the help page (no script)": ("/help/", False),
            "scoreboard, clock running": (f"/matches/{match}/", True),
            "stream overlay, clock running": (f"/matches/{match}/overlay/", True),
            "tournament's live page": (f"/tournaments/{state['match']['tournament']['id']}/live/", True),
        }
        samples: dict[str, list[float]] = {name: [] for name in pages}
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
            for _ in range(args.rounds):
                for name, (path, live) in pages.items():
                    page.goto(server.url + path)
                    if live:
                        page.wait_for_function(LIVE, polling=100)
                    time.sleep(1.0)  # let the load's own work end
                    before = descendants_cpu(os.getpid())
                    time.sleep(args.seconds)
                    samples[name].append(1000 * (descendants_cpu(os.getpid()) - before) / args.seconds)
            browser.close()
    finally:
        server.close()

    floor = statistics.median(samples[next(iter(pages))])
    rows = []
    print(f"{'page':<36} {'CPU ms/s (median)':>18} {'spread':>14} {'ratio to floor':>15}")
    for name, values in samples.items():
        median = statistics.median(values)
        rows.append(
            {
                "page": name,
                "cpu_ms_per_s": round(median, 1),
                "min": round(min(values), 1),
                "max": round(max(values), 1),
                "ratio": round(median / floor, 2) if floor else None,
            }
        )
        print(f"{name:<36} {median:>18.1f} {min(values):>6.1f}-{max(values):<7.1f} {rows[-1]['ratio']!s:>15}")
    Path(args.output).write_text(
        json.dumps(
            {
                "what": "the browser's CPU per second of quiet with one page open (all Chromium processes), "
                "median of rounds, beside a page with no script",
                "command": "python bench/bench_idle_screens.py " + " ".join(sys.argv[1:]),
                "when": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
                "machine": {"cpus": os.cpu_count(), "python": platform.python_version(), "load": os.getloadavg()[0]},
                "seconds": args.seconds,
                "rounds": args.rounds,
                "rows": rows,
            },
            indent=2,
        )
        + "\n"
    )


if __name__ == "__main__":
    main()
