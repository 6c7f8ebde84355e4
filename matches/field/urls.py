"""``/api/field/``: the field server's API on the tournament's server (``matches.field.api``)."""

from django.urls import path

from . import api

urlpatterns = [
    path("matches/<int:match_id>/pairing", api.match_pairing, name="api-field-pairing"),
    path("matches/<int:match_id>/log", api.match_log, name="api-field-log"),
]
