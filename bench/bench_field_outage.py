"""How long the public screens take to show the field's record after the link returns (issue 34),
beside the same entries posted with the link up (the floor).

    python bench/bench_field_outage.py                 # 1, 20 and 200 entries, 3 runs each
    python bench/bench_field_outage.py --entries 20 --runs 5

One uvicorn process (the embedded defaults: SQLite, the in-memory layer), the demo loaded, a fresh
match thrown in. A public viewer holds the match's websocket and notes when each update arrives.

- **outage**: the scorer's laptop kept ``N`` entries (stoppages and restarts, alternately, one a
  second) while its link was down; the link returns and its queue sends them as the page's queue
  does (in order, one at a time, each chained to the answer before it, each with its key:
  ``keyed_at`` in the past). Measured: from the first POST to the viewer's update carrying the last
  entry.
- **link up** (the floor): the same kind of entries posted the same way, keyed as they are sent.

The ratio outage / link up is what the outage costs the crowd on top of the entries themselves;
the per-entry lag (a POST's answer to the viewer's update) says whether the crowd trails the record.
Writes ``bench/results/field-outage.json``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE_DIR))

import websockets  # noqa: E402

from polo.testing import ServerProcess  # noqa: E402
from tests.browser.officials_helpers import NEW_MATCHES  # noqa: E402

BALL = {"x": 150, "y": 80}


class Viewer:
    """A public websocket in a thread of its own: the wall time each ``last_seq`` first arrived."""

    def __init__(self, url: str, match_id: int) -> None:
        self.url = url.replace("http://", "ws://") + f"/ws/matches/{match_id}/"
        self.origin = url
        self.seen: dict[int, float] = {}
        self.ready = threading.Event()
        self.stop = False
        self.thread = threading.Thread(target=lambda: asyncio.run(self._run()), daemon=True)
        self.thread.start()
        if not self.ready.wait(30):
            raise RuntimeError("the viewer did not connect")

    async def _run(self) -> None:
        async with websockets.connect(self.url, origin=self.origin) as ws:
            while not self.stop:
                try:
                    text = await asyncio.wait_for(ws.recv(), 0.5)
                except TimeoutError:
                    continue
                frame = json.loads(text)
                if frame.get("type") in ("snapshot", "update"):
                    self.seen.setdefault(int(frame["last_seq"]), time.time())
                    self.ready.set()

    def wait_for(self, seq: int, timeout: float = 120.0) -> float:
        deadline = time.time() + timeout
        while time.time() < deadline:
            arrived = [t for s, t in self.seen.items() if s >= seq]
            if arrived:
                return min(arrived)
            time.sleep(0.002)
        raise RuntimeError(f"the viewer never saw seq {seq}")

    def close(self) -> None:
        self.stop = True
        self.thread.join(5)


def entries(n: int, start: float, elapsed: float) -> list[dict]:
    """``n`` entries keyed one a second from ``start``: a stoppage, then its restart, and so on (the
    clock running from ``elapsed`` at ``start``)."""
    out, anchor, running = [], start, True
    for i in range(n):
        at = start + 1.0 + i
        if running:
            elapsed += at - anchor
            out.append({"type": "whistle", "reason": "other", "ball": BALL, "clock": round(elapsed, 3), "keyed_at": at})
        else:
            anchor = at
            out.append({"type": "play", "keyed_at": at})
        running = not running
    return out


def flush(client, match_id: int, queue: list[dict], last_seq: int) -> tuple[float, int, list[float]]:
    """Send ``queue`` as the page's queue does; the time of the first POST, the last seq, and each
    entry's answer time."""
    started = time.time()
    answered = []
    for entry in queue:
        code, answer = client.request(
            "POST", f"/api/matches/{match_id}/events", {"id": str(uuid.uuid4()), "expected_seq": last_seq, **entry}
        )
        if code not in (200, 201):
            raise RuntimeError(f"refused: {code} {answer}")
        last_seq = answer["last_seq"]
        answered.append(time.time())
    return started, last_seq, answered


def one_run(tmp: Path, n: int, outage: bool) -> dict:
    folder = Path(tempfile.mkdtemp(dir=tmp))
    server = ServerProcess(folder, "field-bench").start()
    try:
        printed = server.manage("shell", "-c", NEW_MATCHES.format(n=1)).splitlines()
        match_id = int(next(line for line in printed if line.strip().isdigit()))
        client = server.client()
        client.login("scorer", "polo-demo")
        keyed = time.time() - (n + 5.0 if outage else 0.0)
        code, answer = client.request(
            "POST", f"/api/matches/{match_id}/events", {"id": str(uuid.uuid4()), "type": "play", "keyed_at": keyed}
        )
        assert code == 201, answer
        viewer = Viewer(server.url, match_id)
        try:
            if outage:  # kept at the field, keyed one a second since the throw-in; sent now
                queue = entries(n, keyed, 0.0)
                started, last, answered = flush(client, match_id, queue, answer["last_seq"])
            else:  # the link up: each entry keyed as it is sent
                started, answered, last = time.time(), [], answer["last_seq"]
                running, base, anchor = True, 0.0, keyed
                for _ in range(n):
                    now = time.time()
                    if running:
                        base += now - anchor
                        entry = {"type": "whistle", "reason": "other", "ball": BALL, "clock": round(base, 3)}
                    else:
                        anchor = now
                        entry = {"type": "play"}
                    _, last, one = flush(client, match_id, [{**entry, "keyed_at": now}], last)
                    answered += one
                    running = not running
            shown = viewer.wait_for(last)
            seqs = range(last - n + 1, last + 1)
            lags = [viewer.wait_for(seq) - t for seq, t in zip(seqs, answered, strict=True)]
        finally:
            viewer.close()
        return {"entries": n, "catch_up_ms": (shown - started) * 1000, "lag_ms_p50": statistics.median(lags) * 1000}
    finally:
        server.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entries", type=int, nargs="*", default=[1, 20, 200])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.entries:
            runs = {"outage": [], "up": []}
            for _ in range(args.runs):  # interleaved: the machine's mood falls on both alike
                runs["outage"].append(one_run(Path(tmp), n, outage=True))
                runs["up"].append(one_run(Path(tmp), n, outage=False))
            outage = statistics.median(r["catch_up_ms"] for r in runs["outage"])
            up = statistics.median(r["catch_up_ms"] for r in runs["up"])
            row = {
                "entries": n,
                "outage_catch_up_ms": round(outage, 1),
                "link_up_ms": round(up, 1),
                "ratio": round(outage / up, 2) if up else None,
                "outage_lag_ms_p50": round(statistics.median(r["lag_ms_p50"] for r in runs["outage"]), 1),
                "link_up_lag_ms_p50": round(statistics.median(r["lag_ms_p50"] for r in runs["up"]), 1),
                "runs": runs,
            }
            rows.append(row)
            print(
                f"{n:4d} entries: outage {row['outage_catch_up_ms']:8.1f} ms, link up {row['link_up_ms']:8.1f} ms, "
                f"ratio {row['ratio']}, crowd lag p50 {row['outage_lag_ms_p50']} / {row['link_up_lag_ms_p50']} ms",
                flush=True,
            )
    out = BASE_DIR / "bench" / "results" / "field-outage.json"
    out.write_text(json.dumps({"when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "rows": rows}, indent=2))


if __name__ == "__main__":
    main()
