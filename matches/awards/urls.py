"""The committee's award pages, under ``/committee/`` (``polo/urls.py``)."""

from django.urls import path

from . import views

app_name = "awards"

urlpatterns = [
    path("matches/<int:pk>/awards/", views.match_awards, name="match"),
    path("matches/<int:pk>/awards/<slug:kind>/", views.match_award_record, name="match_record"),
    path("matches/<int:pk>/awards/<slug:kind>/withdraw/", views.match_award_withdraw, name="match_withdraw"),
    path("tournaments/<int:pk>/awards/", views.tournament_awards, name="tournament"),
    path("tournaments/<int:pk>/awards/<slug:kind>/", views.tournament_award_record, name="tournament_record"),
    path(
        "tournaments/<int:pk>/awards/<slug:kind>/withdraw/", views.tournament_award_withdraw, name="tournament_withdraw"
    ),
]
