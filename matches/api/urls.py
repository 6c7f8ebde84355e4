"""``/api/``: the JSON API and its OpenAPI document (docs/LIVE-PROTOCOL.md)."""

from django.urls import path

from matches.awards import api as awards
from matches.field import api as field
from matches.live import stream
from matches.scoresheet import api as scoresheet
from matches.stats import api as stats

from . import views

urlpatterns = [
    path("matches", views.matches_of_day, name="api-matches"),
    path("matches/<int:match_id>/state", views.match_state, name="api-match-state"),
    path("matches/<int:match_id>/events", views.match_events, name="api-match-events"),
    path("matches/<int:match_id>/stream", stream.match_stream, name="api-match-stream"),
    path("matches/<int:match_id>/goals", views.match_goals, name="api-match-goals"),
    path("matches/<int:match_id>/confirmations", views.match_confirmations, name="api-match-confirmations"),
    path("tournaments/<int:tournament_id>/matches", views.tournament_matches, name="api-tournament-matches"),
    path("matches/<int:match_id>/awards", awards.match_awards, name="api-match-awards"),
    path("tournaments/<int:tournament_id>/awards", awards.tournament_awards, name="api-tournament-awards"),
    path("matches/<int:match_id>/scoresheet", scoresheet.match_scoresheet, name="api-match-scoresheet"),
    path(
        "matches/<int:match_id>/scoresheet/signatures",
        scoresheet.match_scoresheet_sign,
        name="api-match-scoresheet-sign",
    ),
    path("matches/<int:match_id>/stats", stats.match_stats, name="api-match-stats"),
    path("matches/<int:match_id>/stats.csv", stats.match_stats, {"csv": True}, name="api-match-stats-csv"),
    path("tournaments/<int:tournament_id>/stats", stats.tournament_statistics, name="api-tournament-stats"),
    path(
        "tournaments/<int:tournament_id>/stats.csv",
        stats.tournament_statistics,
        {"csv": True},
        name="api-tournament-stats-csv",
    ),
    path("time", views.server_time, name="api-time"),
    path("field/matches", field.token_matches, name="api-field-matches"),
    path("field/matches/<int:match_id>/pairing", field.match_pairing, name="api-field-pairing"),
    path("field/matches/<int:match_id>/log", field.match_log, name="api-field-log"),
    path("openapi.json", views.openapi_document, name="api-openapi"),
]
