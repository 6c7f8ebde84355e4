"""The guides, one per role, each written in each language: ``templates/help/<lang>/<role>.html``
holds a guide's words in that language (a guide is prose, not a list of phrases to translate one by
one; ``polo/tests/test_translations.py`` checks that every guide exists in every language)."""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import get_language, gettext_lazy as _

# The roles, in the order of a match day: (slug, who it is for).
GUIDES = [
    ("steward", _("Field steward")),
    ("scorer", _("Scorer")),
    ("umpire", _("Umpires and referee")),
    ("committee", _("Committee")),
    ("streamer", _("Streamer")),
]
ROLES = dict(GUIDES)


def guide_language() -> str:
    """The active language if the guides are written in it, else the default one."""
    language = (get_language() or settings.LANGUAGE_CODE).split("-")[0]
    return language if language in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE


def index(request: HttpRequest) -> HttpResponse:
    return render(request, "help/index.html", {"guides": GUIDES})


def guide(request: HttpRequest, role: str) -> HttpResponse:
    if role not in ROLES:
        raise Http404(_("No such guide."))
    return render(
        request,
        "help/guide.html",
        {"role": role, "title": ROLES[role], "guides": GUIDES, "body": f"help/{guide_language()}/{role}.html"},
    )
