"""The officials' screens: the scorer's laptop and the umpires'/referee's tablet."""
from django.urls import path

from . import views_officials

urlpatterns = [
    path("matches/<int:match_id>/scorer/", views_officials.scorer, name="scorer"),
    path("matches/<int:match_id>/referee/", views_officials.referee, name="referee"),
    path("matches/<int:match_id>/referee/confirmations", views_officials.confirmations, name="score_confirmations"),
]
