"""The match websocket takes any frame (issue 11): arbitrary text or bytes, JSON of any shape,
nesting thousands deep, frames over the size cap. Each is answered as docs/LIVE-PROTOCOL.md says
(``pong`` for a ping, a ``snapshot`` for a resync) or refused with an ``error`` and a close code
(4008; 4029 past the rate cap) — never an exception, which drops the socket with no close code
at all (a frame nested 4,000 deep did that: ``RecursionError`` in ``json.loads``).

The fuzzer is Hypothesis, through Channels' ``WebsocketCommunicator`` and the real ASGI application
(origin check, sessions): an exception in the consumer is raised into the test. Each example opens a
socket, sends up to four frames (now and then followed by a burst of 30 pings, past the rate cap)
and checks each answer against an oracle written here, apart from the consumer's own parser. The
number of examples and frames, and of the closes with 4008 and 4029, is printed.
"""

from __future__ import annotations

import asyncio
import json
import math
import time
from typing import Any

import pytest
import pytest_asyncio
from django.conf import settings as django_settings
from hypothesis import HealthCheck, given, settings, strategies as st

from .live_helpers import communicator, receive_close, receive_until, stop_live_machinery

MAX_DEPTH = 20  # polo.json_input.MAX_DEPTH, restated: the oracle does not import the parser
SINCE_MAX = 2**63 - 1


@pytest_asyncio.fixture
async def live():
    yield
    await stop_live_machinery()


async def connected(match_id: int):
    comm = communicator(match_id)
    ok, code = await comm.connect()
    assert ok, code
    await receive_until(comm, "snapshot")
    return comm


# --- the defects, one by one ------------------------------------------------------------------


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "frame",
    [
        "[" * 4000 + "]" * 4000,
        '{"type": "ping", "client_time": ' + "[" * 4000 + "]" * 4000 + "}",
        '{"a":' * 1000 + "1" + "}" * 1000,
        '{"type": "ping", "client_time": NaN}',
        '{"type": "ping", "client_time": 1e400}',
        '{"type": "ping", "client_time": "soon"}',
        '{"type": "ping", "client_time": true}',
        '{"type": "ping", "client_time": [1]}',
        '{"type": "resync", "since": -1}',
        '{"type": "resync", "since": 1180591620717411303424}',
        '{"type": "resync", "since": "3"}',
        '{"type": "resync", "since": 1.5}',
        '{"type": "resync", "since": false}',
        '{"type": ["ping"]}',
        '{"type": "ping", "client_time": 1, "note": "\\u0000"}',
        '{"type": "ping", "client_time": 1, "note": "\\ud800"}',
        "[]",
        "null",
    ],
)
async def test_a_frame_the_socket_cannot_take_closes_it_with_4008(cast, live, frame):
    comm = await connected(cast.match_a.pk)
    await comm.send_to(text_data=frame)
    error = await receive_until(comm, "error")
    assert error["code"] == "invalid_message" and error["message"]
    assert await receive_close(comm) == 4008


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_bytes_close_the_socket_with_4008(cast, live):
    comm = await connected(cast.match_a.pk)
    await comm.send_to(bytes_data=b'{"type": "ping", "client_time": 1}')
    assert (await receive_until(comm, "error"))["code"] == "invalid_message"
    assert await receive_close(comm) == 4008


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_protocols_own_frames_are_still_answered(cast, live):
    comm = await connected(cast.match_a.pk)
    for frame, kind in [
        ({"type": "ping", "client_time": 12.5}, "pong"),
        ({"type": "ping"}, "pong"),
        ({"type": "ping", "client_time": 1, "padding": "x"}, "pong"),
        ({"type": "resync"}, "snapshot"),
        ({"type": "resync", "since": 0}, "snapshot"),
        ({"type": "resync", "since": SINCE_MAX}, "snapshot"),
    ]:
        await comm.send_json_to(frame)
        await receive_until(comm, kind)
    await comm.disconnect()


# --- the fuzzer --------------------------------------------------------------------------------


class Invalid(Exception):
    pass


def _reject_constant(name: str) -> Any:
    raise Invalid(name)


def _strict_value(text: str) -> Any:
    """What the protocol takes, decided apart from the consumer's parser: JSON of at most
    ``MAX_DEPTH`` levels, finite numbers, no NUL or lone surrogate anywhere."""
    try:
        value = json.loads(text, parse_constant=_reject_constant)
    except (ValueError, RecursionError, Invalid):
        raise Invalid("not json") from None
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            if depth > MAX_DEPTH:
                raise Invalid("too deep")
            children = [*item.keys(), *item.values()] if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
        elif isinstance(item, float) and not math.isfinite(item):
            raise Invalid("not finite")
        elif isinstance(item, str) and any(c == "\x00" or "\ud800" <= c <= "\udfff" for c in item):
            raise Invalid("bad text")
    return value


def expected(frame: tuple[str, Any]) -> str:
    """``pong``, ``snapshot``, or the error code the socket closes with (4008)."""
    kind, data = frame
    size = len(data) if kind == "bytes" else len(data.encode("utf-8", "surrogatepass"))
    if size > django_settings.WS_MAX_MESSAGE_BYTES:
        return "message_too_large"
    if kind == "bytes":
        return "invalid_message"
    try:
        message = _strict_value(data)
    except Invalid:
        return "invalid_message"
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        return "invalid_message"
    if message["type"] == "ping":
        t = message.get("client_time")
        return "pong" if t is None or type(t) in (int, float) else "invalid_message"
    if message["type"] == "resync":
        since = message.get("since")
        ok = since is None or (type(since) is int and 0 <= since <= SINCE_MAX)
        return "snapshot" if ok else "invalid_message"
    return "forbidden"


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)
numbers = st.integers(min_value=-(2**80), max_value=2**80) | st.floats()
protocol_like = st.fixed_dictionaries(
    {"type": st.sampled_from(["ping", "resync", "event", "goal", "Ping", ""])},
    optional={
        "client_time": numbers | json_values,
        "since": numbers | json_values,
        "padding": st.text(max_size=30),
        "id": st.text(max_size=10),
    },
)


def _nested(depth: int, opener: str) -> str:
    if opener == "[":
        return "[" * depth + "]" * depth
    return '{"a":' * depth + "0" + "}" * depth


text_frames = st.one_of(
    protocol_like.map(json.dumps),
    json_values.map(json.dumps),
    st.text(max_size=60),
    st.tuples(st.integers(1, 4500), st.sampled_from(["[", "{"])).map(lambda t: _nested(*t)),
    st.integers(1, 4000).map(lambda n: '{"type": "ping", "client_time": ' + _nested(n, "[") + "}"),
    st.integers(1, 3 * 8192).map(lambda n: json.dumps({"type": "ping", "client_time": 1, "padding": "x" * n})),
    st.sampled_from(['{"type": "ping", "note": "\\u0000"}', '{"type": "resync", "x": "\\udfff"}', "NaN"]),
)
frames = st.one_of(text_frames.map(lambda t: ("text", t)), st.binary(max_size=200).map(lambda b: ("bytes", b)))
# Now and then, past the rate cap (WS_MAX_MESSAGES_PER_SECOND, 20): 4029.
exchanges = st.tuples(st.lists(frames, min_size=1, max_size=4), st.integers(0, 15)).map(
    lambda t: t[0] + [("burst", 30)] if t[1] == 0 else t[0]
)


async def _burst(comm, frames: int) -> bool:
    """``frames`` pings sent at once: each answered until the rate cap, then ``rate_limited`` and
    4029 (unless the second turned meanwhile: every ping answered)."""
    for i in range(frames):
        await comm.send_input({"type": "websocket.receive", "text": json.dumps({"type": "ping", "client_time": i})})
    for _ in range(frames):
        frame = await comm.receive_json_from(timeout=5)
        while frame["type"] == "heartbeat":
            frame = await comm.receive_json_from(timeout=5)
        if frame["type"] == "error":
            assert frame["code"] == "rate_limited", frame
            assert await receive_close(comm) == 4029
            return True
        assert frame["type"] == "pong", frame
    return False


async def _exchange(match_id: int, sent: list[tuple[str, Any]], closes: list[int]) -> None:
    try:
        comm = await connected(match_id)
        for frame in sent:
            if frame[0] == "burst":  # (the last frame of an example: the socket is closed after it)
                if await _burst(comm, frame[1]):
                    closes.append(4029)
                return
            kind, data = frame
            want = expected(frame)
            # (``send_input``: ``send_to`` will not send an empty frame, which a socket may)
            await comm.send_input({"type": "websocket.receive", kind: data})
            if want in ("pong", "snapshot"):
                answer = await receive_until(comm, want)
                if want == "pong":
                    assert answer["client_time"] == json.loads(data).get("client_time")
                continue
            error = await receive_until(comm, "error")
            assert error["code"] == want, (frame, error)
            assert await receive_close(comm) == 4008
            closes.append(4008)
            return
        await comm.disconnect()
    finally:
        await stop_live_machinery()


@pytest.mark.django_db(transaction=True)
def test_any_frame_is_answered_or_refused_with_a_close_code_never_an_exception(cast, capsys):
    match_id = cast.match_a.pk
    counted = {"examples": 0, "frames": 0, "bursts": 0}
    closes: list[int] = []
    started = time.monotonic()

    @settings(
        max_examples=300,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example],
    )
    @given(exchanges)
    def exchange(sent):
        counted["examples"] += 1
        counted["frames"] += sum(frame[1] if frame[0] == "burst" else 1 for frame in sent)
        counted["bursts"] += sum(frame[0] == "burst" for frame in sent)
        asyncio.run(_exchange(match_id, sent, closes))

    exchange()
    with capsys.disabled():
        print(
            f"\nwebsocket fuzz: {counted['examples']} generated cases, {counted['frames']} frames generated "
            f"({counted['bursts']} bursts past the rate cap); closed {closes.count(4008)} times with 4008, "
            f"{closes.count(4029)} with 4029, "
            f"{time.monotonic() - started:.1f} s"
        )
    assert counted["examples"] >= 100 and closes.count(4008) and closes.count(4029)
