"""The public live pages as the server renders them: scoreboard, its goals, overlay, tournament day.

The spectator (anonymous) reads everything here and writes nothing. The demo match (two chukkers
and part of a third) gives the goals: chukker 1 home #1 at 1:35 and away #3 at 5:00, chukker 2
away #1 from a penalty at 1:02 and home #3 at 4:20, chukker 3 home #2 at 2:30.
"""

from __future__ import annotations

import json
import re
import time
import uuid

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from matches.demo import load_demo
from matches.models import Match
from matches.public.views import time_left_text
from matches.services import match_event_log

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo():
    tournament, live = load_demo()
    live.refresh_from_db()
    return tournament, live


@pytest.fixture
def spectator() -> Client:
    return Client()


def page_data(response) -> dict:
    html = response.content.decode()
    match = re.search(r'<script id="live-data" type="application/json">(.*?)</script>', html, re.S)
    assert match, "the page hands its data to its script"
    return json.loads(match.group(1))


def log(match: Match, event: dict) -> None:
    result = match_event_log(
        match_id=match.pk, event={"id": str(uuid.uuid4()), **event}, user=match.scorer, now=time.time()
    )
    assert result.accepted, result.error


# --- The scoreboard ----------------------------------------------------------------------------


def test_the_scoreboard_shows_the_match_to_the_public(demo, spectator):
    _, live = demo
    response = spectator.get(reverse("scoreboard", args=[live.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    assert live.home.team.name in html and live.away.team.name in html
    data = page_data(response)
    assert data["last_seq"] == live.last_seq > 0
    assert data["match"]["home"]["color"] == live.home.team.color
    state = data["state"]
    assert f'data-role="score-home">{state["score"]["home"]}<' in html
    assert f'data-role="score-away">{state["score"]["away"]}<' in html
    # The demo stops with the ball over the side: the pending restart in words, with its rule.
    assert state["restart"] is not None
    assert state["restart"]["message"] in html.replace("&#x27;", "'")


def test_the_scoreboard_says_which_goal_each_team_attacks(demo, spectator):
    _, live = demo
    response = spectator.get(reverse("scoreboard", args=[live.pk]))
    html = response.content.decode()
    state = page_data(response)["state"]
    attacks = {"north": "Attacks the south goal", "south": "Attacks the north goal"}
    assert f'data-role="attacks-home">{attacks[state["defends"]["home"]]}<' in html
    assert f'data-role="attacks-away">{attacks[state["defends"]["away"]]}<' in html
    assert state["defends"]["home"] != state["defends"]["away"]


def test_the_scoreboard_lists_the_last_goals_newest_first(demo, spectator):
    _, live = demo
    data = page_data(spectator.get(reverse("scoreboard", args=[live.pk])))
    goals = [(g["period"], g["clock"], g["team"], g["number"]) for g in data["goals"]]
    assert goals == [
        (3, 150, "home", 2),
        (2, 260, "home", 3),
        (2, 62, "away", 1),
        (1, 300, "away", 3),
        (1, 95, "home", 1),
    ]
    assert data["goals"][0]["name"] == "Poroto Ruiz"
    assert data["goals"][2]["penalty"] is True


def test_the_last_goals_are_rendered_for_a_first_paint_without_script(demo, spectator):
    """In the scoreboard's default convention, beside a clock labelled "time left": a goal at 2:30
    played of a 7-minute chukker shows 4:30 (the clock-convention script redraws it if the visitor
    chose time played)."""
    _, live = demo
    html = spectator.get(reverse("scoreboard", args=[live.pk])).content.decode()
    assert 'data-role="clock-label">time left<' in html
    assert 'data-role="goals-clock-heading">Time left<' in html
    body = html[html.index('data-role="goals"') : html.index("</tbody>")]
    rows = re.findall(r"<tr>(.*?)</tr>", body, re.S)
    assert len(rows) == 5
    assert re.findall(r"<td[^>]*>(.*?)</td>", rows[0]) == ["3", "4:30", live.home.team.name, "Poroto Ruiz"]


@pytest.mark.parametrize(
    "clock, text",
    [
        (150, "4:30"),
        (100, "5:20"),
        (99.5, "5:21"),
        (0, "7:00"),
        (420, "0:00"),
        (432.4, "+0:12"),
        (450, "+0:30"),
        (None, ""),
    ],
)
def test_a_goals_time_left_is_the_chukker_less_its_clock(clock, text):
    """The server's first paint agrees with the script's PoloClockConvention.format(clock, 420, "left")."""
    assert time_left_text(clock, 420) == text


def test_a_voided_goal_leaves_the_list(demo, spectator):
    _, live = demo
    log(live, {"type": "play"})
    goal_id = str(uuid.uuid4())
    result = match_event_log(
        match_id=live.pk,
        event={"id": goal_id, "type": "goal", "team": "away", "number": 4},
        user=live.scorer,
        now=time.time(),
    )
    assert result.accepted, result.error
    url = reverse("api-match-goals", args=[live.pk])
    first = spectator.get(url).json()
    assert first["goals"][0]["id"] == goal_id and first["goals"][0]["name"] == "Polito Pieres"
    log(live, {"type": "void", "target": goal_id, "reason": "hit wide, flag was wrong"})
    after = spectator.get(url).json()
    live.refresh_from_db()
    assert after["last_seq"] == live.last_seq
    assert goal_id not in [g["id"] for g in after["goals"]]
    assert len(after["goals"]) == 5


def test_a_penalty_1_goal_is_listed_without_a_hitter(demo, spectator):
    _, live = demo
    log(live, {"type": "play"})
    log(live, {"type": "foul", "against": "home", "number": 3, "penalty": "1"})
    goals = spectator.get(reverse("api-match-goals", args=[live.pk])).json()["goals"]
    assert goals[0]["team"] == "away" and goals[0]["penalty"] is True and goals[0]["name"] == ""
    assert goals[0]["period"] == 3


def test_it_has_a_tv_layout_without_the_site_header(demo, spectator):
    _, live = demo
    html = spectator.get(reverse("scoreboard", args=[live.pk]) + "?tv=1").content.decode()
    assert re.search(r'<body class="[^"]*\btv\b', html)
    assert "site-header" not in html
    normal = spectator.get(reverse("scoreboard", args=[live.pk])).content.decode()
    assert "site-header" in normal and not re.search(r'<body class="[^"]*\btv\b', normal)


def test_it_answers_404_for_an_unknown_match(demo, spectator):
    assert spectator.get(reverse("scoreboard", args=[99999])).status_code == 404
    assert spectator.get(reverse("overlay", args=[99999])).status_code == 404
    assert spectator.get(reverse("api-match-goals", args=[99999])).status_code == 404
    assert spectator.get(reverse("tournament_live", args=[99999])).status_code == 404


def test_it_refuses_writes_from_the_public(demo, spectator):
    _, live = demo
    for url in (
        reverse("scoreboard", args=[live.pk]),
        reverse("overlay", args=[live.pk]),
        reverse("api-match-goals", args=[live.pk]),
    ):
        assert spectator.post(url, {}).status_code in (403, 405)


def test_the_pages_are_not_cached(demo, spectator):
    _, live = demo
    response = spectator.get(reverse("scoreboard", args=[live.pk]))
    assert "no-cache" in response["Cache-Control"] or "max-age=0" in response["Cache-Control"]


# --- The overlay -----------------------------------------------------------------------------


def test_the_overlay_is_a_bare_bar_for_a_video_source(demo, spectator):
    _, live = demo
    response = spectator.get(reverse("overlay", args=[live.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    assert '<body class="overlay">' in html
    assert "site-header" not in html and "<header" not in html
    data = page_data(response)
    assert f'data-role="score-home">{data["state"]["score"]["home"]}<' in html
    assert live.home.team.name in html


def test_the_overlay_takes_its_language_from_the_address(demo, spectator):
    _, live = demo
    url = reverse("overlay", args=[live.pk])
    spanish = spectator.get(url + "?lang=es")
    assert '<html lang="es"' in spanish.content.decode()
    assert spanish["Content-Language"] == "es"
    assert page_data(spanish)["lang"] == "es"
    assert (
        page_data(spanish)["state"]["restart"]["message"]
        != page_data(spectator.get(url))["state"]["restart"]["message"]
    )
    unknown = spectator.get(url + "?lang=xx")
    assert '<html lang="en"' in unknown.content.decode() and page_data(unknown)["lang"] == "en"


# --- The tournament's day --------------------------------------------------------------------


def test_the_tournament_page_lists_the_days_matches(demo, spectator):
    tournament, live = demo
    response = spectator.get(
        reverse("tournament_live", args=[tournament.pk]) + f"?date={timezone.localdate(live.starts_at)}"
    )
    assert response.status_code == 200
    data = page_data(response)
    ids = [m["id"] for m in data["matches"]]
    assert live.pk in ids
    html = response.content.decode()
    for m in data["matches"]:
        assert f'data-match-id="{m["id"]}"' in html
        assert {"status", "score", "period", "clock"} <= set(m["state"])


@pytest.mark.parametrize(("lang", "words"), [("en", ("Interval", "Half-time")), ("es", ("Intervalo", "Descanso"))])
def test_a_card_off_screen_knows_half_time_from_an_interval(spectator, lang, words):
    """The day's list summarises each state; a card with no socket yet (off screen) words and counts
    down its break from that summary alone, so it carries the interval: its kind and start."""
    from tests.browser.phases import match_in_phase

    interval, halftime = match_in_phase("interval"), match_in_phase("halftime")
    spectator.cookies["django_language"] = lang
    response = spectator.get(reverse("tournament_live", args=[interval.tournament_id]))
    html = response.content.decode()
    for match, word in zip((interval, halftime), words, strict=True):
        card = re.search(rf'data-match-id="{match.pk}".*?data-role="status">([^<]*)<', html, re.S)
        assert card is not None and card.group(1) == word
    listed = spectator.get(f"/api/tournaments/{interval.tournament_id}/matches").json()["matches"]
    breaks = {m["id"]: m["state"]["interval"] for m in listed}
    assert breaks[interval.pk]["kind"] == "interval" and breaks[interval.pk]["seconds"] == 180
    assert breaks[halftime.pk]["kind"] == "halftime" and breaks[halftime.pk]["seconds"] == 300
    assert breaks[halftime.pk]["started_at"] is not None


def test_the_tournament_page_goes_from_day_to_day(demo, spectator):
    tournament, _live = demo
    url = reverse("tournament_live", args=[tournament.pk])
    far = spectator.get(url + "?date=2001-01-01")
    assert far.status_code == 200
    assert page_data(far)["matches"] == [] and page_data(far)["date"] == "2001-01-01"
    html = far.content.decode()
    assert "?date=2000-12-31" in html and "?date=2001-01-02" in html
    bad = spectator.get(url + "?date=yesterday")
    assert bad.status_code == 200 and page_data(bad)["date"] != "yesterday"


# --- Strict CSP, two languages ---------------------------------------------------------------


@pytest.mark.parametrize("name", ["scoreboard", "overlay", "tournament_live"])
def test_the_pages_carry_no_inline_code(demo, spectator, name):
    tournament, live = demo
    arg = tournament.pk if name == "tournament_live" else live.pk
    response = spectator.get(reverse(name, args=[arg]))
    html = response.content.decode()
    for tag in re.findall(r"<script\b[^>]*>", html):
        assert 'src="' in tag or 'type="application/json"' in tag, tag
    assert not re.search(r"\sstyle=", html)
    assert not re.search(r"\son[a-z]+=", html)
    assert "script-src 'self'" in response["Content-Security-Policy"]
    if name != "overlay":  # the overlay's words come translated with the page
        assert reverse("javascript-catalog") in html


def test_the_scoreboard_speaks_spanish(demo, spectator):
    _, live = demo
    spectator.cookies["django_language"] = "es"
    response = spectator.get(reverse("scoreboard", args=[live.pk]))
    html = response.content.decode()
    assert '<html lang="es">' in html
    english = Client().get(reverse("scoreboard", args=[live.pk]))
    # The restart comes from the rules engine in the reader's language.
    message_es = page_data(response)["state"]["restart"]["message"]
    message_en = page_data(english)["state"]["restart"]["message"]
    assert message_es != message_en and "Regla" in message_es
    # Dates in Spanish (Django's own catalog).
    days = ["lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo"]
    assert any(day in html for day in days)


def test_in_spanish_the_goals_table_names_the_goal_scorer_not_the_official(demo, spectator):
    """ "Scorer" means two things in English: the goals table's is the player who scored (translated
    by context), not the official scorer; its time is the time left, like the clock beside it, not
    the time of day."""
    _, live = demo
    html = spectator.get(reverse("scoreboard", args=[live.pk]), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    head = html[html.index('data-role="goals"') - 400 : html.index('data-role="goals"')]
    assert '<th scope="col" data-role="goals-clock-heading">Tiempo restante</th>' in head
    assert '<th scope="col">Goleador</th>' in head
    assert "Anotador" not in head and "Hora" not in head


def test_the_scoreboard_names_the_stage_of_a_knockout_match(demo, spectator):
    _, live = demo
    assert 'data-role="stage"' not in spectator.get(reverse("scoreboard", args=[live.pk])).content.decode()
    Match.objects.filter(pk=live.pk).update(stage="quarterfinal")
    html = spectator.get(reverse("scoreboard", args=[live.pk]), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert '<strong data-role="stage">Cuartos de final</strong>' in html


# --- The language in the address (issue 38) -----------------------------------------------------------


def test_lang_in_the_address_opens_the_scoreboard_in_that_language(demo, spectator):
    _, live = demo
    response = spectator.get(f"/matches/{live.pk}/?lang=es", HTTP_ACCEPT_LANGUAGE="en")
    page = response.content.decode()
    assert response["Content-Language"] == "es" and '<html lang="es">' in page
    assert page_data(response)["lang"] == "es" and "Tanteador en vivo" in page
    assert "/jsi18n/?lang=es" in page  # the script's words too
    # For that address only: the visitor's own choice is the header's switch.
    assert "django_language" not in response.cookies
    assert spectator.get(f"/matches/{live.pk}/", HTTP_ACCEPT_LANGUAGE="en")["Content-Language"] == "en"


def test_the_language_chosen_outlives_the_browsers_session(demo, spectator):
    _, live = demo
    response = spectator.post("/i18n/setlang/", {"language": "es", "next": f"/matches/{live.pk}/"})
    cookie = response.cookies["django_language"]
    assert cookie.value == "es" and int(cookie["max-age"]) >= 300 * 24 * 3600  # not a session cookie
    fresh = Client()  # a fresh browser that kept its cookies (not the session's)
    fresh.cookies["django_language"] = cookie.value
    assert fresh.get(f"/matches/{live.pk}/", HTTP_ACCEPT_LANGUAGE="en")["Content-Language"] == "es"


def test_an_unknown_lang_in_the_address_changes_nothing(demo, spectator):
    _, live = demo
    response = spectator.get(f"/matches/{live.pk}/?lang=xx", HTTP_ACCEPT_LANGUAGE="en")
    assert response["Content-Language"] == "en" and "django_language" not in response.cookies


def test_the_tv_layout_offers_the_other_language(demo, spectator):
    _, live = demo
    page = spectator.get(f"/matches/{live.pk}/?tv=1", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'href="?tv=1&amp;lang=es" lang="es"' in page
    page = spectator.get(f"/matches/{live.pk}/?tv=1&lang=es").content.decode()
    assert 'href="?tv=1&amp;lang=en" lang="en"' in page
