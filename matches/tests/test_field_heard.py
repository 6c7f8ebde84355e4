""" "Last heard from the field" wherever the tournament's server shows a match kept at the field
(issue 35), from the server's field object (``snapshots.field_object``): the public box score, the
committee's report and its PDF, in English and Spanish; the day's list (the tournament's live
page) carries each match's field object; a push from the field tells every screen of the match
when the field was heard (the update its events made, or a ``field`` frame when it brought none)."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.test import Client
from django.utils import timezone

from matches.committee.views import results
from matches.field.models import FieldHeard
from matches.field.sender import batch_body
from matches.field.services import field_token_issue, match_keep_at
from matches.live.snapshots import field_object

from .live_helpers import client_for, communicator, ev, log, receive_until, stop_live_machinery
from .personas import field_copy

HEARD = "Kept at the field: last heard from the field at "
HEARD_ES = "Llevado en la cancha: última noticia de la cancha a las "


def kept(match, minutes_ago: float | None = None):
    match_keep_at(match_id=match.pk, where="field")
    if minutes_ago is not None:
        FieldHeard.objects.create(match=match, at=timezone.now() - timedelta(minutes=minutes_ago))
    match.refresh_from_db()
    return match


@pytest.mark.django_db
def test_the_box_score_and_the_report_say_when_the_field_was_last_heard(cast):
    match = kept(cast.match_a, minutes_ago=5)
    heard = field_object(match, time.time())["heard_at"]
    at = timezone.localtime(FieldHeard.objects.get(match=match).at).strftime("%Y-%m-%d %H:%M:%S")
    assert heard == FieldHeard.objects.get(match=match).at.timestamp()
    box = Client().get(f"/matches/{match.pk}/stats/").content.decode()
    assert HEARD + at + " (5\xa0minutes ago)" in box
    box_es = Client(headers={"accept-language": "es"}).get(f"/matches/{match.pk}/stats/").content.decode()
    assert HEARD_ES + at + " (hace 5\xa0minutos)" in box_es
    report = client_for(cast.committee).get(f"/committee/matches/{match.pk}/report/").content.decode()
    assert 'data-role="field-heard"' in report and HEARD + at in report
    report_es = client_for(cast.committee, headers={"accept-language": "es"})
    assert HEARD_ES + at in report_es.get(f"/committee/matches/{match.pk}/report/").content.decode()


@pytest.mark.django_db
def test_the_report_pdf_carries_the_same_sentence(cast, monkeypatch):
    match = kept(cast.match_a, minutes_ago=2)
    said = []
    real = results.reports.match_report_pdf
    monkeypatch.setattr(
        results.reports, "match_report_pdf", lambda data, lang, note=None: said.append(note) or real(data, lang, note)
    )
    answer = client_for(cast.committee).get(f"/committee/matches/{match.pk}/report.pdf")
    assert answer.status_code == 200 and answer.content.startswith(b"%PDF")
    assert said and said[0].startswith(HEARD)


@pytest.mark.django_db
def test_not_heard_yet_and_a_match_kept_here(cast):
    match = kept(cast.match_a)
    page = Client().get(f"/matches/{match.pk}/stats/").content.decode()
    assert "Kept at the field: not heard from the field yet" in page
    other = Client().get(f"/matches/{cast.match_b.pk}/stats/").content.decode()
    assert 'data-role="field-heard"' not in other


@pytest.mark.django_db
def test_the_days_list_carries_each_matchs_field_object(cast):
    match = kept(cast.match_a, minutes_ago=1)
    day = timezone.localdate(match.starts_at).isoformat()
    listed = Client().get(f"/api/tournaments/{match.tournament_id}/matches?date={day}").json()["matches"]
    by_id = {m["id"]: m for m in listed}
    state = Client().get(f"/api/matches/{match.pk}/state").json()
    assert by_id[match.pk]["field_state"]["kept_at"] == "field"
    assert by_id[match.pk]["field_state"]["heard_at"] == state["field"]["heard_at"]
    assert "kept_at" not in by_id[cast.match_b.pk]["field_state"]
    page = Client().get(f"/tournaments/{match.tournament_id}/live/?date={day}").content.decode()
    assert 'data-role="kept-at-field"' in page


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_push_from_the_field_tells_every_screen_when_it_was_heard(cast):
    def setup():
        copy = field_copy(cast.match_a)
        log(copy, ev("play"), now=time.time() - 60)
        _token, secret = field_token_issue(match=cast.match_a)
        match_keep_at(match_id=cast.match_a.pk, where="field")
        return copy, secret

    copy, secret = await database_sync_to_async(setup)()
    screen = communicator(cast.match_a.pk)
    assert (await screen.connect())[0]
    snapshot = await receive_until(screen, "snapshot")
    assert snapshot["field"]["kept_at"] == "field" and snapshot["field"]["heard_at"] is None
    before = time.time()

    def push():
        return Client().post(
            f"/api/field/matches/{cast.match_a.pk}/log",
            batch_body(copy.pk, 0),
            content_type="application/json",
            headers={"authorization": f"Bearer {secret}"},
        )

    assert (await database_sync_to_async(push)()).status_code == 200
    # A push with events is told by their update (a screen takes it as the field heard at its
    # server_time: live.js), with no field frame of its own to every viewer.
    update = await receive_until(screen, "update")
    assert update["last_seq"] == 1 and update["server_time"] >= before
    # A push with nothing new (the field's heartbeat) is told in a field frame: the first field
    # frame the screen gets is this one's, not the first push's.
    again = time.time()
    assert (await database_sync_to_async(push)()).status_code == 200
    frame = await receive_until(screen, "field")
    assert frame["field"]["kept_at"] == "field" and frame["field"]["heard_at"] >= again
    await screen.disconnect()
    await stop_live_machinery()
