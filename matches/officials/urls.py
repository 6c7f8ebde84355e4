"""The officials' screens: the scorer's laptop and the umpires'/referee's tablet, and what they need
to go on without a link (issue 34: the engine in the browser, and the service worker that keeps it)."""

from django.urls import path

from . import field_engine, views

urlpatterns = [
    path("matches/<int:match_id>/scorer/", views.scorer, name="scorer"),
    path("matches/<int:match_id>/referee/", views.referee, name="referee"),
    path("field-engine/pyodide-<str:version>/<str:name>", field_engine.pyodide_file, name="field-pyodide"),
    path("field-engine/engine-<str:digest>.zip", field_engine.engine_zip, name="field-engine-zip"),
    path("field-engine/worker.js", field_engine.worker, name="field-engine-worker"),
    path("field-sw.js", field_engine.service_worker, name="field-service-worker"),
]
