"""How fast the officials' and the public's screens show what the scorer logs, in a real browser.

    python bench/bench_screens.py [--events 40] [--pause 0.3]

Plain script, not a test. It starts its own server (``polo.testing.ServerProcess``: uvicorn, a
fresh database, the demo loaded, a fresh match of the demo's teams and officials) and drives
Debian's Chromium with Playwright: the scorer's laptop (logged in as ``scorer``), the umpire's
tablet (``umpire1``) and the public scoreboard, each a page of its own. The scorer logs a run of
events with the keyboard alone — Space (play), then a goal (G, team, number), then Space for the
throw-in after it, and so on — and each page stamps, with the machine's clock (``Date.now()``),
the moment the event appears on it:

- the scorer's laptop: the key that completes the event → the event in the scorer's own log with
  its sequence number (sent, validated by the rules service, recorded, answered, drawn);
- the umpire's tablet: the same key → the event in the tablet's log (pushed over its websocket);
- the public scoreboard: the key that completes a goal → the new score on the scoreboard.

Prints a table (median, p95, max per screen) and writes ``bench/results/screens.json``.
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
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE_DIR))

from polo.testing import CHROMIUM, CHROMIUM_ARGS, ServerProcess  # noqa: E402

RESULTS = BASE_DIR / "bench" / "results" / "screens.json"
PASSWORD = "polo-demo"

FRESH_MATCH = """
from matches.models import Match
demo = Match.objects.filter(last_seq__gt=0).order_by("starts_at", "pk").first()
new = Match.objects.create(tournament=demo.tournament, field=demo.field, starts_at=demo.starts_at,
                           home=demo.home, away=demo.away, periods=demo.periods, scorer=demo.scorer,
                           referee=demo.referee)
new.umpires.set(demo.umpires.all())
print(new.pk)
"""

# Every page stamps when an event with a sequence number first appears, and the scoreboard when
# its score changes; the scorer's page stamps each key it receives.
STAMPS = """() => {
  window.__seen = {}; window.__scores = []; window.__lastKey = null;
  document.addEventListener("keydown", () => { window.__lastKey = Date.now(); }, true);
  const look = () => {
    const now = Date.now();
    for (const el of document.querySelectorAll("[data-seq]")) {
      if (!(el.dataset.seq in window.__seen)) window.__seen[el.dataset.seq] = now;
    }
    const h = document.querySelector('[data-role="score-home"]');
    const a = document.querySelector('[data-role="score-away"]');
    if (h && a) {
      const score = h.textContent + "-" + a.textContent, last = window.__scores[window.__scores.length - 1];
      if (!last || last[1] !== score) window.__scores.push([now, score]);
    }
  };
  new MutationObserver(look).observe(document.body, {subtree: true, childList: true, characterData: true,
                                                     attributes: true, attributeFilter: ["data-seq"]});
  look();
}"""


def summary(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return {
        "n": len(values),
        "median_ms": round(statistics.median(values), 1),
        "p95_ms": round(p95, 1),
        "max_ms": round(max(values), 1),
    }


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=40)
    parser.add_argument("--pause", type=float, default=0.3, help="seconds between events")
    args = parser.parse_args(argv)

    from playwright.sync_api import sync_playwright

    tmp = Path(tempfile.mkdtemp(prefix="bench-screens-"))
    server = ServerProcess(tmp, "bench-screens").start()
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
                if user:
                    page.wait_for_selector('#conn[data-status="live"]')
                page.evaluate(STAMPS)
                pages[name] = page
            time.sleep(1.0)  # the scoreboard's socket settles too
            scorer = pages["scorer"]
            rows = []
            goals = {"home": 0, "away": 0}
            seq = 0
            for n in range(1, args.events + 1):
                if n % 2:
                    keys, goal = ["Space"], None
                    seq += 1
                else:
                    team = "home" if n % 4 == 2 else "away"
                    keys, goal = ["g", team[0], "1"], team
                    seq += 2  # the goal's first key holds the clock (a ``hold``, not listed), then the goal
                for key in keys:
                    scorer.keyboard.press(key)
                for page in pages.values() if goal else (pages["scorer"], pages["tablet"]):
                    if page is pages["scoreboard"]:
                        goals[goal] += 1
                        want = f"{goals['home']}-{goals['away']}"
                        page.wait_for_function(
                            "(s) => window.__scores.some(([, v]) => v.replace(/\\s/g, '') === s)",
                            arg=want,
                            timeout=10_000,
                        )
                    else:
                        page.wait_for_function("(n) => String(n) in window.__seen", arg=seq, timeout=10_000)
                key_at = scorer.evaluate("() => window.__lastKey")
                row = {
                    "seq": seq,
                    "type": "goal" if goal else "play",
                    "scorer_ms": scorer.evaluate("(n) => window.__seen[n]", seq) - key_at,
                    "tablet_ms": pages["tablet"].evaluate("(n) => window.__seen[n]", seq) - key_at,
                }
                if goal:
                    want = f"{goals['home']}-{goals['away']}"
                    shown = pages["scoreboard"].evaluate(
                        "(s) => window.__scores.find(([, v]) => v.replace(/\\s/g, '') === s)[0]", want
                    )
                    row["scoreboard_ms"] = shown - key_at
                rows.append(row)
                time.sleep(args.pause)
            browser.close()
    finally:
        server.close()

    result = {
        "benchmark": "screens",
        "python": platform.python_version(),
        "events": args.events,
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "scorer_key_to_own_log": summary([r["scorer_ms"] for r in rows]),
        "scorer_key_to_tablet": summary([r["tablet_ms"] for r in rows]),
        "scorer_key_to_scoreboard_goal": summary([r["scoreboard_ms"] for r in rows if "scoreboard_ms" in r]),
        "rows": rows,
    }
    print(f"{'screen':34} {'n':>4} {'median ms':>10} {'p95 ms':>8} {'max ms':>8}")
    for key in ("scorer_key_to_own_log", "scorer_key_to_tablet", "scorer_key_to_scoreboard_goal"):
        s = result[key]
        print(f"{key:34} {s['n']:>4} {s['median_ms']:>10} {s['p95_ms']:>8} {s['max_ms']:>8}")
    print(f"load average {result['load_average']}")
    RESULTS.write_text(json.dumps(result, indent=2) + "\n")
    print(f"written to {RESULTS}")
    return result


if __name__ == "__main__":
    main()
