"""A socket's language (``consumers.socket_language``): ``?lang=``, then as Django reads a request's
(its language cookie, then Accept-Language), the site's default else."""

from __future__ import annotations

import pytest
from django.conf import settings

from matches.live.consumers import socket_language


def scope(query: str = "", cookie: str | None = None, accept: str | None = None) -> dict:
    headers = [(b"accept-language", accept.encode())] if accept is not None else []
    cookies = {settings.LANGUAGE_COOKIE_NAME: cookie} if cookie is not None else {}
    return {"query_string": query.encode(), "cookies": cookies, "headers": headers}


@pytest.mark.parametrize(
    ("asked", "spoken"),
    [
        (scope(), settings.LANGUAGE_CODE),
        (scope(accept="es-AR,es;q=0.9,en;q=0.5"), "es"),
        (scope(accept="fr-FR,es;q=0.8"), "es"),
        (scope(accept="fr-FR,de;q=0.8"), settings.LANGUAGE_CODE),
        (scope(cookie="es", accept="en"), "es"),
        (scope(cookie="xx", accept="es"), "es"),
        (scope(query="tv=1&lang=es", cookie="en", accept="en"), "es"),
        (scope(query="lang=zz&lang=es"), "es"),
        (scope(query="lang=" + "e" * 600, accept="es"), "es"),
    ],
)
def test_a_socket_speaks_what_it_asked_for_then_its_cookie_then_its_browser(asked, spoken):
    assert socket_language(asked) == spoken
