"""An update's frame written straight to the server's websocket connection (issue 14).

Through ASGI, every socket of a fan-out costs an await chain (consumer → uvicorn's ``send`` →
websockets' sans-I/O protocol) that encodes the same text to UTF-8 again, builds the same frame
again and writes it: profiled, most of the hub's time, about twice the floor's CPU per socket
(``websockets.broadcast``, which encodes once and writes every socket in one loop). Here the hub
encodes each variant of an update's frame once (``text_frame``) and, for a socket served by
uvicorn's websockets (sans-I/O) protocol, writes those bytes to its transport directly
(``Direct.write``) — exactly the bytes that ``send`` would have produced, since a server's frame
is not masked and no extension is in use.

Only when that is safe; otherwise ``write`` says no and the hub awaits the socket's own ``send``:

- the connection is open (handshake complete, no close sent or received, transport not closing),
  with no fragmented message in progress and no extension negotiated (per-message deflate turns
  this path off for that socket);
- its transport takes data without waiting (``writable``: not paused by flow control; a paused
  one — a client reading slowly — gets the frame through its ``send`` on a task of its own,
  ``MatchConsumer.push_queued``, so that it holds up nobody else);
- nothing of the socket's own is waiting to go out (the consumer counts its sends in flight), so
  frames never overtake one another.

It reads uvicorn's protocol object, which is not a public API: it is the seam
``uvicorn-direct-write`` (``polo/seams.py``), checked against the installed uvicorn and websockets
at start-up (off, with an ERROR, when they no longer have what it reads; then every socket is
written by its ``send``), and ``matches/tests/test_wire.py`` runs it under the pinned uvicorn,
deflate included. Kept for what it buys the public's event-to-screen p99 (``docs/CAPACITY.md``).
"""

from __future__ import annotations

from typing import Any

from websockets.frames import Frame, Opcode
from websockets.protocol import State

from polo import seams

try:  # uvicorn's default websocket protocol (``--ws auto`` with websockets installed)
    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
except ImportError:  # pragma: no cover — another server: the ASGI send is always used
    WebSocketsSansIOProtocol = None


def text_frame(text: str) -> bytes:
    """A server's text frame of ``text``: unmasked, unfragmented, no extension."""
    return Frame(Opcode.TEXT, text.encode()).serialize(mask=False)


class Direct:
    """Writes encoded frames to one uvicorn websocket connection while it can take them at once."""

    __slots__ = ("protocol",)

    def __init__(self, protocol: Any) -> None:
        self.protocol = protocol

    def write(self, frame: bytes) -> bool:
        """Write ``frame`` now and say True, or say False (nothing written: use ``send``)."""
        protocol = self.protocol
        conn = protocol.conn
        if (
            not protocol.handshake_complete
            or protocol.close_sent
            or protocol.disconnected
            or protocol.initial_response is not None
            or not protocol.writable.is_set()
            or conn.state is not State.OPEN
            or conn.extensions
            or conn.expect_continuation_frame
            or protocol.transport is None
            or protocol.transport.is_closing()
        ):
            return False
        protocol.transport.write(frame)
        return True


def direct_writer(send: Any) -> Direct | None:
    """A ``Direct`` for the connection behind the ASGI ``send`` (the server's own bound method),
    once its handshake is done; None when the seam is off, the connection is not uvicorn's
    sans-I/O protocol, or an extension is in use."""
    if not seams.on("uvicorn-direct-write"):
        return None
    protocol = getattr(send, "__self__", None)
    if WebSocketsSansIOProtocol is None or not isinstance(protocol, WebSocketsSansIOProtocol):
        return None
    if getattr(send, "__func__", None) is not WebSocketsSansIOProtocol.send:
        return None
    if protocol.conn.extensions:  # (negotiated at the handshake: per-message deflate, say)
        return None
    return Direct(protocol)
