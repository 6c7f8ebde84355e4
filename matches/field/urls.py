"""``/committee/matches/{id}/field/…`` and ``/committee/tournaments/{id}/field/…`` (a day's tokens):
the committee's part of a match kept at the field (its API,
``/api/field/``, is routed with the rest of the API: ``matches.api.urls``)."""

from django.urls import path

from . import views

app_name = "field"

urlpatterns = [
    path("matches/<int:pk>/field/token/", views.field_token_new, name="token_new"),
    path("matches/<int:pk>/field/tokens/<int:token_id>/revoke/", views.field_token_cancel, name="token_revoke"),
    path("matches/<int:pk>/field/keep/", views.field_keep, name="keep"),
    path("tournaments/<int:pk>/field/token/", views.day_token_new, name="day_token_new"),
    path("tournaments/<int:pk>/field/tokens/<int:token_id>/revoke/", views.day_token_cancel, name="day_token_revoke"),
]
