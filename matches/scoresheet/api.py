"""``/api/matches/{id}/scoresheet``: the official scoresheet's signatures (GET: the match's
officials and committee) and ``…/scoresheet/signatures`` (POST: an umpire or the referee signs the
final result, sending the log hash their screen showed)."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from matches.api.types import SignatureRequest
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
@require_GET
def match_scoresheet(request: HttpRequest, match_id: int) -> JsonResponse:
    match = _match(match_id)
    if match is None:
        return api_error(404, "not_found", _("No such match."))
    if not is_official(request.user, match):
        return api_error(403, "forbidden", _("Officials only."))
    return JsonResponse(scoresheet(match).as_json())


@never_cache
@require_POST
def match_scoresheet_sign(request: HttpRequest, match_id: int) -> JsonResponse:
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
