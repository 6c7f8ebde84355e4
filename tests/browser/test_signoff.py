"""The official scoresheet on the umpires' tablet: at the final result an umpire signs from their
own login; a correction logged afterwards on another device breaks the signature, and the tablet
says so and asks for a new one (docs/SCORESHEET.md)."""

from __future__ import annotations

import uuid

import pytest
from playwright.sync_api import expect

from .committee_browser import PageWatch, module_server
from .finished_browser import finished_match
from .officials_helpers import log_in, official

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from module_server(tmp_path_factory, "signoff")


def test_an_umpire_signs_at_the_final_and_a_correction_breaks_it(server, context, page):
    made = finished_match(server)
    match_id, mount_id = int(made["MATCH"]), made["LUCERA"]
    log_in(context, server, "umpire1")
    watch = PageWatch(page)
    page.goto(f"{server.url}/matches/{match_id}/referee/")
    page.wait_for_selector('#conn[data-status="live"]')

    box = page.locator("#signoff")
    expect(box).to_be_visible()
    expect(box.locator("[data-role=signoff-note]")).to_contain_text("sign the scoresheet")
    box.locator("[data-role=signoff-sign]").click()
    expect(box).to_have_attribute("data-signed", "1")
    expect(box.locator('li[data-official="umpire1"]')).to_have_attribute("data-valid", "1")
    expect(box.locator('li[data-official="referee"]')).to_have_attribute("data-valid", "missing")
    expect(box.locator("[data-role=signoff-sign]")).to_be_hidden()

    # A correction from another umpire's tablet: the mount voided after the final.
    status, data = official(server, "umpire2").request(
        "POST",
        f"/api/matches/{match_id}/events",
        {"id": str(uuid.uuid4()), "type": "void", "target": mount_id, "reason": "the other horse"},
    )
    assert status == 201, data

    expect(box).to_have_attribute("data-broken", "1")
    expect(box.locator("[data-role=signoff-note]")).to_contain_text("no longer match")
    expect(box.locator('li[data-official="umpire1"]')).to_have_attribute("data-valid", "0")
    sign = box.locator("[data-role=signoff-sign]")
    expect(sign).to_have_text("Sign again")

    # Signing again binds the corrected log.
    sign.click()
    expect(box).to_have_attribute("data-broken", "0")
    expect(box.locator('li[data-official="umpire1"]')).to_have_attribute("data-valid", "1")

    # The committee's match page shows the same scoresheet.
    status, sheet = official(server, "committee").request("GET", f"/api/matches/{match_id}/scoresheet")
    assert status == 200 and sheet["signatures"][0]["valid"] and sheet["missing"] == ["umpire2", "referee"]
    assert watch.problems() == []


def test_a_signature_rewritten_in_the_database_shows_as_altered_on_the_tablet(server, context, page):
    match_id = int(finished_match(server)["MATCH"])
    log_in(context, server, "umpire1")
    page.goto(f"{server.url}/matches/{match_id}/referee/")
    page.wait_for_selector('#conn[data-status="live"]')
    box = page.locator("#signoff")
    box.locator("[data-role=signoff-sign]").click()
    expect(box).to_have_attribute("data-signed", "1")

    # Someone with the database's password, not the signing secret, rewrites the row.
    server.manage(
        "shell",
        "-c",
        "from matches.scoresheet.models import Signature; "
        f"Signature._base_manager.filter(match_id={match_id}).update(signed_at='2026-01-01T00:00:00Z')",
    )
    page.reload()
    page.wait_for_selector('#conn[data-status="live"]')

    expect(box.locator("[data-role=signoff-note]")).to_contain_text("altered outside the app")
    line = box.locator('li[data-official="umpire1"]')
    expect(line).to_have_attribute("data-valid", "0")
    expect(line).to_contain_text("altered: its seal does not match")
    expect(box.locator("[data-role=signoff-sign]")).to_have_text("Sign again")
