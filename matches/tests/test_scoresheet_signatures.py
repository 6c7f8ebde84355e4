"""The official scoresheet: at the final result each umpire and the referee signs from their own
login; the signature binds the log by its hash (docs/SCORESHEET.md); any event accepted after it (a
void, a forfeit) breaks it, and the committee's page, the report and the API say so."""

from __future__ import annotations

import hashlib
import json

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from matches.committee.models import AuditEntry
from matches.models import MatchEvent
from matches.scoresheet.hashing import canonical_event, log_hash
from matches.scoresheet.models import Signature
from matches.scoresheet.selectors import scoresheet
from matches.scoresheet.services import SignatureRefused, scoresheet_sign

from .committee_helpers import Committee, ev, log, win_one_chukker
from .personas import make_user
from .scoresheet_helpers import correct

pytestmark = pytest.mark.django_db


def sign(client: Client, match, digest: str | None = None):
    digest = digest or log_hash(match.pk)[1]
    return client.post(
        f"/api/matches/{match.pk}/scoresheet/signatures", {"log_hash": digest}, content_type="application/json"
    )


def test_the_log_hash_is_the_sha256_of_the_canonical_lines(finished):
    rows = MatchEvent.objects.filter(match=finished.match).order_by("seq")
    lines = []
    for row in rows:
        fields = {k: v for k, v in row.payload.items() if k not in ("id", "type")}
        record = {"fields": fields, "id": row.client_id, "seq": row.seq, "type": row.type}
        lines.append(json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n")
    expected = hashlib.sha256("".join(lines).encode()).hexdigest()
    assert log_hash(finished.match.pk) == (finished.match.last_seq, expected)
    assert log_hash(finished.match.pk, upto=2)[0] == 2 and log_hash(finished.match.pk, upto=2)[1] != expected


def test_the_canonical_line_sorts_keys_and_keeps_accents():
    line = canonical_event(3, "abc", "mount", {"type": "mount", "id": "abc", "horse": "Ñandú", "team": "home"})
    assert line == '{"fields":{"horse":"Ñandú","team":"home"},"id":"abc","seq":3,"type":"mount"}'


def test_the_umpire_and_the_referee_sign_at_the_final(finished):
    for official, role in ((finished.umpire, "umpire"), (finished.referee, "referee")):
        response = sign(finished.client(official), finished.match)
        assert response.status_code == 201
        assert any(s["username"] == official.username and s["role"] == role for s in response.json()["signatures"])
    sheet = scoresheet(finished.match)
    assert sheet.complete and not sheet.broken and not sheet.missing
    entries = AuditEntry.objects.filter(match=finished.match, action=AuditEntry.Action.SCORESHEET_SIGN)
    assert entries.count() == 2 and {e.scope for e in entries} == {AuditEntry.Scope.OFFICIAL}


@pytest.mark.parametrize("who", ["scorer", "member", "other_umpire", "spectator"])
def test_only_the_match_umpires_and_referee_sign(finished, who):
    user = make_user("someone") if who == "spectator" else getattr(finished, who)
    response = sign(finished.client(user), finished.match)
    assert response.status_code == 403 and "scoresheet" not in response.json()
    assert not Signature.objects.exists()


def test_it_refuses_the_anonymous(finished):
    assert sign(Client(), finished.match).status_code == 403


def test_it_is_signed_at_the_final_result_only():
    cast = Committee(periods=1)
    log(cast.match, ev("play"))
    response = sign(cast.client(cast.umpire), cast.match)
    assert response.status_code == 422 and response.json()["error"]["code"] == "not_final"


def test_a_signature_binds_only_the_log_its_signer_saw(finished):
    seen = log_hash(finished.match.pk)[1]
    correct(finished)
    response = sign(finished.client(finished.umpire), finished.match, seen)
    assert response.status_code == 409 and response.json()["error"]["code"] == "log_changed"
    assert response.json()["scoresheet"]["log_hash"] != seen
    assert not Signature.objects.exists()


def test_a_correction_after_signing_breaks_the_signatures(finished):
    sign(finished.client(finished.umpire), finished.match)
    sign(finished.client(finished.referee), finished.match)
    correct(finished)
    finished.match.refresh_from_db()
    sheet = scoresheet(finished.match)
    assert not sheet.complete and len(sheet.broken) == 2 and len(sheet.missing) == 2
    data = finished.client(finished.umpire).get(f"/api/matches/{finished.match.pk}/scoresheet").json()
    assert data["broken"] and not data["complete"] and all(not s["valid"] for s in data["signatures"])
    # The committee's page and the report say so.
    for url in (
        reverse("committee:match", args=[finished.match.pk]),
        reverse("committee:report", args=[finished.match.pk]),
    ):
        page = finished.client().get(url).content.decode()
        assert 'data-broken="1"' in page and "must sign again" in page
    # Signing again binds the corrected log.
    assert sign(finished.client(finished.umpire), finished.match).status_code == 201
    sheet = scoresheet(finished.match)
    assert [s.valid for s in sheet.signatures if s.role == "umpire"] == [True]


def test_a_forfeit_breaks_the_signatures(finished):
    sign(finished.client(finished.umpire), finished.match)
    response = finished.client().post(
        reverse("committee:match_forfeit", args=[finished.match.pk]),
        {"team": "home", "reason": "other", "evidence": "video", "event_id": "f0f0f0f0-0000-4000-8000-000000000001"},
    )
    assert response.status_code == 302
    assert MatchEvent.objects.filter(match=finished.match, type="forfeit").exists()
    finished.match.refresh_from_db()
    sheet = scoresheet(finished.match)
    assert sheet.broken and sheet.signatures[0].last_seq < finished.match.last_seq


def test_the_officials_read_the_scoresheet_and_the_public_does_not(finished):
    assert finished.client(finished.scorer).get(f"/api/matches/{finished.match.pk}/scoresheet").status_code == 200
    assert Client().get(f"/api/matches/{finished.match.pk}/scoresheet").status_code == 403


def test_signatures_are_append_only(finished):
    signature = scoresheet_sign(match_id=finished.match.pk, official=finished.umpire)
    with pytest.raises(ValidationError):
        signature.save()
    with pytest.raises(ValidationError):
        signature.delete()


def test_the_service_refuses_a_stale_hash():
    cast = Committee(periods=1)
    win_one_chukker(cast.match)
    with pytest.raises(SignatureRefused) as refused:
        scoresheet_sign(match_id=cast.match.pk, official=cast.referee, seen_hash="0" * 64)
    assert refused.value.code == "log_changed"


def test_the_tablet_carries_the_sign_off_control(finished):
    page = finished.client(finished.umpire).get(reverse("referee", args=[finished.match.pk])).content.decode()
    assert 'id="scoresheet-signoff-data"' in page and '"can_sign": true' in page
    page = finished.client(finished.scorer).get(reverse("referee", args=[finished.match.pk])).content.decode()
    assert '"can_sign": false' in page


def test_the_audit_trail_names_the_signer_role_in_the_reader_language(finished):
    sign(finished.client(finished.referee), finished.match)
    page = finished.client().get(reverse("committee:match", args=[finished.match.pk]), HTTP_ACCEPT_LANGUAGE="es")
    text = page.content.decode()
    assert "Planilla firmada" in text and "Planilla oficial" in text


def test_a_clock_correction_breaks_the_signatures():
    """The final horn voided (it sounded early), the clock set, the horn again: the officials had
    signed the first final, so their signatures are broken; they sign the new final again."""
    cast = Committee(periods=1)
    horn = ev("horn", kind="final", clock=450, ball={"x": 150, "y": 80})
    log(cast.match, ev("play"), ev("goal", team="home", number=2, clock=60), ev("play"), horn)
    cast.match.refresh_from_db()
    scoresheet_sign(match_id=cast.match.pk, official=cast.umpire)
    scoresheet_sign(match_id=cast.match.pk, official=cast.referee)
    assert scoresheet(cast.match).complete
    state = log(
        cast.match,
        ev("void", target=horn["id"], reason="the horn sounded early"),
        ev("clock_set", clock=400, reason="the horn sounded early"),
        user=cast.umpire,
    )
    assert state["status"] != "final"
    state = log(cast.match, ev("horn", kind="final", clock=450, ball={"x": 150, "y": 80}))
    assert state["status"] == "final"
    cast.match.refresh_from_db()
    sheet = scoresheet(cast.match)
    assert len(sheet.broken) == 2 and not sheet.complete
    assert MatchEvent.objects.filter(match=cast.match, type="clock_set").exists()
    page = cast.client().get(reverse("committee:match", args=[cast.match.pk])).content.decode()
    assert 'data-broken="1"' in page and "must sign again" in page
    scoresheet_sign(match_id=cast.match.pk, official=cast.umpire)
    scoresheet_sign(match_id=cast.match.pk, official=cast.referee)
    assert scoresheet(cast.match).complete
