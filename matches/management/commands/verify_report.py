"""Check an official report against the match's log and its signatures (docs/SCORESHEET.md)::

    manage.py verify_report REPORT.pdf
    manage.py verify_report --match ID --hash HEX
    manage.py verify_report --match ID LOG.json      (the log export, committee's "Log (JSON)")

A PDF carries its match, log position and log hash in its metadata (and prints them); a hash or a
log export is checked against the match given. It says whether the report is of the log as it is
now, or of an earlier position (a correction came after it), or of no log of this match; and which
officials' signatures bind it, each signature's seal checked (an HMAC under the server's signing
secret, which the database does not hold: a signature row rewritten with the events is caught).
Exit status: 0 when the report matches the current log and every signature it lists is on record;
1 on any mismatch, a seal that does not hold included (``--require-signed``: also while an umpire or
the referee has not signed the log); 2 when the input cannot be read.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from matches.models import Match
from matches.scoresheet.hashing import export_hash, log_hash
from matches.scoresheet.models import Signature
from matches.scoresheet.pdf import SIGNATURE_RE, SUBJECT_RE
from matches.scoresheet.selectors import scoresheet

HEX64 = re.compile(r"^[0-9a-f]{64}$")


class Mismatch(Exception):
    pass


class Command(BaseCommand):
    help = "Check an official report (PDF, log hash or log JSON export) against the match's log and signatures."

    def add_arguments(self, parser) -> None:
        parser.add_argument("report", nargs="?", help="the report's PDF, or the log's JSON export (with --match)")
        parser.add_argument("--match", type=int, help="the match (for --hash or a JSON export)")
        parser.add_argument("--hash", dest="claimed", help="a log hash (SHA-256 hex) to check, with --match")
        parser.add_argument(
            "--require-signed", action="store_true", help="fail unless every umpire and the referee signed this log"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        match_id, last_seq, claimed, listed = self._read(options)
        match = Match.objects.select_related("home__team", "away__team", "referee").filter(pk=match_id).first()
        if match is None:
            raise CommandError(f"No match {match_id}.", returncode=2)
        problems = self._check(match, last_seq, claimed, listed, options["require_signed"])
        if problems:
            for line in problems:
                self.stderr.write(f"MISMATCH: {line}")
            raise SystemExit(1)
        self.stdout.write(self.style.SUCCESS("OK: the report matches the match's log."))

    # -- reading the report --------------------------------------------------------------------------

    def _read(self, options: dict[str, Any]) -> tuple[int, int | None, str, list[tuple[str, int, int]]]:
        path, match_id, claimed = options["report"], options["match"], options["claimed"]
        if claimed is not None:
            if match_id is None or not HEX64.match(claimed.lower()):
                raise CommandError("--hash takes 64 hex digits, with --match ID.", returncode=2)
            return match_id, None, claimed.lower(), []
        if not path:
            raise CommandError("Give a report (PDF or JSON export), or --match ID --hash HEX.", returncode=2)
        try:
            raw = Path(path).read_bytes()
        except OSError as error:
            raise CommandError(f"Cannot read {path}: {error.strerror}", returncode=2) from None
        if raw.startswith(b"%PDF"):
            found = SUBJECT_RE.search(raw)
            if found is None:
                raise CommandError(f"{path}: a PDF without a report's log hash in its metadata.", returncode=2)
            pdf_match = int(found.group(1))
            if match_id is not None and match_id != pdf_match:
                raise CommandError(f"{path} is the report of match {pdf_match}, not {match_id}.", returncode=2)
            listed = [(role.decode(), int(uid), int(at)) for role, uid, at in SIGNATURE_RE.findall(raw)]
            return pdf_match, int(found.group(2)), found.group(3).decode(), listed
        if match_id is None:
            raise CommandError("A JSON log export needs --match ID.", returncode=2)
        try:
            data = json.loads(raw)
            events = data["events"]
            assert isinstance(events, list) and all(isinstance(e, dict) for e in events)
        except (ValueError, KeyError, TypeError, AssertionError):
            raise CommandError(f"{path}: neither a report PDF nor a log export (JSON).", returncode=2) from None
        return match_id, len(events), export_hash(events), []

    # -- checking it -----------------------------------------------------------------------------------

    def _check(
        self, match: Match, last_seq: int | None, claimed: str, listed: list[tuple[str, int, int]], require: bool
    ) -> list[str]:
        out, problems = self.stdout.write, []
        now_seq, now_hash = log_hash(match.pk)
        out(f"Match {match.pk}: {match.title}")
        where = f" at log position {last_seq}" if last_seq is not None else ""
        out(f"Report{where}: sha256 {claimed}")
        out(f"Log now (position {now_seq}): sha256 {now_hash}")
        if claimed == now_hash:
            out("The report's hash matches the log as it is now.")
        elif last_seq is not None and last_seq < now_seq and log_hash(match.pk, last_seq)[1] == claimed:
            problems.append(
                f"the report is of log position {last_seq}; {now_seq - last_seq} event(s) were accepted after it "
                "(a correction): it is out of date."
            )
        else:
            problems.append("the hash matches no log of this match: the report was altered, or is of another match.")

        sheet = scoresheet(match)
        for s in sheet.signatures:
            if not s.sealed:
                state = "ALTERED (its seal does not match: the record was written without the signing secret)"
                problems.append(
                    f"the signature of {s.role} {s.username} does not hold its seal: "
                    "the signature record (or the log with it) was altered outside the app."
                )
            elif s.valid:
                state = "valid (signs the log now)"
            else:
                state = "BROKEN (the log changed after it)"
            out(f"Signature: {s.role_label} {s.name} ({s.username}), {s.signed_at:%Y-%m-%d %H:%M:%S %Z}: {state}")
        for o in sheet.missing:
            out(f"Not signed: {o.role_label} {o.name} ({o.username})")
        for role, user_id, at in listed:
            on_record = [
                row
                for row in Signature.objects.filter(match=match, official_id=user_id, role=role, log_hash=claimed)
                if int(row.signed_at.timestamp()) == at and row.seal_ok
            ]
            if not on_record:
                problems.append(f"the report lists a signature ({role}, user {user_id}) that is not on record.")
        if require and not sheet.complete:
            problems.append("not every umpire and the referee has signed the log as it is now.")
        return problems
