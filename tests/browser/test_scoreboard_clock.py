"""The official clock on two screens: both run it locally from the synced server time, and they
agree with each other and with the server — even when one device's own clock is off by seconds
(the NTP-style offset corrects it).

How it is measured: each page returns, in one evaluate, its reading of the clock and the real wall
time at which it read it; every reading is carried to one common instant T (a running clock gains
exactly T - t) and compared there, so the test's own scheduling jitter drops out. The server's
clock at T is ``elapsed + (T - anchor)`` from its state. Browser and server share the machine's
wall clock, which is what makes T comparable across them.

How close is close enough is not a fixed window: a page's server time is its own clock plus the
offset of its best ping, and NTP's arithmetic bounds that offset's error by half the ping's round
trip (the server answered somewhere inside it). So each page must be within half its best round
trip (and a clock tick of rounding, and half the time its own reading took: a loaded machine can
pause the page between reading its time and its clock) of the truth, and the two pages within the
sum of theirs — however slow a loaded machine makes the round trips, the bound is the pages' own.
"""

from __future__ import annotations

import pytest

from .live_helpers import LIVE, PageWatch, ensure_in_play, state, wait_live

pytestmark = pytest.mark.browser

SKEW_SECONDS = 5.0  # the second device's clock runs 5 s fast
TICK = 0.003  # Date.now() counts whole milliseconds: a reading, a send time and a receive time
SKEWED_CLOCK = f"""
  (() => {{
    const realNow = Date.now.bind(Date);
    window.__realNow = realNow;
    Date.now = () => realNow() + {int(SKEW_SECONDS * 1000)};
  }})();
"""
# The page's real time is read before and after its clock: on a loaded machine the renderer can be
# paused between two lines, so the reading is of an instant inside that window (``spread``, half
# of it, widens the bound as much; usually 0).
READ = f"""() => {{
  const realNow = window.__realNow || Date.now;
  const live = {LIVE};
  const before = realNow();
  const clock = live.clockElapsed(), serverNow = live.serverNow();
  const after = realNow();
  return {{t: (before + after) / 2000, spread: (after - before) / 2000, clock, serverNow,
           samples: live.samples.length, rtt: live.rtt}};
}}"""


def open_page(browser, url: str, skewed: bool):
    context = browser.new_context()
    page = context.new_page()
    if skewed:
        page.add_init_script(SKEWED_CLOCK)
    watch = PageWatch(page)
    page.goto(url)
    wait_live(page)
    page.wait_for_function(f"() => {LIVE}.samples.length >= 3", timeout=5000)  # the first ping burst
    return context, page, watch


def test_two_pages_show_the_same_clock_as_the_server(live_server_proc, browser, match_id, official):
    ensure_in_play(official, match_id)
    url = f"{live_server_proc.url}/matches/{match_id}/"
    opened = [open_page(browser, url, skewed=False), open_page(browser, url, skewed=True)]
    try:
        pages = [page for _, page, _ in opened]
        server = state(live_server_proc, match_id)
        clock = server["state"]["clock"]
        assert clock["running"] and clock.get("anchor") is not None
        for _ in range(5):
            readings = [page.evaluate(READ) for page in pages]
            instant = max(r["t"] for r in readings)
            at_instant = [r["clock"] + (instant - r["t"]) for r in readings]
            truth = clock["elapsed"] + (instant - clock["anchor"])
            # Each page's own sync uncertainty, and its reading's window.
            bounds = [r["rtt"] / 2 + TICK + r["spread"] for r in readings]
            assert abs(at_instant[0] - at_instant[1]) <= bounds[0] + bounds[1], (at_instant, readings)
            for value, bound in zip(at_instant, bounds, strict=True):
                assert abs(value - truth) <= bound, (value, truth, bound)
            # The skewed device's own clock is 5 s off; its server time is not.
            skewed = readings[1]
            assert bounds[1] < SKEW_SECONDS / 2, readings  # the sync is fine enough to tell
            assert abs(skewed["serverNow"] - skewed["t"]) <= bounds[1]
        for _, _, watch in opened:
            assert watch.problems() == []
    finally:
        for context, _, _ in opened:
            context.close()


def test_the_displayed_clock_counts_down_the_chukker(live_server_proc, page, match_id, official):
    watch = PageWatch(page)
    ensure_in_play(official, match_id)
    page.goto(f"{live_server_proc.url}/matches/{match_id}/")
    wait_live(page)
    # Read in one task: the clock shown was drawn at its last whole second (``live.js`` ticks
    # there), so it is the clock read, rounded as the screen rounds it, give or take a second.
    elapsed, shown, regular = page.evaluate(f"""() => new Promise((done) => requestAnimationFrame(() => done([
        {LIVE}.clockElapsed(), document.querySelector('#scoreboard [data-role=clock]').textContent,
        {LIVE}.state.clock.regular_seconds])))""")
    minutes, _, seconds = shown.lstrip("+").partition(":")
    value = int(minutes) * 60 + int(seconds)
    if elapsed < regular:  # time left in the chukker, counting down to the seven-minute horn
        assert not shown.startswith("+") and abs(value - (regular - elapsed)) <= 1, (shown, elapsed)
    else:  # then the extra time, counting up to the double horn
        assert shown.startswith("+") and abs(value - (elapsed - regular)) <= 1, (shown, elapsed)
    assert watch.problems() == []


# Counts the animation frames the page's own scripts ask for (from before they load).
COUNT_FRAMES = """
  window.__frames = 0;
  const ask = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = (callback) => { window.__frames += 1; return ask(callback); };
"""


def test_a_running_clock_is_redrawn_at_its_own_pace_not_on_every_animation_frame(
    live_server_proc, page, match_id, official
):
    """The clock changes once a second: the page redraws it then (and at least every 100 ms for
    the officials' timers), without asking the browser for a frame 60 times a second — which kept a
    phone's screen busy for a whole match (measured: about a tenth of a core per open scoreboard)."""
    watch = PageWatch(page)
    ensure_in_play(official, match_id)
    page.add_init_script(COUNT_FRAMES)
    page.goto(f"{live_server_proc.url}/matches/{match_id}/")
    # Waits poll on a timer here (polling=50), not on animation frames.
    page.wait_for_function(f"() => window.PoloLive && {LIVE} && {LIVE}.status === 'live' && {LIVE}.state", polling=50)
    assert page.evaluate(f"{LIVE}.state.clock.running")
    ticks, frames = page.evaluate(f"[{LIVE}.ticks, window.__frames]")
    clock = page.locator('#scoreboard [data-role="clock"]')
    before = clock.inner_text()
    page.wait_for_function(f"(n) => {LIVE}.ticks >= n", arg=ticks + 20, polling=50, timeout=15_000)
    page.wait_for_function(
        "(t) => document.querySelector('#scoreboard [data-role=clock]').textContent !== t", arg=before, polling=50
    )
    assert page.evaluate("window.__frames") == frames  # twenty redraws and more, no frame asked for
    assert watch.problems() == []
