"""JSON everywhere under ``/api/``: the errors Django answers itself speak the API's error shape.

The API's views answer ``{"error": {"code", "rule", "message"}}`` in the caller's language
(docs/LIVE-PROTOCOL.md), always through ``api_error`` (or ``error_body`` where the envelope rides
inside a larger answer: a refused event with the state).

What Django answers before or around a view — a CSRF refusal, a path that resolves to nothing, a
method the view does not take, a body over ``DATA_UPLOAD_MAX_MEMORY_SIZE``, an unhandled
exception — used to be an HTML page there. ``ApiErrorMiddleware`` (after
``LocaleMiddleware``, so the language is the request's) turns every such answer under ``/api/``
into the same JSON; ``csrf_failure`` (``CSRF_FAILURE_VIEW``) names the CSRF refusal; pages outside
``/api/`` keep their HTML.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.views import csrf
from pydantic import BaseModel, Field

API_PREFIX = "/api/"


def is_api(request: HttpRequest) -> bool:
    return request.path_info.startswith(API_PREFIX)


# The API's error envelope, defined once: what ``error_body`` writes, and the OpenAPI document's
# ``Error`` (``matches.api.responses``).
class Error(BaseModel):
    """Why a request was refused: a code for programs, the rule applied, a message for people."""

    code: str = Field(description="The contract's rejection code, e.g. goal_after_time.")
    rule: str | None = Field(default=None, description="The rule applied, e.g. 14.b(1).")
    message: str = Field(description="In the caller's language.")


def error_body(code: str, message: str, rule: str | None = None) -> dict[str, Any]:
    """The API's error envelope: ``rule`` is the rule applied (None when the refusal is about the
    request, not the rules)."""
    return Error(code=code, rule=rule, message=str(message)).model_dump()  # (a lazy text as the text)


def api_error(status: int, code: str, message: str, *, rule: str | None = None, **extra: Any) -> JsonResponse:
    """The API's error answer: the envelope under ``error``, and ``extra`` beside it (the state a
    refusal comes with, the log's ``last_seq``...)."""
    return JsonResponse({"error": error_body(code, message, rule), **extra}, status=status)


def too_large(limit: int) -> JsonResponse:
    return api_error(413, "too_large", _("The body is too large: at most %(size)d bytes.") % {"size": limit})


def _by_status(status: int) -> tuple[str, str]:
    """The code and message of an answer Django made for ``status``."""
    if status == 400:
        return "bad_request", _("The request could not be understood.")
    if status == 403:
        return "forbidden", _("You may not do that.")
    if status == 404:
        return "not_found", _("There is nothing at this address.")
    if status == 405:
        return "method_not_allowed", _("This address does not take that method.")
    if status == 413:
        return "too_large", _("The body is too large.")
    if status >= 500:
        return "server_error", _("Something went wrong on the server: try again.")
    return "error", _("The request was refused.")


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """``CSRF_FAILURE_VIEW``: the API's JSON under /api/, Django's page elsewhere."""
    if is_api(request):
        return api_error(
            403,
            "csrf_failed",
            _("The request was refused: its CSRF token is missing or wrong. Reload the page and try again."),
        )
    return csrf.csrf_failure(request, reason)


def declared_length(request: HttpRequest) -> int | None:
    """The body's ``Content-Length`` (0 when absent), or None when it is not a number."""
    declared = request.META.get("CONTENT_LENGTH") or "0"
    return int(declared) if declared.isascii() and declared.isdigit() else None


class ApiErrorMiddleware:
    """Under /api/: a body declared over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` is a 413 before anything
    reads it, and any error answer that is not JSON is replaced by the API's JSON error."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not is_api(request):
            return self.get_response(request)
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        if limit is not None and (declared_length(request) or 0) > limit:
            return too_large(limit)
        response = self.get_response(request)
        if response.status_code < 400 or response.get("Content-Type", "").startswith("application/json"):
            return response
        code, message = _by_status(response.status_code)
        answer = api_error(response.status_code, code, message)
        if response.has_header("Allow"):
            answer["Allow"] = response["Allow"]
        return answer

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if is_api(request) and isinstance(exception, RequestDataTooBig):
            return too_large(settings.DATA_UPLOAD_MAX_MEMORY_SIZE)
        return None
