"""A tournament's export and import (docs/EXPORT.md, ``matches/transfer.py``): exported, imported
into a fresh server, exported again, the same file byte for byte; each match's log hash and state
the same there and its signatures valid under that server's own secret; a file that is not an
export, of a newer version, of a tournament already there, or that contradicts itself is refused
with one line, and nothing is written. The committee downloads the export from its tournament page."""

from __future__ import annotations

import io
import json
import re
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.test import Client

from matches.awards.models import Award
from matches.awards.services import award_record
from matches.committee.models import AuditEntry
from matches.committee.services import audit_record
from matches.models import CommitteeAssignment, Field, Match, MatchEvent, Player, RosterLine, Tournament
from matches.officials.models import ScoreConfirmation
from matches.scoresheet.hashing import log_hash
from matches.scoresheet.models import Signature
from matches.scoresheet.selectors import scoresheet
from matches.scoresheet.services import scoresheet_sign
from matches.selectors import match_state
from matches.transfer import FORMAT, VERSION, export_text
from polo.testing import BASE_DIR

from .personas import make_committee_member, make_match, make_user
from .scoresheet_helpers import correct, verify

pytestmark = pytest.mark.django_db

NOW = 1.9e9  # a fixed time to project each match's state to, on both servers


@pytest.fixture
def tournament(finished) -> Tournament:
    """Everything a tournament holds: a match signed, corrected and signed again (a broken signature
    and two valid ones), a score confirmation, both awards, a second match scheduled on another field,
    a revoked committee assignment, the audit trail, and names beyond ASCII."""
    cast = finished
    match, t = cast.match, cast.match.tournament
    scoresheet_sign(match_id=match.pk, official=cast.umpire)
    correct(cast)
    scoresheet_sign(match_id=match.pk, official=cast.umpire)
    scoresheet_sign(match_id=match.pk, official=cast.referee)
    ScoreConfirmation.objects.create(
        match=match, period=1, umpire=cast.umpire, home=Decimal(1), away=Decimal(0), last_seq=match.last_seq
    )
    home_one = RosterLine.objects.get(entry=match.home, number=1)
    Player.objects.filter(pk=home_one.player_id).update(name="Ñandú Pérez")
    award_record(user=cast.member, kind=Award.Kind.MVP, tournament=t, line=home_one, match=match)
    award_record(
        user=cast.member,
        kind=Award.Kind.BEST_PLAYING_PONY,
        tournament=t,
        line=home_one,
        horse="Lucera",
        owner="Estancia La Niña",
        breeder="Cría del Sur",
    )
    make_match(tournament=t, home=match.home, away=match.away, field=Field.objects.create(name="Campo 2", club="Sur"))
    gone = make_user("gonzalo")
    CommitteeAssignment.objects.create(user=gone, tournament=t, revoked_by=cast.member, revoked_at=match.starts_at)
    audit_record(
        user=cast.member, action=AuditEntry.Action.TOURNAMENT_EDIT, tournament=t, details={"changed": ["club"]}
    )
    cast.member.first_name, cast.member.last_name = "Carmen", "Íñiguez"
    cast.member.save()
    return t


def export_of(tournament: Tournament) -> str:
    out = io.StringIO()
    call_command("export_tournament", str(tournament.pk), stdout=out)
    return out.getvalue()


def facts(matches) -> list[dict]:
    """What must be the same on both servers, match by match: the log hash, the state, who signed."""
    rows = []
    for match in matches:
        sheet = scoresheet(match)
        rows.append(
            {
                "log": log_hash(match.pk),
                "state": match_state(match, now=NOW),
                "signed": sorted((s.username, s.valid) for s in sheet.signatures),
                "complete": sheet.complete,
            }
        )
    return json.loads(json.dumps(rows, default=list))


_FACTS = """
import json
from django.contrib.auth import get_user_model
from matches.models import Match
from matches.tests.test_transfer import facts
users = {{u.username: [u.is_active, u.has_usable_password()] for u in get_user_model().objects.all()}}
print(json.dumps(users))
print(json.dumps(facts(Match.objects.filter(tournament_id={id}).order_by("pk"))))
"""


def test_exported_imported_into_a_fresh_server_and_exported_again_the_file_is_the_same_byte_for_byte(
    tournament, make_server, tmp_path
):
    text = export_of(tournament)
    path = tmp_path / "t.json"
    path.write_bytes(text.encode("utf-8"))
    # Another server: a fresh database, and a signing secret of its own.
    server = make_server("import", demo=False, extra_env={"SCORESHEET_SIGNING_KEY": "the other server's secret"})

    said = server.manage("import_tournament", str(path))
    new_id = int(re.search(r"as tournament (\d+)", said).group(1))
    again = server.manage("export_tournament", str(new_id))

    assert again == text
    matches = Match.objects.filter(tournament=tournament).order_by("pk")
    *_, users, there = server.manage("shell", "-c", _FACTS.format(id=new_id)).splitlines()
    there = json.loads(there)
    assert there == facts(matches)
    assert json.loads(users)["ulises"] == [False, False]  # an account of the file's: inactive, no password
    assert there[0]["complete"] and there[0]["signed"] == [["rita", True], ["ulises", True]]
    assert "gonzalo" in said and "inactive and without a password" in said


def test_imported_beside_the_original_each_match_has_the_same_log_hash_state_and_valid_signatures(tournament, tmp_path):
    text = export_of(tournament)
    before = facts(Match.objects.filter(tournament=tournament).order_by("pk"))
    Tournament.objects.filter(pk=tournament.pk).update(name="Test Cup (the original)")
    path = tmp_path / "t.json"
    path.write_text(text, encoding="utf-8")
    call_command("import_tournament", str(path), stdout=io.StringIO())

    copy = Tournament.objects.get(name="Test Cup")
    matches = list(Match.objects.filter(tournament=copy).order_by("pk"))
    assert facts(matches) == before
    assert export_of(copy) == text
    assert Signature.objects.filter(match=matches[0]).count() == 3 and all(
        s.seal_ok for s in Signature.objects.filter(match=matches[0])
    )
    assert verify("--match", str(matches[0].pk), "--hash", log_hash(matches[0].pk)[1], "--require-signed")[0] == 0
    assert Award.objects.filter(tournament=copy).count() == 2
    assert (
        AuditEntry.objects.filter(tournament=copy).count() == AuditEntry.objects.filter(tournament=tournament).count()
    )


def test_the_file_holds_the_whole_tournament_under_its_format_and_version(tournament):
    data = json.loads(export_of(tournament))
    assert (data["format"], data["version"]) == (FORMAT, VERSION) == ("polo-tournament", 1)
    first, second = data["matches"]
    assert first["status"] == "final" and second["status"] == "scheduled" and second["events"] == []
    assert first["log_hash"] == log_hash(tournament.matches.order_by("pk")[0].pk)[1]
    assert [s["official"] for s in first["signatures"]] == ["ulises", "ulises", "rita"]
    assert "seal" not in first["signatures"][0]  # the exporting server's, not the file's
    assert first["confirmations"][0]["home"] == "1.0" and first["events"][-1]["type"] == "void"
    assert {a["kind"] for a in data["awards"]} == {"mvp", "bpp"} and "Ñandú Pérez" in {
        p["name"] for p in data["players"]
    }
    assert [c["revoked_at"] is None for c in data["committee"]] == [True, False]
    assert {"scoresheet_sign", "award_set", "tournament_edit"} <= {a["action"] for a in data["audit"]}
    assert {p["username"] for p in data["people"]} >= {"carmen", "ulises", "rita", "sam", "gonzalo"}
    assert not {"password", "email"} & {key for p in data["people"] for key in p}
    assert "Ñandú" in export_text(data)  # UTF-8 as it is


def test_every_key_of_the_file_is_documented(tournament):
    doc = (BASE_DIR / "docs" / "EXPORT.md").read_text(encoding="utf-8")
    data = json.loads(export_of(tournament))

    def keys(value, inside_event=False):
        if isinstance(value, dict) and not inside_event:
            for key, item in value.items():
                yield key
                yield from keys(item, inside_event=key in ("event", "details"))
        elif isinstance(value, list):
            for item in value:
                yield from keys(item, inside_event)

    missing = sorted({key for key in keys(data) if f"`{key}`" not in doc})
    assert not missing, f"docs/EXPORT.md does not say what these are: {missing}"


# -- refusals -----------------------------------------------------------------------------------------


def counts() -> dict[str, int]:
    models = (Tournament, Match, MatchEvent, Signature, Player, Award, AuditEntry, CommitteeAssignment, Field)
    return {m.__name__: m.objects.count() for m in models} | {"users": get_user_model().objects.count()}


def import_refused(tmp_path, content: str | bytes) -> str:
    path = tmp_path / "t.json"
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    with pytest.raises(CommandError) as refused:
        call_command("import_tournament", str(path), stdout=io.StringIO())
    assert refused.value.args[0].endswith("Nothing was imported.")
    return refused.value.args[0]


@pytest.mark.parametrize(
    "content, said",
    [
        (b"\x89PNG\r\n", "not JSON"),
        ("[1, 2]", 'no "format": "polo-tournament"'),
        ('{"format": "polo-match-log", "version": 1}', 'no "format": "polo-tournament"'),
        ('{"format": "polo-tournament"}', '"version" is not a whole number'),
        ('{"format": "polo-tournament", "version": "1"}', '"version" is not a whole number'),
        ('{"format": "polo-tournament", "version": 2, "tournament": {}}', "version 2, newer than this server reads"),
        ('{"format": "polo-tournament", "version": 1}', '"tournament" is missing'),
    ],
)
def test_a_file_that_is_not_an_export_this_server_reads_is_refused_with_one_line(tmp_path, content, said):
    assert said in import_refused(tmp_path, content)


def test_a_tournament_already_there_is_refused_and_nothing_is_written(tournament, tmp_path):
    before = counts()
    said = import_refused(tmp_path, export_of(tournament))
    assert f"already on this server (tournament {tournament.pk})" in said
    assert counts() == before


def renamed(text: str) -> dict:
    data = json.loads(text)
    data["tournament"]["name"] = "Another Cup"
    return data


def test_a_file_broken_half_way_writes_nothing(tournament, tmp_path):
    data = renamed(export_of(tournament))
    goal = next(e for e in data["matches"][0]["events"] if e["type"] == "goal")
    goal["event"]["team"] = "away"  # the log rewritten in the file
    before = counts()

    said = import_refused(tmp_path, json.dumps(data))

    assert "matches[0]: its events do not hash to its log_hash: the file was altered" in said
    assert counts() == before


def test_a_signature_that_does_not_sign_its_log_is_refused(tournament, tmp_path):
    data = renamed(export_of(tournament))
    data["matches"][0]["signatures"][2]["log_hash"] = "0" * 64
    before = counts()
    assert "matches[0].signatures[2]: it does not sign this match's log" in import_refused(tmp_path, json.dumps(data))
    assert counts() == before


@pytest.mark.parametrize(
    "change, said",
    [
        (lambda d: d["matches"][1].pop("starts_at"), 'matches[1]: "starts_at" is missing'),
        (lambda d: d["matches"][1].update(periods="six"), "matches[1].periods: a whole number expected"),
        (lambda d: d["matches"][1].update(field=7), "matches[1].field: 7 is not the place of one"),
        (lambda d: d["matches"][1].update(home="Nobody"), "matches[1].home: Nobody is not one of the file's entries"),
        (lambda d: d["matches"][1].update(starts_at="tomorrow"), "matches[1].starts_at: a time with its UTC offset"),
        (lambda d: d["matches"][1].update(starts_at="9999-12-31T23:59:59-05:00"), "not a time between the years"),
        (lambda d: d["tournament"].update(ends_on="0001-01-01"), "tournament.ends_on: 0001-01-01 is not a day between"),
        (lambda d: d["matches"][1].update(periods=10**30), "matches[1]: periods:"),
        (lambda d: d["players"][0].update(handicap=40), "players[0]: handicap:"),
        (lambda d: d["players"][0].update(name="x" * 5000), "players[0]: name:"),
        (lambda d: d["matches"][0]["events"][0].update(seq=9), "matches[0].events[0].seq: 9 where"),
        (lambda d: d["audit"][0].update(user="mallory"), 'audit[0].user: "mallory" is not one of the file'),
        (lambda d: d["awards"][0].update(kind="best_umpire"), "awards[0]: kind:"),
    ],
)
def test_a_file_that_contradicts_itself_is_refused_naming_where_and_nothing_is_written(
    tournament, tmp_path, change, said
):
    data = renamed(export_of(tournament))
    change(data)
    before = counts()
    assert said in import_refused(tmp_path, json.dumps(data))
    assert counts() == before


def test_an_unknown_tournament_cannot_be_exported():
    with pytest.raises(CommandError, match="No tournament 987654"):
        call_command("export_tournament", "987654", stdout=io.StringIO())


# -- the committee's download -------------------------------------------------------------------------


def test_the_committee_downloads_the_export_from_its_tournament_page_and_it_is_audited(tournament, finished):
    client = finished.client()
    page = client.get(f"/committee/tournaments/{tournament.pk}/").content.decode()
    assert f'action="/committee/tournaments/{tournament.pk}/export.json"' in page
    expected = export_of(tournament)

    answer = client.post(f"/committee/tournaments/{tournament.pk}/export.json")

    assert answer.status_code == 200 and answer["Content-Type"] == "application/json; charset=utf-8"
    assert (
        answer["Content-Disposition"]
        == f'attachment; filename="tournament-{tournament.starts_on}-{tournament.pk}.json"'
    )
    assert answer.content.decode("utf-8") == expected
    entry = AuditEntry.objects.filter(action=AuditEntry.Action.TOURNAMENT_EXPORT).get()
    assert (entry.user, entry.tournament, entry.scope) == (finished.member, tournament, "assignment")
    assert entry.details == {"format": "polo-tournament", "version": 1, "bytes": len(answer.content)}
    trail = client.get(f"/committee/tournaments/{tournament.pk}/").content.decode()
    assert "Tournament exported" in trail


def test_the_download_is_for_the_tournament_s_committee_only(tournament, finished):
    url = f"/committee/tournaments/{tournament.pk}/export.json"
    assert finished.client().get(url).status_code == 405  # a link followed or prefetched records nothing
    outsider = make_committee_member(
        "otto", Tournament.objects.create(name="Other", club="X", starts_on="2026-01-01", ends_on="2026-01-02")
    )
    assert finished.client(outsider).post(url).status_code == 403
    assert finished.client(finished.umpire).post(url).status_code == 403
    anonymous = Client().post(url)
    assert anonymous.status_code == 302 and "/login" in anonymous["Location"]
    federation = make_user("fede")
    federation.is_superuser = True
    federation.save()
    assert finished.client(federation).post(url).status_code == 200
    assert AuditEntry.objects.filter(action=AuditEntry.Action.TOURNAMENT_EXPORT).count() == 1
