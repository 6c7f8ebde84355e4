"""URL map. Each room of the app has its own URL module:

- ``matches.urls``: home, login/logout (the probes, ``/healthz`` and ``/readyz``, are ``polo.health``);
- ``matches.api.urls``: the JSON API and its OpenAPI document (``/api/``);
- ``matches.public.urls``: the public scoreboard, overlay and tournament pages;
- ``matches.officials.urls``: the scorer's and the referee's screens;
- ``matches.committee.urls``: the committee's screens and reports (``/committee/``);
- ``matches.help.urls``: the guide of each role (``/help/``);
- ``matches.stats.urls``: box scores, tournament statistics and the USPA score sheet;
- ``matches.field.urls``: the committee's part of a match kept at the field (its API: ``/api/field/``).

The websocket's route is in ``matches.live.routing`` (``polo/asgi.py``).
"""

from django.contrib import admin
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog

urlpatterns = [
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("jsi18n/", JavaScriptCatalog.as_view(packages=["matches", "officiating"]), name="javascript-catalog"),
    path("api/", include("matches.api.urls")),
    path("", include("matches.urls")),
    path("", include("matches.public.urls")),
    path("", include("matches.officials.urls")),
    path("committee/", include("matches.committee.urls")),
    path("help/", include("matches.help.urls")),
    path("committee/", include("matches.awards.urls")),
    path("committee/", include("matches.field.urls")),
    path("", include("matches.stats.urls")),
]
