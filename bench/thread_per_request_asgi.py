"""``polo.asgi``'s application with the app's one-hop handler but Django's own ``__call__``: a new
thread for every request, as before the warm request threads (``polo/handler.py``). A variant of
``bench_post_hops.py``; the one difference from the app is where each request's thread comes from."""

from django.core.handlers.asgi import ASGIHandler

from polo import asgi
from polo.handler import OneHopASGIHandler


class ThreadPerRequestHandler(OneHopASGIHandler):
    __call__ = ASGIHandler.__call__


application = asgi.ProtocolTypeRouter({**asgi.application.application_mapping, "http": ThreadPerRequestHandler()})
