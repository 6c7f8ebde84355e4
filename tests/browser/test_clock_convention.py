"""One clock convention per screen, always labelled (issue 9, item 6), in Chromium on a private server.

Each test gets a match of its own, stopped by a goal at 1:40 played of a 7-minute chukker (elapsed
100 s, period 420 s): 5:20 left. The public screens (scoreboard, TV, overlay, tournament day) show
time left by default, the committee time played; the clock is always labelled; the scoreboard's
button switches the convention and the choice outlives a reload; ``?clock=`` in the address wins;
the goals table gives each goal's time in the convention of the clock beside it.
"""

from __future__ import annotations

import math

import pytest
from playwright.sync_api import expect

from .committee_browser import PageWatch, log_in, module_server, shell
from .live_helpers import IS_LIVE, page_module, post, scorer

pytestmark = pytest.mark.browser

# A match of the demo's teams and officials, started ten minutes ago; the goal's wall time is 100 s
# after the play's, so the server's own clock puts it at 100 s played (no client stamp needed).
STOPPED_AT_100 = """
import time, uuid
from django.utils import timezone
from matches.models import Match
from matches.services import match_event_log
demo = Match.objects.filter(last_seq__gt=0).order_by("starts_at", "pk").first()
m = Match.objects.create(tournament=demo.tournament, field=demo.field, starts_at=timezone.now(), home=demo.home,
                         away=demo.away, periods=2, scorer=demo.scorer, referee=demo.referee)
m.umpires.set(demo.umpires.all())
t0 = time.time() - 600
for after, event in ((0, {"type": "play"}), (100, {"type": "goal", "team": "home", "number": 1})):
    result = match_event_log(match_id=m.pk, event={"id": str(uuid.uuid4()), **event}, user=None, now=t0 + after)
    assert result.accepted, result.error and result.error.code
assert m.period_seconds == 420
print("MATCH", m.pk)
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from module_server(tmp_path_factory, "clock")


@pytest.fixture
def match_id(server):
    return shell(server, STOPPED_AT_100)


@pytest.fixture
def watch(page):
    watch = PageWatch(page)
    yield watch
    assert watch.problems() == []


def role(page, name: str, within: str = "#scoreboard"):
    return page.locator(f'{within} [data-role="{name}"]')


def first_goal_time(page):
    return page.locator('#scoreboard [data-role="goals"] tr').first.locator("td").nth(1)


def left(seconds: float) -> str:
    s = math.ceil(420 - seconds - 1e-6)
    return f"{s // 60}:{s % 60:02d}"


def played(seconds: float) -> str:
    s = math.floor(seconds + 1e-6)
    return f"{s // 60}:{s % 60:02d}"


def test_the_scoreboard_shows_time_left_labelled_and_its_button_switches_for_good(server, page, watch, match_id):
    url = f"{server.url}/matches/{match_id}/"
    page.goto(url)
    page.wait_for_function(IS_LIVE)
    expect(role(page, "clock")).to_have_text("5:20")
    expect(role(page, "clock-label")).to_have_text("time left")
    expect(role(page, "goals-clock-heading")).to_have_text("Time left")
    expect(first_goal_time(page)).to_have_text("5:20")  # the goal at 1:40 played, beside a clock showing time left
    toggle = role(page, "clock-toggle")
    expect(toggle).to_have_text("Show time played")

    toggle.click()
    expect(role(page, "clock")).to_have_text("1:40")
    expect(role(page, "clock-label")).to_have_text("time played")
    expect(role(page, "goals-clock-heading")).to_have_text("Time played")
    expect(first_goal_time(page)).to_have_text("1:40")
    expect(toggle).to_have_text("Show time left")

    page.reload()  # the choice is this screen's, remembered
    page.wait_for_function(IS_LIVE)
    expect(role(page, "clock-label")).to_have_text("time played")
    expect(role(page, "clock")).to_have_text("1:40")
    expect(first_goal_time(page)).to_have_text("1:40")

    # The address wins over the saved choice; the button then rewrites the address, so a reload keeps it.
    page.goto(url + "?clock=left")
    page.wait_for_function(IS_LIVE)
    expect(role(page, "clock-label")).to_have_text("time left")
    expect(role(page, "clock")).to_have_text("5:20")
    role(page, "clock-toggle").click()
    expect(role(page, "clock-label")).to_have_text("time played")
    assert page.url.endswith("?clock=played")
    page.reload()
    expect(role(page, "clock-label")).to_have_text("time played")

    # The TV layout is a screen of its own: time left until chosen otherwise there.
    page.goto(url + "?tv=1")
    page.wait_for_function(IS_LIVE)
    expect(role(page, "clock-label")).to_have_text("time left")
    expect(role(page, "clock")).to_have_text("5:20")


def test_the_address_picks_time_played(server, page, watch, match_id):
    page.goto(f"{server.url}/matches/{match_id}/?clock=played")
    page.wait_for_function(IS_LIVE)
    expect(role(page, "clock-label")).to_have_text("time played")
    expect(role(page, "clock")).to_have_text("1:40")
    expect(first_goal_time(page)).to_have_text("1:40")
    expect(role(page, "clock-toggle")).to_have_text("Show time left")


def test_a_goal_that_arrives_live_is_listed_in_the_clocks_convention(server, page, watch, match_id):
    page.goto(f"{server.url}/matches/{match_id}/?clock=played")
    page.wait_for_function(IS_LIVE)
    official = scorer(server)
    post(official, match_id, {"type": "play"})
    answer = post(official, match_id, {"type": "goal", "team": "away", "number": 2})
    at = answer["state"]["clock"]["elapsed"]  # a goal stops the clock where it was scored
    rows = page.locator('#scoreboard [data-role="goals"] tr')
    expect(rows).to_have_count(2)
    expect(first_goal_time(page)).to_have_text(played(at))
    expect(role(page, "clock")).to_have_text(played(at))
    role(page, "clock-toggle").click()
    expect(first_goal_time(page)).to_have_text(left(at))
    expect(role(page, "clock")).to_have_text(left(at))
    expect(rows.nth(1).locator("td").nth(1)).to_have_text("5:20")


def test_the_overlay_labels_its_clock_and_takes_the_convention_from_its_address(server, page, watch, match_id):
    page.goto(f"{server.url}/matches/{match_id}/overlay/")
    page.wait_for_function(IS_LIVE)
    expect(role(page, "clock", "#overlay")).to_have_text("5:20")
    expect(role(page, "clock-label", "#overlay")).to_have_text("time left")
    assert page.locator("#overlay button").count() == 0  # no button on a video: the address chooses
    page.goto(f"{server.url}/matches/{match_id}/overlay/?clock=played&lang=es")
    page.wait_for_function(IS_LIVE)
    expect(role(page, "clock", "#overlay")).to_have_text("1:40")
    expect(role(page, "clock-label", "#overlay")).to_have_text("tiempo jugado")


def test_the_tournament_day_labels_each_running_clock(server, page, watch, match_id):
    _, data = server.client().request("GET", f"/api/matches/{match_id}/state")
    page.goto(f"{server.url}/tournaments/{data['match']['tournament']['id']}/live/")
    card = page.locator(f'.tl-match[data-match-id="{match_id}"]')
    expect(card.locator('[data-role="clock"]')).to_have_text("5:20")
    expect(card.locator('[data-role="clock-label"]')).to_have_text("time left")
    page.locator('#tournament-live [data-role="clock-toggle"]').click()
    expect(card.locator('[data-role="clock"]')).to_have_text("1:40")
    expect(card.locator('[data-role="clock-label"]')).to_have_text("time played")


def test_the_committee_page_shows_time_played_labelled(server, context, page, watch, match_id):
    log_in(context, server, "committee")
    page.goto(f"{server.url}/committee/matches/{match_id}/")
    board = "#board"
    expect(role(page, "clock", board)).to_have_text("1:40")
    expect(role(page, "clock-label", board)).to_have_text("time played")
    page.wait_for_function(IS_LIVE)
    role(page, "clock-toggle", board).click()
    expect(role(page, "clock", board)).to_have_text("5:20")
    expect(role(page, "clock-label", board)).to_have_text("time left")
    page.reload()
    expect(role(page, "clock", board)).to_have_text("5:20")
    expect(role(page, "clock-label", board)).to_have_text("time left")


def test_the_scoreboard_speaks_spanish(server, context, page, watch, match_id):
    context.add_cookies([{"name": "django_language", "value": "es", "url": server.url}])
    page.goto(f"{server.url}/matches/{match_id}/")
    page.wait_for_function(IS_LIVE)
    expect(role(page, "clock-label")).to_have_text("tiempo restante")
    expect(role(page, "goals-clock-heading")).to_have_text("Tiempo restante")
    role(page, "clock-toggle").click()
    expect(role(page, "clock-label")).to_have_text("tiempo jugado")
    expect(role(page, "clock-toggle")).to_have_text("Mostrar tiempo restante")


# (elapsed, regular length as given, time left, time played): the convention module's arithmetic,
# the same as a live connection's clockText() for time left.
FORMATS = [
    (100, 420, "5:20", "1:40"),
    (99.5, 420, "5:21", "1:39"),
    (0, 420, "7:00", "0:00"),
    (420, {"regular_seconds": 420}, "0:00", "7:00"),
    (432.4, {"regular_seconds": 420}, "+0:12", "7:12"),
    (450, {"period_seconds": 420}, "+0:30", "7:30"),
    (200, 450, "4:10", "3:20"),
]


def test_the_module_formats_both_conventions_like_the_live_clock(server, page, watch, match_id):
    page.goto(f"{server.url}/matches/{match_id}/")
    page.wait_for_function(IS_LIVE)
    module = page_module("clock-convention.js")
    got = page.evaluate(
        f"""async (rows) => {{
        const convention = await {module};
        return rows.map(([e, info]) => [convention.format(e, info, "left"), convention.format(e, info, "played")]);
    }}""",
        [[e, info] for e, info, _, _ in FORMATS],
    )
    assert got == [[lft, ply] for _, _, lft, ply in FORMATS]
    assert page.evaluate(f'async () => (await {module}).format(null, 420, "left")') == ""
    defaults = page.evaluate(f"""async () => {{
        const convention = await {module};
        const screens = ["scoreboard", "tv", "overlay", "tournament", "scorer", "referee", "committee"];
        return screens.map((s) => convention.get(s));
    }}""")
    assert defaults == ["left"] * 4 + ["played"] * 3
    # On a live connection, time left is exactly what the connection's clockText() shows.
    assert page.evaluate(
        f'async () => (await {module}).clockText(PoloLive.instances[0], "left") === PoloLive.instances[0].clockText()'
    )
