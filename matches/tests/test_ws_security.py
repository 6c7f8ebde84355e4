"""The match websocket only reads, and only for as long as the reader may: origin check, the
public cannot write, size and rate caps, officials' sockets closed on logout or loss of role."""

from __future__ import annotations

import json

import pytest
import pytest_asyncio
from channels.db import database_sync_to_async
from django.conf import settings

from .live_helpers import client_for, communicator, receive_close, receive_until, session_cookie, stop_live_machinery

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@pytest_asyncio.fixture
async def live():
    yield
    await stop_live_machinery()


async def connect(match, *, cookie=None, lang=None):
    comm = communicator(match.pk, cookie=cookie, lang=lang)
    connected, code = await comm.connect()
    assert connected, code
    await receive_until(comm, "snapshot")
    return comm


async def test_a_socket_from_another_site_is_refused(cast, live):
    comm = communicator(cast.match_a.pk, origin=(b"origin", b"https://evil.example"))
    connected, _ = await comm.connect()
    assert not connected
    await comm.disconnect()


async def test_an_unknown_match_is_refused(cast, live):
    comm = communicator(987654)
    connected, code = await comm.connect()
    assert (connected, code) == (False, 4004)
    await comm.disconnect()


async def test_the_public_cannot_write(cast, live):
    comm = await connect(cast.match_a)
    await comm.send_json_to({"type": "event", "event": {"id": "x", "type": "goal", "team": "home"}})
    error = await receive_until(comm, "error")
    assert error["code"] == "forbidden" and error["message"]
    assert await receive_close(comm) == 4008


async def test_not_even_an_official_posts_over_the_socket(cast, live):
    cookie = await database_sync_to_async(session_cookie)(cast.scorer_a)
    comm = await connect(cast.match_a, cookie=cookie)
    await comm.send_json_to({"type": "goal", "id": "x", "team": "home"})
    assert (await receive_until(comm, "error"))["code"] == "forbidden"
    assert await receive_close(comm) == 4008


async def test_a_frame_that_is_not_json_is_refused(cast, live):
    comm = await connect(cast.match_a)
    await comm.send_to(text_data="hello")
    assert (await receive_until(comm, "error"))["code"] == "invalid_message"
    assert await receive_close(comm) == 4008


async def test_a_message_over_the_size_cap_is_refused(cast, live):
    comm = await connect(cast.match_a)
    padding = "x" * settings.WS_MAX_MESSAGE_BYTES
    await comm.send_json_to({"type": "ping", "client_time": 1, "padding": padding})
    error = await receive_until(comm, "error")
    assert error["code"] == "message_too_large"
    assert await receive_close(comm) == 4008


async def test_a_message_just_under_the_size_cap_is_answered(cast, live):
    comm = await connect(cast.match_a)
    frame = json.dumps({"type": "ping", "client_time": 1, "padding": ""})
    padding = "x" * (settings.WS_MAX_MESSAGE_BYTES - len(frame))
    await comm.send_to(text_data=json.dumps({"type": "ping", "client_time": 1, "padding": padding}))
    assert (await receive_until(comm, "pong"))["client_time"] == 1
    await comm.disconnect()


async def test_too_many_messages_a_second_are_refused(cast, live):
    comm = await connect(cast.match_a)
    cap = settings.WS_MAX_MESSAGES_PER_SECOND
    for i in range(cap + 1):
        await comm.send_json_to({"type": "ping", "client_time": i})
    pongs = 0
    while True:
        frame = await comm.receive_json_from(timeout=3)
        if frame["type"] == "pong":
            pongs += 1
            continue
        assert frame["type"] == "error" and frame["code"] == "rate_limited"
        break
    assert pongs == cap
    assert await receive_close(comm) == 4029


async def test_the_errors_speak_the_viewers_language(cast, live):
    comm = await connect(cast.match_a, lang="es")
    english = await connect(cast.match_a)
    for c in (comm, english):
        await c.send_json_to({"type": "event"})
    spanish_message = (await receive_until(comm, "error"))["message"]
    english_message = (await receive_until(english, "error"))["message"]
    from django.utils import translation

    with translation.override("es"):
        expected = translation.gettext("This connection only reads. Events are sent through the HTTP API.")
    assert spanish_message == expected
    assert english_message == "This connection only reads. Events are sent through the HTTP API."


async def test_logging_out_closes_the_officials_sockets_only(cast, live):
    scorer_client = await database_sync_to_async(client_for)(cast.scorer_a)
    cookie = f"sessionid={scorer_client.cookies['sessionid'].value}".encode()
    scorer = await connect(cast.match_a, cookie=cookie)
    umpire = await connect(cast.match_a, cookie=await database_sync_to_async(session_cookie)(cast.umpire_a))
    public = await connect(cast.match_a)
    await database_sync_to_async(scorer_client.post)("/accounts/logout/")
    error = await receive_until(scorer, "error")
    assert error["code"] == "logged_out"
    assert await receive_close(scorer) == 4003
    assert await umpire.receive_nothing(timeout=0.5)
    assert await public.receive_nothing(timeout=0.1)
    await umpire.disconnect()
    await public.disconnect()


async def test_an_umpire_taken_off_the_match_loses_the_socket(cast, live):
    umpire = await connect(cast.match_a, cookie=await database_sync_to_async(session_cookie)(cast.umpire_a))
    referee = await connect(cast.match_a, cookie=await database_sync_to_async(session_cookie)(cast.referee_a))
    await database_sync_to_async(cast.match_a.umpires.remove)(cast.umpire_a)
    assert (await receive_until(umpire, "error"))["code"] == "role_lost"
    assert await receive_close(umpire) == 4003
    assert await referee.receive_nothing(timeout=0.5)
    await referee.disconnect()


async def test_a_scorer_replaced_on_the_match_loses_the_socket(cast, live):
    scorer = await connect(cast.match_a, cookie=await database_sync_to_async(session_cookie)(cast.scorer_a))

    def replace_scorer():
        cast.match_a.scorer = cast.scorer_b
        cast.match_a.save()

    await database_sync_to_async(replace_scorer)()
    assert (await receive_until(scorer, "error"))["code"] == "role_lost"
    assert await receive_close(scorer) == 4003
