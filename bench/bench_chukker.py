"""A whole chukker logged from the scorer's keyboard at a realistic pace: is the record field-true?

    python bench/bench_chukker.py [--seed 7] [--stoppages 16]

Plain script, not a test (issue 9). It starts its own server (``polo.testing.ServerProcess``:
uvicorn, a fresh database, the demo loaded, a fresh match of the demo's teams and officials) and
drives Debian's Chromium with Playwright: the scorer's laptop (``scorer``), the umpire's tablet
(``umpire1``) and the public scoreboard, each a page of its own. The scorer plays one chukker:
Space (play), some seconds of play, then a stoppage typed key by key over 3–10 s (a goal, a foul,
a ball out, a whistle…), a pause for the restart, Space again — at least 15 stoppages, and two
entries begun and abandoned with Esc — until the seven-minute horn.

What it measures (every page stamps with the machine's clock, ``Date.now()``):

- **recorded clock vs first key**: each stoppage's ``clock`` in the log minus the official clock
  the scorer's screen showed at the entry's first key (aim: within 0.3 s);
- **the seven-minute horn vs real play**: the real time the ball was in play (from each Space to
  the next first key, abandoned entries not stopping it) when the scorer's clock reaches 7:00, and
  when the server's clock watcher logs the horn (aim: 7:00 ± 0.5 s);
- **first key → clock stopped on the other screens**: the tablet and the scoreboard (aim: p99 under
  100 ms).

Prints a table and writes ``bench/results/chukker.json``. It takes about ten minutes: a chukker is
seven minutes of play.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE_DIR))

from polo.testing import CHROMIUM, CHROMIUM_ARGS, ServerProcess  # noqa: E402

RESULTS = BASE_DIR / "bench" / "results" / "chukker.json"
PASSWORD = "polo-demo"
PERIOD = 420.0

FRESH_MATCH = """
from matches.models import Match
demo = Match.objects.filter(last_seq__gt=0).order_by("starts_at", "pk").first()
new = Match.objects.create(tournament=demo.tournament, field=demo.field, starts_at=demo.starts_at,
                           home=demo.home, away=demo.away, periods=demo.periods, scorer=demo.scorer,
                           referee=demo.referee)
new.umpires.set(demo.umpires.all())
print(new.pk)
"""

# The scorer's page: each key with the official clock the screen showed when it was pressed
# (a capture listener on window runs before the page's own handlers).
KEYS = """(period) => {
  window.__keys = [];
  window.addEventListener("keydown", (e) => {
    const live = window.PoloLive && window.PoloLive.instances[0];
    window.__keys.push({key: e.key, t: Date.now(), clock: live ? live.clockElapsed() : null});
  }, true);
  window.__seven = null;
  const look = () => {
    const live = window.PoloLive && window.PoloLive.instances[0];
    if (window.__seven === null && live && live.clockElapsed() >= period) window.__seven = Date.now();
  };
  setInterval(look, 2);
}"""

# The tablet and the scoreboard: when their clock stops and starts.
WATCH = """() => {
  window.__stops = []; window.__starts = [];
  let running = null;
  setInterval(() => {
    const live = window.PoloLive && window.PoloLive.instances[0];
    const now = live && live.state && live.state.clock ? !!live.state.clock.running : null;
    if (now === running) return;
    if (running === true && now === false) window.__stops.push(Date.now());
    if (now === true) window.__starts.push(Date.now());
    running = now;
  }, 2);
}"""

# Each stoppage as keys after its first key (the wizard's steps, see officials-common.js COMMANDS).
ENTRIES = [
    ("ball_out", ["o", "s", "Enter", "a", "Enter"]),
    ("foul", ["f", "a", "2", "3", "Enter", "Enter"]),
    ("whistle", ["w", "x", "Enter", "Enter"]),
    ("goal", ["g", "h", "1"]),
    ("ball_out", ["o", "s", "Enter", "h", "Enter"]),
    ("foul", ["f", "h", "3", "4", "Enter", "Enter"]),
    ("whistle", ["w", "8", "Enter", "h", "2", "Enter"]),
    ("goal", ["g", "a", "3"]),
]


def summary(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)

    def pick(q: float) -> float:
        return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]

    return {
        "n": len(values),
        "median": round(statistics.median(values), 3),
        "p99": round(pick(0.99), 3),
        "max": round(max(values), 3),
        "min": round(min(values), 3),
    }


def type_entry(page, keys: list[str], rng: random.Random) -> None:
    """The keys of one entry spread over 3–10 s, as a scorer types while watching the field."""
    total = rng.uniform(3.0, 10.0)
    gaps = [rng.random() + 0.2 for _ in keys[1:]]
    scale = total / sum(gaps) if gaps else 0
    page.keyboard.press(keys[0])
    for key, gap in zip(keys[1:], gaps, strict=True):
        time.sleep(gap * scale)
        page.keyboard.press(key)


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--stoppages", type=int, default=16)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)

    from playwright.sync_api import sync_playwright

    tmp = Path(tempfile.mkdtemp(prefix="bench-chukker-"))
    server = ServerProcess(tmp, "bench-chukker").start()
    try:
        match_id = int(server.manage("shell", "-c", FRESH_MATCH).split()[-1])
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            pages = {}
            for name, user, path in (
                ("scorer", "scorer", "scorer/"),
                ("tablet", "umpire1", "referee/"),
                ("scoreboard", None, ""),
            ):
                context = browser.new_context(viewport={"width": 1280, "height": 800})
                if user:
                    client = server.client()
                    client.login(user, PASSWORD)
                    context.add_cookies(client.session_cookies())
                page = context.new_page()
                page.goto(f"{server.url}/matches/{match_id}/{path}")
                page.wait_for_function(
                    "() => window.PoloLive && PoloLive.instances.length && PoloLive.instances[0].state"
                )
                if user:
                    page.wait_for_selector('#conn[data-status="live"]')
                if name == "scorer":
                    page.evaluate(KEYS, PERIOD)
                else:
                    page.evaluate(WATCH)
                pages[name] = page
            scorer = pages["scorer"]

            def wait_running(want: bool) -> None:
                scorer.wait_for_function(
                    "(w) => !!PoloLive.instances[0].state.clock.running === w", arg=want, timeout=30_000
                )

            # The plan: the stoppages and two abandoned entries spread over seven minutes of play.
            kinds = [ENTRIES[i % len(ENTRIES)] for i in range(args.stoppages)]
            abandon_at = {args.stoppages // 3, 2 * args.stoppages // 3}
            play_gap = PERIOD / (args.stoppages + 1)
            entries = []  # (kind, index of its first key in __keys, abandoned, keys typed)
            scorer.keyboard.press("Space")
            wait_running(True)
            for i, (kind, keys) in enumerate(kinds):
                time.sleep(rng.uniform(0.6, 1.2) * play_gap * (0.8 if i in abandon_at else 1.0))
                if i in abandon_at:  # begun, then abandoned: the clock must not lose those seconds
                    first = scorer.evaluate("() => window.__keys.length")
                    scorer.keyboard.press(keys[0])
                    time.sleep(rng.uniform(1.5, 3.0))
                    scorer.keyboard.press("Escape")
                    entries.append((kind, first, True, 2))
                    wait_running(True)
                    time.sleep(rng.uniform(0.2, 0.4) * play_gap)
                first = scorer.evaluate("() => window.__keys.length")
                type_entry(scorer, keys, rng)
                entries.append((kind, first, False, len(keys)))
                scorer.wait_for_function("() => PoloLive.instances[0].state.status === 'stopped'", timeout=30_000)
                time.sleep(rng.uniform(1.0, 3.0))  # the restart is set up
                scorer.keyboard.press("Space")
                wait_running(True)
            # Play on until the seven-minute horn.
            scorer.wait_for_function("() => window.__seven !== null", timeout=int(PERIOD * 1000))
            time.sleep(1.5)
            keys = scorer.evaluate("() => window.__keys")
            seven_local = scorer.evaluate("() => window.__seven")
            stops = {name: pages[name].evaluate("() => window.__stops") for name in ("tablet", "scoreboard")}
            browser.close()
        with urllib.request.urlopen(f"{server.url}/api/matches/{match_id}/events?since=0") as answer:
            log = json.load(answer)["events"]
    finally:
        server.close()

    # Real play: from each Space to the next first key of an entry that was not abandoned.
    spaces = [k["t"] for k in keys if k["key"] == " "]
    firsts = [keys[i] for kind, i, abandoned, _n in entries if not abandoned]
    intervals = [(start, stop["t"]) for start, stop in zip(spaces, firsts, strict=False)]
    last_play = spaces[len(firsts)]

    def real_play_at(t_ms: float) -> float:
        done = sum(b - a for a, b in intervals if b <= t_ms)
        return (done + max(0.0, t_ms - last_play)) / 1000.0

    stoppage_types = {"goal", "foul", "ball_out", "whistle", "restart_violation"}
    recorded = [e for e in log if e["type"] in stoppage_types]
    clock_errors = [round(e["event"]["clock"] - k["clock"], 3) for e, k in zip(recorded, firsts, strict=False)]
    horn = next((e for e in log if e["type"] == "horn" and e["event"].get("kind") == "seven"), None)
    seven_server = horn["event"].get("server_time") if horn else None

    def lag_ms(name: str) -> list[float]:
        out = []
        for k in firsts:
            later = [t for t in stops[name] if t >= k["t"] - 50]
            if later:
                out.append(later[0] - k["t"])
        return out

    result = {
        "benchmark": "chukker",
        "python": platform.python_version(),
        "seed": args.seed,
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "stoppages": len(firsts),
        "abandoned": sum(1 for e in entries if e[2]),
        "recorded_clock_minus_first_key_s": summary([abs(x) for x in clock_errors]),
        "real_play_at_seven_on_scorer_screen_s": round(real_play_at(seven_local), 3),
        "real_play_at_seven_logged_by_server_s": round(real_play_at(seven_server * 1000), 3) if seven_server else None,
        "first_key_to_stopped_on_tablet_ms": summary(lag_ms("tablet")),
        "first_key_to_stopped_on_scoreboard_ms": summary(lag_ms("scoreboard")),
        "clock_errors_s": clock_errors,
        "entries_typed_s": [round((keys[i + n - 1]["t"] - keys[i]["t"]) / 1000, 1) for _, i, a, n in entries if not a],
    }
    print(f"stoppages {result['stoppages']} (+{result['abandoned']} abandoned), load average {result['load_average']}")
    print(f"recorded clock − clock at first key (s): {result['recorded_clock_minus_first_key_s']}")
    print(f"real play when the scorer's clock reached 7:00: {result['real_play_at_seven_on_scorer_screen_s']} s")
    print(f"real play when the server logged the 7:00 horn: {result['real_play_at_seven_logged_by_server_s']} s")
    print(f"first key → clock stopped on the tablet (ms): {result['first_key_to_stopped_on_tablet_ms']}")
    print(f"first key → clock stopped on the scoreboard (ms): {result['first_key_to_stopped_on_scoreboard_ms']}")
    RESULTS.write_text(json.dumps(result, indent=2) + "\n")
    print(f"written to {RESULTS}")
    return result


if __name__ == "__main__":
    main()
