"""The official clock on two screens: both run it locally from the synced server time, and they
agree with each other and with the server within 100 ms — even when one device's own clock is off
by seconds (the NTP-style offset corrects it).

How it is measured: each page returns, in one evaluate, its reading of the clock and the real wall
time at which it read it; every reading is carried to one common instant T (a running clock gains
exactly T - t) and compared there, so the test's own scheduling jitter drops out. The server's
clock at T is ``elapsed + (T - anchor)`` from its state. Browser and server share the machine's
wall clock, which is what makes T comparable across them.
"""
from __future__ import annotations

import pytest

from .live_helpers import LIVE, PageWatch, ensure_in_play, state, wait_live

pytestmark = pytest.mark.browser

SKEW_SECONDS = 5.0  # the second device's clock runs 5 s fast
SKEWED_CLOCK = """
  (() => {
    const realNow = Date.now.bind(Date);
    window.__realNow = realNow;
    Date.now = () => realNow() + %d;
  })();
""" % int(SKEW_SECONDS * 1000)
READ = f"""() => {{
  const real = window.__realNow ? window.__realNow() : Date.now();
  const live = {LIVE};
  return {{t: real / 1000, clock: live.clockElapsed(), serverNow: live.serverNow(), samples: live.samples.length}};
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


def test_two_pages_show_the_same_clock_within_100_ms(live_server_proc, browser, match_id, official):
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
            assert abs(at_instant[0] - at_instant[1]) < 0.100, (at_instant, readings)
            for value in at_instant:
                assert abs(value - truth) < 0.100, (value, truth)
            # The skewed device's own clock is 5 s off; its server time is not.
            skewed = readings[1]
            assert abs(skewed["serverNow"] - (skewed["t"])) < 0.100
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
    elapsed, shown = page.evaluate(
        f"() => [{LIVE}.clockElapsed(), document.querySelector('#scoreboard [data-role=clock]').textContent]")
    minutes, _, seconds = shown.lstrip("+").partition(":")
    value = int(minutes) * 60 + int(seconds)
    if elapsed < 420:  # time left in the chukker, counting down to the seven-minute horn
        assert not shown.startswith("+") and abs(value - (420 - elapsed)) <= 1, (shown, elapsed)
    else:  # then the extra time, counting up to the double horn
        assert shown.startswith("+") and abs(value - (elapsed - 420)) <= 1, (shown, elapsed)
    assert watch.problems() == []
