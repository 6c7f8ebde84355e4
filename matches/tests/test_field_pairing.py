"""Pairing a field server with a match (matches/field/wire.py, sender.py): the payload carries what
the match needs and its import rebuilds the match with the same config and log; a payload that is
not a pairing, or a log that differs from the field's, is refused; the token only travels over
HTTPS; the sender waits longer after each failure.

The import runs into the same test database as the payload came from: it makes a second match of
the same teams, as a field server's database would hold it."""

from __future__ import annotations

import time

import pytest
from django.contrib.auth import authenticate
from django.test import Client

from matches.field.models import FieldLink
from matches.field.sender import LinkError, backoff, check_server_url, run
from matches.field.wire import PairingError, pairing_import, pairing_payload
from matches.games import _config_key, match_config
from matches.models import MatchEvent
from matches.scoresheet.hashing import log_hash
from matches.selectors import match_with_config

from .live_helpers import client_for, ev, log
from .personas import PASSWORD

pytestmark = pytest.mark.django_db

SERVER = "https://polo.example.org"


def test_the_pairing_brings_the_match_its_log_and_its_officials_who_sign_in_with_their_passwords(cast):
    t0 = time.time() - 500
    log(cast.match_a, ev("play"), now=t0)
    log(cast.match_a, ev("goal", team="home", number=1), now=t0 + 30)
    payload = pairing_payload(cast.match_a.pk)
    assert {o["username"]: o["roles"] for o in payload["officials"]} == {
        "ulises": ["umpire"],
        "rita": ["referee"],
        "sam": ["scorer"],
        "carmen": ["committee"],
    }
    assert all(o["password"].startswith("pbkdf2_") or "$" in o["password"] for o in payload["officials"])

    field = pairing_import(payload, server_url=SERVER, token="pft_x")
    assert field.pk != cast.match_a.pk
    assert _config_key(match_config(match_with_config(field.pk))) == payload["config_hash"]
    copied = list(MatchEvent.objects.filter(match=field).order_by("seq").values_list("seq", "client_id", "payload"))
    original = list(
        MatchEvent.objects.filter(match=cast.match_a).order_by("seq").values_list("seq", "client_id", "payload")
    )
    assert copied == original and log_hash(field.pk)[1] == log_hash(cast.match_a.pk)[1]
    cast.match_a.refresh_from_db()
    assert field.state_cache["score"] == cast.match_a.state_cache["score"] == {"home": 1, "away": 0}
    assert field.scorer == cast.scorer_a and authenticate(username="sam", password=PASSWORD) == cast.scorer_a
    link = FieldLink.objects.get(match=field)
    assert (link.server_url, link.remote_match_id, link.token) == (SERVER, cast.match_a.pk, "pft_x")


def test_pairing_again_keeps_the_fields_log_and_takes_a_new_token(cast):
    field = pairing_import(pairing_payload(cast.match_a.pk), server_url=SERVER, token="pft_old")
    log(field, ev("play"), now=time.time() - 100)  # logged at the field since
    again = pairing_import(pairing_payload(cast.match_a.pk), server_url=SERVER, token="pft_new")
    assert again.pk == field.pk and again.last_seq == 1
    assert FieldLink.objects.get(match=field).token == "pft_new"


def test_it_refuses_a_log_that_differs_from_the_fields(cast):
    field = pairing_import(pairing_payload(cast.match_a.pk), server_url=SERVER, token="pft_x")
    log(field, ev("play"), now=time.time() - 100)
    log(cast.match_a, ev("play"), now=time.time() - 90)  # another first event on the server
    with pytest.raises(PairingError, match="differs"):
        pairing_import(pairing_payload(cast.match_a.pk), server_url=SERVER, token="pft_x")
    assert MatchEvent.objects.filter(match=field).count() == 1


def test_it_refuses_what_is_not_a_pairing(cast):
    for payload in (None, [], {"format": "something else", "version": 1}, {"format": "polo-field-pairing"}):
        with pytest.raises(PairingError):
            pairing_import(payload, server_url=SERVER, token="pft_x")
    broken = pairing_payload(cast.match_a.pk)
    broken["match"]["periods"] = "six"
    with pytest.raises(PairingError, match="periods"):
        pairing_import(broken, server_url=SERVER, token="pft_x")
    assert not FieldLink.objects.exists()


def test_the_token_travels_over_https_only_or_to_this_machine():
    assert check_server_url("https://polo.example.org/") == "https://polo.example.org"
    assert check_server_url("http://127.0.0.1:8000") == "http://127.0.0.1:8000"
    for url in ("http://polo.example.org", "ftp://polo.example.org", "polo.example.org"):
        with pytest.raises(LinkError, match="only travels over HTTPS"):
            check_server_url(url)


def test_the_sender_waits_longer_after_each_refusal_and_at_most_a_second_without_a_link():
    refused = [backoff(n, "log_changed") for n in range(1, 12)]
    assert refused[0] <= 1.2 and 48 <= refused[-1] <= 72
    assert all(backoff(n, "unreachable") <= 1.2 for n in range(1, 30))


# The uplink's loop closes stale connections each round, as a long-running process must: on
# PostgreSQL that ends a test's transaction, so this test commits for real.
@pytest.mark.django_db(transaction=True)
def test_the_fields_scorer_sees_what_is_wrong_with_the_upload_and_the_field_keeps_its_log(cast, settings):
    settings.FIELD_SERVER = True
    field = pairing_import(pairing_payload(cast.match_a.pk), server_url="http://127.0.0.1:9", token="pft_x")
    log(field, ev("play"), now=time.time() - 100)
    run(once=True)  # nothing listens on port 9: no link
    uplink = Client().get(f"/api/matches/{field.pk}/state").json()["field"]["uplink"]
    assert uplink["error"]["code"] == "unreachable" and uplink["remote_last_seq"] == 0 and uplink["failures"] == 1
    assert MatchEvent.objects.filter(match=field).count() == 1
    page = client_for(cast.scorer_a).get(f"/matches/{field.pk}/scorer/").content.decode()
    assert 'id="field-uplink"' in page and "js/field-uplink.js" in page
    settings.FIELD_SERVER = False
    assert 'id="field-uplink"' not in client_for(cast.scorer_a).get(f"/matches/{field.pk}/scorer/").content.decode()
