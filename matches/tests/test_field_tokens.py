"""Field tokens of each scope (matches/field/): a match's, a day's on one ground (``field_token
--date --field``) and a day's of one tournament (the committee's tournament page). Each authorises
its own matches and nothing else: a match outside its scope is refused (``field_token_other_match``,
the message naming the token's scope) with nothing stored. A day's token expires the morning after
its day; each issue and revocation is audited; the field is heard per match, whichever token."""

from __future__ import annotations

import io
import time
from datetime import datetime, timedelta

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from matches.committee.models import AuditEntry
from matches.field.models import FieldHeard, FieldToken
from matches.field.sender import batch_body
from matches.field.services import day_token_expiry, field_token_issue, match_keep_at
from matches.models import Field, MatchEvent

from .live_helpers import client_for, ev, log
from .personas import field_copy, make_match

pytestmark = pytest.mark.django_db

DAY = timezone.localdate() + timedelta(days=2)


def at(hour: int) -> datetime:
    return datetime.combine(DAY, datetime.min.time(), tzinfo=timezone.get_current_timezone()) + timedelta(hours=hour)


@pytest.fixture
def day(cast):
    """The cast's two matches on Field A at 14:00 and 16:00 of ``DAY``; a third of the same
    tournament on Field B that day; a fourth on Field A the day after; a fifth of another
    tournament on Field A that day."""
    cast.match_a.starts_at, cast.match_b.starts_at = at(14), at(16)
    cast.match_a.save(update_fields=["starts_at"])
    cast.match_b.save(update_fields=["starts_at"])
    ground_a, ground_b = cast.match_a.field, Field.objects.create(name="Field B")
    t = cast.match_a.tournament
    cast.other_ground = make_match(tournament=t, field=ground_b, starts_at=at(15))
    cast.next_day = make_match(tournament=t, field=ground_a, starts_at=at(14) + timedelta(days=1))
    cast.other_cup = make_match(field=ground_a, starts_at=at(18))
    return cast


def api(path: str, secret: str, **headers: str):
    return Client().get(path, headers={"authorization": f"Bearer {secret}", **headers})


def push(match, body, secret: str, **headers: str):
    return Client().post(
        f"/api/field/matches/{match.pk}/log",
        body,
        content_type="application/json",
        headers={"authorization": f"Bearer {secret}", **headers},
    )


def kept_with_copy(replica):
    """The field server's copy of ``replica``, with one event logged at the field, and ``replica``
    handed to the field."""
    copy = field_copy(replica)
    log(copy, ev("play"), now=time.time() - 100)
    match_keep_at(match_id=replica.pk, where="field")
    return copy


def listed(secret: str) -> set[int]:
    answer = api("/api/field/matches", secret)
    assert answer.status_code == 200, answer.json()
    return {m["id"] for m in answer.json()["matches"]}


def refused_outside(match, secret: str) -> None:
    """``secret`` may neither pair ``match`` nor push to it, and nothing is stored."""
    pairing = api(f"/api/field/matches/{match.pk}/pairing", secret)
    assert pairing.status_code == 403 and pairing.json()["error"]["code"] == "field_token_other_match"
    assert f"match {match.pk} is not one of them" in pairing.json()["error"]["message"]
    copy = kept_with_copy(match)
    answer = push(match, batch_body(copy.pk, 0), secret)
    assert answer.status_code == 403 and answer.json()["error"]["code"] == "field_token_other_match"
    assert not MatchEvent.objects.filter(match=match).exists()
    assert not FieldHeard.objects.filter(match=match).exists()


def test_a_matchs_token_authorises_its_match_only(day):
    token, secret = field_token_issue(match=day.match_a)
    assert listed(secret) == {day.match_a.pk}
    assert api(f"/api/field/matches/{day.match_a.pk}/pairing", secret).status_code == 200
    assert FieldHeard.objects.get(match=day.match_a).token == token
    refused_outside(day.match_b, secret)


def test_a_grounds_token_for_a_day_authorises_every_match_there_that_day_and_nothing_else(day):
    out, err = io.StringIO(), io.StringIO()
    ground = day.match_a.field
    call_command("field_token", "--date", DAY.isoformat(), "--field", str(ground.pk), stdout=out, stderr=err)
    secret = out.getvalue().strip()
    token = FieldToken.objects.get()
    assert (token.match, token.day, token.field, token.tournament) == (None, DAY, ground, None)
    assert f"the matches on {ground.name} on {DAY.isoformat()}" in err.getvalue()
    # Every tournament's matches on that ground that day; not another ground's, not the next day's.
    assert listed(secret) == {day.match_a.pk, day.match_b.pk, day.other_cup.pk}
    for match in (day.match_a, day.match_b):
        copy = kept_with_copy(match)
        answer = push(match, batch_body(copy.pk, 0), secret)
        assert answer.status_code == 200 and answer.json()["appended"] == 1
        assert FieldHeard.objects.get(match=match).token == token
    refused_outside(day.other_ground, secret)
    refused_outside(day.next_day, secret)
    audit = AuditEntry.objects.get(action="field_token_issue")
    assert audit.details["day"] == DAY.isoformat() and audit.details["field"]["id"] == ground.pk
    listed_for = io.StringIO()
    call_command("field_token", "--list", "--match", str(day.match_b.pk), stdout=listed_for)
    assert (
        listed_for.getvalue().startswith(f"#{token.pk} the matches on {ground.name}")
        and "usable" in listed_for.getvalue()
    )
    call_command("field_token", "--list", "--match", str(day.other_ground.pk), stdout=(none := io.StringIO()))
    assert none.getvalue() == ""


def test_the_committee_issues_a_tournaments_token_for_a_day_and_revokes_it(day):
    client = client_for(day.committee)
    page = client.get(f"/committee/tournaments/{day.match_a.tournament_id}/").content.decode()
    assert 'id="field-day-tokens"' in page and f'value="{DAY.isoformat()}"' in page
    answer = client.post(f"/committee/tournaments/{day.match_a.tournament_id}/field/token/", {"day": DAY.isoformat()})
    assert answer.status_code == 200 and answer["Cache-Control"] == "no-store"
    secret = answer.context["secret"]
    assert f"--token {secret}" in answer.content.decode() and "--match" not in answer.context["command"]
    token = FieldToken.objects.get()
    assert (token.tournament, token.field, token.day, token.issued_by) == (
        day.match_a.tournament,
        None,
        DAY,
        day.committee,
    )
    # The tournament's matches of the day on every ground; not another tournament's, not the next day's.
    assert listed(secret) == {day.match_a.pk, day.match_b.pk, day.other_ground.pk}
    refused_outside(day.other_cup, secret)
    refused_outside(day.next_day, secret)
    # The match's page names the day's token that covers it; the other day's match's does not.
    assert f'data-token="{token.pk}"' in client.get(f"/committee/matches/{day.match_a.pk}/").content.decode()
    assert f'data-token="{token.pk}"' not in client.get(f"/committee/matches/{day.next_day.pk}/").content.decode()

    client.post(f"/committee/tournaments/{day.match_a.tournament_id}/field/tokens/{token.pk}/revoke/")
    token.refresh_from_db()
    assert token.revoked_by == day.committee
    answer = api(f"/api/field/matches/{day.match_a.pk}/pairing", secret)
    assert answer.status_code == 403 and answer.json()["error"]["code"] == "field_token_revoked"
    actions = AuditEntry.objects.filter(tournament=day.match_a.tournament, user=day.committee)
    assert set(actions.values_list("action", flat=True)) >= {"field_token_issue", "field_token_revoke"}


def test_a_days_token_expires_the_morning_after_its_day(day):
    token, secret = field_token_issue(day=DAY, ground=day.match_a.field)
    assert token.expires_at == day_token_expiry(DAY) == at(36)
    FieldToken.objects.filter(pk=token.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    answer = api(f"/api/field/matches/{day.match_a.pk}/pairing", secret)
    assert answer.status_code == 403 and answer.json()["error"]["code"] == "field_token_expired"
    assert api("/api/field/matches", secret).json()["error"]["code"] == "field_token_expired"


def test_only_the_tournaments_committee_issues_its_days_tokens(day):
    for user in (day.committee_other, day.scorer_a):
        answer = client_for(user).post(
            f"/committee/tournaments/{day.match_a.tournament_id}/field/token/", {"day": DAY.isoformat()}
        )
        assert answer.status_code == 403
    other_ground = client_for(day.committee).post(
        f"/committee/tournaments/{day.match_a.tournament_id}/field/token/", {"day": "not a day"}
    )
    assert other_ground.status_code == 302
    assert not FieldToken.objects.exists()


def test_the_command_refuses_an_open_or_double_scope(day):
    from django.core.management.base import CommandError

    for args in (
        [],
        ["--date", DAY.isoformat()],
        ["--match", str(day.match_a.pk), "--date", DAY.isoformat()],
        ["--match", str(day.match_a.pk), "--field", str(day.match_a.field_id)],
    ):
        with pytest.raises(CommandError):
            call_command("field_token", *args, stdout=io.StringIO(), stderr=io.StringIO())
    assert not FieldToken.objects.exists()
