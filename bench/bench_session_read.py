"""A signed-in request's read of its session and its user, three ways (issue 14: where the time goes).

    python bench/bench_session_read.py                        # PostgreSQL (127.0.0.1:5432), its pool on
    DATABASE_URL=sqlite:// python bench/bench_session_read.py   # a SQLite file

Every signed-in request (each event's POST, each official's socket as it connects) reads its
session joined to its user before the view begins. Three ways, in one process, on one
connection, the same session (the demo's scorer, signed in through Django's login):

- **django**: the queryset Django's database store runs, with the join
  (``UserSession.objects.select_related("user").get(session_key=…, expire_date__gt=now)``):
  what ``matches/sessions.py`` ran before ``7a9d380``;
- **compiled**: what it runs now (``_session_with_user``): the same SQL, built once per database
  alias, its row made into the session and its user by the ORM's converters and ``from_db``;
- **floor**: that SQL run with a cursor on the same connection, the row fetched and nothing
  built from it: the least any read of the session can do.

DEBUG off, as in production. Each round runs the three in turn (the order rotating), ``--reads``
each; a read's cost is the thread's CPU time (``time.thread_time``) and its wall time, per read.
Writes ``bench/results/session_read.json``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE_DIR))
sys.path.insert(0, str(BASE_DIR / "bench"))

from demo_db import demo_database  # noqa: E402

WAYS = ("django", "compiled", "floor")
WARMUP = 200


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--reads", type=int, default=2000, help="reads per round and way")
    parser.add_argument("--output", default=str(BASE_DIR / "bench" / "results" / "session_read.json"))
    args = parser.parse_args()
    with demo_database(
        "sessionread", DEBUG="false", SECRET_KEY="bench-session-read-" + "x" * 40, ALLOWED_HOSTS="127.0.0.1"
    ) as database_url:
        rounds = measure(args.rounds, args.reads)
    cpu = {way: statistics.median(r[way]["cpu_us"] for r in rounds) for way in WAYS}
    wall = {way: statistics.median(r[way]["wall_us"] for r in rounds) for way in WAYS}
    out = {
        "what": "a signed-in request's read of its session and user: Django's queryset, the compiled read, a cursor",
        "when": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "database": database_url.split(":", 1)[0],
        "reads_per_round_and_way": args.reads,
        "median_cpu_us_per_read": {way: round(v, 1) for way, v in cpu.items()},
        "median_wall_us_per_read": {way: round(v, 1) for way, v in wall.items()},
        "cpu_ratio_to_floor": {way: round(cpu[way] / cpu["floor"], 2) for way in ("django", "compiled")},
        "cpu_ratio_compiled_to_django": round(cpu["compiled"] / cpu["django"], 3),
        "cpu_spread_us": {way: spread([r[way]["cpu_us"] for r in rounds]) for way in WAYS},
        "rounds": rounds,
    }
    print(json.dumps({k: v for k, v in out.items() if k != "rounds"}, indent=2))
    Path(args.output).write_text(json.dumps(out, indent=2) + "\n")


def spread(values: list[float]) -> list[float]:
    return [min(values), max(values)]


def measure(n_rounds: int, reads: int) -> list[dict]:
    from django.db import connections, router
    from django.test import Client
    from django.utils import timezone

    from matches.sessions import UserSession, _session_sql, _session_with_user, _statement

    client = Client(HTTP_HOST="127.0.0.1")
    if not client.login(username="scorer", password="polo-demo"):
        raise RuntimeError("the demo's scorer could not log in")
    key = client.cookies["sessionid"].value
    connection = connections[router.db_for_read(UserSession)]  # (where the store reads it)
    expires = UserSession._meta.get_field("expire_date")
    sql = _session_sql(connection, ", ".join(part.sql(connection) for part in _statement().parts))

    def django_read():
        return UserSession.objects.select_related("user").get(session_key=key, expire_date__gt=timezone.now())

    def compiled_read():
        return _session_with_user(key)

    def floor_read():
        now = expires.get_db_prep_value(timezone.now(), connection, prepared=False)
        with connection.cursor() as cursor:
            cursor.execute(sql, [key, now])
            return cursor.fetchone()

    read = {"django": django_read, "compiled": compiled_read, "floor": floor_read}
    for way in WAYS:  # each finds the session and its user, and warms up
        for _ in range(WARMUP):
            found = read[way]()
        user_id = found[len(_statement().parts[0].fields)] if way == "floor" else found.user.pk
        if user_id is None:
            raise RuntimeError(f"{way}: the session was read without its user")
    rounds = []
    for n in range(n_rounds):
        measured = {}
        order = WAYS[n % 3 :] + WAYS[: n % 3]
        for way in order:
            function = read[way]
            cpu, wall = time.thread_time(), time.perf_counter()
            for _ in range(reads):
                function()
            measured[way] = {
                "cpu_us": round((time.thread_time() - cpu) / reads * 1e6, 1),
                "wall_us": round((time.perf_counter() - wall) / reads * 1e6, 1),
            }
        print(f"round {n + 1}: {measured}", flush=True)
        rounds.append({way: measured[way] for way in WAYS})
    return rounds


if __name__ == "__main__":
    main()
