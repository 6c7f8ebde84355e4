"""The officials' screens: the scorer's laptop and the umpires'/referee's tablet."""

from django.urls import path

from . import views

urlpatterns = [
    path("matches/<int:match_id>/scorer/", views.scorer, name="scorer"),
    path("matches/<int:match_id>/referee/", views.referee, name="referee"),
]
