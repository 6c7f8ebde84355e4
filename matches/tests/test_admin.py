"""The admin works for a committee member: every model's list and form pages open, and the event
log can be read but never changed."""

import pytest
from django.contrib import admin
from django.urls import reverse

from matches.demo import DEMO_PASSWORD, load_demo
from matches.models import MatchEvent

pytestmark = pytest.mark.django_db


@pytest.fixture
def committee_client(client):
    load_demo()
    assert client.login(username="committee", password=DEMO_PASSWORD)
    return client


def test_every_registered_model_lists_for_the_committee(committee_client):
    for model in admin.site._registry:
        if model._meta.app_label != "matches":
            continue
        url = reverse(f"admin:matches_{model._meta.model_name}_changelist")
        response = committee_client.get(url)
        assert response.status_code == 200, url


def test_the_match_page_shows_its_log_inline_and_roster_search_works(committee_client):
    event = MatchEvent.objects.order_by("seq").first()
    response = committee_client.get(reverse("admin:matches_match_change", args=[event.match_id]))
    assert response.status_code == 200
    assert b"match events" in response.content.lower() or b"match event" in response.content.lower()
    search = committee_client.get(reverse("admin:matches_entry_changelist") + "?q=Dolfina")
    assert b"La Dolfina Blue" in search.content


def test_no_one_can_change_an_event_in_the_admin(committee_client):
    event = MatchEvent.objects.first()
    url = reverse("admin:matches_matchevent_change", args=[event.pk])
    page = committee_client.get(url)
    assert page.status_code == 200  # readable
    before = (event.type, event.payload)
    assert committee_client.post(url, {"type": "goal", "payload": "{}"}).status_code == 403
    event.refresh_from_db()
    assert (event.type, event.payload) == before
    delete = committee_client.post(reverse("admin:matches_matchevent_delete", args=[event.pk]), {"post": "yes"})
    assert delete.status_code == 403
    assert MatchEvent.objects.filter(pk=event.pk).exists()


def test_an_official_who_logged_events_cannot_be_deleted_and_the_admin_says_to_deactivate(client):
    """The append-only log keeps its authors (``MatchEvent.sent_by`` is PROTECT): deleting the
    scorer is refused with a clear message, changes nothing, and the events still name him; making
    the account inactive is the way, and an official who logged nothing may still be deleted."""
    from django.contrib.auth import get_user_model
    from django.db.models import ProtectedError

    load_demo()
    user_model = get_user_model()
    admin_user = user_model.objects.create_superuser("root", "root@example.com", "pw-root-123")
    assert client.login(username="root", password="pw-root-123")
    scorer = user_model.objects.get(username="scorer")
    logged = MatchEvent.objects.filter(sent_by=scorer).count()
    assert logged > 0
    url = reverse("admin:auth_user_delete", args=[scorer.pk])

    page = client.get(url)
    assert page.status_code == 200
    text = page.content.decode()
    assert "A match&#x27;s log keeps its authors, and scorer logged events" in text
    assert "Make the account inactive instead" in text
    refused = client.post(url, {"post": "yes"})
    assert refused.status_code == 200  # the confirmation page again, listing what protects him
    assert user_model.objects.filter(pk=scorer.pk).exists()
    assert MatchEvent.objects.filter(sent_by=scorer).count() == logged

    bulk = client.post(
        reverse("admin:auth_user_changelist"), {"action": "delete_selected", "_selected_action": [scorer.pk]}
    )
    assert "Make the account inactive instead" in bulk.content.decode()
    assert user_model.objects.filter(pk=scorer.pk).exists()

    with pytest.raises(ProtectedError):  # outside the admin too
        scorer.delete()
    assert MatchEvent.objects.filter(sent_by=scorer).count() == logged

    idle = user_model.objects.create_user("idle-official")
    gone = client.post(reverse("admin:auth_user_delete", args=[idle.pk]), {"post": "yes"})
    assert gone.status_code == 302
    assert not user_model.objects.filter(pk=idle.pk).exists()
    assert admin_user.is_active


def test_the_author_of_an_event_is_protected_by_the_database_schema():
    from django.db.models import PROTECT

    field = MatchEvent._meta.get_field("sent_by")
    assert field.remote_field.on_delete is PROTECT


# --- the admin obeys the rules ----------------------------------------------------------------------


def _admin_post(match, **changes) -> dict:
    """What the admin's change form of ``match`` posts back unchanged, with ``changes``."""
    from django.utils import timezone

    local = timezone.localtime(match.starts_at)
    data = {
        "tournament": match.tournament_id,
        "field": match.field_id,
        "starts_at_0": local.date().isoformat(),
        "starts_at_1": local.strftime("%H:%M:%S"),
        "home": match.home_id,
        "away": match.away_id,
        "periods": match.periods,
        "period_seconds": match.period_seconds,
        "stage": match.stage,
        "home_defends": match.home_defends,
        "home_handicap_goals": str(match.home_handicap_goals),
        "away_handicap_goals": str(match.away_handicap_goals),
        "umpires": [u.pk for u in match.umpires.all()],
        "referee": match.referee_id or "",
        "scorer": match.scorer_id or "",
    }
    events = list(MatchEvent.objects.filter(match=match).order_by("seq"))
    data.update({"events-TOTAL_FORMS": len(events), "events-INITIAL_FORMS": len(events)})
    data.update({"events-MIN_NUM_FORMS": 0, "events-MAX_NUM_FORMS": 1000})
    for i, event in enumerate(events):
        data.update({f"events-{i}-id": event.pk, f"events-{i}-match": match.pk})
    data.update(changes)
    return data


def test_the_admin_cannot_change_the_chukkers_of_a_match_in_progress(client):
    """Rule 14: the committee's own form locks the number of chukkers once play starts; the admin
    shows them (and their length, the teams, their ends, the handicap goals) read-only, and a post
    that changes them leaves the match as the log has it (a chukker shortened from 420 to 60 s
    mid-chukker blew its horns at once). What may change still does, and is in the audit trail."""
    from matches.committee.models import AuditEntry

    _, live = load_demo()
    live.refresh_from_db()
    assert live.last_seq > 0
    assert client.login(username="committee", password=DEMO_PASSWORD)
    url = reverse("admin:matches_match_change", args=[live.pk])
    page = client.get(url).content.decode()
    assert 'name="period_seconds"' not in page and 'name="periods"' not in page
    assert 'name="home_handicap_goals"' not in page and 'name="stage"' in page

    before = (live.periods, live.period_seconds, live.home_handicap_goals, live.last_seq, live.status)
    posted = client.post(url, _admin_post(live, periods=2, period_seconds=60, home_handicap_goals="5", stage="final"))
    assert posted.status_code == 302, posted.content.decode()[:2000]
    live.refresh_from_db()
    assert (live.periods, live.period_seconds, live.home_handicap_goals, live.last_seq, live.status) == before
    assert live.stage == "final"
    entry = AuditEntry.objects.filter(match=live, action="match_edit").latest("at")
    assert entry.details["changed"] == ["stage"]


def test_the_admin_checks_a_match_as_the_committees_forms_do(client):
    """A team cannot play itself, and a match has at most two umpires, nobody in two roles: the
    admin refuses what the committee's pages refuse, with their words, and changes nothing."""
    from django.contrib.auth.models import Group

    from matches.models import Match
    from matches.permissions import UMPIRE_GROUP
    from matches.tests.personas import make_user

    _, live = load_demo()
    match = Match.objects.filter(tournament=live.tournament, last_seq=0).first()
    assert match is not None
    assert client.login(username="committee", password=DEMO_PASSWORD)
    url = reverse("admin:matches_match_change", args=[match.pk])

    itself = client.post(url, _admin_post(match, away=match.home_id))
    assert itself.status_code == 200
    assert "A team cannot play itself." in itself.content.decode()
    umpires = [make_user(f"ump{i}", UMPIRE_GROUP).pk for i in range(3)]
    assert Group.objects.filter(name=UMPIRE_GROUP).exists()
    crowded = client.post(url, _admin_post(match, umpires=umpires, referee=umpires[0]))
    assert crowded.status_code == 200
    text = crowded.content.decode()
    assert "A match has at most two umpires." in text
    assert "The referee cannot also be an umpire of the match." in text
    unchanged = Match.objects.get(pk=match.pk)
    assert unchanged.away_id == match.away_id and unchanged.umpires.count() == match.umpires.count()

    # Before play starts the rules allow a shorter match: the admin saves it.
    saved = client.post(url, _admin_post(match, periods=4))
    assert saved.status_code == 302
    assert Match.objects.get(pk=match.pk).periods == 4


def test_a_change_saved_after_play_began_keeps_what_the_rules_fixed():
    """The form was read before the first event and saved after it: the save, under the match's
    lock, keeps the chukkers as the log has them and never writes back a stale log position."""
    import time
    import uuid

    from django.contrib.auth import get_user_model
    from django.test import RequestFactory

    from matches.admin import MatchAdmin, MatchAdminForm
    from matches.models import Match
    from matches.services import match_event_log

    _, live = load_demo()
    match = Match.objects.filter(tournament=live.tournament, last_seq=0).first()
    fixed = (match.periods, match.period_seconds)
    data = _admin_post(match, periods=2, period_seconds=60, stage="final")
    data["starts_at"] = f"{data.pop('starts_at_0')} {data.pop('starts_at_1')}"
    form = MatchAdminForm(data, instance=match)
    assert form.is_valid(), form.errors
    result = match_event_log(match_id=match.pk, event={"id": str(uuid.uuid4()), "type": "play"}, now=time.time())
    assert result.accepted
    request = RequestFactory().post("/")
    request.user = get_user_model().objects.get(username="committee")
    MatchAdmin(Match, admin.site).save_model(request, form.instance, form, change=True)
    saved = Match.objects.get(pk=match.pk)
    assert (saved.periods, saved.period_seconds, saved.last_seq) == (*fixed, 1)
    assert saved.stage == "final"


def test_the_admin_shows_rosters_read_only_where_the_committees_page_checks_them(committee_client):
    """Rule 21.d and the handicap limits are checked by the committee's roster form; the admin, which
    would go round them, shows a roster and takes no change to it."""
    from matches.models import Entry, RosterLine

    entry = Entry.objects.filter(roster__isnull=False).distinct().first()
    lines = list(RosterLine.objects.filter(entry=entry).values_list("pk", "number", "handicap"))
    url = reverse("admin:matches_entry_change", args=[entry.pk])
    page = committee_client.get(url).content.decode()
    assert entry.roster.first().player.name in page
    assert 'name="roster-0-number"' not in page and 'name="roster-0-handicap"' not in page
    data = {
        "team": entry.team_id,
        "tournament": entry.tournament_id,
        "roster-TOTAL_FORMS": 1,
        "roster-INITIAL_FORMS": 0,
        "roster-MIN_NUM_FORMS": 0,
        "roster-MAX_NUM_FORMS": 1000,
        "roster-0-number": 9,
        "roster-0-handicap": 10,
    }
    committee_client.post(url, data)
    assert list(RosterLine.objects.filter(entry=entry).values_list("pk", "number", "handicap")) == lines


def test_the_admin_checks_a_tournament_as_the_committees_page_does(committee_client):
    """The committee's tournament form bounds the handicap limits and keeps every team entered
    within them; the admin refuses what it refuses, and keeps the rule edition of a tournament whose
    matches have begun (their logs are judged by it)."""
    from matches.models import Match, Tournament

    tournament = Match.objects.filter(last_seq__gt=0).first().tournament
    url = reverse("admin:matches_tournament_change", args=[tournament.pk])
    page = committee_client.get(url).content.decode()
    assert 'name="rules_edition"' not in page and 'name="upper_handicap_limit"' in page

    def post(**changes):
        data = {
            "name": tournament.name,
            "club": tournament.club,
            "starts_on": tournament.starts_on.isoformat(),
            "ends_on": tournament.ends_on.isoformat(),
            "lower_handicap_limit": tournament.lower_handicap_limit,
            "upper_handicap_limit": tournament.upper_handicap_limit,
            "courtesy_change": "on" if tournament.courtesy_change else "",
            "tack_allowance": "on" if tournament.tack_allowance else "",
            "entries-TOTAL_FORMS": 0,
            "entries-INITIAL_FORMS": 0,
            "entries-MIN_NUM_FORMS": 0,
            "entries-MAX_NUM_FORMS": 1000,
            **changes,
        }
        return committee_client.post(url, {k: v for k, v in data.items() if v != ""})

    before = Tournament.objects.values().get(pk=tournament.pk)
    refused = post(upper_handicap_limit=1)
    assert refused.status_code == 200
    assert "handicaps would be outside the new limits" in refused.content.decode()
    assert Tournament.objects.values().get(pk=tournament.pk) == before
    kept = post(rules_edition="SOMETHING-ELSE", club="Renamed Club")
    assert kept.status_code == 302, kept.content.decode()[:3000]
    after = Tournament.objects.get(pk=tournament.pk)
    assert after.club == "Renamed Club" and after.rules_edition == before["rules_edition"]


def test_the_admin_refuses_a_field_the_committees_page_refuses(committee_client):
    """The committee's field form bounds a field to what the engine can lay Rule 22's lines out on
    (no longer than 400 yards); the admin uses it."""
    from matches.models import Field

    added = committee_client.post(reverse("admin:matches_field_add"), {"name": "Huge", "length": 30000, "width": 160})
    assert added.status_code == 200 and not Field.objects.filter(name="Huge").exists()
    assert "Ensure this value is less than or equal to 400." in added.content.decode()
