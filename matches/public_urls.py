"""The public live pages: no login (docs/LIVE-PROTOCOL.md for the data behind them)."""
from django.urls import path

from . import views_public

urlpatterns = [
    path("matches/<int:match_id>/", views_public.scoreboard, name="scoreboard"),
    path("matches/<int:match_id>/goals.json", views_public.scoreboard_goals, name="scoreboard_goals"),
    path("matches/<int:match_id>/overlay/", views_public.overlay, name="overlay"),
    path("tournaments/<int:tournament_id>/live/", views_public.tournament_live, name="tournament_live"),
]
