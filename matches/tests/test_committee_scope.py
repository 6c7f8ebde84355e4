"""Committees per tournament (issue 11, item 6): one server hosts two clubs' tournaments, and each
committee acts on its own only. The committee of tournament A cannot open B's committee pages, send
B's committee events (pages or API), run B's shootout or read B's private notes; the federation (the
server's operators) can; the committee home lists A only; the audit trail names the assignment each
action was taken under; ``create_official --tournament`` assigns. (Websockets:
``test_committee_scope_ws.py``.)"""

from __future__ import annotations

import time
import uuid
from datetime import datetime, time as dtime, timedelta

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from matches.committee import urls as committee_urls
from matches.committee.models import AuditEntry, Webhook
from matches.committee.services import committee_revoke, shootout_lot
from matches.models import CommitteeAssignment, Field, MatchEvent, Tournament
from matches.permissions import (
    COMMITTEE_GROUP,
    can_log_event,
    committee_tournament_ids,
    is_committee_of,
    is_federation,
    match_role,
)

from .committee_helpers import Clock, ev, log, tie_one_chukker
from .personas import Cast, make_committee_member, make_federation, make_match, make_user

pytestmark = pytest.mark.django_db

COMMITTEE_EVENTS = ["suspend", "resume", "abandon", "overtime", "shootout_start", "shootout_attempt", "forfeit", "void"]


class Two:
    """Two clubs' tournaments on one server, each with its committee; the federation; a committee
    member of neither. B's first match is a one-chukker match left tied (ready for a shootout); its
    second is in play; B has a field of its own, a webhook and rosters."""

    def __init__(self) -> None:
        today = timezone.localdate()
        self.a = Tournament.objects.create(
            name="Palermo Open", club="Club A", starts_on=today, ends_on=today + timedelta(days=3)
        )
        self.b = Tournament.objects.create(
            name="Pilar Cup", club="Club B", starts_on=today, ends_on=today + timedelta(days=3)
        )
        self.umpire_b = make_user("ulrich", "umpire")
        self.match_a = make_match(tournament=self.a, periods=1)
        self.field_b = Field.objects.create(name="Pilar 1", club="Club B")
        self.match_b = make_match(
            tournament=self.b,
            field=self.field_b,
            periods=1,
            umpires=[self.umpire_b],
            starts_at=timezone.now() + timedelta(minutes=5),
        )
        self.member_a = make_committee_member("ana", self.a)
        self.member_b = make_committee_member("bruno", self.b)
        self.nobody = make_committee_member("nadia")  # in the committee group, assigned to nothing
        self.federation = make_federation("fede")
        self.assignment_a = CommitteeAssignment.objects.get(user=self.member_a)
        self.hook_b = Webhook.objects.create(
            name="Pilar results",
            url="https://b.example/hook",
            secret="s" * 32,
            events=["match.result"],
            tournament=self.b,
        )
        tie_one_chukker(self.match_b)
        self.live_b = make_match(
            tournament=self.b,
            field=self.field_b,
            home=self.match_b.home,
            away=self.match_b.away,
            umpires=[self.umpire_b],
        )
        log(self.live_b, ev("play"))

    def client(self, user) -> Client:
        client = Client()
        client.force_login(user)
        return client


@pytest.fixture
def two() -> Two:
    return Two()


def b_object_urls(two: Two) -> dict[str, str]:
    """Every committee URL that names one of B's records, by route name (the test below checks that
    none of the committee's routes is left out)."""
    m, t, entry = two.match_b, two.b, two.match_b.home
    line = entry.roster.first()
    by_kind = {
        "tournaments": t.pk,
        "matches": m.pk,
        "entries": entry.pk,
        "roster": line.pk,
        "fields": two.field_b.pk,
        "webhooks": two.hook_b.pk,
    }
    urls = {}
    for pattern in committee_urls.urlpatterns:
        route = str(pattern.pattern)
        kind = route.split("/")[0]
        if "<int:pk>" in route and kind in by_kind:  # (other records, e.g. the login lockouts, are no tournament's)
            urls[pattern.name] = reverse(f"committee:{pattern.name}", args=[by_kind[kind]])
    return urls


def closed(response) -> bool:
    """Refused: 403, 405 (a route only for POST), or a hit's form sending a GET back to the shootout
    screen, itself refused."""
    if response.status_code == 302 and response["Location"].endswith("/shootout/"):
        return response.client.get(response["Location"]).status_code == 403
    return response.status_code in (403, 405)


def test_every_committee_page_of_b_is_closed_to_a(two):
    urls = b_object_urls(two)
    assert len(urls) >= 29  # every route with a pk of these records: a new one is covered as it is added
    client = two.client(two.member_a)
    for name, url in urls.items():
        assert closed(client.get(url)), name
        assert client.post(url, {"event_id": str(uuid.uuid4()), "reason": "weather"}).status_code == 403, name
    assert not AuditEntry.objects.filter(tournament=two.b, user=two.member_a).exists()
    assert two.match_b.events.filter(sent_by=two.member_a).count() == 0
    assert shootout_lot(two.match_b) is None


def test_the_member_of_no_tournament_opens_none_and_the_umpire_of_b_only_the_shootout_screen(two):
    for name, url in b_object_urls(two).items():
        assert closed(two.client(two.nobody).get(url)), name
    shootout = reverse("committee:shootout", args=[two.match_b.pk])
    assert two.client(two.umpire_b).get(shootout).status_code == 200  # the match's officials follow it
    assert two.client(two.umpire_b).get(reverse("committee:match", args=[two.match_b.pk])).status_code == 403


def test_a_opens_its_own_pages_and_the_federation_opens_both(two):
    for user, matches in (
        (two.member_a, [two.match_a]),
        (two.member_b, [two.match_b]),
        (two.federation, [two.match_a, two.match_b]),
    ):
        client = two.client(user)
        for match in matches:
            for name in ("match", "match_edit", "match_forfeit", "shootout", "report", "log_csv"):
                assert client.get(reverse(f"committee:{name}", args=[match.pk])).status_code == 200, (user, name)
            for name in ("tournament", "tournament_edit", "entry_new", "match_new", "standings", "bracket"):
                url = reverse(f"committee:{name}", args=[match.tournament_id])
                assert client.get(url).status_code == 200, (user, name)
            assert client.get(reverse("committee:entry", args=[match.home_id])).status_code == 200


def test_the_committee_home_lists_only_its_tournaments_and_matches(two):
    page = two.client(two.member_a).get(reverse("committee:home"))
    assert [t.pk for t in page.context["tournaments"]] == [two.a.pk]
    assert [m.pk for m in page.context["matches"]] == [two.match_a.pk]
    html = page.content.decode()
    assert "Palermo Open" in html and "Pilar Cup" not in html
    assert reverse("committee:match", args=[two.match_b.pk]) not in html
    # The shared fields are listed; B's field, on which only B plays, is not A's to change.
    assert reverse("committee:field_edit", args=[two.match_a.field_id]) in html
    assert reverse("committee:field_edit", args=[two.field_b.pk]) not in html
    both = two.client(two.federation).get(reverse("committee:home"))
    assert {t.pk for t in both.context["tournaments"]} == {two.a.pk, two.b.pk}
    assert {m.pk for m in both.context["matches"]} == {two.match_a.pk, two.match_b.pk, two.live_b.pk}
    assert list(two.client(two.nobody).get(reverse("committee:home")).context["tournaments"]) == []


def test_the_day_shows_another_tournaments_match_only_as_a_field_taken(two):
    page = two.client(two.member_a).get(reverse("committee:day"))
    html = page.content.decode()
    assert reverse("committee:match", args=[two.match_a.pk]) in html
    assert reverse("committee:match", args=[two.match_b.pk]) not in html
    assert "Taken: Pilar Cup" in html
    assert [t.pk for t in page.context["tournaments"]] == [two.a.pk]


def test_the_webhooks_page_lists_only_its_tournaments_and_a_global_webhook_is_the_federations(two):
    client = two.client(two.member_a)
    assert list(client.get(reverse("committee:webhooks")).context["hooks"]) == []
    data = {
        "name": "Everything",
        "url": "https://93.184.215.14/hook",  # (a public address written as such: no DNS asked)
        "secret": "x" * 32,
        "events": ["match.result"],
        "active": "on",
    }
    page = client.post(reverse("committee:webhooks"), data)  # no tournament: every tournament's results
    assert page.status_code == 200 and not Webhook.objects.filter(name="Everything").exists()
    client.post(reverse("committee:webhooks"), {**data, "tournament": two.b.pk})  # B's: not a choice for A
    assert not Webhook.objects.filter(name="Everything").exists()
    assert client.post(reverse("committee:webhooks"), {**data, "tournament": two.a.pk}).status_code == 302
    assert Webhook.objects.get(name="Everything").tournament == two.a
    assert two.client(two.federation).post(reverse("committee:webhooks"), {**data, "name": "All"}).status_code == 302


@pytest.mark.parametrize("event_type", COMMITTEE_EVENTS)
def test_a_cannot_post_bs_committee_events_through_the_api(two, event_type):
    event = ev(event_type, team="home", reason="weather", target=str(uuid.uuid4()))
    for user in (two.member_a, two.nobody):
        response = two.client(user).post(
            f"/api/matches/{two.match_b.pk}/events", event, content_type="application/json"
        )
        assert response.status_code == 403, (user.username, response.content)
        assert not can_log_event(user, two.match_b, event_type)
    assert can_log_event(two.member_b, two.match_b, event_type)
    assert can_log_event(two.federation, two.match_b, event_type)
    assert two.match_b.events.filter(type=event_type, sent_by__in=[two.member_a, two.nobody]).count() == 0


def test_the_committee_and_the_federation_post_committee_events_where_they_may(two):
    response = two.client(two.member_a).post(
        f"/api/matches/{two.match_a.pk}/events", ev("suspend", reason="weather"), content_type="application/json"
    )
    assert response.status_code == 201, response.content
    resume = ev("resume", reason="committee")
    response = two.client(two.federation).post(
        f"/api/matches/{two.match_a.pk}/events", resume, content_type="application/json"
    )
    assert response.status_code == 201, response.content
    overtime = ev("overtime")  # B's match is tied: the federation orders overtime
    response = two.client(two.federation).post(
        f"/api/matches/{two.match_b.pk}/events", overtime, content_type="application/json"
    )
    assert response.status_code == 201, response.content
    assert response.json()["event"]["by"]["role"] == "committee"


def test_private_notes_of_b_are_for_bs_committee_and_the_federation(two):
    log(
        two.live_b,
        ev(
            "whistle",
            reason="lost_helmet",
            ball={"x": 100, "y": 50},
            team="home",
            number=2,
            clock=30,
            private_note="B's private note",
        ),
    )
    url = f"/api/matches/{two.live_b.pk}/events"

    def note_seen(user) -> bool:
        events = two.client(user).get(url).json()["events"]
        return any(e["event"].get("private_note") == "B's private note" for e in events)

    assert not note_seen(two.member_a) and not note_seen(two.nobody)
    assert note_seen(two.member_b) and note_seen(two.federation) and note_seen(two.umpire_b)


def test_a_cannot_run_bs_shootout_and_the_federation_can(two):
    lot = reverse("committee:shootout_lot", args=[two.match_b.pk])
    start = reverse("committee:shootout_start", args=[two.match_b.pk])
    order = {f"{team}_{p}": n for team in ("home", "away") for p, n in enumerate((1, 2, 3, 4), start=1)}
    start_data = {"event_id": str(uuid.uuid4()), "format": "team", "first": "home", **order}
    a = two.client(two.member_a)
    assert a.get(reverse("committee:shootout", args=[two.match_b.pk])).status_code == 403
    assert a.post(lot, {"caller": "home", "call": "heads", "method": "draw"}).status_code == 403
    assert a.post(start, start_data).status_code == 403
    assert shootout_lot(two.match_b) is None and not two.match_b.events.filter(type="shootout_start").exists()
    fed = two.client(two.federation)
    page = fed.get(reverse("committee:shootout", args=[two.match_b.pk]))
    assert page.status_code == 200 and page.context["runs"] is True
    assert fed.post(lot, {"caller": "home", "call": "heads", "method": "entered", "result": "heads"}).status_code == 302
    assert shootout_lot(two.match_b).winner == "home"
    assert fed.post(start, start_data).status_code == 302
    assert two.match_b.events.filter(type="shootout_start", sent_by=two.federation).exists()


def test_the_audit_trail_names_the_assignment_or_the_federation(two):
    suspend = {"event_id": str(uuid.uuid4()), "reason": "weather"}
    two.client(two.member_a).post(reverse("committee:match_suspend", args=[two.match_a.pk]), suspend)
    entry = AuditEntry.objects.get(match=two.match_a, action="suspend")
    assert entry.user == two.member_a
    assert entry.scope == AuditEntry.Scope.ASSIGNMENT and entry.assignment == two.assignment_a
    overtime = {"event_id": str(uuid.uuid4())}
    two.client(two.federation).post(reverse("committee:match_overtime", args=[two.match_b.pk]), overtime)
    by_federation = AuditEntry.objects.get(match=two.match_b, action="overtime")
    assert by_federation.scope == AuditEntry.Scope.FEDERATION and by_federation.assignment is None
    page = two.client(two.member_a).get(reverse("committee:match", args=[two.match_a.pk])).content.decode()
    assert f'data-scope="assignment" data-assignment="{two.assignment_a.pk}"' in page
    assert f"committee of Palermo Open, assignment #{two.assignment_a.pk}" in page
    page = two.client(two.federation).get(reverse("committee:match", args=[two.match_b.pk])).content.decode()
    assert 'data-scope="federation">federation</td>' in page


def test_a_revoked_assignment_grants_nothing_and_stays_named_in_the_trail(two):
    two.client(two.member_a).post(
        reverse("committee:match_suspend", args=[two.match_a.pk]), {"event_id": str(uuid.uuid4()), "reason": "weather"}
    )
    committee_revoke(assignment=two.assignment_a, by=two.federation)
    assert not is_committee_of(two.member_a, two.a) and match_role(two.member_a, two.match_a) is None
    assert two.client(two.member_a).get(reverse("committee:match", args=[two.match_a.pk])).status_code == 403
    assert AuditEntry.objects.get(match=two.match_a, action="suspend").assignment == two.assignment_a
    revoked = AuditEntry.objects.get(tournament=two.a, action="committee_revoke")
    assert revoked.user == two.federation and revoked.scope == AuditEntry.Scope.FEDERATION
    assert revoked.details == {"member": "ana", "assignment": two.assignment_a.pk}
    with pytest.raises(Exception):  # noqa: B017 (ProtectedError: the trail names it, it is never deleted)
        two.assignment_a.delete()


def test_out_of_the_committee_group_an_assignment_grants_nothing(two):
    two.member_a.groups.remove(Group.objects.get(name=COMMITTEE_GROUP))
    assert committee_tournament_ids(two.member_a) == set()
    assert not is_committee_of(two.member_a, two.a)
    assert two.client(two.member_a).get(reverse("committee:home")).status_code == 403


def test_a_superuser_is_the_federation(two):
    root = make_user("root")
    root.is_superuser = True
    root.save()
    assert is_federation(root) and committee_tournament_ids(root) is None and is_committee_of(root, two.b)


def test_the_creator_of_a_tournament_is_assigned_to_it(two):
    today = timezone.localdate()
    response = two.client(two.nobody).post(
        reverse("committee:tournament_new"),
        {
            "name": "Nadia's Cup",
            "club": "Club N",
            "starts_on": today,
            "ends_on": today + timedelta(days=2),
            "lower_handicap_limit": 0,
            "upper_handicap_limit": 6,
        },
    )
    created = Tournament.objects.get(name="Nadia's Cup")
    assert response.status_code == 302
    assignment = CommitteeAssignment.objects.get(tournament=created)
    assert assignment.user == two.nobody and assignment.assigned_by == two.nobody and assignment.active
    assert is_committee_of(two.nobody, created) and not is_committee_of(two.nobody, two.a)
    entry = AuditEntry.objects.get(action="tournament_create", tournament=created)
    assert entry.scope == AuditEntry.Scope.ASSIGNMENT and entry.assignment == assignment
    page = two.client(two.nobody).get(reverse("committee:tournament", args=[created.pk]))
    assert page.status_code == 200 and f'data-assignment="{assignment.pk}"' in page.content.decode()


def test_a_shared_field_is_changed_only_by_a_committee_whose_tournaments_alone_play_on_it(two):
    shared = two.match_a.field
    make_match(
        tournament=two.b,
        field=shared,
        home=two.match_b.home,
        away=two.match_b.away,
        starts_at=timezone.now() + timedelta(hours=3),
    )
    assert two.client(two.member_a).get(reverse("committee:field_edit", args=[shared.pk])).status_code == 403
    assert two.client(two.federation).get(reverse("committee:field_edit", args=[shared.pk])).status_code == 200
    own = Field.objects.create(name="Palermo 2")
    assert two.client(two.member_a).get(reverse("committee:field_edit", args=[own.pk])).status_code == 200


def test_a_knock_out_in_b_reaches_a_only_where_it_touches_as_line_ups(two):
    """Rule 21.d follows the player across tournaments: A sees a knock-out in B's match only when the
    player is in one of A's line-ups, and without a link to B's match."""
    knocked_out = two.live_b.home.roster.get(number=2).player
    # Today, whatever the hour: the helpers' clock starts an hour ago, yesterday before 1 a.m.
    midnight = timezone.make_aware(datetime.combine(timezone.localdate(), dtime.min)).timestamp()
    log(
        two.live_b,
        ev(
            "whistle", reason="player_fall", team="home", number=2, unconscious=True, ball={"x": 100, "y": 40}, clock=40
        ),
        clock=Clock(max(time.time() - 3600, midnight)),
    )
    url = reverse("committee:availability")
    assert list(two.client(two.member_a).get(url).context["rows"]) == []
    rows = two.client(two.member_b).get(url).context["rows"]
    assert [(r.knock_out.identity.name, r.ours) for r in rows] == [(knocked_out.name, True)]
    two.match_a.home.roster.filter(number=2).update(player=knocked_out)  # the same player, in A today
    page = two.client(two.member_a).get(url)
    [row] = page.context["rows"]
    assert not row.ours and [(m.pk, number) for m, _team, number in row.affected] == [(two.match_a.pk, 2)]
    html = page.content.decode()
    assert reverse("committee:match", args=[two.live_b.pk]) not in html and "Pilar Cup" in html
    assert reverse("committee:match", args=[two.match_a.pk]) in html


# -- create_official -----------------------------------------------------------------------------------


def test_create_official_assigns_tournaments(two):
    call_command(
        "create_official",
        "carla",
        "--role",
        "committee",
        "--password",
        "c0mmittee-pass",
        "--tournament",
        str(two.a.pk),
        "--tournament",
        str(two.b.pk),
    )
    carla = CommitteeAssignment.objects.filter(user__username="carla").select_related("user")
    assert {a.tournament_id for a in carla} == {two.a.pk, two.b.pk}
    user = carla[0].user
    assert user.is_staff and committee_tournament_ids(user) == {two.a.pk, two.b.pk} and not is_federation(user)
    entries = AuditEntry.objects.filter(action="committee_assign", details__member="carla")
    assert {e.tournament_id for e in entries} == {two.a.pk, two.b.pk}
    assert {e.scope for e in entries} == {AuditEntry.Scope.FEDERATION}  # the server's shell
    # Again: the assignments in force are kept, not doubled.
    call_command(
        "create_official", "carla", "--role", "committee", "--password", "c0mmittee-pass", "--tournament", str(two.a.pk)
    )
    assert CommitteeAssignment.objects.filter(user=user).count() == 2


def test_create_official_refuses_an_unknown_tournament_or_an_assignment_of_another_role(two):
    with pytest.raises(CommandError, match="No such tournament: 987654"):
        call_command("create_official", "x", "--role", "committee", "--password", "p", "--tournament", "987654")
    with pytest.raises(CommandError):
        call_command("create_official", "y", "--role", "scorer", "--password", "p", "--tournament", str(two.a.pk))
    assert not CommitteeAssignment.objects.filter(user__username__in=["x", "y"]).exists()


def test_create_official_makes_the_federation(two):
    call_command("create_official", "operator", "--role", "committee", "--password", "0perator-pass", "--federation")
    user = get_user_model().objects.get(username="operator")
    assert is_federation(user) and committee_tournament_ids(user) is None
    assert user.has_perm("matches.add_committeeassignment")
    assert two.client(user).get(reverse("committee:match", args=[two.match_b.pk])).status_code == 200


# -- the admin -------------------------------------------------------------------------------------------


def test_the_admin_shows_a_committee_member_only_their_tournaments(two):
    from matches.roles import grant_committee_admin_permissions, grant_federation_admin_permissions

    grant_committee_admin_permissions()
    grant_federation_admin_permissions()
    for user in (two.member_a, two.federation):
        user.is_staff = True
        user.save()
    a = two.client(two.member_a)
    matches = a.get(reverse("admin:matches_match_changelist"))
    assert [m.pk for m in matches.context["cl"].result_list] == [two.match_a.pk]
    assert a.get(reverse("admin:matches_match_change", args=[two.match_b.pk])).status_code == 302  # not found
    assert a.get(reverse("admin:matches_tournament_change", args=[two.b.pk])).status_code == 302
    tournaments = a.get(reverse("admin:matches_tournament_changelist")).context["cl"].result_list
    assert [t.pk for t in tournaments] == [two.a.pk]
    events = a.get(reverse("admin:matches_matchevent_changelist")).context["cl"].result_list
    assert {e.match_id for e in events} <= {two.match_a.pk}
    assert MatchEvent.objects.filter(match__tournament=two.b).exists()
    # Committee members see who runs their tournaments; only the federation assigns.
    assignments = a.get(reverse("admin:matches_committeeassignment_changelist"))
    assert [x.pk for x in assignments.context["cl"].result_list] == [two.assignment_a.pk]
    add = reverse("admin:matches_committeeassignment_add")
    assert a.post(add, {"user": two.member_a.pk, "tournament": two.b.pk}).status_code == 403
    fed = two.client(two.federation)
    assert fed.post(add, {"user": two.member_a.pk, "tournament": two.b.pk}).status_code == 302
    assert is_committee_of(two.member_a, two.b)
    assigned = AuditEntry.objects.get(action="committee_assign", tournament=two.b)
    assert assigned.user == two.federation and assigned.details["member"] == "ana"
    # Revoked by the action, never deleted.
    new = CommitteeAssignment.objects.get(user=two.member_a, tournament=two.b)
    fed.post(
        reverse("admin:matches_committeeassignment_changelist"), {"action": "revoke", "_selected_action": [new.pk]}
    )
    new.refresh_from_db()
    assert new.revoked_at is not None and new.revoked_by == two.federation
    assert not is_committee_of(two.member_a, two.b)
    assert fed.get(reverse("admin:matches_committeeassignment_delete", args=[new.pk])).status_code == 403


def test_the_admin_assigns_only_committee_members(two):
    from matches.roles import grant_federation_admin_permissions

    grant_federation_admin_permissions()
    two.federation.is_staff = True
    two.federation.save()
    outsider = make_user("oscar")
    page = two.client(two.federation).post(
        reverse("admin:matches_committeeassignment_add"), {"user": outsider.pk, "tournament": two.a.pk}
    )
    assert page.status_code == 200  # the form again: not a choice
    assert not CommitteeAssignment.objects.filter(user=outsider).exists()


def test_the_scorer_and_umpire_rules_stay_per_match(two):
    scorer = make_user("sam", "scorer")
    two.match_a.scorer = scorer
    two.match_a.save()
    assert can_log_event(scorer, two.match_a, "goal") and not can_log_event(scorer, two.match_b, "goal")
    assert can_log_event(two.umpire_b, two.match_b, "suspend")
    assert not can_log_event(two.umpire_b, two.match_a, "suspend")
    assert not can_log_event(two.member_b, two.match_b, "goal")  # the committee never scores


def test_the_officials_screens_of_b_are_closed_to_a(two):
    for screen in ("scorer", "referee"):
        url = f"/matches/{two.live_b.pk}/{screen}/"
        assert two.client(two.member_a).get(url).status_code == 403, screen
        assert two.client(two.member_b).get(url).status_code == 200, screen
        assert two.client(two.federation).get(url).status_code == 200, screen


@pytest.mark.parametrize("event_type", COMMITTEE_EVENTS)
def test_the_casts_unassigned_committee_member_decides_nothing_on_its_matches(event_type):
    cast = Cast()
    assert can_log_event(cast.committee, cast.match_a, event_type)
    assert can_log_event(cast.committee, cast.match_b, event_type)
    assert not can_log_event(cast.committee_other, cast.match_a, event_type)
    assert match_role(cast.committee_other, cast.match_b) is None
