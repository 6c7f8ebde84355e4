"""The load generator of ``bench/bench_live.py``: N websocket viewers in one process, one event loop.

Started by bench_live.py (twice per measurement: the crowd in one process, the officials' few
sockets in another, so that the crowd's event loop does not delay the officials' receipts). Each
socket connects (64 opening at once: a ramp), reads its snapshot, then stamps every update frame
it gets: the event's id carries the time the poster sent it (``bench-<n>-<epoch>``), found with a
regular expression (the frame is not parsed), so latency = receipt - send on this machine's one
clock. Prints one JSON line when every socket is open, and one with the results after the poster
writes ``done <events>`` on its standard input.

    python bench/live_load.py --urls ws://... --origins http://... --viewers 1000 [--cookie ...]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import re
import statistics
import sys
import time

ID_RE = re.compile(r'"id":"(?:bench|warm)-(\d+)-(\d+\.\d+)"')


async def _viewer(url: str, origin: str, cookie: str | None, ready: asyncio.Queue, seen: dict) -> None:
    from websockets.asyncio.client import connect

    headers = {"Cookie": cookie} if cookie else None
    try:
        async with connect(
            url,
            origin=origin,
            additional_headers=headers,
            max_size=2**22,
            compression=None,  # the servers run without per-message deflate (see README)
            open_timeout=120,
            ping_interval=None,
            close_timeout=1,
            proxy=None,
        ) as ws:
            first = await ws.recv()
            if not first.startswith('{"type":"snapshot"'):
                raise RuntimeError(f"first frame not a snapshot: {first[:60]}")
            await ready.put(True)
            async for message in ws:  # one wake-up per frame, nothing while idle
                received = time.time()
                if message.startswith('{"type":"update"'):
                    for n, sent in set(ID_RE.findall(message)):  # the id is in the row and in its event
                        seen.setdefault(int(n), []).append(received - float(sent))
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


async def generate(urls: list[str], origins: list[str], viewers: int, cookie: str | None) -> None:
    ready: asyncio.Queue = asyncio.Queue()
    stop = asyncio.Event()
    seen: list[dict] = [{} for _ in range(viewers)]  # per socket: event n -> latencies (one, unless doubled)
    lags: list = []
    tasks = []
    started = time.time()
    gate = asyncio.Semaphore(64)  # connections opening at once: a ramp, not a stampede

    async def one(i: int) -> None:
        k = i % len(urls)
        async with gate:
            inner: asyncio.Queue = asyncio.Queue()
            tasks.append(asyncio.create_task(_viewer(urls[k], origins[k], cookie, inner, seen[i])))
            await ready.put(await inner.get())

    openers = [asyncio.create_task(one(i)) for i in range(viewers)]
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
    # The generator's own garbage collector: with a crowd's connections alive, a full pass holds
    # this loop for tens of milliseconds, and every receipt time behind it (the app's and the
    # floor's alike): what is alive now is frozen out of those passes, as the hub does.
    gc.collect()
    gc.freeze()
    monitor = asyncio.create_task(_loop_lag(lags, stop))
    line = await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)  # "done <events>"
    posted = int(line.split()[1])
    stop.set()
    await monitor
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    by_event: dict[int, list[float]] = {}
    by_url: list[dict[int, list[float]]] = [{} for _ in urls]  # the same, per server process
    missing = doubled = 0
    for i, socket in enumerate(seen):
        for n in range(posted):
            got = socket.get(n, [])
            missing += not got
            doubled += max(0, len(got) - 1)
            if got:
                by_event.setdefault(n, []).append(round(got[0] * 1000, 2))
                by_url[i % len(urls)].setdefault(n, []).append(got[0] * 1000)
    lags.sort()
    print(
        json.dumps(
            {
                "by_event": {str(n): v for n, v in by_event.items()},
                # per server process: each event's median latency there (an update crosses Redis
                # to reach every process but the first)
                "by_url_p50": [{str(n): round(statistics.median(v), 2) for n, v in d.items()} for d in by_url],
                "missing": missing,
                "doubled": doubled,
                "loop_lag_p99_ms": lags[int(0.99 * (len(lags) - 1))] if lags else None,
            }
        ),
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--urls", required=True)
    parser.add_argument("--origins", required=True)
    parser.add_argument("--viewers", type=int, required=True)
    parser.add_argument("--cookie", default=None)
    args = parser.parse_args()
    asyncio.run(generate(args.urls.split(","), args.origins.split(","), args.viewers, args.cookie))


if __name__ == "__main__":
    main()
