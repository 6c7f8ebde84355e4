"""Every public page holds at a phone's width (390 px), a tablet's (1024 px) and a TV's (1920 px), in
English and Spanish, through every phase of a match, with 30-character team names: nothing sticks out
of the viewport sideways and no text is cut (issue 12, items 4 and 6); the TV layout is one screen,
nothing below its bottom (issue 38).

One browser context per width and language; each test walks one page through the phases
(``tests/browser/phases.py``), so a failure names the page, the width and the language, and lists
each phase with what overflows or is clipped (a CSS-like path to the element, and its text).
The TV layout (``?tv=1``) is checked at the tablet's and the TV's widths: a phone never gets it.
"""

from __future__ import annotations

import pytest

from .live_helpers import tournament_id
from .phases import PHASES, phase_matches
from .screens import HEIGHTS, LANGUAGES, LONG_NAMES, PUBLIC_PER_DAY, PUBLIC_PER_MATCH, WIDTHS, new_context, settle, url

# What Chromium draws from the demo's data: the same on either backend (CI runs it once, conftest.py).
pytestmark = [pytest.mark.browser, pytest.mark.backend_independent]

# What overflows or is cut, as a list of "path: what (text)". An element counts when it is shown
# (not hidden, not transparent) and bigger than a pixel (the visually-hidden labels of screen
# readers are 1 px on purpose); inside a container that scrolls sideways on purpose
# (overflow-x: auto/scroll), only the container counts.
PROBLEMS = r"""() => {
  const vw = document.documentElement.clientWidth, out = [];
  const path = (el) => {
    const parts = [];
    for (let e = el; e && e !== document.body && parts.length < 4; e = e.parentElement) {
      let p = e.tagName.toLowerCase();
      if (e.id) { parts.unshift(p + '#' + e.id); break; }
      if (e.classList.length) p += '.' + Array.from(e.classList).slice(0, 2).join('.');
      const role = e.getAttribute('data-role') || e.getAttribute('data-part');
      if (role) p += '[' + role + ']';
      parts.unshift(p);
    }
    return parts.join(' > ');
  };
  const text = (el) => (el.innerText || el.textContent || '').trim().replace(/\s+/g, ' ').slice(0, 50);
  if (document.documentElement.scrollWidth > vw + 1) {
    out.push(`the page scrolls sideways: ${document.documentElement.scrollWidth}px wide in ${vw}px`);
  }
  const contained = (el) => {
    for (let e = el.parentElement; e && e !== document.body; e = e.parentElement) {
      const s = getComputedStyle(e);
      if (['auto', 'scroll', 'hidden', 'clip'].includes(s.overflowX)) return true;
    }
    return false;
  };
  const reported = new Set();  // only the outermost element that overflows: its children go with it
  const insideReported = (el) => {
    for (let e = el.parentElement; e; e = e.parentElement) if (reported.has(e)) return true;
    return false;
  };
  for (const el of document.body.querySelectorAll('*')) {
    if (!el.checkVisibility({opacityProperty: true, visibilityProperty: true})) continue;
    if (el.closest('svg') && el.tagName.toLowerCase() !== 'svg') continue;  // drawn, not laid out
    const r = el.getBoundingClientRect();
    if (r.width <= 1 || r.height <= 1) continue;
    const s = getComputedStyle(el);
    if ((r.right > vw + 1 || r.left < -1) && !contained(el) && !insideReported(el)) {
      reported.add(el);
      out.push(`${path(el)}: from ${Math.round(r.left)} to ${Math.round(r.right)}px in ${vw}px (${text(el)})`);
    }
    const words = text(el);
    if (!words || el.clientWidth <= 1 || el.clientHeight <= 1) continue;
    const clipsX = ['hidden', 'clip'].includes(s.overflowX) || s.textOverflow === 'ellipsis';
    const clipsY = ['hidden', 'clip'].includes(s.overflowY);
    if (clipsX && el.scrollWidth > el.clientWidth + 1) {
      out.push(`${path(el)}: text cut, ${el.scrollWidth}px in ${el.clientWidth}px (${words})`);
    } else if (clipsY && el.scrollHeight > el.clientHeight + 1) {
      out.push(`${path(el)}: text cut, ${el.scrollHeight}px high in ${el.clientHeight}px (${words})`);
    }
  }
  return out;
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    from polo.testing import ServerProcess

    server = ServerProcess(tmp_path_factory.mktemp("overflow"), "overflow").start()
    server.phases = phase_matches(server, **LONG_NAMES)
    server.tournament = tournament_id(server, server.phases["in_play"])
    yield server
    server.close()


@pytest.fixture(scope="module")
def pages(browser):
    """A page per width and language, kept for the module: the tests navigate it."""
    opened: dict = {}

    def page_at(width: str, lang: str):
        if (width, lang) not in opened:
            context = new_context(browser, width, lang)
            opened[(width, lang)] = (context, context.new_page())
        return opened[(width, lang)][1]

    yield page_at
    for context, _ in opened.values():
        context.close()


def problems(page, address: str) -> list[str]:
    answer = page.goto(address, wait_until="domcontentloaded")  # module scripts have run by then
    assert answer is not None and answer.status == 200, f"{address}: {answer and answer.status}"
    settle(page)
    return page.evaluate(PROBLEMS)


# The box score of each match (not live, but a phone opens it from the scoreboard; issue 38).
PUBLIC_PER_MATCH_STILL = {"box_score": "/matches/{m}/stats/"}

# The public pages that show no match: the help and each role's guide (with its pictures), the login.
PUBLIC_OTHER = {
    "help": "/help/",
    **{f"help_{role}": f"/help/{role}/" for role in ("steward", "scorer", "umpire", "committee", "streamer")},
    "login": "/accounts/login/",
}

CASES = [
    (name, width, lang)
    for name in [*PUBLIC_PER_MATCH, *PUBLIC_PER_MATCH_STILL, *PUBLIC_PER_DAY, *PUBLIC_OTHER]
    for width in WIDTHS
    for lang in LANGUAGES
    if not (name == "tv" and width == "phone")
]


@pytest.mark.parametrize(("name", "width", "lang"), CASES, ids=[f"{n}-{w}-{lang}" for n, w, lang in CASES])
def test_nothing_overflows_and_no_text_is_cut(server, pages, name, width, lang):
    page = pages(width, lang)
    found = []
    per_match = {**PUBLIC_PER_MATCH, **PUBLIC_PER_MATCH_STILL}
    if name in per_match:
        for phase in PHASES:
            address = server.url + url(per_match[name], server.phases[phase], server.tournament)
            found += [f"{phase}: {p}" for p in problems(page, address)]
            tall = page.evaluate("() => document.documentElement.scrollHeight")
            if name == "tv" and tall > HEIGHTS[width]:  # the TV is one screen: nothing below it (issue 38)
                found.append(f"{phase}: the TV layout is {tall}px high on a {HEIGHTS[width]}px screen")
    else:
        pattern = PUBLIC_PER_DAY.get(name) or PUBLIC_OTHER[name]
        address = server.url + url(pattern, server.phases["in_play"], server.tournament)
        found += problems(page, address)
    assert not found, f"{name} at {WIDTHS[width]} px in {lang}:\n" + "\n".join(found[:40])


def test_the_check_finds_an_overflow_and_cut_text(server, pages):
    page = pages("phone", "en")
    page.goto(server.url + "/help/")
    # Styles set through the CSSOM (the Content-Security-Policy forbids style attributes, not this).
    page.evaluate("""() => {
      const wide = document.createElement('p'); wide.textContent = 'wide'; wide.className = 'probe-wide';
      wide.style.width = '600px'; document.body.append(wide);
      const cut = document.createElement('p'); cut.textContent = 'Ellerstina Piaget Red Veterans'.repeat(3);
      cut.className = 'probe-cut'; document.body.append(cut);
      Object.assign(cut.style, {width: '80px', overflow: 'hidden', whiteSpace: 'nowrap'});
    }""")
    found = page.evaluate(PROBLEMS)
    assert any(p.startswith("p.probe-wide:") for p in found), found
    assert any(p.startswith("p.probe-cut: text cut") for p in found), found
