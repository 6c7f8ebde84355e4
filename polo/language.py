"""``?lang=`` on any page (issue 38): a screen's address may name its language, as the start
pages' QR codes, a TV's bookmark and the stream overlay do, and it wins over the browser's and
the language cookie's, for that request only (a browser source or a TV opened on such an address
keeps it; the visitor's own choice, the header's switch, is the cookie's, which lasts a year:
``LANGUAGE_COOKIE_AGE``). A value that is not one of ``LANGUAGES`` is ignored: the page opens in
the language it would have had. The page hands the language on to its JavaScript catalog and its
socket (``?lang=`` on both).
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation


def query_language(request: HttpRequest) -> str | None:
    lang = request.GET.get("lang", "")
    return lang if lang in dict(settings.LANGUAGES) else None


class LanguageQueryMiddleware:
    """After ``LocaleMiddleware``: ``?lang=es`` activates Spanish for the request."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        lang = query_language(request)
        if lang is not None:
            translation.activate(lang)
            request.LANGUAGE_CODE = lang
        return self.get_response(request)
