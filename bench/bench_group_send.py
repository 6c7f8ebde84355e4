"""An update's trip from the process that took the event to the other processes' hubs, through
Redis: the app's channel layer (``polo.channel_layer``, one round trip) beside channels-redis's
own ``group_send`` (four) and the floor, a bare Redis ``PUBLISH`` to subscribers (one round trip,
no expiry, no capacity, nothing kept for a process that is away).

    python bench/bench_group_send.py             # Redis at 127.0.0.1:6379 (database 14)

Three receiving processes (as three other server processes of a deployment), each a member of the
group with a channel of its own in each layer (receiving as that layer receives: channels-redis's
four commands a message, the app's one) and a subscriber of the floor's channel. The sender sends one
message of the size of a match update (~2.4 KB, the states in two languages) and waits until all
three have it before the next; the three ways take turns, message by message, so they share the
machine's moment. Time from the send's start until each receiver has the message
(``time.monotonic``, one clock for all processes on Linux), and how long the sender's call took.
Writes ``bench/results/group_send.json``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import statistics
import sys
import time
import uuid
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE_DIR))

REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/14")
WAYS = ("stock", "app", "floor")
RECEIVERS = 3
WARMUP = 20
GROUP = "match.1"


def config(prefix: str) -> dict:
    return {"hosts": [REDIS_URL], "prefix": prefix, "capacity": 1500, "expiry": 30}


def receiver(prefix: str, ready, arrivals) -> None:
    """One receiving process: a member of the stock layer's group through channels-redis's own
    receive, of the app's group through the app's layer, and a subscriber of the floor."""
    import redis.asyncio
    from channels_redis.core import RedisChannelLayer as StockLayer

    from polo.channel_layer import RedisChannelLayer

    async def run() -> None:
        layers = {"stock": StockLayer(**config(f"{prefix}-stock")), "app": RedisChannelLayer(**config(f"{prefix}-app"))}
        channels = {}
        for way, layer in layers.items():
            channels[way] = await layer.new_channel()
            await layer.group_add(GROUP, channels[way])
        client = redis.asyncio.Redis.from_url(REDIS_URL)
        pubsub = client.pubsub()
        await pubsub.subscribe(f"{prefix}:floor")

        async def from_layer(way: str) -> None:
            while True:
                message = await layers[way].receive(channels[way])
                if message["type"] == "stop":
                    return
                arrivals.put((way, message["n"], time.monotonic()))

        async def from_pubsub() -> None:
            async for item in pubsub.listen():
                if item["type"] == "message":
                    arrivals.put(("floor", int(item["data"][:12]), time.monotonic()))

        listening = asyncio.ensure_future(from_pubsub())
        ready.put(True)
        await asyncio.gather(from_layer("stock"), from_layer("app"))
        listening.cancel()
        await pubsub.aclose()
        await client.aclose()
        for layer in layers.values():
            await layer.close_pools()

    asyncio.run(run())


async def send_all(prefix: str, messages: int, arrivals) -> dict[str, dict[str, list[float]]]:
    import redis.asyncio
    from channels_redis.core import RedisChannelLayer as StockLayer

    from polo.channel_layer import RedisChannelLayer

    layers = {"stock": StockLayer(**config(f"{prefix}-stock")), "app": RedisChannelLayer(**config(f"{prefix}-app"))}
    publisher = redis.asyncio.Redis.from_url(REDIS_URL)
    payload = {"states": {lang: {"x": "y" * 1100} for lang in ("en", "es")}}
    results = {way: {"arrival_ms": [], "last_arrival_ms": [], "call_ms": []} for way in WAYS}
    loop = asyncio.get_running_loop()
    for n in range(WARMUP + messages):
        for way in WAYS if n % 2 == 0 else tuple(reversed(WAYS)):
            started = time.monotonic()
            if way == "floor":
                await publisher.publish(f"{prefix}:floor", f"{n:012d}".encode() + b"x" * 2400)
            else:
                await layers[way].group_send(GROUP, {"type": "update", "way": way, "n": n, **payload})
            called = time.monotonic()
            got = []
            while len(got) < RECEIVERS:
                arrived_way, arrived_n, at = await loop.run_in_executor(None, arrivals.get)
                if (arrived_way, arrived_n) != (way, n):
                    raise RuntimeError(f"out of turn: {arrived_way} {arrived_n} during {way} {n}")
                got.append(at)
            if n >= WARMUP:
                results[way]["arrival_ms"] += [(at - started) * 1000 for at in got]
                results[way]["last_arrival_ms"].append((max(got) - started) * 1000)
                results[way]["call_ms"].append((called - started) * 1000)
    for layer in layers.values():
        await layer.group_send(GROUP, {"type": "stop"})
        await layer.flush()
        await layer.close_pools()
    await publisher.aclose()
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=500)
    parser.add_argument("--output", default=str(BASE_DIR / "bench" / "results" / "group_send.json"))
    args = parser.parse_args()
    prefix = f"bench-{uuid.uuid4().hex[:8]}"
    context = multiprocessing.get_context("spawn")
    ready, arrivals = context.Queue(), context.Queue()
    processes = [context.Process(target=receiver, args=(prefix, ready, arrivals)) for _ in range(RECEIVERS)]
    for process in processes:
        process.start()
    for _ in processes:
        ready.get(timeout=60)
    results = asyncio.run(send_all(prefix, args.messages, arrivals))
    for process in processes:
        process.join(timeout=30)

    def p(values: list[float], q: float) -> float:
        return round(statistics.quantiles(values, n=100)[q - 1], 3) if q != 50 else round(statistics.median(values), 3)

    summary = {
        way: {
            "arrival_p50_ms": p(r["arrival_ms"], 50),
            "arrival_p99_ms": p(r["arrival_ms"], 99),
            "last_arrival_p50_ms": p(r["last_arrival_ms"], 50),
            "call_p50_ms": p(r["call_ms"], 50),
        }
        for way, r in results.items()
    }
    for way in ("stock", "app"):
        summary[way]["arrival_p50_ratio_to_floor"] = round(
            summary[way]["arrival_p50_ms"] / summary["floor"]["arrival_p50_ms"], 2
        )
    out = {
        "what": "an update from one process to three others through Redis: "
        "the app's layer, channels-redis's, a bare PUBLISH",
        "when": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "machine_load": os.getloadavg()[0],
        "messages_per_way": args.messages,
        "receivers": RECEIVERS,
        "summary": summary,
    }
    print(json.dumps(out, indent=2))
    Path(args.output).write_text(json.dumps(out, indent=2) + "\n")


if __name__ == "__main__":
    main()
