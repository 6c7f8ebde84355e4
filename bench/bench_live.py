"""Event-to-screen latency of the live core, each figure beside a floor measured in the same run.

    python bench/bench_live.py                                   # the table of README / docs/CAPACITY.md
    python bench/bench_live.py --configs memory:1 --viewers 1000 --runs 1 --events 6   # a quick look

Plain script, not a test (issue 14). A scorer posts an event over HTTP; every viewer's websocket
gets the update; latency = the frame's receipt time - the POST's start, per viewer per event (the
event's id carries the send time: poster and viewers share this machine's clock). Each
measurement: 2 warm-up events, then ``--events`` (20) alternating ``play`` and ``whistle``.

- **The app** is started as ``./dev run`` starts it (uvicorn, DEBUG, no per-message deflate,
  ``polo.testing.ServerProcess``: a fresh database with the demo): ``memory:1`` is one process on
  the in-memory channel layer (SQLite); ``redis:N`` is N processes on Redis (127.0.0.1:6379, a
  channel prefix of its own) and PostgreSQL (127.0.0.1:5432, a fresh database), the viewers spread
  over the processes round-robin and the events posted to the first, so an update crosses Redis.
- **The floor** (``bench/live_floor.py``): a plain ``websockets`` server that encodes each update
  once (the app's own frame, same size) and writes it with ``websockets.broadcast``. The same load
  generator drives it right after the app, in the same run: the ratio app/floor is what the app
  adds, whatever the machine's load at that moment. Two floors, both in every run: **the floor**
  keeps its sockets alive as a plain ``websockets`` server does and as the app's uvicorn does
  (a ping every 20 s, a socket that does not answer within 20 s closed: the same job), and **the
  bare floor** pings nobody (``--ping-interval 0``). A ping and its pong cost the app's server
  79 µs of CPU (``bench_keepalive.py``), so 5,000 sockets' pings within the few seconds they
  connected in are about 0.4 s of it, every 20 s; the bare floor's ratio shows what they cost.
- ``--durable`` adds a third floor, **the durable floor**: it keeps its sockets alive as the floor
  does and commits each event before it broadcasts, in the app's kind of database (a SQLite file
  in WAL mode for ``memory:1``, the app's PostgreSQL for ``redis:N``); with ``--relay`` it runs,
  for ``redis:N``, as N processes joined by Redis pub/sub, the viewers spread over them as over
  the app's (``floor_processes`` in each row). What the app adds to that floor is its own code.
- **The load generator** (``bench/live_load.py``) runs in two processes: the public crowd in one,
  the officials' 3 sockets (the scorer's session) in another — one event loop holding 5,000
  sockets would delay every socket in it, the officials' included. ``--crowd-nice 10`` runs the
  crowd's process lower in priority (on a field its 5,000 phones are devices of their own; here
  they share the servers' two cores): the floor is measured the same way. The default (0) is the
  issue's method, every process at the same priority.

Each row is measured ``--runs`` (3) times, each run connecting afresh: the row gives the median of
the runs' p50 and p99 and their spread (min–max), for the app, the floor and the ratio; the
officials' p99; the first update after the crowd connected (cold start) against the rest; the
deliveries (every socket must get every event exactly once: missed and doubled are counted);
the POST's answer time; the generator's own loop lag; the machine's load average.

``--py-spy PATH`` records each app process with py-spy during the first run of every row
(``--profile-dir``: raw collapsed stacks, summarised by ``--summarize``; see docs/CAPACITY.md).

Writes ``bench/results/live.json`` (``--output``).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from pathlib import Path
from typing import Any

BASE_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE_DIR))

RESULTS = BASE_DIR / "bench" / "results" / "live.json"
FANOUT_LINE = re.compile(
    r"fan-out match=(?P<match>\d+) seq=(?P<seq>\d+) "
    r"officials=\d+ at (?P<officials>[\d.-]+) ms public=\d+ at (?P<public>[\d.-]+) ms"
)
AIMS = {"officials_p99_ms": 50, "public_ratio_to_floor": 1.2}
OFFICIAL_SOCKETS = 3
WARMUP_EVENTS = 2
# The floor's keepalive: websockets' default, and uvicorn's (the app's --ws-ping-interval).
FLOOR_PING_INTERVAL = 20.0
# Each floor's ratio keys: ratio_p50 (the floor), bare_ratio_p50, durable_ratio_p50.
FLOOR_PREFIX = {"floor": "", "bare": "bare_", "durable": "durable_"}
REDIS_URL = "redis://127.0.0.1:6379/0"
POSTGRES_URL = "postgres://postgres@127.0.0.1:5432/postgres"


# --- servers -------------------------------------------------------------------------------------


def start_app(config: str, tmp: Path) -> list:
    """``memory:1`` or ``redis:N``: the app's processes (the first with the demo)."""
    from polo.testing import ServerProcess

    layer, processes = config.split(":")
    # The hub's own account of each update (the fan-out's end, after the decision): see fanout_ms.
    env = {"LOG_LEVEL": "WARNING", "LIVE_LOG_LEVEL": "DEBUG"}
    if layer == "redis":
        env["DATABASE_POOL"] = "true"  # PostgreSQL as deployed: psycopg's pool (the tests' servers' default too)
    saved = {k: os.environ.pop(k, None) for k in ("REDIS_URL", "DATABASE_URL")}
    try:
        if layer == "redis":
            os.environ["REDIS_URL"] = REDIS_URL
            os.environ["DATABASE_URL"] = POSTGRES_URL
        prefix = f"bench{uuid.uuid4().hex[:8]}"
        first = ServerProcess(tmp, f"{layer}0", extra_env=env, channel_prefix=prefix).start()
        servers = [first]
        for k in range(1, int(processes)):
            servers.append(
                ServerProcess(
                    tmp,
                    f"{layer}{k}",
                    demo=False,
                    extra_env=env,
                    database_url=first.database_url,
                    channel_prefix=prefix,
                ).start()
            )
        return servers
    finally:
        for k in ("REDIS_URL", "DATABASE_URL"):
            os.environ.pop(k, None)
        for k, v in saved.items():
            if v is not None:
                os.environ[k] = v


class Floor:
    """``bench/live_floor.py`` in its own process."""

    def __init__(
        self, state_file: Path, ping_interval: float, store: str | None = None, relay: tuple[str, str] | None = None
    ) -> None:
        from polo.testing import free_port

        self.ping_interval, self.store = ping_interval, store
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc = subprocess.Popen(
            [
                sys.executable,
                str(BASE_DIR / "bench" / "live_floor.py"),
                "--port",
                str(self.port),
                "--state",
                str(state_file),
                "--ping-interval",
                str(ping_interval),
                *(("--store", store) if store else ()),
                *(("--relay", relay[0], "--relay-channel", relay[1]) if relay else ()),
            ],
            cwd=BASE_DIR,
        )
        deadline = time.time() + 20
        while time.time() < deadline:
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=1):
                    return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("the floor server did not start")

    def close(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=10)


def write_floor_state(server, match_id: int, path: Path) -> Path:
    """The match's ``GET /api/matches/{id}/state`` in ``path``: the frame the floor sends."""
    path.write_text(json.dumps(server.client().request("GET", f"/api/matches/{match_id}/state")[1]))
    return path


def demo_match(server) -> int:
    client = server.client()
    _status, body = client.request("GET", "/api/matches")
    return next(m["id"] for m in body["matches"] if m["last_seq"] > 0)


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU time of the processes so far (/proc/<pid>/stat)."""
    total = 0
    for pid in pids:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rpartition(")")[2].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15)
    return total / os.sysconf("SC_CLK_TCK")


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))


# --- one measurement -----------------------------------------------------------------------------


def generator(urls: list[str], origins: list[str], viewers: int, cookie: str | None, nice: int = 0) -> subprocess.Popen:
    """A load generator's process; ``nice``: its scheduling priority lowered by that much."""
    args = [sys.executable, str(BASE_DIR / "bench" / "live_load.py"), "--urls", ",".join(urls)]
    args += ["--origins", ",".join(origins), "--viewers", str(viewers)]
    if cookie:
        args += ["--cookie", cookie]
    lower = (lambda: os.nice(nice)) if nice else None
    return subprocess.Popen(
        args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=BASE_DIR, preexec_fn=lower
    )


class AppTarget:
    name = "app"

    def __init__(self, servers: list, match_id: int) -> None:
        self.servers, self.match_id = servers, match_id
        self.scorer = servers[0].client()
        self.scorer.login("scorer", "polo-demo")
        self.cookie = "; ".join(f"{c.name}={c.value}" for c in self.scorer.jar)
        self.urls = [s.url.replace("http://", "ws://") + f"/ws/matches/{match_id}/" for s in servers]
        self.origins = [s.url for s in servers]
        self.status = self.scorer.request("GET", f"/api/matches/{match_id}/state")[1]["state"]["status"]
        self.seqs: list[int] = []  # each posted event's log position

    def post(self, event_id: str, n: int) -> None:
        event = {"type": "whistle", "reason": "other"} if self.status == "in_play" else {"type": "play"}
        code, answer = self.scorer.request("POST", f"/api/matches/{self.match_id}/events", {"id": event_id, **event})
        if code not in (200, 201):
            raise RuntimeError(f"event refused: {code} {answer}")
        self.status = answer["state"]["status"]
        self.seqs.append(answer["last_seq"])

    def pids(self) -> list[int]:
        return [s.proc.pid for s in self.servers]

    def fanout_by_process_ms(self) -> list[dict[int, float]]:
        """Per server process, from its own log (``LIVE_LOG_LEVEL=DEBUG``): for each update (by
        seq), when the last of its sockets was written, in ms after the decision."""
        done: list[dict[int, float]] = []
        for server in self.servers:
            mine: dict[int, float] = {}
            for match in FANOUT_LINE.finditer(server.log_path.read_text(errors="replace")):
                if int(match["match"]) == self.match_id:
                    mine[int(match["seq"])] = max(float(match["public"]), float(match["officials"]))
            done.append(mine)
        return done

    def fanout_p50_by_process_ms(self, skip: int) -> list[float | None]:
        """Each process's median of the above over the posted events after the first ``skip``."""
        counted = self.seqs[skip:]
        return [
            r1(statistics.median(got)) if (got := [p[seq] for seq in counted if seq in p]) else None
            for p in self.fanout_by_process_ms()
        ]

    def fanout_ms(self) -> list[float | None]:
        """Per posted event: when the last of its sockets was written in any process, in ms after
        the decision — the server's side of the latency, without the network and the load
        generator's reading."""
        by_process = self.fanout_by_process_ms()
        return [max((p[seq] for p in by_process if seq in p), default=None) for seq in self.seqs]


class FloorTarget:
    """A floor's process, or several joined by Redis (the viewers spread over them, the events
    posted to the first), as the app's."""

    name = "floor"

    def __init__(self, floor: Floor | list[Floor]) -> None:
        self.floors = floor if isinstance(floor, list) else [floor]
        self.cookie = None
        self.urls = [f.url.replace("http://", "ws://") + "/ws" for f in self.floors]
        self.origins = [f.url for f in self.floors]

    def post(self, event_id: str, n: int) -> None:
        with urllib.request.urlopen(f"{self.floors[0].url}/post?id={event_id}&seq={n + 1}", timeout=30) as r:
            r.read()

    def pids(self) -> list[int]:
        return [f.proc.pid for f in self.floors]

    def fanout_ms(self) -> list[float | None]:
        return []  # (the floor keeps no account of its own)

    def fanout_p50_by_process_ms(self, skip: int) -> list[float | None]:
        return []


def measure(
    target, viewers: int, events: int, spacing: float, profile: tuple[str, Path] | None, crowd_nice: int = 0
) -> dict[str, Any]:
    crowd = generator(target.urls, target.origins, viewers, None, crowd_nice)
    officials = generator(target.urls, target.origins, OFFICIAL_SOCKETS, target.cookie)
    rss_before = sum(rss_kib(pid) for pid in target.pids())
    spies = []
    try:
        ready = [json.loads(g.stdout.readline()) for g in (crowd, officials)]
        rss_connected = sum(rss_kib(pid) for pid in target.pids())
        time.sleep(1.0)  # the connections settle (the app warms up here: fanout._warm)
        if profile:
            py_spy, out = profile
            seconds = int((WARMUP_EVENTS + events) * spacing + 3)
            spies = [
                subprocess.Popen(
                    [
                        *(py_spy, "record", "--pid", str(pid), "--rate", "250", "--format", "raw", "--nonblocking"),
                        *("--duration", str(seconds), "--output", str(out.with_suffix(f".{k}.txt"))),
                    ],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
                for k, pid in enumerate(target.pids())
            ]
            time.sleep(0.5)
        post_ms = []
        total = WARMUP_EVENTS + events
        cpu_before = [cpu_seconds([pid]) for pid in target.pids()]
        for n in range(total):
            sent = time.time()
            target.post(f"{'warm' if n < WARMUP_EVENTS else 'bench'}-{n}-{sent:.6f}", n)
            post_ms.append((time.time() - sent) * 1000)
            time.sleep(spacing)
        time.sleep(1.0 + viewers / 2500)
        cpu_by_process = [cpu_seconds([pid]) - before for pid, before in zip(target.pids(), cpu_before, strict=True)]
        cpu_used = sum(cpu_by_process)
        results = []
        for g in (crowd, officials):
            g.stdin.write(f"done {total}\n")
            g.stdin.flush()
            results.append(json.loads(g.stdout.readline()))
    finally:
        for g in (crowd, officials):
            try:
                g.wait(timeout=120)
            except subprocess.TimeoutExpired:
                g.kill()
        for spy in spies:
            spy.wait(timeout=60)
    public, official = results

    def latencies(result, first: int, last: int) -> list[float]:
        return [v for n in range(first, last) for v in result["by_event"].get(str(n), [])]

    fanout = target.fanout_ms()
    server_per_process = target.fanout_p50_by_process_ms(skip=WARMUP_EVENTS)
    fanout_rest = [v for v in fanout[1:] if v is not None]
    counted_public = latencies(public, WARMUP_EVENTS, total)
    counted_official = latencies(official, WARMUP_EVENTS, total)
    per_event_p50 = [
        statistics.median(public["by_event"][str(n)]) for n in range(total) if public["by_event"].get(str(n))
    ]
    return {
        "connected": ready[0]["ready"] + ready[1]["ready"],
        "failed_connections": ready[0]["failed"] + ready[1]["failed"],
        "connect_errors": ready[0]["errors"] + ready[1]["errors"],
        "connect_seconds": round(ready[0]["connect_seconds"], 1),
        "expected_deliveries": total * (viewers + OFFICIAL_SOCKETS),
        "missed": public["missing"] + official["missing"],
        "doubled": public["doubled"] + official["doubled"],
        "p50_ms": r1(percentile(counted_public, 50)),
        "p99_ms": r1(percentile(counted_public, 99)),
        "max_ms": r1(max(counted_public, default=None)),
        "officials_p50_ms": r1(percentile(counted_official, 50)),
        "officials_p99_ms": r1(percentile(counted_official, 99)),
        "first_update_p50_ms": r1(per_event_p50[0] if per_event_p50 else None),
        "later_updates_p50_ms": r1(statistics.median(per_event_p50[1:]) if len(per_event_p50) > 1 else None),
        "per_event_p50_ms": [r1(v) for v in per_event_p50],
        # The server's side (app only): each event's fan-out end after its decision, the first
        # update after the crowd connected against the median of the rest.
        "server_fanout_ms": [r1(v) for v in fanout],
        "server_first_fanout_ms": r1(fanout[0] if fanout else None),
        "server_later_fanout_ms": r1(statistics.median(fanout_rest) if fanout_rest else None),
        "post_answer_p50_ms": r1(percentile(post_ms[WARMUP_EVENTS:], 50)),
        "post_answer_ms": [r1(v) for v in post_ms],
        # Each server process's p50 (its sockets' median per event, the median over the events):
        # the first takes the POST, the others hear of the update through the channel layer.
        "per_process_p50_ms": [
            r1(statistics.median([d[str(n)] for n in range(WARMUP_EVENTS, total) if str(n) in d]))
            for d in public["by_url_p50"]
        ],
        # The same from the servers' side (app only): each process's last write after the
        # decision, the median over the counted events (its crowd's share of the time above).
        "per_process_server_fanout_p50_ms": server_per_process,
        "officials_per_event_p50_ms": [
            r1(statistics.median(got)) for n in range(total) if (got := official["by_event"].get(str(n)))
        ],
        # The servers' CPU per event (POST, fan-out, heartbeats, idle ticks), and per socket reached.
        "server_cpu_ms_per_event": r1(1000 * cpu_used / total),
        "server_cpu_us_per_delivery": r1(1e6 * cpu_used / (total * (viewers + OFFICIAL_SOCKETS))),
        # The same per process (the first takes the POST; the others hear of it through the layer).
        "server_cpu_ms_per_event_by_process": [r1(1000 * used / total) for used in cpu_by_process],
        "generator_loop_lag_p99_ms": r1(public["loop_lag_p99_ms"]),
        "server_rss_mib": round(rss_connected / 1024, 1),
        "server_kib_per_socket": round((rss_connected - rss_before) / (viewers + OFFICIAL_SOCKETS), 1),
        "load_average_1min": round(os.getloadavg()[0], 2),
    }


def percentile(values: list[float], p: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, round(p / 100 * len(ordered) + 0.4999))  # nearest rank
    return ordered[min(rank, len(ordered)) - 1]


def r1(value: float | None) -> float | None:
    return None if value is None else round(value, 1)


# --- a row: several runs, app and floor in each ---------------------------------------------------


def summary(values: list[float | None], digits: int = 1) -> dict[str, Any]:
    got = [v for v in values if v is not None]
    if not got:
        return {"median": None, "min": None, "max": None}
    return {k: round(f(got), digits) for k, f in (("median", statistics.median), ("min", min), ("max", max))}


def row(
    config: str,
    servers: list,
    floors: dict[str, Floor | list[Floor]],
    match_id: int,
    viewers: int,
    args,
    profile_dir: Path | None,
) -> dict:
    runs = []
    spacing = args.spacing or spacing_for(viewers)
    for run in range(args.runs):
        app = AppTarget(servers, match_id)
        profile = None
        if args.py_spy and run == 0 and profile_dir is not None:
            profile = (args.py_spy, profile_dir / f"{config.replace(':', '-')}-{viewers}.raw")
        measured = {"app": measure(app, viewers, args.events, spacing, profile, args.crowd_nice)}
        for who, floor in floors.items():  # the floor (keepalive, as the app), the bare floor, the durable one
            measured[who] = measure(FloorTarget(floor), viewers, args.events, spacing, None, args.crowd_nice)
        for who in floors:
            prefix = FLOOR_PREFIX[who]
            for key in ("p50_ms", "p99_ms"):
                a, f = measured["app"][key], measured[who][key]
                measured[f"{prefix}ratio_{key[:3]}"] = round(a / f, 2) if a and f else None
        runs.append(measured)
        print(f"  run {run + 1}: {_run_line(measured)}", flush=True)
    out: dict[str, Any] = {"config": config, "viewers": viewers, "official_sockets": OFFICIAL_SOCKETS}
    out["floor_processes"] = {who: len(f) if isinstance(f, list) else 1 for who, f in floors.items()}
    for who in ("app", *floors):
        for key in (
            "p50_ms",
            "p99_ms",
            "officials_p99_ms",
            "first_update_p50_ms",
            "later_updates_p50_ms",
            "server_first_fanout_ms",
            "server_later_fanout_ms",
            "server_cpu_us_per_delivery",
            "post_answer_p50_ms",
        ):
            out[f"{who}_{key}"] = summary([r[who][key] for r in runs])
    # Ratios to two places: one place read 1.24 as 1.2, inside the aim it is not.
    for who in floors:
        for key in ("ratio_p50", "ratio_p99"):
            out[FLOOR_PREFIX[who] + key] = summary([r[FLOOR_PREFIX[who] + key] for r in runs], digits=2)
    out["missed"] = sum(r[w]["missed"] for r in runs for w in ("app", *floors))
    out["doubled"] = sum(r[w]["doubled"] for r in runs for w in ("app", *floors))
    out["runs"] = runs
    return out


def spacing_for(viewers: int) -> float:
    """Seconds between events: more than a fan-out takes (the events do not overlap)."""
    return 0.5 if viewers <= 1000 else 1.0


def _run_line(m: dict) -> str:
    a, f, b = m["app"], m["floor"], m["bare"]
    durable = ""
    if d := m.get("durable"):
        durable = (
            f"; durable floor {d['p50_ms']}/{d['p99_ms']} ms, ratio {m['durable_ratio_p50']}/"
            f"{m['durable_ratio_p99']}, its POST {d['post_answer_p50_ms']} ms"
        )
    return (
        f"app p50/p99 {a['p50_ms']}/{a['p99_ms']} ms, officials p99 {a['officials_p99_ms']} ms, first "
        f"{a['first_update_p50_ms']} vs {a['later_updates_p50_ms']} ms (server's fan-out "
        f"{a['server_first_fanout_ms']} vs {a['server_later_fanout_ms']} ms); floor {f['p50_ms']}/{f['p99_ms']} ms "
        f"(first {f['first_update_p50_ms']} vs {f['later_updates_p50_ms']} ms); "
        f"ratio {m['ratio_p50']}/{m['ratio_p99']}; bare floor {b['p50_ms']}/{b['p99_ms']} ms, ratio "
        f"{m['bare_ratio_p50']}/{m['bare_ratio_p99']}; missed {a['missed']}+{f['missed']}+{b['missed']} "
        f"doubled {a['doubled']}+{f['doubled']}+{b['doubled']}; POST {a['post_answer_p50_ms']} ms; "
        f"CPU/delivery {a['server_cpu_us_per_delivery']} vs {f['server_cpu_us_per_delivery']} "
        f"(bare {b['server_cpu_us_per_delivery']}) us; "
        f"gen lag {a['generator_loop_lag_p99_ms']} ms; load {a['load_average_1min']}; "
        f"per process p50 {a['per_process_p50_ms']} ms (the servers' own: {a['per_process_server_fanout_p50_ms']} ms)"
        f"{durable}"
    )


def _spread(s: dict) -> str:
    if s["median"] is None:
        return "-"
    return f"{s['median']:g} ({s['min']:g}–{s['max']:g})"


def table(rows: list[dict]) -> str:
    head = (
        "| config | viewers | app p50 / p99 ms | floor p50 / p99 ms | ratio p50 / p99 "
        "| bare floor p50 / p99 ms | ratio to it p50 / p99 "
        "| officials p99 ms (app / floor) | first update vs rest, p50 ms (app; floor) "
        "| server's fan-out, first vs rest ms | missed / doubled |"
    )
    durable = any("durable_ratio_p99" in r for r in rows)
    if durable:
        head += " durable floor p50 / p99 ms | ratio to it p50 / p99 |"
    lines = [head, "|" + "---|" * (13 if durable else 11)]
    for r in rows:
        lines.append(
            f"| {r['config']} | {r['viewers']:,} | {_spread(r['app_p50_ms'])} / {_spread(r['app_p99_ms'])} "
            f"| {_spread(r['floor_p50_ms'])} / {_spread(r['floor_p99_ms'])} "
            f"| {_spread(r['ratio_p50'])} / {_spread(r['ratio_p99'])} "
            f"| {_spread(r['bare_p50_ms'])} / {_spread(r['bare_p99_ms'])} "
            f"| {_spread(r['bare_ratio_p50'])} / {_spread(r['bare_ratio_p99'])} "
            f"| {_spread(r['app_officials_p99_ms'])} / {_spread(r['floor_officials_p99_ms'])} "
            f"| {_spread(r['app_first_update_p50_ms'])} vs {_spread(r['app_later_updates_p50_ms'])}; "
            f"{_spread(r['floor_first_update_p50_ms'])} vs {_spread(r['floor_later_updates_p50_ms'])} "
            f"| {_spread(r['app_server_first_fanout_ms'])} vs {_spread(r['app_server_later_fanout_ms'])} "
            f"| {r['missed']} / {r['doubled']} |"
        )
        if durable:
            lines[-1] += (
                f" {_spread(r['durable_p50_ms'])} / {_spread(r['durable_p99_ms'])} "
                f"| {_spread(r['durable_ratio_p50'])} / {_spread(r['durable_ratio_p99'])} |"
                if "durable_ratio_p99" in r
                else " - | - |"
            )
    return "\n".join(lines)


# --- profiles ------------------------------------------------------------------------------------

# Where a sample's time goes: the first bucket any of whose marks is in the sample's stack.
BUCKETS = [
    ("hub: encode each frame variant once", ("_Frames.text",)),
    ("hub: write the frame to each socket (uvicorn's websocket send)", ("_write_all",)),
    ("hub: heartbeats", ("Hub.heartbeat",)),
    ("POST: the log (lock the match, fold, insert, the state in each language)", ("match_event_log",)),
    ("POST: hand the update to the hub (signal, broadcast)", ("on_events_logged", "broadcast.py")),
    ("POST: the view's own checks (session, permission, schema)", ("_post_event",)),
    ("database connections (open, commit, close)", ("BaseDatabaseWrapper",)),
    ("Django around the view (ASGI handler, middleware, thread hand-offs)", ("django/core/handlers", "asgiref")),
    ("websocket frames in, pings (uvicorn, websockets)", ("data_received", "send_keepalive_ping", "Frame.parse")),
    ("thread pool machinery", ("concurrent/futures", "threading.py")),
]


IDLE_LEAVES = {"_worker", "Condition.wait", "Thread._wait_for_tstate_lock", "Event.wait", "Thread.join"}


def summarize(files: list[str]) -> dict[str, Any]:
    """Share of the samples per bucket, from py-spy's raw output. A sample whose innermost Python
    frame is the event loop's run (uvloop's C code: epoll, socket reads) is counted apart, and one
    waiting in C under a frame py-spy does not know as idle (a thread pool's worker waiting for
    work, a condition's wait) is left out."""
    counts: dict[str, int] = {}
    total = in_loop = 0
    for name in files:
        for line in Path(name).read_text().splitlines():
            stack, _, n = line.rpartition(" ")
            if not n.isdigit():
                continue
            frames = stack.split(";")
            total += int(n)
            if frames[-1].startswith("Runner.run ") or frames[-1].startswith("run_forever "):
                in_loop += int(n)
                continue
            if frames[-1].split(" (")[0] in IDLE_LEAVES:
                total -= int(n)
                continue
            bucket = next((label for label, marks in BUCKETS if any(m in f for f in frames for m in marks)), "other")
            counts[bucket] = counts.get(bucket, 0) + int(n)
    busy = total - in_loop
    split = {label: round(100 * c / busy, 1) for label, c in sorted(counts.items(), key=lambda kv: -kv[1])}
    return {"samples": total, "in_event_loop_c_code_pct": round(100 * in_loop / max(total, 1), 1), "split_pct": split}


# --- main ----------------------------------------------------------------------------------------


def write_results(path: str | Path, payload: dict[str, Any]) -> None:
    """A bench's results as indented JSON (the directory made if need be)."""
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(payload, indent=2) + "\n")
    print(f"\nwritten to {out}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--configs", default="memory:1,redis:2,redis:4", help="memory:1, redis:N (N processes)")
    parser.add_argument("--viewers", default="1000,5000", help="public viewers per row")
    parser.add_argument("--events", type=int, default=20, help="counted events (after 2 warm-ups)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--spacing", type=float, default=None, help="seconds between events (default by size)")
    parser.add_argument(
        "--crowd-nice",
        type=int,
        default=0,
        help="run the crowd's generator this much lower in priority than the servers (e.g. 10)",
    )
    parser.add_argument("--skip", default="", help="rows to leave out, e.g. redis:4/1000")
    parser.add_argument(
        "--durable",
        action="store_true",
        help="a third floor that commits each event first (SQLite for memory:1, PostgreSQL for redis:N)",
    )
    parser.add_argument(
        "--relay",
        action="store_true",
        help="with --durable: for redis:N, the durable floor as N processes joined by Redis pub/sub",
    )
    parser.add_argument("--py-spy", default=None, help="py-spy's path: profile the first run of each row")
    parser.add_argument("--profile-dir", default=str(BASE_DIR / "bench" / "results" / "profiles"))
    parser.add_argument("--summarize", nargs="*", help="print the split of py-spy raw files and exit")
    parser.add_argument("--output", default=str(RESULTS))
    args = parser.parse_args()
    if args.summarize:
        print(json.dumps(summarize(args.summarize), indent=2))
        return

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "polo.settings_test")
    skip = set(filter(None, args.skip.split(",")))
    profile_dir = Path(args.profile_dir) if args.py_spy else None
    if profile_dir:
        profile_dir.mkdir(parents=True, exist_ok=True)
    rows = []
    started = time.time()
    with tempfile.TemporaryDirectory(prefix="bench-live-") as tmp:
        floors: dict[str, Floor] = {}
        try:
            for config in args.configs.split(","):
                servers = start_app(config, Path(tmp) / config.replace(":", "-"))
                durable = None
                try:
                    match_id = demo_match(servers[0])
                    if not floors:
                        state_file = write_floor_state(servers[0], match_id, Path(tmp) / "state.json")
                        floors = {"floor": Floor(state_file, FLOOR_PING_INTERVAL), "bare": Floor(state_file, 0)}
                    if args.durable:  # its store as the app's: the app's PostgreSQL, or a SQLite file
                        store = servers[0].database_url
                        if store.startswith("sqlite:"):
                            store = f"sqlite:///{Path(tmp) / (config.replace(':', '-') + '-floor.sqlite3')}"
                        n = int(config.split(":")[1]) if args.relay and config.startswith("redis:") else 1
                        relay = (REDIS_URL, f"floor-{uuid.uuid4().hex[:8]}") if n > 1 else None
                        durable = [Floor(state_file, FLOOR_PING_INTERVAL, store, relay) for _ in range(n)]
                    these = {**floors, **({"durable": durable} if durable else {})}
                    for viewers in [int(v) for v in args.viewers.split(",")]:
                        if f"{config}/{viewers}" in skip:
                            continue
                        print(f"{config}, {viewers} viewers:", flush=True)
                        rows.append(row(config, servers, these, match_id, viewers, args, profile_dir))
                finally:
                    for floor in durable or ():
                        floor.close()
                    for server in servers:
                        server.close()
        finally:
            for floor in floors.values():
                floor.close()

    print()
    print(table(rows))
    write_results(
        args.output,
        {
            "what": "event-to-screen latency (websocket receipt - POST start, per viewer per event) of the app "
            "and of two floors (plain websockets.broadcast server, same frame, same load generator, same run): "
            "'floor' pings every socket every 20 s as a plain websockets server and the app's uvicorn do, "
            "'bare' pings nobody, 'durable' (with --durable) pings as 'floor' and commits each event to "
            "the app's kind of database (SQLite file, WAL; PostgreSQL) before it broadcasts, and with --relay runs "
            "as N processes joined by Redis pub/sub for redis:N (floor_processes)",
            "when": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            "minutes": round((time.time() - started) / 60, 1),
            "machine": {"cpus": os.cpu_count(), "python": platform.python_version(), "platform": platform.platform()},
            "method": {
                "warmup_events": WARMUP_EVENTS,
                "events": args.events,
                "runs": args.runs,
                "official_sockets": OFFICIAL_SOCKETS,
                "spacing_s": args.spacing or "0.5 up to 1,000 viewers, 1.0 above",
                "crowd_nice": args.crowd_nice,
                "floor_ping_interval_s": FLOOR_PING_INTERVAL,
                "summary": "median of the runs (min–max)",
            },
            "aims": AIMS,
            "rows": rows,
        },
    )


if __name__ == "__main__":
    main()
