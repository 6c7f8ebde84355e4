"""Websocket URL routes (``polo/asgi.py`` wraps them in the origin check and the session auth)."""

from django.urls import path

from .consumers import MatchConsumer

websocket_urlpatterns = [path("ws/matches/<int:match_id>/", MatchConsumer.as_asgi())]
