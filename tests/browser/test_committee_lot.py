"""The shootout lot in a real browser (issue 9, Rule 14.d: "The team to hit first shall be decided
by lot"): drawn once — no second draw is offered, and one posted anyway is refused — and changed
only by an explicit correction with a reason, which the audit trail shows."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .committee_browser import TIED_MATCH, PageWatch, log_in, module_server, shell

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from module_server(tmp_path_factory, "lot")


def test_the_lot_is_drawn_once_and_corrected_only_with_a_reason(server, context, page):
    match_id = shell(server, TIED_MATCH.format(goals=1))
    log_in(context, server, "committee")
    watch = PageWatch(page)
    page.goto(f"{server.url}/committee/matches/{match_id}/shootout/")
    lot = page.locator("[data-role=lot-form]")
    lot.locator("select[name=caller]").select_option("away")
    lot.locator("select[name=call]").select_option("tails")
    lot.locator("input[name=method][value=entered]").check()
    lot.locator("select[name=result]").select_option("heads")
    lot.locator("[data-action=lot]").click()
    expect(page.locator("[data-role=lot]")).to_contain_text("the coin fell Heads")

    # Drawn once: the draw is no longer offered, and a second draw posted anyway changes nothing.
    expect(page.locator("[data-role=lot-form]")).to_have_count(0)
    token = page.locator("[data-role=lot-correct-form] input[name=csrfmiddlewaretoken]").input_value()
    again = page.request.post(
        f"{server.url}/committee/matches/{match_id}/shootout/lot/",
        form={"csrfmiddlewaretoken": token, "caller": "away", "call": "heads", "method": "entered", "result": "heads"},
        headers={"Referer": page.url},
    )
    assert again.status < 500  # refused cleanly, not a crash
    page.reload()
    expect(page.locator("[data-role=lot]")).to_contain_text("the coin fell Heads")

    # A correction needs a reason.
    page.locator("[data-role=lot-correct] details").evaluate("d => { d.open = true; }")
    form = page.locator("[data-role=lot-correct-form]")
    form.locator("select[name=correct-result]").select_option("tails")
    form.locator("input[name=correct-reason]").fill("   ")
    form.locator("[data-action=lot-correct]").click()
    expect(page.locator("[data-role=lot]")).to_contain_text("the coin fell Heads")

    page.locator("[data-role=lot-correct] details").evaluate("d => { d.open = true; }")
    form = page.locator("[data-role=lot-correct-form]")
    form.locator("select[name=correct-result]").select_option("tails")
    form.locator("input[name=correct-reason]").fill("the coin was read from the wrong side")
    form.locator("[data-action=lot-correct]").click()
    expect(page.locator("[data-role=lot]")).to_contain_text("the coin fell Tails")
    expect(page.locator("[data-role=lot-correction]")).to_contain_text("the coin was read from the wrong side")

    page.goto(f"{server.url}/committee/matches/{match_id}/")
    expect(page.locator("#audit")).to_contain_text("the coin was read from the wrong side")
    assert watch.problems() == []
