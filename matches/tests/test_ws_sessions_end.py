"""Ending an official's sessions by any path closes their open officials' websockets within a
second (issue 36), as a logout always did (``test_ws_security.py``): signed out everywhere from the
users' admin, a password change, a deactivation, a role taken away. Each path closes the sockets
opened with the sessions it ended (4003, with the reason) and leaves everyone else's open. The
other paths (taken off the match, replaced as its scorer, a committee assignment revoked) are
``test_ws_security.py``'s and ``test_committee_scope_ws.py``'s."""

from __future__ import annotations

import pytest
import pytest_asyncio
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.urls import reverse

from matches.permissions import COMMITTEE_GROUP

from .live_helpers import client_for, communicator, receive_close, receive_until, stop_live_machinery
from .personas import PASSWORD

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

WITHIN = 1.0  # seconds: the bound for the socket to hear that its session ended


@pytest_asyncio.fixture
async def live():
    yield
    await stop_live_machinery()


async def watching(match, user):
    """A socket on ``match`` from a browser signed in as ``user``."""
    client = await database_sync_to_async(client_for)(user)
    comm = communicator(match.pk, cookie=f"sessionid={client.cookies['sessionid'].value}".encode())
    connected, code = await comm.connect()
    assert connected, code
    await receive_until(comm, "snapshot")
    return comm


async def admin_post(path: str, data: dict) -> int:
    """A POST by the server's operator in the admin (who may change users): its status."""
    root = await database_sync_to_async(get_user_model().objects.create_superuser)("root", password=PASSWORD)
    admin = await database_sync_to_async(client_for)(root)
    return (await database_sync_to_async(admin.post)(path, data)).status_code


async def closed_for(comm, code: str) -> None:
    """The socket is told ``code`` and closed with 4003, within ``WITHIN``."""
    assert (await receive_until(comm, "error", timeout=WITHIN))["code"] == code
    assert await receive_close(comm, timeout=WITHIN) == 4003


async def test_signing_an_official_out_everywhere_closes_every_socket_of_theirs(cast, live):
    laptop, tablet = await watching(cast.match_a, cast.scorer_a), await watching(cast.match_a, cast.scorer_a)
    umpire = await watching(cast.match_a, cast.umpire_a)
    action = {"action": "sign_out_everywhere", "_selected_action": [cast.scorer_a.pk]}
    assert await admin_post(reverse("admin:auth_user_changelist"), action) == 302
    await closed_for(laptop, "signed_out")
    await closed_for(tablet, "signed_out")
    assert await umpire.receive_nothing(timeout=0.3)
    await umpire.disconnect()


async def test_a_password_change_closes_the_sockets_of_the_sessions_it_ended(cast, live):
    """Changed in the admin: every session signed in with the old password ends, and its socket."""
    umpire, referee = await watching(cast.match_a, cast.umpire_a), await watching(cast.match_a, cast.referee_a)
    new = "another horse, battery staple"
    path = reverse("admin:auth_user_password_change", args=[cast.umpire_a.pk])
    assert await admin_post(path, {"password1": new, "password2": new, "usable_password": "true"}) == 302
    await closed_for(umpire, "signed_out")
    assert await referee.receive_nothing(timeout=0.3)
    await referee.disconnect()


async def test_deactivating_an_official_closes_their_sockets(cast, live):
    scorer = await watching(cast.match_a, cast.scorer_a)

    def deactivate() -> None:
        cast.scorer_a.is_active = False
        cast.scorer_a.save()

    await database_sync_to_async(deactivate)()
    await closed_for(scorer, "signed_out")


async def test_a_committee_role_taken_away_closes_the_members_socket(cast, live):
    member, scorer = await watching(cast.match_a, cast.committee), await watching(cast.match_a, cast.scorer_a)
    group = await database_sync_to_async(Group.objects.get)(name=COMMITTEE_GROUP)
    await database_sync_to_async(cast.committee.groups.remove)(group)
    await closed_for(member, "role_lost")
    assert await scorer.receive_nothing(timeout=0.3)
    await scorer.disconnect()


async def test_an_umpire_taken_off_the_match_loses_the_socket_within_a_second(cast, live):
    umpire = await watching(cast.match_a, cast.umpire_a)
    await database_sync_to_async(cast.match_a.umpires.remove)(cast.umpire_a)
    await closed_for(umpire, "role_lost")


async def test_signing_out_everywhere_ends_an_officials_event_stream_too(cast, live):
    """The SSE stream (``/api/matches/{id}/stream``, for networks that block websockets) is
    re-checked as a socket is: its session ended, it ends."""
    from matches.live.stream import StreamSocket
    from matches.sessions import end_sessions

    client = await database_sync_to_async(client_for)(cast.scorer_a)
    key = client.cookies["sessionid"].value
    stream = StreamSocket(cast.match_a.pk, "en", True, cast.scorer_a.pk, key)
    await stream.recheck_role()
    assert stream.queue.empty()  # signed in: it goes on
    await database_sync_to_async(end_sessions)([cast.scorer_a])
    await stream.recheck_role()
    assert stream.queue.get_nowait() is None  # the stream's end
