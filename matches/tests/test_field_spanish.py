"""Every refusal of a match kept at the field, in Spanish for a Spanish reader (matches/field/refusals.py):
the tournament's server's answers to a field (a wrong, expired or revoked token, another match, a gap,
a changed event, a log of another match) and to an official ("kept at the field", 423), each in the
request's language with the text it means beside it; the field's own screen (the state's
``field.uplink.error``) and ``field_sync --status`` say a stored refusal in their reader's language;
``field_pair`` says why it could not pair in the language asked."""

from __future__ import annotations

import io
import time
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.utils import timezone

from matches.field.models import FieldLink, FieldToken
from matches.field.refusals import TEXTS, retell
from matches.field.sender import LinkError, batch_body, command_language, pair_all
from matches.field.services import field_token_issue, field_token_revoke, match_keep_at
from matches.field.wire import PairingError, pairing_import, pairing_payload
from matches.models import MatchEvent

from .live_helpers import client_for, ev, log, post_event
from .personas import field_copy

pytestmark = pytest.mark.django_db

ES = {"accept-language": "es"}


@pytest.fixture
def kept(cast):
    """The tournament's server's match kept at the field, its token, and the field's copy of it
    with two events logged at the field."""
    replica = cast.match_a
    copy = field_copy(replica)
    t0 = time.time() - 500
    log(copy, ev("play"), now=t0)
    log(copy, ev("goal", team="home", number=1), now=t0 + 30)
    token, secret = field_token_issue(match=replica)
    match_keep_at(match_id=replica.pk, where="field")
    return replica, copy, token, secret


def push(match, body, secret: str | None):
    headers = {**ES, **({"authorization": f"Bearer {secret}"} if secret else {})}
    return Client().post(f"/api/field/matches/{match.pk}/log", body, content_type="application/json", headers=headers)


def refused(answer, status: int, code: str, spanish: str) -> dict:
    body = answer.json()
    assert answer.status_code == status and body["error"]["code"] == code, body
    assert spanish in body["error"]["message"], body["error"]["message"]
    assert body["detail"]["text"] in TEXTS
    return body


def test_the_tournaments_server_refuses_a_field_in_spanish_and_stores_nothing(kept, cast):
    replica, copy, token, secret = kept
    body = batch_body(copy.pk, 0)
    refused(push(replica, body, None), 403, "field_token_missing", "Envíe el token de cancha")
    refused(push(replica, body, "pft_nope"), 403, "field_token_wrong", "no se conoce aquí")
    other, other_secret = field_token_issue(match=cast.match_b)
    refused(push(replica, body, other_secret), 403, "field_token_other_match", "no es uno de ellos")
    gap = batch_body(copy.pk, 1)
    refused(push(replica, gap, secret), 409, "log_gap", "no sigue al")
    changed = batch_body(copy.pk, 0)
    changed["events"][0]["event"]["note"] = "altered"
    refused(push(replica, changed, secret), 409, "log_changed", "difiere del de la cancha")  # the log's hash
    invalid = {**body, "events": [{"seq": 1}]}
    refused(push(replica, invalid, secret), 400, "invalid_log", "El registro no es válido")
    foreign = batch_body(cast.match_b.pk, 0)
    refused(push(replica, foreign, secret), 409, "log_other_match", "de otro partido")
    FieldToken.objects.filter(pk=token.pk).update(expires_at=timezone.now() - timedelta(minutes=1))
    refused(push(replica, body, secret), 403, "field_token_expired", "venció")
    field_token_revoke(token=other)
    refused(push(replica, body, other_secret), 403, "field_token_revoked", "revocó")
    assert not MatchEvent.objects.filter(match=replica).exists()
    # Once the replica holds the field's log, an event of it rewritten is named.
    FieldToken.objects.filter(pk=token.pk).update(expires_at=timezone.now() + timedelta(hours=1))
    assert push(replica, body, secret).status_code == 200
    refused(push(replica, changed, secret), 409, "log_changed", "el evento n.º 1 difiere")
    assert MatchEvent.objects.filter(match=replica).count() == 2


def test_an_official_is_told_in_spanish_that_the_match_is_kept_at_the_field(kept, cast):
    replica, *_ = kept
    answer = post_event(client_for(cast.scorer_a), replica, ev("play"), headers=ES)
    assert answer.status_code == 423 and answer.json()["error"]["code"] == "kept_at_field"
    assert "se lleva en la cancha" in answer.json()["error"]["message"]


def test_the_fields_screen_and_status_say_a_stored_refusal_in_their_readers_language(kept, settings):
    replica, copy, _token, secret = kept
    FieldLink.objects.create(
        match=copy,
        server_url="https://polo.example.org",
        remote_match_id=replica.pk,
        token=secret,
        error_code="log_gap",
        error_message="The field's log does not follow on …",
        error_params={"text": "log_gap", "params": {"last": 0, "after": 1}},
    )
    settings.FIELD_SERVER = True
    english = Client().get(f"/api/matches/{copy.pk}/state?lang=en").json()["field"]["uplink"]["error"]
    spanish = Client().get(f"/api/matches/{copy.pk}/state?lang=es").json()["field"]["uplink"]["error"]
    assert english["message"].startswith("The field's log does not follow on from the tournament's server's")
    assert "no sigue al" in spanish["message"] and spanish["code"] == "log_gap"
    out = io.StringIO()
    call_command("field_sync", "--status", "--lang", "es", stdout=out)
    assert "error log_gap: " in out.getvalue() and "no sigue al" in out.getvalue()
    assert "enviados" in out.getvalue()


def test_the_fields_own_troubles_are_said_in_spanish_too():
    unreachable = LinkError.ours("unreachable", "unreachable", reason="timed out")
    assert "cannot be reached (timed out)" in unreachable.message
    assert "no responde (timed out)" in unreachable.said("es")
    assert "HTTPS" in LinkError.ours("not_https", "not_https").said("es")
    assert "no es un emparejamiento" in PairingError("pairing_format", format="x", version=1).said("es")
    # A refusal of a server of another version (no text named) is said as it came.
    assert retell({"text": "no such text"}, "as it came", "es") == "as it came"


def test_the_commands_language_comes_from_lang_or_the_environment(monkeypatch):
    monkeypatch.setenv("LANG", "es_AR.UTF-8")
    assert command_language() == "es" and command_language("en") == "en"
    monkeypatch.setenv("LANG", "C.UTF-8")
    assert command_language() == "en"


@pytest.mark.django_db(transaction=True)
def test_field_pair_with_a_days_token_pairs_its_matches_and_says_a_refusal_in_spanish(cast, live_server):
    token, secret = field_token_issue(day=timezone.localdate(cast.match_a.starts_at), ground=cast.match_a.field)
    out = io.StringIO()
    call_command("field_pair", "--server", live_server.url, "--token", secret, stdout=out)
    assert out.getvalue().count("paired: ") == 2
    paired = FieldLink.objects.order_by("remote_match_id")
    assert [link.remote_match_id for link in paired] == sorted([cast.match_a.pk, cast.match_b.pk])
    with pytest.raises(CommandError, match="no se conoce aquí"):
        call_command("field_pair", "--server", live_server.url, "--token", "pft_nope", "--lang", "es")
    field_token_revoke(token=token)
    with pytest.raises(LinkError) as revoked:
        pair_all(live_server.url, secret)
    assert revoked.value.code == "field_token_revoked" and "revocó" in revoked.value.said("es")


def test_the_pairing_refuses_in_spanish(cast):
    payload = pairing_payload(cast.match_a.pk)
    del payload["tournament"]
    with pytest.raises(PairingError) as refused_pairing:
        pairing_import(payload, server_url="https://polo.example.org", token="pft_x")
    assert "tournament" in refused_pairing.value.said("es") and "falta" in refused_pairing.value.said("es")
