"""Committees per tournament on the match websocket: the committee of tournament A watches B's match
as the public does (no private notes, live or on resync); B's committee and the federation get
them; a revoked assignment closes the member's committee sockets."""

from __future__ import annotations

from datetime import timedelta

import pytest
import pytest_asyncio
from channels.db import database_sync_to_async
from django.utils import timezone

from matches.committee.services import committee_revoke
from matches.models import CommitteeAssignment, Tournament

from .live_helpers import (
    client_for,
    communicator,
    ev,
    log,
    post_event,
    receive_close,
    receive_until,
    session_cookie,
    stop_live_machinery,
)
from .personas import make_committee_member, make_federation, make_match, make_user

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

NOTE = "No. 2 argued"


class Two:
    def __init__(self) -> None:
        today = timezone.localdate()
        self.a = Tournament.objects.create(
            name="Palermo Open", club="Club A", starts_on=today, ends_on=today + timedelta(days=3)
        )
        self.b = Tournament.objects.create(
            name="Pilar Cup", club="Club B", starts_on=today, ends_on=today + timedelta(days=3)
        )
        self.umpire_b = make_user("ulrich", "umpire")
        self.match_b = make_match(tournament=self.b, umpires=[self.umpire_b])
        self.member_a = make_committee_member("ana", self.a)
        self.member_b = make_committee_member("bruno", self.b)
        self.federation = make_federation("fede")
        log(self.match_b, ev("play"), user=self.umpire_b)


@pytest.fixture
def two() -> Two:
    return Two()


@pytest_asyncio.fixture
async def live():
    yield
    await stop_live_machinery()


async def connect(match, user):
    comm = communicator(match.pk, cookie=await database_sync_to_async(session_cookie)(user))
    connected, code = await comm.connect()
    assert connected, code
    await receive_until(comm, "snapshot")
    return comm


def whistle_with_a_private_note(two: Two) -> int:
    event = ev("whistle", reason="lost_helmet", ball={"x": 100, "y": 50}, team="home", number=2, private_note=NOTE)
    return post_event(client_for(two.umpire_b), two.match_b, event).status_code


async def test_private_notes_of_b_reach_bs_committee_and_the_federation_only(two, live):
    other, own, federation = [await connect(two.match_b, user) for user in (two.member_a, two.member_b, two.federation)]
    assert await database_sync_to_async(whistle_with_a_private_note)(two) == 201
    seen = [(await receive_until(comm, "update"))["events"][0]["event"] for comm in (other, own, federation)]
    assert "private_note" not in seen[0] and seen[0]["reason"] == "lost_helmet"
    assert seen[1]["private_note"] == NOTE and seen[2]["private_note"] == NOTE
    # Nor on a resync.
    await other.send_json_to({"type": "resync", "since": 0})
    snapshot = await receive_until(other, "snapshot")
    assert [e["type"] for e in snapshot["events"]] == ["play", "whistle"]
    assert all("private_note" not in e["event"] for e in snapshot["events"])
    for comm in (other, own, federation):
        await comm.disconnect()


async def test_a_revoked_assignment_closes_the_members_committee_socket(two, live):
    own = await connect(two.match_b, two.member_b)
    federation = await connect(two.match_b, two.federation)

    def revoke():
        committee_revoke(assignment=CommitteeAssignment.objects.get(user=two.member_b), by=two.federation)

    await database_sync_to_async(revoke)()
    assert (await receive_until(own, "error"))["code"] == "role_lost"
    assert await receive_close(own) == 4003
    assert await federation.receive_nothing(timeout=0.5)
    await federation.disconnect()
