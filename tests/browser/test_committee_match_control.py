"""The committee's match control in a real browser, on a private server (the demo loaded):

- suspending the demo's game in progress (darkness, Rule 21.k) and resuming it later (Rule 22.j):
  the page shows the same score, period, clock and ball position after the resume;
- a shootout from the tie to the winner (Rule 14.d), run by the committee on a laptop while an
  umpire follows it on a tablet: the lot, the format and order, each hit, the line, the winner.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .committee_browser import DEMO_MATCH, TIED_MATCH, PageWatch, log_in, module_server, shell

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from module_server(tmp_path_factory, "committee")


def where_it_stands(page) -> dict[str, str]:
    board = page.locator("#board")
    return {
        role: board.locator(f"[data-role={role}]").inner_text()
        for role in ("score-home", "score-away", "period", "clock", "ball")
    }


def test_suspend_and_resume_keep_score_period_clock_and_ball(server, context, page):
    match_id = shell(server, DEMO_MATCH)
    log_in(context, server, "committee")
    watch = PageWatch(page)
    page.goto(f"{server.url}/committee/matches/{match_id}/")
    status = page.locator("#board [data-role=status]")
    expect(status).to_have_text("Stopped")
    before = where_it_stands(page)
    assert before["period"] == "Chukker 3" and before["ball"] != "in play"

    page.select_option("select[name=reason]", "darkness")
    page.click("[data-action=suspend]")
    expect(status).to_have_text("Suspended")
    expect(page.locator(".message.success")).to_contain_text("The game is suspended (Rule 21.k).")
    assert where_it_stands(page) == before

    page.click("[data-action=resume]")
    expect(status).to_have_text("Stopped")
    expect(page.locator(".message.success")).to_contain_text("same score, period, clock and ball position")
    assert where_it_stands(page) == before
    actions = page.locator("#audit tbody tr").evaluate_all("rows => rows.map(r => r.dataset.action)")
    assert actions[:2] == ["resume", "suspend"]
    assert watch.problems() == []


def test_a_shootout_from_the_tie_to_the_winner(server, browser, context, page):
    match_id = shell(server, TIED_MATCH.format(goals=1))
    log_in(context, server, "committee")
    watch = PageWatch(page)
    page.goto(f"{server.url}/committee/matches/{match_id}/")
    expect(page.locator("#board [data-role=status]")).to_have_text("Tied")
    page.click("text=Shootout >> nth=-1")
    panel = page.locator("#shootout")
    expect(panel.locator("[data-role=panel]")).to_have_attribute("data-status", "tied")

    # The umpire follows on a tablet (touch, its own session).
    tablet = browser.new_context(viewport={"width": 1024, "height": 768}, has_touch=True)
    try:
        log_in(tablet, server, "umpire1")
        umpire = tablet.new_page()
        umpire_watch = PageWatch(umpire)
        umpire.goto(f"{server.url}/committee/matches/{match_id}/shootout/")
        expect(umpire.locator("#shootout")).to_contain_text("Waiting for the committee's decision.")
        umpire.wait_for_function(
            "() => window.PoloLive && PoloLive.instances.length > 0 && PoloLive.instances[0].status === 'live'"
        )

        # 1. The lot: the away captain calls tails; the coin tossed at the field fell heads.
        lot = page.locator("[data-role=lot-form]")
        lot.locator("select[name=caller]").select_option("away")
        lot.locator("select[name=call]").select_option("tails")
        lot.locator("input[name=method][value=entered]").check()
        lot.locator("select[name=result]").select_option("heads")
        lot.locator("[data-action=lot]").click()
        expect(page.locator("[data-role=lot]")).to_contain_text("the coin fell Heads")
        home = page.locator("[data-role=score-home]").locator("xpath=../dt").inner_text()
        away = page.locator("[data-role=score-away]").locator("xpath=../dt").inner_text()

        # 2. One player each; the lot's winner (home) hits first: home #1, away #1.
        start = page.locator("[data-role=start-form]")
        start.locator("input[name=format][value=single]").check()
        expect(start.locator("select[name=first]")).to_have_value("home")
        start.locator("[data-action=start]").click()
        expect(page.locator("[data-role=next]")).to_contain_text(f"{home} #1")
        expect(page.locator("[data-role=line]")).to_have_text("40 yards")
        expect(umpire.locator("[data-role=next]")).to_contain_text(f"{home} #1")  # followed live

        # 3. Round 1 from the forty: both score; round 2 from the sixty: home scores, away misses.
        page.click("[data-action=scored]")
        expect(page.locator("[data-role=points]")).to_have_text("1 – 0")
        # The umpire records the away hit on the tablet, once the tablet shows it is away's turn: a
        # hit sent from a panel still showing home #1 names home #1, and the server refuses it.
        expect(umpire.locator("[data-role=next]")).to_contain_text(f"{away} #1")
        umpire.click("[data-action=scored]")
        expect(page.locator("[data-role=line]")).to_have_text("60 yards")
        expect(page.locator("[data-role=points]")).to_have_text("1 – 1")
        page.click("[data-action=scored]")
        page.click("[data-action=missed]")

        expect(page.locator("[data-role=winner]")).to_contain_text(f"{home} win")
        expect(umpire.locator("[data-role=winner]")).to_contain_text(f"{home} win")
        expect(page.locator("[data-role=score-home]")).to_have_text("2")
        expect(page.locator("[data-role=score-away]")).to_have_text("1")
        rounds = page.locator("table.rounds tbody tr")
        expect(rounds).to_have_count(2)
        expect(rounds.nth(1)).to_contain_text("60 yards")
        assert umpire_watch.problems() == []
    finally:
        tablet.close()
    assert watch.problems() == []
