"""The committee's part of a match kept at the field (``/committee/matches/{id}/field/…``): a field
token shown once and stored as a hash, revoked, and the match handed to the field and back, each
in the audit trail; no other committee may do it."""

from __future__ import annotations

import pytest

from matches.committee.models import AuditEntry
from matches.field.models import FieldToken
from matches.field.services import token_hash
from matches.models import Match

from .live_helpers import client_for

pytestmark = pytest.mark.django_db


def test_the_committee_issues_a_field_token_shown_once_and_stored_as_its_hash(cast):
    page = client_for(cast.committee).post(f"/committee/matches/{cast.match_a.pk}/field/token/")
    assert page.status_code == 200 and page["Cache-Control"] == "no-store"
    secret = page.context["secret"]
    assert secret.startswith("pft_") and secret in page.content.decode()
    token = FieldToken.objects.get(match=cast.match_a)
    assert token.token_hash == token_hash(secret) and secret not in token.token_hash
    assert AuditEntry.objects.filter(match=cast.match_a, action="field_token_issue", user=cast.committee).exists()
    match_page = client_for(cast.committee).get(f"/committee/matches/{cast.match_a.pk}/").content.decode()
    assert f"Token #{token.pk}" in match_page and secret not in match_page


def test_the_committee_revokes_a_field_token(cast):
    client = client_for(cast.committee)
    client.post(f"/committee/matches/{cast.match_a.pk}/field/token/")
    token = FieldToken.objects.get(match=cast.match_a)
    client.post(f"/committee/matches/{cast.match_a.pk}/field/tokens/{token.pk}/revoke/")
    token.refresh_from_db()
    assert token.revoked_at is not None and token.revoked_by == cast.committee
    assert AuditEntry.objects.filter(match=cast.match_a, action="field_token_revoke").exists()


def test_the_committee_hands_the_match_to_the_field_and_takes_it_back(cast):
    client = client_for(cast.committee)
    client.post(f"/committee/matches/{cast.match_a.pk}/field/keep/", {"at": "field"})
    cast.match_a.refresh_from_db()
    assert cast.match_a.kept_at == Match.KeptAt.FIELD
    page = client.get(f"/committee/matches/{cast.match_a.pk}/").content.decode()
    assert "Not heard from the field yet" in page
    client.post(f"/committee/matches/{cast.match_a.pk}/field/keep/", {"at": "server"})
    cast.match_a.refresh_from_db()
    assert cast.match_a.kept_at == Match.KeptAt.SERVER
    actions = list(AuditEntry.objects.filter(match=cast.match_a).values_list("action", flat=True))
    assert actions.count("field_keep") == 1 and actions.count("field_return") == 1


def test_it_refuses_a_place_that_is_neither_the_field_nor_the_server(cast):
    client_for(cast.committee).post(f"/committee/matches/{cast.match_a.pk}/field/keep/", {"at": "moon"})
    cast.match_a.refresh_from_db()
    assert cast.match_a.kept_at == Match.KeptAt.SERVER
    assert not AuditEntry.objects.filter(match=cast.match_a).exists()


def test_it_refuses_the_committee_of_another_tournament_and_the_officials(cast):
    for user in (cast.committee_other, cast.scorer_a):
        answer = client_for(user).post(f"/committee/matches/{cast.match_a.pk}/field/token/")
        assert answer.status_code == 403
    assert not FieldToken.objects.exists()


def test_a_field_server_shows_no_hand_over_panel(cast, settings):
    settings.FIELD_SERVER = True
    page = client_for(cast.committee).get(f"/committee/matches/{cast.match_a.pk}/").content.decode()
    assert 'id="field-keeping"' not in page
