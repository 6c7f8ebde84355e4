"""``/api/``: the JSON API and its OpenAPI document (docs/LIVE-PROTOCOL.md)."""

from django.urls import path

from . import views

urlpatterns = [
    path("matches", views.matches_of_day, name="api-matches"),
    path("matches/<int:match_id>/state", views.match_state, name="api-match-state"),
    path("matches/<int:match_id>/events", views.match_events, name="api-match-events"),
    path("matches/<int:match_id>/goals", views.match_goals, name="api-match-goals"),
    path("matches/<int:match_id>/confirmations", views.match_confirmations, name="api-match-confirmations"),
    path("tournaments/<int:tournament_id>/matches", views.tournament_matches, name="api-tournament-matches"),
    path("time", views.server_time, name="api-time"),
    path("openapi.json", views.openapi_document, name="api-openapi"),
]
