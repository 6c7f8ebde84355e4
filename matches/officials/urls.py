"""The officials' screens: the scorer's laptop and the umpires'/referee's tablet."""
from django.urls import path

from matches.api import views as api

from . import views

urlpatterns = [
    path("matches/<int:match_id>/scorer/", views.scorer, name="scorer"),
    path("matches/<int:match_id>/referee/", views.referee, name="referee"),
    # TEMPORARY: the score confirmations' old address, now /api/matches/{id}/confirmations (the
    # page gives the tablet the new one). Kept while a tablet may still run a page loaded before
    # the move; remove it once none can.
    path("matches/<int:match_id>/referee/confirmations", api.match_confirmations, name="score_confirmations"),
]
