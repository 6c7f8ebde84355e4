"""How fast the committee's and the admin's forms may be posted (issue 36).

Every POST under ``/committee/`` (the committee's forms, its awards) and ``/admin/`` counts against
its sender: the signed-in user, or the client's address for a visitor (``matches.auth``: the
address our proxy appended). Past ``FORM_POSTS_PER_MINUTE`` in a minute, a POST is refused with
429, ``Retry-After`` and a page in the sender's language, before the view reads it (nothing is
saved). A member working the day's board posts a few times a minute; a script that floods the forms
(each one an audit entry, a report rebuilt, the database written) is held to that rate.

Counted in the cache (Redis in production, shared by every web process; in-process otherwise), in
fixed one-minute windows. With the cache away the posts are let through: the forms work while Redis
is restarted (the login throttle, which must hold then, counts in the database).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from .auth import client_address

LIMITED = ("/committee/", "/admin/")
WINDOW_SECONDS = 60


def _sender(request: HttpRequest) -> str:
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return f"user:{user.pk}"
    return f"address:{client_address(request)}"


def over_limit(request: HttpRequest, now: float | None = None) -> int | None:
    """Seconds until this sender may post again when this POST is one too many; None otherwise."""
    now = time.time() if now is None else now
    window = int(now // WINDOW_SECONDS)
    key = f"polo:form-posts:{_sender(request)}:{window}"
    try:
        cache.add(key, 0, timeout=WINDOW_SECONDS + 5)
        count = cache.incr(key)
    except Exception:  # noqa: BLE001 — the cache away: let the forms work
        return None
    if count <= settings.FORM_POSTS_PER_MINUTE:
        return None
    return max(1, int((window + 1) * WINDOW_SECONDS - now) + 1)


class FormPostLimitMiddleware:
    """After authentication (the user is known) and after the CSRF check (``process_view`` runs
    once Django's has passed: a forged cross-site POST cannot spend a member's allowance), before
    the view."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(self, request: HttpRequest, view, args, kwargs) -> HttpResponse | None:
        if request.method != "POST" or not request.path.startswith(LIMITED):
            return None
        wait = over_limit(request)
        if wait is None:
            return None
        context = {"per_minute": settings.FORM_POSTS_PER_MINUTE, "wait": wait}
        response = render(request, "too_many_posts.html", context, status=429)
        response["Retry-After"] = str(wait)
        return response
