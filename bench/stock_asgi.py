"""``polo.asgi``'s application with Django's stock ASGI handler for HTTP: the floor of
``bench_post_hops.py`` (the one difference from the app is the handler)."""

from django.core.handlers.asgi import ASGIHandler

from polo import asgi

application = asgi.ProtocolTypeRouter({**asgi.application.application_mapping, "http": ASGIHandler()})
