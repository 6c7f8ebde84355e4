"""The shootout (Rule 14.d) from the tie to the winner: the lot (who called, how the coin fell —
drawn by the server or tossed at the field — recorded in the audit trail), the format and the
hitting order, each hit in turn, the line of each round, the winner by one goal."""

from __future__ import annotations

import uuid

import pytest
from django.urls import reverse

from matches.committee.models import AuditEntry
from matches.committee.services import shootout_lot_draw
from matches.models import MatchEvent
from matches.selectors import match_state

from .committee_helpers import Committee, tie_one_chukker
from .personas import make_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def cast() -> Committee:
    cast = Committee(periods=1)
    tie_one_chukker(cast.match)
    return cast


def start(client, match, *, fmt: str = "team", first: str = "home", home=(1, 2, 3, 4), away=(4, 3, 2, 1)):
    data = {"event_id": str(uuid.uuid4()), "format": fmt, "first": first}
    for position, number in enumerate(home, start=1):
        data[f"home_{position}"] = number
    for position, number in enumerate(away, start=1):
        data[f"away_{position}"] = number
    return client.post(reverse("committee:shootout_start", args=[match.pk]), data, follow=True)


def now_state(match) -> dict:
    match.refresh_from_db()
    return match_state(match)


def hit(client, match, scored: bool, *, team: str | None = None, number: int | None = None):
    nxt = now_state(match)["shootout"]["next"]
    return client.post(
        reverse("committee:shootout_attempt", args=[match.pk]),
        {
            "event_id": str(uuid.uuid4()),
            "team": team or nxt["team"],
            "number": number or nxt["number"],
            "scored": "1" if scored else "0",
        },
        follow=True,
    )


def test_the_server_draws_the_lot_and_records_who_called(cast):
    client = cast.client()
    page = client.post(
        reverse("committee:shootout_lot", args=[cast.match.pk]),
        {"caller": "away", "call": "tails", "method": "draw"},
        follow=True,
    )
    entry = AuditEntry.objects.get(match=cast.match, action="shootout_lot")
    lot = entry.details
    assert entry.user == cast.member
    assert lot["caller"] == "away" and lot["call"] == "tails" and lot["method"] == "draw"
    assert lot["result"] in ("heads", "tails")
    assert lot["winner"] == ("away" if lot["result"] == "tails" else "home")
    winner = cast.match.away if lot["winner"] == "away" else cast.match.home
    assert f"{winner.team.name} won the lot and hits first" in page.content.decode()
    # the start form offers the lot's winner as the team hitting first
    assert page.context["start_form"].initial["first"] == lot["winner"]


def test_the_draw_is_not_fixed(cast):
    # A lot is drawn once per match (test_committee_lot.py): draw one on each of 40 matches.
    m = cast.match
    matches = [m] + [make_match(tournament=m.tournament, field=m.field, home=m.home, away=m.away) for _ in range(39)]
    results = {shootout_lot_draw(match=each, user=cast.member, caller="home", call="heads").result for each in matches}
    assert results == {"heads", "tails"}


def test_a_toss_at_the_field_is_entered(cast):
    cast.client().post(
        reverse("committee:shootout_lot", args=[cast.match.pk]),
        {"caller": "home", "call": "heads", "method": "entered", "result": "tails"},
    )
    lot = AuditEntry.objects.get(match=cast.match, action="shootout_lot").details
    assert lot == {"caller": "home", "call": "heads", "result": "tails", "method": "entered", "winner": "away"}


def test_an_entered_toss_needs_its_result(cast):
    page = cast.client().post(
        reverse("committee:shootout_lot", args=[cast.match.pk]),
        {"caller": "home", "call": "heads", "method": "entered"},
        follow=True,
    )
    assert "Enter how the coin fell." in page.content.decode()
    assert not AuditEntry.objects.filter(action="shootout_lot").exists()


def test_a_team_shootout_from_the_tie_to_the_winner(cast):
    m = cast.match
    client = cast.client()
    client.post(
        reverse("committee:shootout_lot", args=[m.pk]),
        {"caller": "home", "call": "heads", "method": "entered", "result": "heads"},
    )
    page = start(client, m, first="home")
    so = page.context["state"]["shootout"]
    assert page.context["state"]["status"] == "shootout"
    assert so["format"] == "team" and so["line"] == 40 and so["next"] == {"team": "home", "number": 1}
    hitters = []
    while now_state(m)["status"] == "shootout":
        nxt = now_state(m)["shootout"]["next"]
        hitters.append((nxt["team"], nxt["number"]))
        page = hit(client, m, scored=nxt["team"] == "home")
    state = page.context["state"]
    # teams alternate, each in its own order, the lot's winner first
    assert hitters[:4] == [("home", 1), ("away", 4), ("home", 2), ("away", 3)]
    assert state["status"] == "final" and state["winner"] == "home" and state["result"] == "shootout"
    assert state["score"] == {"home": 2, "away": 1}  # the tie, then the winner by one goal
    html = page.content.decode()
    assert 'data-role="winner"' in html and "(shootout: by one goal, Rule 14.d)" in html
    assert page.context["rounds"][0]["line"] == 40
    assert all(h["scored"] == (h["team"] == "home") for h in page.context["rounds"][0]["hits"])
    start_entry = AuditEntry.objects.get(match=m, action="shootout_start")
    assert start_entry.details["lot"]["winner"] == "home"
    assert AuditEntry.objects.filter(match=m, action="shootout_attempt").count() == len(hitters)


def test_a_one_player_shootout_moves_back_to_the_sixty(cast):
    m = cast.match
    client = cast.client()
    start(client, m, fmt="single", first="away", home=(3,), away=(2,))
    hit(client, m, True)
    page = hit(client, m, True)
    so = page.context["state"]["shootout"]
    assert so["round"] == 2 and so["line"] == 60 and so["points"] == {"home": 1, "away": 1}
    assert [r["line"] for r in page.context["rounds"]] == [40, 60]
    assert "from the 60-yard line" in page.content.decode()


def test_a_hit_out_of_turn_is_refused(cast):
    m = cast.match
    client = cast.client()
    start(client, m, first="home")
    page = hit(client, m, True, team="away", number=4)
    assert "(Rule 14.d)" in page.content.decode()
    assert not MatchEvent.objects.filter(match=m, type="shootout_attempt").exists()


def test_the_umpires_follow_and_record_hits_but_do_not_run_it(cast):
    m = cast.match
    start(cast.client(), m, first="home")
    umpire = cast.client(cast.umpire)
    page = umpire.get(reverse("committee:shootout", args=[m.pk]))
    assert page.status_code == 200 and 'data-action="scored"' in page.content.decode()
    assert 'data-role="lot-form"' not in page.content.decode()
    hit(umpire, m, True)
    assert MatchEvent.objects.get(match=m, type="shootout_attempt").sent_by == cast.umpire
    assert (
        umpire.post(
            reverse("committee:shootout_lot", args=[m.pk]), {"caller": "home", "call": "heads", "method": "draw"}
        ).status_code
        == 403
    )


def test_the_panel_alone_is_served_for_the_live_refresh(cast):
    response = cast.client().get(reverse("committee:shootout", args=[cast.match.pk]), {"fragment": "1"})
    html = response.content.decode()
    assert response.status_code == 200 and html.lstrip().startswith('<section class="card shootout-board"')
