"""``manage.py verify_report``: a report (its PDF, a log hash, or the log's JSON export) checked
against the match's log and the officials' signatures; a non-zero exit on any mismatch."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import CommandError, call_command

from matches.committee.reports import match_log_export, match_report_build, match_report_data, match_report_pdf
from matches.scoresheet.hashing import log_hash
from matches.scoresheet.services import scoresheet_sign

from .pdf_text import pdf_text
from .scoresheet_helpers import correct, verify

pytestmark = pytest.mark.django_db


def signed_pdf(finished, tmp_path):
    scoresheet_sign(match_id=finished.match.pk, official=finished.umpire)
    scoresheet_sign(match_id=finished.match.pk, official=finished.referee)
    path = tmp_path / "report.pdf"
    path.write_bytes(match_report_pdf(match_report_data(finished.match)))
    return path


def test_a_signed_report_matches_the_log(finished, tmp_path):
    code, out, err = verify(str(signed_pdf(finished, tmp_path)), "--require-signed")
    assert code == 0, err
    assert log_hash(finished.match.pk)[1] in out
    assert "ulises" in out and "rita" in out and "OK" in out


def test_the_pdf_prints_the_signers_and_the_hash(finished, tmp_path):
    pdf = signed_pdf(finished, tmp_path).read_bytes()
    assert f"sha256={log_hash(finished.match.pk)[1]}".encode() in pdf
    assert f"sig=umpire:{finished.umpire.pk}:".encode() in pdf and f"sig=referee:{finished.referee.pk}:".encode() in pdf


def test_the_pdf_pages_show_each_signer_role_time_and_the_hash(finished, tmp_path):
    from django.utils import timezone

    from matches.scoresheet.models import Signature

    lines = pdf_text(signed_pdf(finished, tmp_path).read_bytes()).splitlines()
    seq, digest = log_hash(finished.match.pk)
    for official, role in ((finished.umpire, "umpire"), (finished.referee, "referee")):
        signed = Signature.objects.get(match=finished.match, official=official).signed_at
        at = lines.index(official.username)
        assert lines[at : at + 5] == [
            official.username,
            role,
            timezone.localtime(signed).strftime("%Y-%m-%d %H:%M:%S"),
            str(seq),
            "valid",
        ]
    assert f"Log hash (SHA-256) of positions 1–{seq}: {digest}" in " ".join(lines)


def test_a_report_after_a_correction_prints_the_signatures_as_broken(finished, tmp_path):
    signed_pdf(finished, tmp_path)
    correct(finished)
    data = match_report_data(finished.match)
    text = " ".join(pdf_text(match_report_pdf(data)).splitlines())
    assert text.count("broken: the log changed after it") == 2 and "must sign again" in text
    assert f"sha256={log_hash(finished.match.pk)[1]}".encode() in match_report_pdf(data)
    es = " ".join(pdf_text(match_report_pdf(data, "es")).splitlines())
    assert "Planilla oficial" in es


def test_a_report_of_the_log_before_a_correction_is_out_of_date(finished, tmp_path):
    path = signed_pdf(finished, tmp_path)
    correct(finished)
    code, out, err = verify(str(path))
    assert code == 1
    assert "out of date" in err and "BROKEN" in out


def test_an_altered_hash_matches_no_log(finished, tmp_path):
    path = signed_pdf(finished, tmp_path)
    real = log_hash(finished.match.pk)[1]
    path.write_bytes(path.read_bytes().replace(real.encode(), ("0" * 64).encode()))
    code, _, err = verify(str(path))
    assert code == 1 and "matches no log" in err


def test_a_signature_not_on_record_is_a_mismatch(finished, tmp_path):
    path = signed_pdf(finished, tmp_path)
    forged = path.read_bytes().replace(f"sig=umpire:{finished.umpire.pk}:".encode(), b"sig=umpire:987654:")
    path.write_bytes(forged)
    code, _, err = verify(str(path))
    assert code == 1 and "not on record" in err


def test_an_unsigned_log_fails_only_when_signatures_are_required(finished):
    digest = log_hash(finished.match.pk)[1]
    assert verify("--match", str(finished.match.pk), "--hash", digest)[0] == 0
    code, out, _ = verify("--match", str(finished.match.pk), "--hash", digest, "--require-signed")
    assert code == 1 and "Not signed" in out


def test_the_json_export_is_checked_too(finished, tmp_path):
    path = tmp_path / "log.json"
    path.write_text(json.dumps(match_log_export(finished.match)), encoding="utf-8")
    assert verify(str(path), "--match", str(finished.match.pk))[0] == 0
    correct(finished)
    code, _, err = verify(str(path), "--match", str(finished.match.pk))
    assert code == 1 and "out of date" in err


def test_the_stored_report_is_rebuilt_with_the_signatures(finished, tmp_path, django_capture_on_commit_callbacks):
    report = match_report_build(match_id=finished.match.pk)
    assert b"sig=umpire" not in bytes(report.pdf)
    with django_capture_on_commit_callbacks(execute=True):  # on commit: the stored PDF is rebuilt
        scoresheet_sign(match_id=finished.match.pk, official=finished.umpire)
    report.refresh_from_db()
    pdf = bytes(report.pdf)
    assert f"sig=umpire:{finished.umpire.pk}:".encode() in pdf
    path = tmp_path / "stored.pdf"
    path.write_bytes(pdf)
    assert verify(str(path))[0] == 0


@pytest.mark.parametrize("args", [["/nonexistent.pdf"], ["--hash", "abc", "--match", "1"], []])
def test_input_it_cannot_read_is_exit_2(args):
    with pytest.raises(CommandError) as error:
        call_command("verify_report", *args, stdout=io.StringIO())
    assert error.value.returncode == 2
