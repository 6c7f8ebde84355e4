"""Websocket URL routes (placeholder until the live core lands the consumers)."""
websocket_urlpatterns: list = []
