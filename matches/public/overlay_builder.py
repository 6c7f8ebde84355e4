"""The stream overlay's builder (issue 12, item 2): a page where a streamer picks the overlay's
options (position, theme, scale, parts, language, clock; ``static/js/overlay-options.js``), sees
the overlay with them, and copies the address to paste into OBS as a browser source.

The preview is the overlay itself in a frame of this page: ``?preview=1`` renders the overlay view
(the same page OBS loads, with the same options) framed by our own origin and by the origins of
``OVERLAY_FRAME_ANCESTORS``; the overlay's own address keeps its policy (framed only by those).
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from . import views
from .selectors import public_match_get


@never_cache
@require_GET
def overlay_builder(request: HttpRequest, match_id: int) -> HttpResponse:
    if request.GET.get("preview") == "1":
        return _preview(request, match_id)
    match = public_match_get(match_id)
    overlay_url = request.build_absolute_uri(reverse("overlay", args=[match.pk]))
    return render(
        request,
        "public/overlay_builder.html",
        {"match": match, "overlay_url": overlay_url, "languages": settings.LANGUAGES},
    )


def _preview(request: HttpRequest, match_id: int) -> HttpResponse:
    response = views.overlay(request, match_id)
    # The builder frames it: our origin (and a switcher's, as on the overlay); not X-Frame-Options
    # DENY, which would refuse our own frame (SAMEORIGIN says the same as the CSP for old browsers).
    response.csp_frame_ancestors = ("'self'", *settings.OVERLAY_FRAME_ANCESTORS)
    response.xframe_options_exempt = False
    response["X-Frame-Options"] = "SAMEORIGIN"
    return response
