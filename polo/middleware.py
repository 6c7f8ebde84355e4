"""A strict Content-Security-Policy on every response.

Django 5.2 has no CSP of its own; the policy is short enough that a dependency would cost more
than it saves. Pages load scripts and styles only from our origin (no inline code): team colours
and other dynamic styling are set from JavaScript or SVG attributes.

``connect-src 'self'``: fetch and websockets reach our own origin only. In CSP Level 3 'self'
covers the same host and port over ws: and wss: (the live pages' socket), so no bare ``ws:``/``wss:``
source lets an injected script send what it read to any host.

``frame-ancestors 'none'`` (with ``X-Frame-Options: DENY``): no page may be framed, except the
stream overlay by the origins in ``OVERLAY_FRAME_ANCESTORS`` (a production switcher): its view
sets ``response.csp_frame_ancestors`` (``matches/public/views.py``), written here into the policy.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from django.http import HttpRequest, HttpResponse


def content_security_policy(*, frame_ancestors: Sequence[str] = ()) -> str:
    """The policy; ``frame_ancestors``: the origins that may frame the page (none: 'none')."""
    return "; ".join(
        [
            "default-src 'self'",
            "script-src 'self'",
            "style-src 'self'",
            "img-src 'self' data:",
            "font-src 'self'",
            "connect-src 'self'",
            "media-src 'self' data:",
            "object-src 'none'",
            "base-uri 'self'",
            "form-action 'self'",
            "frame-ancestors " + (" ".join(frame_ancestors) or "'none'"),
        ]
    )


POLICY = content_security_policy()


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        ancestors = getattr(response, "csp_frame_ancestors", ())
        policy = content_security_policy(frame_ancestors=ancestors) if ancestors else POLICY
        response.headers.setdefault("Content-Security-Policy", policy)
        return response
