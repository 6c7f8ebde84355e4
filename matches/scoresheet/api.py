"""``/api/matches/{id}/scoresheet``: the official scoresheet's signatures (GET: the match's
officials and committee) and ``…/scoresheet/signatures`` (POST: an umpire or the referee signs the
final result, sending the log hash their screen showed)."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache

from matches.api.openapi_components import (
    LANGUAGE,
    NO_MATCH,
    OFFICIAL,
    OFFICIALS_ONLY,
    TOO_LARGE,
    error_response,
    json_content,
)
from matches.api.operations import operation
from matches.api.types import SignatureRequest
from matches.awards.openapi import EXAMPLE_HASH, EXAMPLE_SCORESHEET, Scoresheet, scoresheet_refusal
from matches.models import Match
from matches.permissions import is_official
from polo.api_body import BodyRefused, read_body
from polo.api_errors import api_error

from .selectors import scoresheet
from .services import SignatureRefused, scoresheet_sign

SIGN_MAX_BYTES = 1024
STATUS = {"forbidden": 403, "not_final": 422, "log_changed": 409}


def _match(match_id: int) -> Match | None:
    return Match.objects.select_related("tournament", "referee").filter(pk=match_id).first()


@never_cache
@operation(
    "get",
    "getScoresheet",
    description="The match's officials and committee. A signature is valid while no event was accepted after "
    "it (docs/SCORESHEET.md).",
    responses={
        200: json_content(Scoresheet, EXAMPLE_SCORESHEET, "The scoresheet."),
        403: OFFICIALS_ONLY,
        404: NO_MATCH,
    },
)
def match_scoresheet(request: HttpRequest, match_id: int) -> JsonResponse:
    """The official scoresheet: the log hash now and the officials' signatures."""
    match = _match(match_id)
    if match is None:
        return api_error(404, "not_found", _("No such match."))
    if not is_official(request.user, match):
        return api_error(403, "forbidden", _("Officials only."))
    return JsonResponse(scoresheet(match).as_json())


@never_cache
@operation(
    "post",
    "signScoresheet",
    parameters=[LANGUAGE],
    security=OFFICIAL,
    body=SignatureRequest,
    body_example={"log_hash": EXAMPLE_HASH},
    responses={
        201: json_content(Scoresheet, EXAMPLE_SCORESHEET, "Signed: the scoresheet now."),
        400: error_response("The body does not carry a log hash.", "invalid", "Send the log hash your screen shows."),
        403: scoresheet_refusal(
            "Not an umpire or the referee of this match.",
            "forbidden",
            "Only the match's umpires and referee sign its scoresheet.",
        ),
        404: NO_MATCH,
        409: scoresheet_refusal(
            "The log hash is not the log's now: here is the scoresheet.",
            "log_changed",
            "The log has changed since your screen showed it: check the result and sign again.",
        ),
        413: TOO_LARGE,
        422: scoresheet_refusal(
            "The match is not over.",
            "not_final",
            "The match is not over: the scoresheet is signed at the final result.",
        ),
    },
)
def match_scoresheet_sign(request: HttpRequest, match_id: int) -> JsonResponse:
    """An umpire or the referee signs the final result as the log is now."""
    match = _match(match_id)
    if match is None:
        return api_error(404, "not_found", _("No such match."))
    if not request.user.is_authenticated:
        return api_error(403, "forbidden", _("Only the match's umpires and referee sign its scoresheet."))
    try:
        signed = read_body(request, SignatureRequest, SIGN_MAX_BYTES)
    except BodyRefused as refused:
        return refused.answer("invalid", _("Send the log hash your screen shows."))
    try:
        scoresheet_sign(match_id=match.pk, official=request.user, seen_hash=signed.log_hash)
    except SignatureRefused as refused:
        if refused.code == "forbidden":
            return api_error(403, refused.code, refused.message)
        match.refresh_from_db()
        return api_error(STATUS[refused.code], refused.code, refused.message, scoresheet=scoresheet(match).as_json())
    match.refresh_from_db()
    return JsonResponse(scoresheet(match).as_json(), status=201)
