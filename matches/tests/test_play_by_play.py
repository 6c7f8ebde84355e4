"""The public play-by-play (/matches/{id}/play-by-play/ and its list, .../entries/).

The spectator (anonymous) reads it. The demo match (two chukkers and part of a third) gives the
events: chukker 1 opens with a ball over the side, then La Dolfina Blue's #1 (Adolfo Cambiaso)
scores at 1:35 against Ellerstina Red's handicap goal, and so on (matches/demo.py).
"""

from __future__ import annotations

import re
import time
import uuid

import pytest
from django.test import Client
from django.urls import reverse

from matches.demo import load_demo
from matches.models import Match, MatchEvent
from matches.services import match_event_log

pytestmark = pytest.mark.django_db


@pytest.fixture
def live() -> Match:
    _, match = load_demo()
    match.refresh_from_db()
    return match


def log(match: Match, user=None, **event) -> str:
    event_id = str(uuid.uuid4())
    result = match_event_log(
        match_id=match.pk, event={"id": event_id, **event}, user=user or match.scorer, now=time.time()
    )
    assert result.accepted, result.error
    match.refresh_from_db()
    return event_id


def read(path: str, lang: str = "en") -> str:
    response = Client(headers={"accept-language": lang}).get(path)
    assert response.status_code == 200
    return response.content.decode()


def page(match: Match, lang: str = "en") -> str:
    return read(reverse("play_by_play", args=[match.pk]), lang)


def entries(match: Match, lang: str = "en") -> str:
    return read(reverse("play_by_play_entries", args=[match.pk]), lang)


def shown_seqs(html: str) -> list[int]:
    return [int(s) for s in re.findall(r'<li data-seq="(\d+)"', html)]


def entry(html: str, seq: int) -> str:
    found = re.search(rf'<li data-seq="{seq}".*?</li>', html, re.S)
    assert found, f"entry {seq} is shown"
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", found.group(0))).replace("&#x27;", "'")


def test_it_shows_every_event_that_counts_in_order_under_its_chukker(live):
    html = page(live)
    seqs = shown_seqs(html)
    # The demo's 31 events but the "play" that only takes the restart the entry before gave (a
    # play is shown where it opens a chukker: 1, 14, 26) and the final horn of chukker 2 logged a
    # second time (25).
    plays = {3, 5, 7, 9, 11, 16, 18, 20, 22, 28, 30}
    assert seqs == [s for s in range(1, 32) if s not in plays and s != 25]
    headings = re.findall(r"<h2>(.*?)</h2>", html)
    assert headings == ["Chukker 1", "Chukker 2", "Chukker 3"]
    chukker_2 = html[html.index("Chukker 2") : html.index("Chukker 3")]
    assert shown_seqs(chukker_2) == [14, 15, 17, 19, 21, 23, 24]
    # Chukker 1 ended on a ball over the side after the seven-minute horn: its free hit opens chukker 2.
    assert "0:00 The chukker begins with the free hit to Ellerstina Red." in entry(chukker_2, 14)
    assert "Final horn: end of the chukker." in entry(chukker_2, 24)


def test_the_horn_logged_twice_gives_the_throw_in_where_the_officials_horn_put_it(live):
    """The demo's chukker 2 ends by the clock's double horn (24, no ball) and the scorer's (25,
    the ball at x 150, y 40): one line, which gives the restart the second horn made (22.g: a
    throw-in where the ball was), not the first's throw-in at the centre."""
    payloads = dict(MatchEvent.objects.filter(match=live, seq__in=[24, 25]).values_list("seq", "payload"))
    assert payloads[24]["id"].startswith("auto:") and "ball" not in payloads[24]
    assert payloads[25]["ball"] == {"x": 150, "y": 40}
    html = page(live)
    assert 25 not in shown_seqs(html)
    line = entry(html, 24)
    assert "throw-in where the ball was dead, toward the west side" in line, line
    assert "at the centre" not in line
    spanish = entry(page(live, "es"), 24)
    assert "Regla 22.g" in spanish and "centro" not in spanish, spanish


def test_a_goal_says_who_scored_the_score_after_it_and_the_restart_with_its_rule(live):
    text = entry(page(live), 4)
    assert "1:35" in text  # time played in the chukker, as the page's note says
    assert "Goal for La Dolfina Blue, hit by Adolfo Cambiaso (La Dolfina Blue, No. 1)." in text
    assert "La Dolfina Blue 1 – 1 Ellerstina Red" in text  # Ellerstina Red started with a handicap goal
    assert "Rule 22.e(1): throw-in at the centre after the goal, ends changed" in text


def test_a_foul_names_the_penalty_and_the_rule(live):
    text = entry(page(live), 8)
    assert "Foul by Gonzalo Pieres (Ellerstina Red, No. 2): Penalty 3 to La Dolfina Blue." in text
    assert "Rule 22.b: Penalty 3 to La Dolfina Blue" in text
    # The goal that ended the run of play of a Penalty 4 taken by Ellerstina Red: the engine's record
    # (the box score's and the report's) says which penalty it came from.
    assert "Penalty 4 goal for Ellerstina Red, hit by Facundo Pieres" in entry(page(live), 17)


def test_it_reads_in_spanish_with_the_rule_cited_in_spanish(live):
    html = page(live, "es")
    assert '<html lang="es">' in html
    assert re.findall(r"<h2>(.*?)</h2>", html) == ["Chukker 1", "Chukker 2", "Chukker 3"]
    goal = entry(html, 4)
    assert "Gol de La Dolfina Blue, de Adolfo Cambiaso (La Dolfina Blue, n.º 1)." in goal
    assert "Regla 22.e(1): lanzamiento del umpire en el centro después del gol, con los lados cambiados" in goal
    assert "Regla 22.a: saque de fondo de Ellerstina Red" in entry(html, 6)
    assert "Los tiempos son tiempo jugado" in html
    assert "Goal for" not in html and "Rule 22" not in html


def test_it_never_shows_the_officials_notes_nor_who_logged_an_event(live):
    log(live, type="play", note="NOTE-FOR-OFFICIALS")
    log(
        live,
        type="whistle",
        reason="injured_player",
        ball={"x": 100, "y": 50},
        team="home",
        number=2,
        private_note="PRIVATE-NOTE",
        note="ANOTHER-NOTE",
    )
    for html in (page(live), entries(live), page(live, "es")):
        assert "NOTE-FOR-OFFICIALS" not in html and "PRIVATE-NOTE" not in html and "ANOTHER-NOTE" not in html
        assert "Sam Scorer" not in html  # the demo's scorer logged every event
    text = entry(page(live), live.last_seq)
    assert "Play stopped: injured player. Poroto Ruiz (La Dolfina Blue, No. 2)." in text
    # The restart, and the time the injury allows (Rule 21.d), each with its rule.
    assert "Rule 22.e(4): throw-in where the ball was dead, toward the west side" in text
    assert "Rule 21.d: 10 minutes allowed." in text


def test_a_voided_event_and_its_void_are_not_shown_and_the_score_is_as_corrected(live):
    log(live, type="play")
    goal = log(live, type="goal", team="away", number=4)
    goal_seq = live.last_seq
    assert goal_seq in shown_seqs(entries(live))
    log(live, type="void", target=goal, reason="the ball went wide: NOT-FOR-THE-PUBLIC")
    html = entries(live)
    assert goal_seq not in shown_seqs(html)
    assert live.last_seq not in shown_seqs(html)  # the void itself
    assert f'data-role="log" data-seq="{live.last_seq}"' in html  # yet the list is as of the void
    assert "NOT-FOR-THE-PUBLIC" not in html and "Polito Pieres" not in html
    assert "Score: La Dolfina Blue 3 – 3 Ellerstina Red" in html  # as before the goal
    assert MatchEvent.objects.filter(match=live, seq=goal_seq).exists()  # the log keeps both


def test_a_free_text_reason_is_not_shown_but_a_known_one_is_in_words(live):
    log(live, user=live.referee, type="suspend", reason="SOMETHING-ONLY-THE-OFFICIALS-SAID")
    text = entry(page(live), live.last_seq)
    assert "The game is suspended." in text and "Rule 21.k" in text
    assert "SOMETHING-ONLY" not in page(live)
    log(live, user=live.referee, type="resume", reason="darkness passed")
    log(live, user=live.referee, type="suspend", reason="darkness")
    assert "The game is suspended: darkness." in entry(page(live), live.last_seq)


def test_the_list_follows_the_log_position(live):
    """What the page's script swaps in after an update: the list as of the newest position."""
    before = entries(live)
    assert f'data-role="log" data-seq="{live.last_seq}"' in before
    log(live, type="play")
    log(live, type="goal", team="away", number=3)
    after = entries(live)
    assert f'data-role="log" data-seq="{live.last_seq}"' in after
    text = entry(after, live.last_seq)
    assert "Goal for Ellerstina Red, hit by Nicolas Pieres" in text
    assert "La Dolfina Blue 3 – 4 Ellerstina Red" in text


def test_a_match_not_started_says_so(live):
    later = Match.objects.exclude(pk=live.pk).filter(last_seq=0).first()
    html = page(later)
    assert shown_seqs(html) == []
    assert "Nothing yet: the play-by-play begins with the throw-in." in html
    assert 'data-role="log" data-seq="0"' in html


def test_the_page_hands_its_script_the_state_and_the_lists_address(live):
    html = page(live)
    assert '<script id="live-data" type="application/json">' in html
    assert reverse("play_by_play_entries", args=[live.pk]) in html
    assert "js/play-by-play.js" in html and "<script>" not in html  # no inline script (CSP)
    assert 'style="' not in html  # nor inline style


def test_the_scoreboard_links_to_the_play_by_play(live):
    assert reverse("play_by_play", args=[live.pk]) in read(reverse("scoreboard", args=[live.pk]))


# --- A whole match, to its shootout ----------------------------------------------------------------


@pytest.fixture
def to_the_shootout():
    """A one-chukker match played to a tie and decided by a shootout, its times given (``now``) so
    that it ended before anyone reads it. Blue 1 and Red 1 are the teams' first players."""
    from matches.permissions import SCORER_GROUP
    from matches.tests.personas import make_committee_member, make_match, make_user

    match = make_match(scorer=make_user("sam", SCORER_GROUP), periods=1)
    committee = make_committee_member("carmen", match.tournament)
    t0 = time.time() - 3600

    def at(seconds: float, user=None, **event) -> None:
        result = match_event_log(
            match_id=match.pk, event={"id": str(uuid.uuid4()), **event}, user=user or match.scorer, now=t0 + seconds
        )
        assert result.accepted, (event, result.error)

    at(0, type="play")
    at(30, type="goal", team="home", number=1, clock=30)
    at(40, type="card", team="away", number=2, color="yellow")
    at(41, type="substitution", team="away", out=4, player={"name": "Reserve Player", "handicap": 1})
    at(42, type="mount", team="home", number=1, horse="Lucera")
    at(43, type="clock_set", clock=25, reason="the horn was late")
    at(50, type="play")
    at(70, type="foul", against="home", number=3, penalty="2", card="yellow", clock=45)
    at(80, type="play")
    at(90, type="goal", team="away", number=4, clock=55)
    at(100, type="play")
    at(465, type="horn", kind="seven", clock=420)
    at(495, type="horn", kind="final", clock=450)
    order = {"home": [1], "away": [1]}
    at(600, user=committee, type="shootout_start", format="single", first="home", order=order)
    # One hit each: the round is complete and the points differ, so it is decided (Rule 14.d).
    for team, number, scored in (("home", 1, True), ("away", 1, False)):
        at(610, user=committee, type="shootout_attempt", team=team, number=number, scored=scored)
    match.refresh_from_db()
    return match


def test_a_whole_match_reads_from_the_throw_in_to_the_result(to_the_shootout):
    match = to_the_shootout
    html = page(match)
    assert match.status == "final", match.status
    headings = re.findall(r"<h2>(.*?)</h2>", html)
    assert headings == ["Chukker 1", "Shootout"]
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace("&#x27;", "'")
    for sentence in (
        "Throw-in: the chukker begins.",
        "Goal for Blue 0, hit by Blue 0 1 (Blue 0, No. 1).",
        "Yellow card for Red 1 2 (Red 1, No. 2).",
        "Substitution for Red 1: Reserve Player replaces Red 1 4 (Red 1, No. 4).",
        "Blue 0 1 (Blue 0, No. 1) changes horse.",
        "The umpires set the clock to 0:25 played. Rule 14.b(1)",
        "Foul by Blue 0 3 (Blue 0, No. 3): Penalty 2 to Red 1. Yellow card.",
        # After the substitution, Red's No. 4 is the reserve; the goal ends the run of play of the
        # Penalty 2 Red took, so it is a penalty goal, as the box score counts it.
        "Penalty 2 goal for Red 1, hit by Reserve Player (Red 1, No. 4). Blue 0 1 – 1 Red 1",
        "Seven-minute horn: the chukker ends at the next stoppage or the second horn. Rule 14.b(1)",
        "Final horn: the match is tied.",
        "The committee orders a shootout; Blue 0 hit first. Rule 14.d",
        "Shootout, round 1, from 40 yards: Blue 0 1 (Blue 0, No. 1) scores.",
        "Shootout, round 1, from 40 yards: Red 1 1 (Red 1, No. 1) misses.",
        "Blue 0 won in a shootout.",
    ):
        assert sentence in text, sentence
    assert "Shootout 1–0" in text  # the running tally after the last hit
    assert "the horn was late" not in text  # a free-text reason


def test_a_whole_match_reads_in_spanish(to_the_shootout):
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page(to_the_shootout, "es")))
    for sentence in (
        "Lanzamiento: comienza el chukker.",
        "Falta de Blue 0 3 (Blue 0, n.º 3): Penal 2 para Red 1.",
        "Regla 22.b: Penal 2 para Red 1",
        "Bocina final: el partido está empatado.",
        "El Comité ordena un shootout; patea primero Blue 0. Regla 14.d",
        "Shootout, ronda 1, desde 40 yardas: Red 1 1 (Red 1, n.º 1) falla.",
    ):
        assert sentence in text, sentence


def test_a_chukker_opened_by_a_carried_over_free_hit_begins_with_that_free_hit_not_a_throw_in():
    """14.b(2): after the seven-minute horn a ball over the side ends the chukker, and its free hit
    (22.f) opens the next one. The line of the "Play" that opens chukker 2 says so (issue 38),
    instead of "Throw-in: the chukker begins" right after the line that carried the free hit over."""
    from matches.permissions import SCORER_GROUP
    from matches.tests.personas import make_match, make_user

    match = make_match(scorer=make_user("sam", SCORER_GROUP), periods=2)
    t0 = time.time() - 3600

    def at(seconds: float, **event) -> int:
        result = match_event_log(
            match_id=match.pk, event={"id": str(uuid.uuid4()), **event}, user=match.scorer, now=t0 + seconds
        )
        assert result.accepted, (event, result.error)
        match.refresh_from_db()
        return match.last_seq

    at(0, type="play")
    at(420, type="horn", kind="seven", clock=420)
    # Blue hits it over the side line at midfield: a free hit to Red, carried over to chukker 2.
    out = at(
        425, type="ball_out", line="side", at={"x": 150, "y": 0}, last_hit_by="home", deflected_off="none", clock=425
    )
    opens = at(425 + 300, type="play")
    html = page(match)
    assert "next period" in entry(html, out)  # the line that carries the free hit over
    red = match.away.team.name
    assert f"The chukker begins with the free hit to {red}." in entry(html, opens)
    assert "Throw-in" not in entry(html, opens)
    spanish = entry(page(match, "es"), opens)
    assert f"Comienza el chukker con el tiro libre para {red}." in spanish, spanish
