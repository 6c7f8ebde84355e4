"""The scorer's laptop with the mouse and the log: a click on the field gives where the ball went
out and the restart the rules service computes is drawn there; refusals are shown with their rule;
a void (undo) needs a reason and strikes the event out of the log."""

from __future__ import annotations

import pytest

from .officials_helpers import (
    PageWatch,
    click_field,
    events,
    game_events,
    log_in,
    marker,
    module_server,
    new_match,
    official,
    open_screen,
    post,
    press,
    state,
    wait_listed,
    wait_seq,
)

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from module_server(tmp_path_factory, "scorer-field", matches=9)


def scorer_screen_in_play(server, context, page) -> int:
    """A fresh match on the scorer's screen, its first throw-in taken ("Play"): the match id."""
    match_id = new_match(server)
    log_in(context, server, "scorer")
    open_screen(page, server, match_id)
    press(page, "Space")
    wait_seq(page, 1)
    return match_id


def ball_out_by_a_post(page) -> None:
    """Play, then a click on the field: over the south end line (away defends it), 3 yards from a
    post, last hit by home — a knock-in for away."""
    press(page, "Space")
    wait_seq(page, 1)
    press(page, "o", "e")
    page.wait_for_selector("#field.picking")
    click_field(page, 297, 87)
    press(page, "h", "Enter")
    wait_listed(page, 2)  # the ball out (its clock hold is seq 2, not listed)


def test_a_click_on_the_field_logs_the_ball_out_and_draws_the_knock_in(server, context, page):
    match_id = new_match(server)
    log_in(context, server, "scorer")
    watch = PageWatch(page)
    open_screen(page, server, match_id)
    ball_out_by_a_post(page)

    crossed = game_events(server, match_id)[1]["event"]["at"]
    assert crossed["x"] == 300 and abs(crossed["y"] - 87) < 1  # snapped onto the end line where clicked
    restart = state(server, match_id)["state"]["restart"]
    assert restart["kind"] == "knock_in" and restart["team"] == "away"
    drawn = marker(page)
    assert (drawn["cx"], drawn["cy"]) == (restart["spot"]["x"], restart["spot"]["y"])
    assert (drawn["x"], drawn["y"]) == (restart["spot"]["x"], restart["spot"]["y"])
    assert restart["spot"]["y"] != crossed["y"]  # moved 5 yards from the post (Rule 22.a)
    assert watch.problems() == []


def label_clashes(page, baseline: float | None = None) -> list[str]:
    """The texts of the diagram that the restart's label covers: where it is drawn, or with its
    baseline at ``baseline``."""
    return page.evaluate(
        """(baseline) => {
      const label = document.querySelector('#field .restart-label');
      const b = label.getBBox();
      const dy = baseline === null ? 0 : baseline - Number(label.getAttribute('y'));
      const top = b.y + dy;
      return [...document.querySelectorAll('#field .diagram text')].filter((n) => {
        const o = n.getBBox();
        return o.width && b.x < o.x + o.width && o.x < b.x + b.width && top < o.y + o.height && o.y < top + b.height;
      }).map((n) => n.textContent);
    }""",
        baseline,
    )


def test_the_restarts_label_keeps_clear_of_a_teams_name_on_the_field(server, context, page):
    """A free hit just in from the west side near the north end: its label, below the spot as in
    the field's upper half, would cover the home team's name over its arrow; it is drawn where it
    covers no text of the diagram."""
    match_id = scorer_screen_in_play(server, context, page)
    scorer = official(server, "scorer")
    post(scorer, match_id, {"type": "ball_out", "line": "side", "at": {"x": 60, "y": 0}, "last_hit_by": "home"})
    wait_seq(page, 2)
    restart = state(server, match_id)["state"]["restart"]
    assert restart["kind"] == "free_hit" and restart["spot"]["y"] <= 10
    drawn = marker(page)
    assert (drawn["x"], drawn["y"]) == (restart["spot"]["x"], restart["spot"]["y"])
    home_name = page.text_content("#field .diagram .pf-arrow[data-team=home] text")
    assert home_name in label_clashes(page, restart["spot"]["y"] + 19)  # the first choice covers it
    assert label_clashes(page) == []


def test_after_the_servers_horn_the_scorer_is_asked_where_the_ball_was_and_the_horn_places_it(server, context, page):
    """The double horn came without the ball (as the one the server appends from the clock): the
    next chukker would open at the centre, and the scorer's screen asks where the ball was. The
    horn logged with the ball (H, F, a click) moves the throw-in there (22.g), and the question goes."""
    match_id = scorer_screen_in_play(server, context, page)
    scorer = official(server, "scorer")
    post(scorer, match_id, {"type": "horn", "kind": "final", "clock": 450})
    wait_seq(page, 2)
    hint = page.wait_for_selector('#restart [data-hint="horn-ball"]')
    assert "Where was the ball at the horn?" in hint.inner_text()
    press(page, "h", "f")
    page.wait_for_selector("#field.picking")
    click_field(page, 100, 30)
    wait_seq(page, 3)
    restart = state(server, match_id)["state"]["restart"]
    assert (restart["kind"], restart["rule"], restart["toward"], restart["next_period"]) == (
        "throw_in",
        "22.g",
        "west",
        True,
    )
    assert abs(restart["spot"]["x"] - 100) < 1 and abs(restart["spot"]["y"] - 30) < 1
    page.wait_for_selector('#restart [data-hint="horn-ball"]', state="detached")
    drawn = marker(page)
    assert (drawn["x"], drawn["y"]) == (restart["spot"]["x"], restart["spot"]["y"])


def test_the_log_says_which_horn_the_clock_sounded(server, context, page):
    """The demo's chukker 2 ends with the double horn twice: the server's, from the clock (24),
    then the scorer's with the ball (25). The log tells them apart."""
    log_in(context, server, "scorer")
    matches = server.client().request("GET", "/api/matches")[1]["matches"]
    # The demo's match: the module's fresh matches have a few events at most.
    demo = next(m["id"] for m in matches if len(events(server, m["id"])) >= 25)
    open_screen(page, server, demo)
    clock_horn = page.wait_for_selector('#log .log-entry[data-seq="24"]')
    scorers_horn = page.wait_for_selector('#log .log-entry[data-seq="25"]')
    assert (clock_horn.get_attribute("data-type"), scorers_horn.get_attribute("data-type")) == ("horn", "horn")
    assert "(the clock)" in clock_horn.inner_text()
    assert "(the clock)" not in scorers_horn.inner_text()


def test_a_goal_while_the_ball_is_not_in_play_is_refused_on_screen(server, context, page):
    match_id = new_match(server)
    log_in(context, server, "scorer")
    open_screen(page, server, match_id)
    press(page, "g", "h", "1")
    box = page.wait_for_selector('#rejection[data-code="not_in_play"]')
    assert "The ball is not in play." in box.inner_text()
    assert events(server, match_id) == []
    assert page.eval_on_selector_all("#log .log-entry", "els => els.length") == 0
    assert page.get_attribute("#conn", "data-queued") == "0"  # refused, not kept
    press(page, "Escape")
    page.wait_for_selector("#rejection", state="hidden")


def test_a_refusal_shows_the_rule_it_rests_on(server, context, page):
    match_id = scorer_screen_in_play(server, context, page)
    # A courtesy change in a tournament that announced none (Rule 21.f(2)).
    press(page, "w", "6", "Enter", "h", "1", "Enter", "Enter")
    box = page.wait_for_selector('#rejection[data-code="courtesy_change_not_allowed"]')
    assert box.query_selector(".rule").inner_text() == "Rule 21.f(2)"
    assert "courtesy change" in box.inner_text().lower()
    assert [e["type"] for e in game_events(server, match_id)] == ["play"]


def test_void_last_asks_a_reason_and_strikes_the_goal_out(server, context, page):
    match_id = scorer_screen_in_play(server, context, page)
    press(page, "g", "a", "2")
    wait_listed(page, 2)
    assert page.inner_text('[data-score="away"]') == "1"
    goal = game_events(server, match_id)[1]

    press(page, "z")
    page.wait_for_selector('#command[data-type="void"] .cmd-input input')
    assert f"#{goal['seq']}" in page.inner_text("#command .cmd-note")
    page.keyboard.type("wrong team")
    press(page, "Enter")
    wait_listed(page, 3)
    void = game_events(server, match_id)[2]["event"]
    assert (void["type"], void["target"], void["reason"]) == ("void", goal["id"], "wrong team")
    page.wait_for_selector(f'#log .log-entry.voided[data-seq="{goal["seq"]}"]')
    assert "wrong team" in page.inner_text(f'#log [data-seq="{goal["seq"]}"]')
    assert page.inner_text('[data-score="away"]') == "0"


def test_any_line_of_the_log_can_be_voided_with_the_mouse(server, context, page):
    match_id = scorer_screen_in_play(server, context, page)
    press(page, "o", "s", "Enter", "a", "Enter")
    page.wait_for_selector('#log .log-entry[data-type="ball_out"]')
    # Players answer with the mouse too: a card to away #3.
    press(page, "c")
    page.click('#players-away [data-number="3"]')
    press(page, "r")
    card_entry = page.wait_for_selector('#log .log-entry[data-type="card"]')
    seq = int(card_entry.get_attribute("data-seq"))
    page.click(f'#log .log-entry[data-seq="{seq}"] .log-void')
    page.keyboard.type("shown to the wrong player")
    press(page, "Enter")
    page.wait_for_selector(f'#log .log-entry.voided[data-seq="{seq}"]')
    logged = {e["seq"]: e for e in events(server, match_id)}
    assert logged[seq]["event"]["team"] == "away" and logged[seq]["event"]["number"] == 3
    assert logged[max(logged)]["event"]["target"] == logged[seq]["id"]


def test_a_running_restart_timer_survives_a_reload_and_ends_with_the_next_event(server, context, page):
    match_id = new_match(server)
    scorer = log_in(context, server, "scorer")
    open_screen(page, server, match_id)
    ball_out_by_a_post(page)
    press(page, "Space")  # the knock-in is taken: its 10 seconds run (Rule 22.a)
    wait_listed(page, 3)
    before = page.wait_for_selector('#timers [data-kind="knock_in"] .timer-left').inner_text()

    page.reload()
    page.wait_for_selector('#conn[data-status="live"]')
    wait_listed(page, 3)
    timer = page.wait_for_selector('#timers [data-kind="knock_in"]')
    assert timer.query_selector(".timer-left").inner_text() <= before  # still running from the same "Play"
    page.wait_for_selector('#timers [data-kind="knock_in"].expired')

    page.goto("about:blank")
    post(scorer, match_id, {"type": "goal", "team": "away", "number": 2})  # meanwhile, on another screen
    open_screen(page, server, match_id)
    wait_listed(page, 4)
    page.wait_for_function("() => document.querySelectorAll('#log .log-entry').length === 4")
    # The goal ended it: the timers are drawn on the next frame after the log loads, so wait for it.
    page.wait_for_selector('#timers [data-kind="knock_in"]', state="detached")


def test_a_goal_noticed_wrong_after_the_throw_in_is_voided_with_what_followed(server, context, page):
    match_id = scorer_screen_in_play(server, context, page)
    press(page, "g", "h", "2")  # a goal … that was really wide
    wait_listed(page, 2)
    press(page, "Space")  # the throw-in after it
    wait_listed(page, 3)
    [_, goal, throw_in] = game_events(server, match_id)

    page.click(f'#log .log-entry[data-seq="{goal["seq"]}"] .log-void')
    page.keyboard.type("ball went wide")
    press(page, "Enter")
    box = page.wait_for_selector('#rejection[data-code="void_would_invalidate"]')
    assert f"#{throw_in['seq']} Play" in box.inner_text()  # what must go first, shown before anything is sent
    assert len(game_events(server, match_id)) == 3
    page.click('[data-action="void-chain"]')
    wait_listed(page, 5)
    page.wait_for_selector("#rejection", state="hidden")
    logged = game_events(server, match_id)
    voids = [(e["event"]["target"], e["event"]["reason"]) for e in logged[3:]]
    assert voids == [(logged[2]["id"], "ball went wide"), (logged[1]["id"], "ball went wide")]  # newest first
    after = state(server, match_id)["state"]
    assert after["score"] == {"home": 0, "away": 0} and after["status"] == "in_play"
    page.wait_for_selector(f'#log .log-entry.voided[data-seq="{goal["seq"]}"]')
    page.wait_for_selector(f'#log .log-entry.voided[data-seq="{throw_in["seq"]}"]')
