"""The shootout's lot is drawn once (Rule 14.d: "The team to hit first shall be decided by lot").

Issue 9: a second "Decide the lot" turned heads into tails. Now a second draw is refused and the
lot stands; changing a lot recorded wrongly is a separate committee *correction* that needs a
reason and is recorded with the lot before and after; once the shootout has started the lot can
no longer change at all. The shootout panel shows the lot in force and why it was corrected.

The tie is reached on the server's own clock (events without ``clock``, horns appended by the
clock's catch-up), so these tests do not depend on how device-stamped clocks are judged.
"""

from __future__ import annotations

import time
import uuid

import pytest
from django.urls import reverse

from matches.committee.models import AuditEntry
from matches.committee.services import (
    LOT_DRAWN,
    LOT_NOT_DRAWN,
    LOT_UNCHANGED,
    SHOOTOUT_STARTED,
    Lot,
    shootout_lot,
    shootout_lot_correct,
    shootout_lot_draw,
)
from matches.models import MatchEvent
from matches.services import match_clock_catch_up, match_event_log

from .committee_helpers import Committee, ev

pytestmark = pytest.mark.django_db


def tie_on_the_server_clock(match) -> None:
    """A one-chukker match at 1–1 when its seven-minute (and final) horn sounds: status ``tied``.
    Wall times an hour ago; the server stamps each event's clock itself."""
    t0 = time.time() - 3600
    for dt, event in [
        (0, ev("play")),
        (30, ev("goal", team="home", number=1)),
        (31, ev("play")),
        (61, ev("goal", team="away", number=1)),
        (62, ev("play")),
    ]:
        result = match_event_log(match_id=match.pk, event=event, now=t0 + dt)
        assert result.accepted, (event, result.error and result.error.message("en"))
    match_clock_catch_up(match_id=match.pk, now=t0 + 62 + 390 + 1)  # 60 s played, 390 to go
    match.refresh_from_db()
    assert match.events.filter(type="horn").exists()


@pytest.fixture
def cast() -> Committee:
    cast = Committee(periods=1)
    tie_on_the_server_clock(cast.match)
    return cast


def lot_url(match) -> str:
    return reverse("committee:shootout_lot", args=[match.pk])


def draw(client, match, **data):
    return client.post(lot_url(match), {"caller": "home", "call": "heads", "method": "draw", **data}, follow=True)


def correct(client, match, **data):
    fields = {"caller": "home", "call": "heads", "result": "tails", "reason": "", **data}
    return client.post(
        lot_url(match), {"action": "correct", **{f"correct-{k}": v for k, v in fields.items()}}, follow=True
    )


def start(client, match, first: str = "home"):
    data = {"event_id": str(uuid.uuid4()), "format": "single", "first": first, "home_1": 1, "away_1": 1}
    return client.post(reverse("committee:shootout_start", args=[match.pk]), data, follow=True)


def panel(client, match) -> str:
    return client.get(reverse("committee:shootout", args=[match.pk]), {"fragment": "1"}).content.decode()


def audit_row(page: str, action: str) -> str:
    start_at = page.index(f'<tr data-action="{action}"')
    return page[start_at : page.index("</tr>", start_at)]


# -- drawn once ----------------------------------------------------------------------------------


def test_a_second_draw_is_refused_and_the_lot_stands(cast):
    m, client = cast.match, cast.client()
    draw(client, m, method="entered", result="heads")  # home called heads, it fell heads: home first
    first = shootout_lot(m)
    assert first == Lot(caller="home", call="heads", result="heads", method="entered", winner="home")
    # Again, both ways: the server's draw and a toss entered that would turn heads into tails.
    for data in ({"method": "draw"}, {"method": "entered", "result": "tails"}, {"caller": "away", "call": "tails"}):
        page = draw(client, m, **data)
        html = page.content.decode()
        assert (
            "The lot has already been drawn: it is drawn once. To change it, correct it and say why. (Rule 14.d)"
            in html
        )
        assert "won the lot and hits first" not in html
        assert shootout_lot(m) == first
    assert AuditEntry.objects.filter(match=m, action__startswith="shootout_lot").count() == 1
    # The service itself refuses too (the view is not the only way in).
    assert shootout_lot_draw(match=m, user=cast.member, caller="away", call="tails", result="tails") is LOT_DRAWN
    assert shootout_lot(m) == first


def test_the_panel_shows_the_lot_and_no_second_draw(cast):
    m, client = cast.match, cast.client()
    before = panel(client, m)
    assert 'data-action="lot"' in before and 'data-action="lot-correct"' not in before
    draw(client, m, method="entered", result="tails")  # home called heads, it fell tails: away first
    after = panel(client, m)
    home, away = m.home.team.name, m.away.team.name
    assert f"Lot: {home} called Heads, the coin fell Tails — {away} hit first. (tossed at the field)" in after
    assert 'data-role="lot-form"' not in after and 'data-action="lot"' not in after
    assert 'data-action="lot-correct"' in after and 'name="action" value="correct"' in after
    assert 'data-role="lot-correction"' not in after  # not corrected


# -- the correction --------------------------------------------------------------------------------


def test_a_correction_needs_a_reason(cast):
    m, client = cast.match, cast.client()
    draw(client, m, method="entered", result="heads")
    lot = shootout_lot(m)
    for reason in ("", "   "):
        page = correct(client, m, result="tails", reason=reason)
        assert "Say why the lot is corrected." in page.content.decode()
        assert shootout_lot(m) == lot
    assert not AuditEntry.objects.filter(action="shootout_lot_corrected").exists()
    with pytest.raises(ValueError):
        shootout_lot_correct(match=m, user=cast.member, caller="home", call="heads", result="tails", reason=" ")


def test_a_correction_changes_the_lot_and_is_audited_with_the_old_lot_the_new_and_the_reason(cast):
    m, client = cast.match, cast.client()
    home, away = m.home.team.name, m.away.team.name
    draw(client, m, method="entered", result="heads")  # home first
    reason = "The coin at the field fell tails; heads was entered by mistake"
    page = correct(client, m, caller="home", call="heads", result="tails", reason=reason)
    html = page.content.decode()
    assert "Lot corrected:" in html

    new = shootout_lot(m)
    assert new == Lot(caller="home", call="heads", result="tails", method="entered", winner="away")
    entry = AuditEntry.objects.get(match=m, action="shootout_lot_corrected")
    assert entry.user == cast.member
    assert entry.details == {
        "before": {"caller": "home", "call": "heads", "result": "heads", "method": "entered", "winner": "home"},
        "lot": {"caller": "home", "call": "heads", "result": "tails", "method": "entered", "winner": "away"},
        "reason": reason,
    }
    # The panel shows the corrected lot and why; the start form offers its winner first.
    assert f"Lot: {home} called Heads, the coin fell Tails — {away} hit first." in html
    assert f"Lot corrected by carmen: {reason}" in html
    assert page.context["start_form"].initial["first"] == "away"
    # The match page's audit trail: the lot before, the lot after, the reason.
    row = audit_row(client.get(reverse("committee:match", args=[m.pk])).content.decode(), "shootout_lot_corrected")
    assert "Shootout lot corrected" in row
    assert f"<b>lot before</b> Lot: {home} called Heads, the coin fell Heads — {home} hit first." in row
    assert f"<b>corrected lot</b> Lot: {home} called Heads, the coin fell Tails — {away} hit first." in row
    assert f"<b>reason</b> {reason}" in row


def test_a_drawn_lot_corrected_in_its_caller_only_stays_a_draw(cast):
    m = cast.match
    drawn = shootout_lot_draw(match=m, user=cast.member, caller="home", call="heads")
    lot = shootout_lot_correct(
        match=m,
        user=cast.member,
        caller="away",
        call="heads",
        result=drawn.result,
        reason="The away captain called, not the home one",
    )
    assert lot.method == "draw" and lot.caller == "away" and lot.result == drawn.result
    assert lot.winner == ("away" if drawn.result == "heads" else "home")
    assert shootout_lot(m) == lot


def test_a_correction_that_changes_nothing_or_has_nothing_to_correct_is_refused(cast):
    m = cast.match
    assert (
        shootout_lot_correct(
            match=m, user=cast.member, caller="home", call="heads", result="heads", reason="no lot yet"
        )
        is LOT_NOT_DRAWN
    )
    page = correct(cast.client(), m, reason="no lot yet")
    assert "No lot has been drawn yet: there is nothing to correct. (Rule 14.d)" in page.content.decode()
    shootout_lot_draw(match=m, user=cast.member, caller="home", call="heads", result="heads")
    assert (
        shootout_lot_correct(
            match=m, user=cast.member, caller="home", call="heads", result="heads", reason="same again"
        )
        is LOT_UNCHANGED
    )
    assert not AuditEntry.objects.filter(action="shootout_lot_corrected").exists()


def test_only_the_committee_corrects_the_lot(cast):
    m = cast.match
    shootout_lot_draw(match=m, user=cast.member, caller="home", call="heads", result="heads")
    for user in (cast.umpire, cast.referee, cast.scorer):
        response = cast.client(user).post(
            lot_url(m),
            {
                "action": "correct",
                "correct-caller": "home",
                "correct-call": "heads",
                "correct-result": "tails",
                "correct-reason": "mine",
            },
        )
        assert response.status_code == 403
        assert 'data-action="lot-correct"' not in panel(cast.client(user), m)
    assert shootout_lot(m).result == "heads"


# -- closed once the shootout starts ------------------------------------------------------------------


def test_no_correction_once_the_shootout_has_started(cast):
    m, client = cast.match, cast.client()
    draw(client, m, method="entered", result="heads")
    lot = shootout_lot(m)
    start(client, m, first="home")
    assert MatchEvent.objects.filter(match=m, type="shootout_start").exists()

    page = correct(client, m, result="tails", reason="too late")
    html = page.content.decode()
    assert "The shootout has started: its lot can no longer be drawn or corrected. (Rule 14.d)" in html
    assert shootout_lot(m) == lot
    assert not AuditEntry.objects.filter(action="shootout_lot_corrected").exists()
    assert (
        shootout_lot_correct(match=m, user=cast.member, caller="home", call="heads", result="tails", reason="too late")
        is SHOOTOUT_STARTED
    )
    # The panel still shows the lot, and offers neither a draw nor a correction.
    after = panel(client, m)
    assert 'data-role="lot"' in after and "hit first" in after
    assert 'data-action="lot-correct"' not in after and 'data-action="lot"' not in after


def test_no_lot_is_drawn_after_the_shootout_started_without_one(cast):
    m, client = cast.match, cast.client()
    start(client, m, first="away")
    page = draw(client, m)
    assert "The shootout has started: its lot can no longer be drawn or corrected." in page.content.decode()
    assert shootout_lot(m) is None


# -- in Spanish --------------------------------------------------------------------------------------


def test_the_lot_refusals_and_the_correction_read_in_spanish(cast):
    m, client = cast.match, cast.client()
    home, away = m.home.team.name, m.away.team.name
    es = {"HTTP_ACCEPT_LANGUAGE": "es"}
    draw(client, m, method="entered", result="heads")
    page = client.post(lot_url(m), {"caller": "home", "call": "heads", "method": "draw"}, follow=True, **es)
    assert (
        "El sorteo ya se hizo: se hace una sola vez. Para cambiarlo, corríjalo e indique el motivo. (Regla 14.d)"
        in page.content.decode()
    )
    page = client.post(
        lot_url(m),
        {
            "action": "correct",
            "correct-caller": "home",
            "correct-call": "heads",
            "correct-result": "tails",
            "correct-reason": "",
        },
        follow=True,
        **es,
    )
    assert "Indique por qué se corrige el sorteo." in page.content.decode()
    assert "Corregir el sorteo" in page.content.decode()

    page = client.post(
        lot_url(m),
        {
            "action": "correct",
            "correct-caller": "home",
            "correct-call": "heads",
            "correct-result": "tails",
            "correct-reason": "se cargó mal",
        },
        follow=True,
        **es,
    )
    html = page.content.decode()
    assert f"Sorteo corregido: Sorteo: {home} eligió Cara, la moneda salió Ceca — {away} golpea primero." in html
    assert "Sorteo corregido por carmen: se cargó mal" in html
    row = audit_row(
        client.get(reverse("committee:match", args=[m.pk]), **es).content.decode(), "shootout_lot_corrected"
    )
    assert "Sorteo del shootout corregido" in row
    assert f"<b>sorteo anterior</b> Sorteo: {home} eligió Cara, la moneda salió Cara — {home} golpea primero." in row
    assert f"<b>sorteo corregido</b> Sorteo: {home} eligió Cara, la moneda salió Ceca — {away} golpea primero." in row
    assert "<b>motivo</b> se cargó mal" in row

    start(client, m, first="away")
    page = client.post(
        lot_url(m),
        {
            "action": "correct",
            "correct-caller": "home",
            "correct-call": "heads",
            "correct-result": "heads",
            "correct-reason": "otra vez",
        },
        follow=True,
        **es,
    )
    assert "El shootout ya empezó: su sorteo ya no se puede hacer ni corregir. (Regla 14.d)" in page.content.decode()
