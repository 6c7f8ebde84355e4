"""The awards in a real browser: the committee records the match's MVP and its Best Playing Pony,
picked from the horses the log says were ridden (``mount`` events), and the public scoreboard of
the finished match shows them."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .committee_browser import PageWatch, log_in, module_server
from .finished_browser import finished_match

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from module_server(tmp_path_factory, "awards")


def test_the_committee_records_the_mvp_and_a_pony_from_the_mounts(server, context, page):
    made = finished_match(server)
    match_id, home2 = int(made["MATCH"]), made["RIDER"]
    log_in(context, server, "committee")
    watch = PageWatch(page)

    page.goto(f"{server.url}/committee/matches/{match_id}/")
    page.locator("#awards [data-action=awards]").click()
    expect(page.locator("h1")).to_have_text("Awards of the match")

    mvp = page.locator("#mvp")
    value = mvp.locator("select[name=mvp-player] option", has_text=home2).get_attribute("value")
    mvp.locator("select[name=mvp-player]").select_option(value)
    mvp.locator("[data-action=record-mvp]").click()
    expect(page.locator("#awards [data-award=mvp]")).to_contain_text(home2)

    pony = page.locator("#bpp")
    options = pony.locator("select[name=bpp-mount] option")
    expect(options).to_have_count(3)  # "—", Lucera, Pampa: the horses of the log
    value = pony.locator("select[name=bpp-mount] option", has_text="Lucera").get_attribute("value")
    pony.locator("select[name=bpp-mount]").select_option(value)
    pony.locator("input[name=bpp-owner]").fill("La Aguada")
    pony.locator("input[name=bpp-breeder]").fill("Haras Santa Ana")
    pony.locator("[data-action=record-bpp]").click()
    award = page.locator("#awards [data-award=bpp]")
    expect(award).to_contain_text("Lucera")
    expect(award).to_contain_text(home2)
    expect(award).to_contain_text("La Aguada")

    # The audit trail of the match records both.
    page.goto(f"{server.url}/committee/matches/{match_id}/")
    expect(page.locator("#audit tr[data-action=award_set]")).to_have_count(2)

    # The public scoreboard of the finished match shows them (to anyone).
    context.clear_cookies()
    page.goto(f"{server.url}/matches/{match_id}/")
    expect(page.locator("#awards [data-award=mvp]")).to_contain_text(home2)
    expect(page.locator("#awards [data-award=bpp]")).to_contain_text("Lucera")
    assert watch.problems() == []
