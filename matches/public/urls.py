"""The public live pages: no login (docs/LIVE-PROTOCOL.md for the data behind them)."""

from django.urls import path

from . import overlay_builder, views

urlpatterns = [
    path("matches/<int:match_id>/", views.scoreboard, name="scoreboard"),
    path("matches/<int:match_id>/overlay/", views.overlay, name="overlay"),
    path("matches/<int:match_id>/overlay/builder/", overlay_builder.overlay_builder, name="overlay_builder"),
    path("tournaments/<int:tournament_id>/live/", views.tournament_live, name="tournament_live"),
    path("matches/<int:match_id>/start/", views.start_match, name="start_match"),
    path("tournaments/<int:tournament_id>/start/", views.start_day, name="start_day"),
    path("matches/<int:match_id>/play-by-play/", views.play_by_play, name="play_by_play"),
    path("matches/<int:match_id>/play-by-play/entries/", views.play_by_play_entries, name="play_by_play_entries"),
]
