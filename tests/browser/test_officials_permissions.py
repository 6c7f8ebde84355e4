"""The officials' screens offer what the server takes (issue 37): ``permissions.js`` reads the
server's lists from the page, so for every role and every event type of the contract its ``canLog``
is the server's ``role_may_log``, and its ``canVoid`` of an entry by the scorer is the server's
``can_void``."""

from __future__ import annotations

import pytest

from matches.permissions import can_void, role_may_log
from officiating.engine.shape import EVENT_TYPES

from .officials_helpers import log_in, open_screen
from .screens import new_context

pytestmark = pytest.mark.browser

ROLES = ("scorer", "umpire", "committee")


def test_the_screen_offers_exactly_what_the_server_takes(live_server_proc, browser, match_id):
    context = new_context(browser, "tablet", "en")
    try:
        log_in(context, live_server_proc, "scorer")
        page = context.new_page()
        open_screen(page, live_server_proc, match_id)
        screen = page.evaluate(
            """async ([roles, types]) => {
                const {canLog, canVoid} = await import("/static/js/officials/permissions.js");
                const answers = {};
                for (const role of roles) for (const type of types) {
                  const entry = {type, event: {type, by: {role: "scorer"}}};
                  answers[`${role} ${type}`] = [canLog(role, type), canVoid(role, entry)];
                }
                return answers;
            }""",
            [list(ROLES), list(EVENT_TYPES)],
        )
    finally:
        context.close()
    server = {
        f"{role} {etype}": [
            role_may_log(role, etype),
            etype not in ("void", "hold", "release") and can_void(role, etype, "scorer"),
        ]
        for role in ROLES
        for etype in EVENT_TYPES
    }
    assert screen == server
