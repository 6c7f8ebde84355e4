"""What an event carries has bounds (issue 36): while play was stopped a ``card`` with ``clock``
99999 or 1e308 was taken (the report printed ``16666666666666:40``), a substitute of handicap
``10**30`` and one with a 5,000-character name too. Beyond its bound a value is refused, naming the
field and the bound, in the official's language, and nothing is logged; at the bound it is taken."""

from __future__ import annotations

import pytest

from matches.models import MatchEvent
from officiating.engine.config import PLAYER_HANDICAP_RANGE
from officiating.engine.strict import NAME_MAX, TEXT_MAX

from .live_helpers import client_for, ev, log, post_event

pytestmark = pytest.mark.django_db


def stopped(match) -> int:
    """Play run and stopped (a whistle): the clock stands still. How many events are logged."""
    log(match, ev("play"))
    log(match, ev("whistle", reason="other", ball={"x": 100, "y": 50}))
    return MatchEvent.objects.filter(match=match).count()


def latest_clock(match) -> float:
    """The period's end and the edition's stamp window (USPA 2026: 7:30 and a minute)."""
    return match.period_seconds + 30 + 60


def refused(response, field: str) -> str:
    assert response.status_code == 422, (response.status_code, response.content[:300])
    error = response.json()["error"]
    assert error["code"] == "invalid_event" and f"'{field}'" in error["message"], error
    return error["message"]


@pytest.mark.parametrize("clock", [99999, 1e308, 10**30])
def test_a_card_with_an_absurd_clock_while_play_is_stopped_is_refused(cast, clock):
    logged = stopped(cast.match_a)
    card = ev("card", team="home", number=2, color="yellow", clock=clock)
    message = refused(post_event(client_for(cast.umpire_a), cast.match_a, card), "clock")
    assert f"0 to {latest_clock(cast.match_a):g}" in message
    assert MatchEvent.objects.filter(match=cast.match_a).count() == logged


def test_the_clock_s_bound_is_taken_and_a_second_more_is_not(cast):
    stopped(cast.match_a)
    client, latest = client_for(cast.umpire_a), latest_clock(cast.match_a)
    refused(
        post_event(client, cast.match_a, ev("card", team="home", number=2, color="yellow", clock=latest + 1)), "clock"
    )
    response = post_event(client, cast.match_a, ev("card", team="home", number=2, color="yellow", clock=latest))
    assert response.status_code == 201, response.content[:300]


def test_the_refusal_is_in_the_officials_language(cast):
    stopped(cast.match_a)
    card = ev("card", team="home", number=2, color="yellow", clock=99999)
    response = post_event(client_for(cast.umpire_a), cast.match_a, card, HTTP_ACCEPT_LANGUAGE="es")
    assert "segundos de 0 a" in refused(response, "clock")


@pytest.mark.parametrize(
    "player,field",
    [
        ({"name": "Juan Sub", "handicap": 10**30}, "player.handicap"),
        ({"name": "Juan Sub", "handicap": 11}, "player.handicap"),
        ({"name": "Juan Sub", "handicap": -3}, "player.handicap"),
        ({"name": "J" * 5000, "handicap": 1}, "player.name"),
        ({"name": "J" * (NAME_MAX + 1), "handicap": 1}, "player.name"),
    ],
)
def test_a_substitute_beyond_a_player_s_bounds_is_refused(cast, player, field):
    logged = stopped(cast.match_a)
    substitution = ev("substitution", team="away", out=3, player=player)
    refused(post_event(client_for(cast.scorer_a), cast.match_a, substitution), field)
    assert MatchEvent.objects.filter(match=cast.match_a).count() == logged


def test_a_substitute_at_the_bounds_is_taken(cast):
    stopped(cast.match_a)
    player = {"name": "J" * NAME_MAX, "handicap": PLAYER_HANDICAP_RANGE[1]}
    response = post_event(
        client_for(cast.scorer_a), cast.match_a, ev("substitution", team="away", out=3, player=player)
    )
    assert response.status_code == 201, response.content[:300]


def test_a_note_or_a_horse_beyond_its_length_is_refused(cast):
    stopped(cast.match_a)
    client = client_for(cast.umpire_a)
    card = ev("card", team="home", number=2, color="yellow")
    refused(post_event(client, cast.match_a, {**card, "private_note": "x" * (TEXT_MAX + 1)}), "private_note")
    refused(post_event(client, cast.match_a, ev("mount", team="home", number=1, horse="H" * (NAME_MAX + 1))), "horse")
    assert post_event(client, cast.match_a, {**card, "private_note": "x" * TEXT_MAX}).status_code == 201
