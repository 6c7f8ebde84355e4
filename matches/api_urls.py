"""``/api/``: the JSON event API and its OpenAPI document (docs/LIVE-PROTOCOL.md)."""
from django.urls import path

from . import api

urlpatterns = [
    path("matches", api.matches_of_day, name="api-matches"),
    path("matches/<int:match_id>/state", api.match_state, name="api-match-state"),
    path("matches/<int:match_id>/events", api.match_events, name="api-match-events"),
    path("tournaments/<int:tournament_id>/matches", api.tournament_matches, name="api-tournament-matches"),
    path("time", api.server_time, name="api-time"),
    path("openapi.json", api.openapi_document, name="api-openapi"),
]
