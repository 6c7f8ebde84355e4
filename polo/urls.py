"""URL map. Each area of the app has its own URL module (and owner):

- ``matches.urls``: home, login/logout, health;
- ``matches.api_urls``: the JSON event API and its OpenAPI schema (``/api/``);
- ``matches.public_urls``: the public scoreboard, overlay and tournament pages;
- ``matches.officials_urls``: the scorer's and the referee's screens;
- ``matches.committee_urls``: the committee's screens and reports.
"""
from django.contrib import admin
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog

urlpatterns = [
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("jsi18n/", JavaScriptCatalog.as_view(packages=["matches", "officiating"]), name="javascript-catalog"),
    path("api/", include("matches.api_urls")),
    path("", include("matches.urls")),
    path("", include("matches.public_urls")),
    path("", include("matches.officials_urls")),
    path("committee/", include("matches.committee_urls")),
]
