"""The public live pages: no login (docs/LIVE-PROTOCOL.md for the data behind them)."""

from django.urls import path

from . import views

urlpatterns = [
    path("matches/<int:match_id>/", views.scoreboard, name="scoreboard"),
    path("matches/<int:match_id>/overlay/", views.overlay, name="overlay"),
    path("tournaments/<int:tournament_id>/live/", views.tournament_live, name="tournament_live"),
]
