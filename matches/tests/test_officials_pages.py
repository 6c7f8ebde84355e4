"""The officials' screens: the scorer's laptop (/matches/{id}/scorer/), the umpires' tablet
(/matches/{id}/referee/) and the umpires' score confirmation at the end of each chukker."""

from __future__ import annotations

import json
import re
import time

import pytest

from matches.officials.models import ScoreConfirmation
from matches.selectors import match_state

from .live_helpers import client_for, ev, log
from .personas import make_user

pytestmark = pytest.mark.django_db


def page_config(response) -> dict:
    match = re.search(
        r'<script id="officials-page" type="application/json">(.*?)</script>', response.content.decode(), re.S
    )
    assert match, "the page carries its config for the page script"
    return json.loads(match.group(1))


def end_first_chukker(match) -> dict:
    """Play the first chukker out: a ball over the side after 7:00 ends it (Rule 14.b)."""
    t0 = time.time() - 600  # the chukker was played over the last minutes (clocks as they were)
    log(match, ev("play"), now=t0)
    log(match, ev("goal", team="home", number=2, clock=100), now=t0 + 100)
    log(match, ev("play"), now=t0 + 130)
    return log(
        match,
        ev("ball_out", line="side", at={"x": 150, "y": 0}, last_hit_by="away", deflected_off="none", clock=425),
        now=t0 + 455,
    )


def confirm(client, match, period, home, away):
    return client.post(
        f"/api/matches/{match.pk}/confirmations",
        json.dumps({"period": period, "score": {"home": home, "away": away}}),
        content_type="application/json",
    )


# --- The scorer's screen ----------------------------------------------------------------------------


def test_it_works(cast):
    response = client_for(cast.scorer_a).get(f"/matches/{cast.match_a.pk}/scorer/")
    assert response.status_code == 200
    page = page_config(response)
    assert page["match_id"] == cast.match_a.pk and page["role"] == "scorer" and page["can_log"] is True
    assert [p["number"] for p in page["config"]["home"]["players"]] == [1, 2, 3, 4]
    assert page["state"]["status"] == "scheduled" and page["last_seq"] == 0
    html = response.content.decode()
    for script in (
        "js/live.js",
        "js/field.js",
        "js/offline-queue.js",
        "js/officials-common.js",
        "js/scorer.js",
        "/jsi18n/",
    ):
        assert script in html
    assert "script-src 'self'" in response["Content-Security-Policy"]


def test_the_page_has_no_inline_script_or_style(cast):
    html = client_for(cast.scorer_a).get(f"/matches/{cast.match_a.pk}/scorer/").content.decode()
    scripts = re.findall(r"<script(?![^>]*\bsrc=)([^>]*)>", html)
    assert scripts == [' id="officials-page" type="application/json"'], scripts  # data, not code
    assert " style=" not in html and not re.search(r"\son[a-z]+=", html)


def test_the_umpires_the_referee_and_the_committee_open_it_too(cast):
    for user, role in ((cast.umpire_a, "umpire"), (cast.referee_a, "umpire"), (cast.committee, "committee")):
        response = client_for(user).get(f"/matches/{cast.match_a.pk}/scorer/")
        assert response.status_code == 200
        assert page_config(response)["role"] == role
    assert page_config(client_for(cast.committee).get(f"/matches/{cast.match_a.pk}/scorer/"))["can_log"] is False


def test_it_sends_the_public_to_the_login(cast):
    response = client_for().get(f"/matches/{cast.match_a.pk}/scorer/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=")


def test_it_refuses_the_officials_of_another_match(cast):
    assert client_for(cast.scorer_b).get(f"/matches/{cast.match_a.pk}/scorer/").status_code == 403
    assert client_for(make_user("nobody")).get(f"/matches/{cast.match_a.pk}/scorer/").status_code == 403


def test_an_unknown_match_is_not_found(cast):
    assert client_for(cast.scorer_a).get("/matches/99999/scorer/").status_code == 404


def test_the_state_comes_in_the_users_language(cast):
    t0 = time.time() - 60
    log(cast.match_a, ev("play"), now=t0)
    log(
        cast.match_a,
        ev("ball_out", line="side", at={"x": 120, "y": 0}, last_hit_by="away", deflected_off="none", clock=30),
        now=t0 + 30,
    )
    client = client_for(cast.scorer_a)
    client.cookies["django_language"] = "es"
    response = client.get(f"/matches/{cast.match_a.pk}/scorer/")
    assert '<html lang="es">' in response.content.decode()
    # The rule citation is the rules service's, in the language asked for.
    cast.match_a.refresh_from_db()
    expected = match_state(cast.match_a, lang="es")["restart"]["message"]
    assert page_config(response)["state"]["restart"]["message"] == expected


# --- The umpires' tablet --------------------------------------------------------------------------


def test_the_umpires_and_the_referee_log_from_the_tablet(cast):
    for user in (cast.umpire_a, cast.referee_a):
        response = client_for(user).get(f"/matches/{cast.match_a.pk}/referee/")
        assert response.status_code == 200
        page = page_config(response)
        assert page["can_log"] is True and page["can_confirm"] is True
        assert page["confirmations_url"] == f"/api/matches/{cast.match_a.pk}/confirmations"
        assert 'data-command="whistle"' in response.content.decode()


def test_the_scorer_and_the_committee_only_watch_the_tablet(cast):
    for user in (cast.scorer_a, cast.committee):
        response = client_for(user).get(f"/matches/{cast.match_a.pk}/referee/")
        assert response.status_code == 200
        page = page_config(response)
        assert page["can_log"] is False and page["can_confirm"] is False
        assert 'data-command="whistle"' not in response.content.decode()


def test_the_tablet_refuses_the_public(cast):
    assert client_for().get(f"/matches/{cast.match_a.pk}/referee/").status_code == 302
    assert client_for(cast.umpire_b).get(f"/matches/{cast.match_a.pk}/referee/").status_code == 403


# --- Score confirmation ---------------------------------------------------------------------------


def test_an_umpire_confirms_the_score_at_the_end_of_a_chukker(cast):
    state = end_first_chukker(cast.match_a)
    assert state["status"] == "interval"
    response = confirm(client_for(cast.umpire_a), cast.match_a, 1, 1, 0)
    assert response.status_code == 201
    [shown] = response.json()["confirmations"]
    assert shown["period"] == 1 and shown["score"] == {"home": 1, "away": 0}
    assert shown["username"] == "ulises" and shown["last_seq"] == cast.match_a.events.count()
    row = ScoreConfirmation.objects.get()
    assert (row.match, row.period, row.umpire, row.home, row.away) == (cast.match_a, 1, cast.umpire_a, 1, 0)


def test_confirming_again_adds_a_row_and_changes_none(cast):
    end_first_chukker(cast.match_a)
    confirm(client_for(cast.umpire_a), cast.match_a, 1, 1, 0)
    confirm(client_for(cast.referee_a), cast.match_a, 1, 1, 0)
    confirm(client_for(cast.umpire_a), cast.match_a, 1, 1, 0)
    assert ScoreConfirmation.objects.count() == 3
    listed = client_for(cast.scorer_a).get(f"/api/matches/{cast.match_a.pk}/confirmations").json()["confirmations"]
    assert [c["username"] for c in listed] == ["ulises", "rita", "ulises"]


def test_it_refuses_a_confirmation_before_the_chukker_ends(cast):
    log(cast.match_a, ev("play"))
    response = confirm(client_for(cast.umpire_a), cast.match_a, 1, 0, 0)
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "period_not_over"
    assert not ScoreConfirmation.objects.exists()


def test_it_refuses_a_score_the_log_does_not_have(cast):
    end_first_chukker(cast.match_a)
    response = confirm(client_for(cast.umpire_a), cast.match_a, 1, 0, 0)
    assert response.status_code == 409
    body = response.json()
    assert body["error"]["code"] == "score_changed" and body["state"]["score"] == {"home": 1, "away": 0}
    assert confirm(client_for(cast.umpire_a), cast.match_a, 2, 1, 0).status_code == 409
    assert not ScoreConfirmation.objects.exists()


def test_only_the_umpires_and_the_referee_confirm(cast):
    end_first_chukker(cast.match_a)
    for user in (cast.scorer_a, cast.committee, cast.umpire_b):
        assert confirm(client_for(user), cast.match_a, 1, 1, 0).status_code == 403
    assert confirm(client_for(), cast.match_a, 1, 1, 0).status_code == 403
    assert client_for().get(f"/api/matches/{cast.match_a.pk}/confirmations").status_code == 403
    assert not ScoreConfirmation.objects.exists()


def test_it_rejects_a_confirmation_it_cannot_read(cast):
    end_first_chukker(cast.match_a)
    response = client_for(cast.umpire_a).post(
        f"/api/matches/{cast.match_a.pk}/confirmations", "{}", content_type="application/json"
    )
    assert response.status_code == 400


def test_a_confirmation_is_never_changed(cast):
    end_first_chukker(cast.match_a)
    confirm(client_for(cast.umpire_a), cast.match_a, 1, 1, 0)
    row = ScoreConfirmation.objects.get()
    row.home = 5
    with pytest.raises(Exception, match="append-only"):
        row.save()
    with pytest.raises(Exception, match="append-only"):
        row.delete()


def test_the_score_confirmed_after_a_shootout_is_the_chukkers_without_the_shootouts_goal():
    """Rule 14.d adds one goal to the shootout's winner: 1–1 at the end of the chukker, 2–1 final."""
    from matches.officials.services import ScoreConfirmationError, score_confirmation_record
    from tests.browser.phases import match_in_phase

    match = match_in_phase("final_shootout")
    state = match_state(match)
    assert (state["score"], state["result"], state["winner"]) == ({"home": 2, "away": 1}, "shootout", "home")
    umpire = make_user("ulla", "umpire")
    with pytest.raises(ScoreConfirmationError) as refused:
        score_confirmation_record(match_id=match.pk, umpire=umpire, period=1, home=2, away=1)
    assert refused.value.code == "score_changed"
    row = score_confirmation_record(match_id=match.pk, umpire=umpire, period=1, home=1, away=1)
    assert (row.home, row.away) == (1, 1)
