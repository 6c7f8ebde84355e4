"""The API's one reading of a JSON body (issues 11 and 37), for every view that takes one.

- at most ``max_bytes``, declared or read (413 ``too_large`` beyond: the caller's cap, which the
  OpenAPI document states);
- strict JSON (``polo.json_input``: no deep nesting, no NaN or Infinity, no NUL or lone surrogate
  in any string);
- and, given a request type (a pydantic model, ``matches.api.types``), of that type: the same model
  whose JSON Schema the OpenAPI document shows.

A body that is none of these raises ``BodyRefused``; ``refused.answer(code, sentence)`` is the
API's answer to it: the 413, or a 400 with the view's ``code`` and a message naming the reason (the
view's own ``sentence`` when the body is simply not what it takes).
"""

from __future__ import annotations

from typing import Any, TypeVar

from django.http import HttpRequest, JsonResponse
from django.http.request import RawPostDataException, UnreadablePostError
from django.utils.translation import gettext as _
from pydantic import BaseModel, ValidationError

from .api_errors import api_error, declared_length, too_large
from .json_input import JSONInputError, loads

Model = TypeVar("Model", bound=BaseModel)


class BodyRefused(Exception):
    """The body is not one the API takes: ``status`` (400 or 413) and ``reason`` (``too_large``,
    ``not_json``, ``too_deep``, ``bad_number``, ``bad_text``, ``not_the_type``)."""

    def __init__(self, status: int, reason: str, limit: int) -> None:
        super().__init__(reason)
        self.status, self.reason, self.limit = status, reason, limit

    def answer(self, code: str, sentence: str) -> JsonResponse:
        """The API's answer: 413 ``too_large``, else 400 ``code`` saying what is wrong."""
        if self.status == 413:
            return too_large(self.limit)
        return api_error(400, code, self.message(sentence))

    def message(self, sentence: str) -> str:
        """What to tell the caller (``sentence``: the view's own, for a body that is not its type)."""
        if self.reason == "too_deep":
            return _("The body is nested too deeply.")
        if self.reason == "bad_number":
            return _("Numbers must be finite: NaN and Infinity are not JSON.")
        if self.reason == "bad_text":
            return _("Text may not contain NUL characters or unpaired surrogates.")
        return sentence


def read_json(request: HttpRequest, max_bytes: int) -> Any:
    """The request's JSON body, or ``BodyRefused``."""
    declared = declared_length(request)
    if declared is None:
        raise BodyRefused(400, "not_json", max_bytes)
    if declared > max_bytes:
        raise BodyRefused(413, "too_large", max_bytes)
    try:
        body = request.body
    except (RawPostDataException, UnreadablePostError):  # a form body the CSRF check already read
        raise BodyRefused(400, "not_json", max_bytes) from None
    if len(body) > max_bytes:  # (a body sent without a length)
        raise BodyRefused(413, "too_large", max_bytes)
    try:
        return loads(body)
    except JSONInputError as refused:
        raise BodyRefused(400, refused.reason, max_bytes) from None


def read_body(request: HttpRequest, model: type[Model], max_bytes: int) -> Model:
    """The request's JSON body as a ``model``, or ``BodyRefused``."""
    body = read_json(request, max_bytes)
    try:
        return model.model_validate(body)
    except ValidationError:
        raise BodyRefused(400, "not_the_type", max_bytes) from None
