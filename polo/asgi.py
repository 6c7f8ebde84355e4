"""ASGI entry point: HTTP goes to Django, websockets to the match consumers (checked for origin),
and the server's lifespan to ``lifespan`` (at shutdown the live room closes its sockets with 1012
and stops: ``matches/live/shutdown.py``)."""

import logging
import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "polo.settings")

from polo.handler import one_hop_asgi_application

# The middleware chain in one thread hop per request (polo/handler.py).
django_asgi_app = one_hop_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402  (needs the app registry)
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from matches.live import shutdown  # noqa: E402
from matches.live.loop import note_server_loop  # noqa: E402
from matches.live.routing import websocket_urlpatterns  # noqa: E402

log = logging.getLogger(__name__)


async def lifespan(scope, receive, send) -> None:
    """The ASGI lifespan protocol: nothing to start; at shutdown (SIGTERM, after uvicorn has closed
    its connections and waited at most ``--timeout-graceful-shutdown`` for their tasks) the live
    room closes what is still open with 1012 and stops its hub and clock watcher, each step
    bounded."""
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            note_server_loop()
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            try:
                await shutdown.shutdown()
            except Exception:  # (logged: the process stops either way)
                log.exception("lifespan: the live room's shutdown failed")
            await send({"type": "lifespan.shutdown.complete"})
            return


async def http(scope, receive, send) -> None:
    """Django, on a loop recorded as the server's (a sync view's broadcast is handed to it)."""
    note_server_loop()
    await django_asgi_app(scope, receive, send)


application = ProtocolTypeRouter(
    {
        "http": http,
        "websocket": AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
        "lifespan": lifespan,
    }
)
