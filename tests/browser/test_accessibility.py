"""axe-core (4.12, bundled by axe-playwright-python) on every public page and every official's
page, in a real Chromium: no serious or critical violation (issue 12, item 6).

Each page is its own test, so a failure names the page; its message lists each violation as
``rule (impact): selector — what axe says``. The public pages are also checked in the phases whose
screens differ most (before the throw-in, the shootout, its result), with 30-character names.
"""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe

from .committee_browser import TIED_MATCH, shell
from .live_helpers import demo_match_id, tournament_id
from .officials_helpers import log_in
from .phases import phase_matches
from .screens import LONG_NAMES, settle

# What Chromium draws from the demo's data: the same on either backend (CI runs it once, conftest.py).
pytestmark = [pytest.mark.browser, pytest.mark.backend_independent]

AXE = Axe()
BLOCKING = ("serious", "critical")
# The phases whose screens add the most (handicap goals before the throw-in, the shootout's rows,
# the result line); the overflow test walks every phase.
PHASES = ("scheduled", "shootout", "final_shootout")


# An entry and a roster line of the demo match (the committee's page of each).
DEMO_RECORDS = """
from matches.models import Match
m = Match.objects.get(pk={match})
print("RECORDS", m.home_id, m.home.roster.order_by("pk").first().pk)
"""


def _demo_records(server, match_id: int) -> dict[str, int]:
    out = server.manage("shell", "-c", DEMO_RECORDS.format(match=match_id))
    entry, line = (int(x) for x in out.split("RECORDS", 1)[1].split()[:2])
    return {"entry": entry, "line": line}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    from polo.testing import ServerProcess

    server = ServerProcess(tmp_path_factory.mktemp("a11y"), "a11y").start()
    server.ids = {"match": demo_match_id(server)}
    server.ids["tournament"] = tournament_id(server, server.ids["match"])
    server.ids["tied"] = shell(server, TIED_MATCH.format(goals=1))
    for phase, match_id in phase_matches(server, PHASES, **LONG_NAMES).items():
        server.ids[phase] = match_id
    server.ids["phases_tournament"] = tournament_id(server, server.ids["shootout"])
    server.ids.update(_demo_records(server, server.ids["match"]))
    yield server
    server.close()


@pytest.fixture(scope="module")
def pages(server, browser):
    """One browser context per user (None: the public), opened on first use."""
    contexts: dict = {}

    def page_of(user: str | None):
        if user not in contexts:
            context = browser.new_context(viewport={"width": 1280, "height": 800})
            if user:
                log_in(context, server, user)
            contexts[user] = (context, context.new_page())
        return contexts[user][1]

    yield page_of
    for context, _ in contexts.values():
        context.close()


# (name, user, path): {m} the demo match, {t} its tournament, {<phase>} a match in that phase,
# {pt} the phases' tournament, {tied} a tied match of the demo tournament.
PUBLIC = [
    ("home", None, "/"),
    ("scoreboard", None, "/matches/{m}/"),
    ("scoreboard_tv", None, "/matches/{m}/?tv=1"),
    ("overlay", None, "/matches/{m}/overlay/"),
    ("overlay_builder", None, "/matches/{m}/overlay/builder/"),
    ("tournament_live", None, "/tournaments/{t}/live/"),
    ("start_match", None, "/matches/{m}/start/"),
    ("start_day", None, "/tournaments/{t}/start/"),
    ("play_by_play", None, "/matches/{m}/play-by-play/"),
    ("tournament_live_phases", None, "/tournaments/{pt}/live/"),
    *[(f"scoreboard_{p}", None, f"/matches/{{{p}}}/") for p in PHASES],
    *[(f"scoreboard_tv_{p}", None, f"/matches/{{{p}}}/?tv=1") for p in PHASES],
    *[(f"overlay_{p}", None, f"/matches/{{{p}}}/overlay/") for p in PHASES],
    ("play_by_play_final_shootout", None, "/matches/{final_shootout}/play-by-play/"),
    ("match_stats", None, "/matches/{m}/stats/"),
    ("tournament_stats", None, "/tournaments/{t}/stats/"),
    ("help", None, "/help/"),
    *[(f"help_{role}", None, f"/help/{role}/") for role in ("steward", "scorer", "umpire", "committee", "streamer")],
    ("login", None, "/accounts/login/"),
]
OFFICIALS = [
    ("scorer", "scorer", "/matches/{m}/scorer/"),
    ("referee_tablet", "umpire1", "/matches/{m}/referee/"),
    ("committee_home", "committee", "/committee/"),
    ("committee_day", "committee", "/committee/day/"),
    ("committee_availability", "committee", "/committee/availability/"),
    ("committee_tournament", "committee", "/committee/tournaments/{t}/"),
    ("committee_match", "committee", "/committee/matches/{m}/"),
    ("committee_match_tied", "committee", "/committee/matches/{tied}/"),
    ("committee_shootout", "committee", "/committee/matches/{tied}/shootout/"),
    ("committee_report", "committee", "/committee/matches/{m}/report/"),
    ("committee_standings", "committee", "/committee/tournaments/{t}/standings/"),
    ("committee_bracket", "committee", "/committee/tournaments/{t}/bracket/"),
    ("committee_tournament_form", "committee", "/committee/tournaments/new/"),
    ("committee_tournament_edit", "committee", "/committee/tournaments/{t}/edit/"),
    ("committee_entry_form", "committee", "/committee/tournaments/{t}/entries/new/"),
    ("committee_match_form", "committee", "/committee/tournaments/{t}/matches/new/"),
    ("committee_match_edit", "committee", "/committee/matches/{m}/edit/"),
    ("committee_field_form", "committee", "/committee/fields/new/"),
    ("committee_entry", "committee", "/committee/entries/{entry}/"),
    ("committee_roster_line", "committee", "/committee/roster/{line}/"),
    ("committee_match_stats", "committee", "/committee/matches/{m}/stats/"),
    ("committee_uspa_sheet", "committee", "/committee/matches/{m}/uspa-sheet/"),
    ("committee_match_awards", "committee", "/committee/matches/{m}/awards/"),
    ("committee_tournament_awards", "committee", "/committee/tournaments/{t}/awards/"),
    ("committee_webhooks", "committee", "/committee/webhooks/"),
    ("committee_lockouts", "committee", "/committee/lockouts/"),
]


def violations(page) -> list[str]:
    results = AXE.run(page)
    return [
        f"{v['id']} ({v['impact']}): {' '.join(map(str, node['target']))} — {v['help']}"
        for v in results.response["violations"]
        if v["impact"] in BLOCKING
        for node in v["nodes"]
    ]


@pytest.mark.parametrize(("name", "user", "path"), PUBLIC + OFFICIALS, ids=[n for n, _, _ in PUBLIC + OFFICIALS])
def test_no_serious_accessibility_violation(server, pages, name, user, path):
    ids = server.ids
    page = pages(user)
    address = path.format(m=ids["match"], t=ids["tournament"], pt=ids["phases_tournament"], **ids)
    answer = page.goto(server.url + address, wait_until="domcontentloaded")
    assert answer is not None and answer.status == 200, f"{address}: {answer and answer.status}"
    settle(page)
    found = violations(page)
    assert not found, f"{name} ({address}):\n" + "\n".join(found)


def test_the_check_finds_a_serious_violation(server, pages):
    """The check can fail: an image without a text alternative and an unnamed button are serious."""
    page = pages(None)
    page.goto(server.url + "/help/")
    page.evaluate("""() => {
      const img = document.createElement('img'); img.src = '/static/favicon.svg'; document.body.append(img);
      const button = document.createElement('button'); document.body.append(button);
    }""")
    found = violations(page)
    assert any(v.startswith("image-alt") for v in found) and any(v.startswith("button-name") for v in found)
