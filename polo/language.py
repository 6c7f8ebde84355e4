"""``?lang=`` on any page (issue 38): a screen's address may name its language, as the start
pages' QR codes and a TV's bookmark do, and it wins over the browser's.

The language is remembered in Django's language cookie, which lasts a year
(``LANGUAGE_COOKIE_AGE``), so the page's JavaScript catalog, its socket (``socket_language``) and
the next visit without ``?lang=`` say the same. A value that is not one of ``LANGUAGES`` is
ignored: the page opens in the language it would have had.
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
    """After ``LocaleMiddleware``: ``?lang=es`` activates Spanish for the request and, on a page
    (not the API), stores the choice in the language cookie."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        lang = query_language(request)
        if lang is None:
            return self.get_response(request)
        translation.activate(lang)
        request.LANGUAGE_CODE = lang
        response = self.get_response(request)
        page = response.get("Content-Type", "").startswith("text/html") and not request.path.startswith("/api/")
        if page and request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME) != lang:
            response.set_cookie(
                settings.LANGUAGE_COOKIE_NAME,
                lang,
                max_age=settings.LANGUAGE_COOKIE_AGE,
                path=settings.LANGUAGE_COOKIE_PATH,
                samesite=settings.LANGUAGE_COOKIE_SAMESITE,
            )
        return response
