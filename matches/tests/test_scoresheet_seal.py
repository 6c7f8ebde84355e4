"""The seal of a signature (docs/SCORESHEET.md): an HMAC of the signature's facts under a secret the
database does not hold. Whoever can write the database can rewrite the events and the signature
rows' hashes together; without the secret the seals no longer hold, and ``verify_report`` says so.

The rewrites here go around the app's append-only guard (``_base_manager``, a plain manager, as a
SQL prompt would), as someone with the database's password would."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest
from django.db import connection
from django.test import Client, override_settings

from matches.models import MatchEvent
from matches.scoresheet.hashing import log_hash, seal, signing_secrets
from matches.scoresheet.models import Signature
from matches.scoresheet.selectors import scoresheet
from matches.scoresheet.services import scoresheet_sign

from .scoresheet_helpers import verify

pytestmark = pytest.mark.django_db


def sign_both(cast) -> None:
    scoresheet_sign(match_id=cast.match.pk, official=cast.umpire)
    scoresheet_sign(match_id=cast.match.pk, official=cast.referee)


def rewrite_the_goal_and_the_signatures(cast) -> str:
    """The attack: home's goal given to away in the log, and every signature row's hash set to the
    new log's hash. Returns the new hash."""
    goal = MatchEvent.objects.get(match=cast.match, type="goal")
    MatchEvent._base_manager.filter(pk=goal.pk).update(payload={**goal.payload, "team": "away"})
    forged = log_hash(cast.match.pk)[1]
    Signature._base_manager.filter(match=cast.match).update(log_hash=forged)
    return forged


def test_rewriting_the_events_and_the_signature_rows_together_is_caught_by_verify_report(finished):
    sign_both(finished)
    honest = log_hash(finished.match.pk)[1]
    assert verify("--match", str(finished.match.pk), "--hash", honest, "--require-signed")[0] == 0

    forged = rewrite_the_goal_and_the_signatures(finished)

    assert forged != honest
    code, out, err = verify("--match", str(finished.match.pk), "--hash", forged)
    assert code == 1
    assert out.count("ALTERED") == 2 and "valid (signs the log now)" not in out
    assert "ulises does not hold its seal" in err and "rita does not hold its seal" in err


def test_a_rewritten_signature_counts_for_nothing_on_every_screen(finished):
    sign_both(finished)
    rewrite_the_goal_and_the_signatures(finished)

    sheet = scoresheet(finished.match)
    assert not sheet.valid and not sheet.complete and len(sheet.altered) == 2
    client = Client()
    client.force_login(finished.umpire)
    data = client.get(f"/api/matches/{finished.match.pk}/scoresheet").json()
    assert data["altered"] is True and data["complete"] is False
    assert [(s["valid"], s["sealed"]) for s in data["signatures"]] == [(False, False), (False, False)]
    page = finished.client().get(f"/committee/matches/{finished.match.pk}/report/").content.decode()
    assert "altered: its seal does not match" in page and "altered outside the app" in page


def test_a_signature_row_written_straight_into_the_database_has_no_seal_that_holds(finished):
    scoresheet_sign(match_id=finished.match.pk, official=finished.umpire)
    row = Signature.objects.get(match=finished.match)
    # Someone copies the row for the referee, with a seal of their own making.
    Signature._base_manager.bulk_create(
        [
            Signature(
                match=finished.match,
                official=finished.referee,
                role="referee",
                last_seq=row.last_seq,
                log_hash=row.log_hash,
                signed_at=row.signed_at,
                seal=row.seal,
            )
        ]
    )

    code, out, err = verify("--match", str(finished.match.pk), "--hash", row.log_hash)
    assert code == 1 and out.count("ALTERED") == 1
    assert "rita does not hold its seal" in err and "ulises" not in err


def test_a_seal_made_with_a_retired_secret_still_holds_while_the_secret_is_listed(finished):
    with override_settings(SCORESHEET_SIGNING_KEY="the first secret"):
        sign_both(finished)
    digest = log_hash(finished.match.pk)[1]
    with override_settings(SCORESHEET_SIGNING_KEY="the new secret", SCORESHEET_SIGNING_OLD_KEYS=["the first secret"]):
        assert verify("--match", str(finished.match.pk), "--hash", digest, "--require-signed")[0] == 0
        scoresheet_sign(match_id=finished.match.pk, official=finished.umpire)  # signed again: the new secret
        newest = Signature.objects.filter(official=finished.umpire).latest("pk")
        assert newest.seal == seal(newest.sealed_facts(), "the new secret")
    with override_settings(SCORESHEET_SIGNING_KEY="the new secret", SCORESHEET_SIGNING_OLD_KEYS=[]):
        code, _, err = verify("--match", str(finished.match.pk), "--hash", digest)
        assert code == 1 and "rita does not hold its seal" in err and "ulises" not in err


def test_without_a_signing_key_the_secret_key_seals(finished, settings):
    settings.SCORESHEET_SIGNING_KEY = ""
    settings.SECRET_KEY = "a secret key of this server"
    assert signing_secrets()[0] == "a secret key of this server"
    scoresheet_sign(match_id=finished.match.pk, official=finished.umpire)
    row = Signature.objects.get(match=finished.match)
    assert row.seal == seal(row.sealed_facts(), "a secret key of this server")
    settings.SECRET_KEY = "another server's secret key"
    assert not row.seal_ok


def test_the_seal_binds_every_fact_of_the_signature(finished):
    scoresheet_sign(match_id=finished.match.pk, official=finished.umpire)
    row = Signature.objects.get(match=finished.match)
    assert row.seal_ok
    for field, value in (
        ("official", finished.referee),
        ("role", "referee"),
        ("last_seq", row.last_seq - 1),
        ("log_hash", "0" * 64),
        ("signed_at", row.signed_at.replace(microsecond=(row.signed_at.microsecond + 1) % 1_000_000)),
    ):
        changed = Signature.objects.get(pk=row.pk)
        setattr(changed, field, value)
        assert not changed.seal_ok, field


def test_the_migration_seals_the_signatures_already_on_record(finished):
    from importlib import import_module

    from django.apps import apps

    scoresheet_sign(match_id=finished.match.pk, official=finished.umpire)
    Signature._base_manager.update(seal="")  # as rows signed before seals were
    assert not Signature.objects.get(match=finished.match).seal_ok

    migration = import_module("matches.migrations.0014_signature_seal")
    migration.seal_existing(apps, SimpleNamespace(connection=connection))

    assert Signature.objects.get(match=finished.match).seal_ok
    code, out, _ = verify("--match", str(finished.match.pk), "--hash", log_hash(finished.match.pk)[1])
    assert code == 0 and "valid (signs the log now)" in out


def test_the_seal_is_kept_with_the_signature_and_never_shown(finished):
    scoresheet_sign(match_id=finished.match.pk, official=finished.umpire)
    row = Signature.objects.get(match=finished.match)
    assert len(row.seal) == 64
    client = Client()
    client.force_login(finished.umpire)
    assert row.seal not in json.dumps(client.get(f"/api/matches/{finished.match.pk}/scoresheet").json())


def test_production_without_a_signing_key_says_so_at_start_up(settings):
    from django.core.checks import run_checks

    settings.DEBUG, settings.SCORESHEET_SIGNING_KEY = False, ""
    (warning,) = [w for w in run_checks() if w.id == "matches.W001"]
    assert "sealed with SECRET_KEY" in warning.msg and "SCORESHEET_SIGNING_OLD_KEYS" in warning.hint
    settings.SCORESHEET_SIGNING_KEY = "a secret of its own"
    assert not [w for w in run_checks() if w.id == "matches.W001"]
    settings.DEBUG, settings.SCORESHEET_SIGNING_KEY = True, ""
    assert not [w for w in run_checks() if w.id == "matches.W001"]
