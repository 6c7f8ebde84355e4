"""What keeping a crowd's websockets alive costs a server: CPU per keepalive ping, app and floor.

    python bench/bench_keepalive.py                 # 5,000 idle sockets, 45 s, keepalive on and off
    python bench/bench_keepalive.py --viewers 1000 --seconds 45

A server pings every websocket every 20 s and closes one whose pong does not come within 20 s:
that is how it finds a phone that went away without closing its socket. The app's uvicorn does it
(``--ws-ping-interval``, 20 s by default), and so does a plain ``websockets`` server. This measures
the CPU of the server process while it holds ``--viewers`` sockets and nothing else happens (no
event, so no update), with its keepalive on and then off, fresh connections each time:

    CPU per ping = (CPU with keepalive - CPU without) / the pings due in the window

The window starts 1 s after the last socket opened and lasts ``--seconds`` (45): every socket's
pings at 20 and 40 s after it opened fall in it (the crowd opens within about 7 s), 2 per socket.
The same load generator as ``bench_live.py`` (``bench/live_load.py``) holds the sockets and
answers the pings (the websockets client does). The floor is ``bench/live_floor.py``, the plain
server of ``bench_live.py``, measured the same way right after the app: the ratio app/floor is
what the app's server adds to a ping. Besides the pings, the app's idle CPU holds its hub's
heartbeats (every 15 s, a frame to each socket of a match without updates: this one), the same
with keepalive on and off, so they cancel out of the difference.

Writes ``bench/results/keepalive.json`` (``--output``).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE_DIR))
sys.path.insert(0, str(BASE_DIR / "bench"))

import bench_live  # noqa: E402  (the servers, the floor, the load generator and the CPU reading)

RESULTS = BASE_DIR / "bench" / "results" / "keepalive.json"
PING_INTERVAL = 20.0  # uvicorn's and websockets' default


def idle_cpu(target, viewers: int, seconds: float) -> dict:
    """The server's CPU seconds over ``seconds`` while it holds ``viewers`` idle sockets."""
    crowd = bench_live.generator(target.urls, target.origins, viewers, None)
    try:
        ready = json.loads(crowd.stdout.readline())
        time.sleep(1.0)
        before, started = bench_live.cpu_seconds(target.pids()), time.monotonic()
        time.sleep(seconds)
        used = bench_live.cpu_seconds(target.pids()) - before
        elapsed = time.monotonic() - started
        crowd.stdin.write("done 0\n")
        crowd.stdin.flush()
        crowd.stdout.readline()
    finally:
        try:
            crowd.wait(timeout=120)
        except subprocess.TimeoutExpired:
            crowd.kill()
    if ready["failed"]:
        raise RuntimeError(f"{ready['failed']} sockets failed to open: {ready['errors']}")
    # Pings due in the window: one per socket at each multiple of the interval after it opened.
    pings = viewers * int((ready["connect_seconds"] + 1.0 + elapsed) // PING_INTERVAL)
    return {
        "cpu_s": round(used, 3),
        "seconds": round(elapsed, 1),
        "connect_s": round(ready["connect_seconds"], 1),
        "pings_due": pings,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--viewers", type=int, default=5000)
    parser.add_argument("--seconds", type=float, default=45.0)
    parser.add_argument("--output", default=str(RESULTS))
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "polo.settings_test")
    from polo.testing import ServerProcess

    results: dict = {}
    with tempfile.TemporaryDirectory(prefix="bench-keepalive-") as tmp:
        state_file = Path(tmp) / "state.json"
        for keepalive in (True, False):
            key = f"app_{'on' if keepalive else 'off'}"
            env = {"LOG_LEVEL": "WARNING"}
            if not keepalive:
                env["UVICORN_WS_PING_INTERVAL"] = "0"
            server = ServerProcess(Path(tmp), f"app-{keepalive}", extra_env=env).start()
            try:
                match_id = bench_live.demo_match(server)
                if not state_file.exists():
                    bench_live.write_floor_state(server, match_id, state_file)
                results[key] = idle_cpu(bench_live.AppTarget([server], match_id), args.viewers, args.seconds)
            finally:
                server.close()
            print(f"{key}: {results[key]}", flush=True)
        for keepalive in (True, False):
            key = f"floor_{'on' if keepalive else 'off'}"
            floor = bench_live.Floor(state_file, PING_INTERVAL if keepalive else 0)
            try:
                results[key] = idle_cpu(bench_live.FloorTarget(floor), args.viewers, args.seconds)
            finally:
                floor.close()
            print(f"{key}: {results[key]}", flush=True)

    per_ping = {}
    for who in ("app", "floor"):
        on, off = results[f"{who}_on"], results[f"{who}_off"]
        # Each run's CPU scaled to the same window length before the difference.
        extra = on["cpu_s"] - off["cpu_s"] * on["seconds"] / off["seconds"]
        per_ping[who] = round(1e6 * extra / on["pings_due"], 1)
    summary = {
        "app_us_per_ping": per_ping["app"],
        "floor_us_per_ping": per_ping["floor"],
        "ratio": round(per_ping["app"] / per_ping["floor"], 2) if per_ping["floor"] > 0 else None,
        # What keepalive costs a process holding this crowd, on average, in CPU per second.
        "app_ms_cpu_per_s": round(per_ping["app"] * args.viewers / PING_INTERVAL / 1000, 1),
    }
    print(json.dumps(summary))
    bench_live.write_results(
        args.output,
        {
            "what": "server CPU per keepalive ping and pong, idle sockets, keepalive on minus off, app and floor",
            "when": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            "machine": {"cpus": os.cpu_count(), "python": platform.python_version()},
            "method": {"viewers": args.viewers, "seconds": args.seconds, "ping_interval_s": PING_INTERVAL},
            "runs": results,
            "summary": summary,
        },
    )


if __name__ == "__main__":
    main()
