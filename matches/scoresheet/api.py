"""``/api/matches/{id}/scoresheet``: the official scoresheet's signatures (GET: the match's
officials and committee) and ``…/scoresheet/signatures`` (POST: an umpire or the referee signs the
final result, sending the log hash their screen showed)."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from matches.api import inputs
from matches.models import Match
from matches.permissions import is_official
from polo.api_errors import too_large

from .selectors import scoresheet
from .services import SignatureRefused, scoresheet_sign

SIGN_MAX_BYTES = 1024
STATUS = {"forbidden": 403, "not_final": 422, "log_changed": 409}


def _error(status: int, code: str, message: str, **extra) -> JsonResponse:
    return JsonResponse({"error": {"code": code, "rule": None, "message": message}, **extra}, status=status)


def _match(match_id: int) -> Match | None:
    return Match.objects.select_related("tournament", "referee").filter(pk=match_id).first()


@never_cache
@require_GET
def match_scoresheet(request: HttpRequest, match_id: int) -> JsonResponse:
    match = _match(match_id)
    if match is None:
        return _error(404, "not_found", _("No such match."))
    if not is_official(request.user, match):
        return _error(403, "forbidden", _("Officials only."))
    return JsonResponse(scoresheet(match).as_json())


@never_cache
@require_POST
def match_scoresheet_sign(request: HttpRequest, match_id: int) -> JsonResponse:
    match = _match(match_id)
    if match is None:
        return _error(404, "not_found", _("No such match."))
    if not request.user.is_authenticated:
        return _error(403, "forbidden", _("Only the match's umpires and referee sign its scoresheet."))
    send_it = _("Send the log hash your screen shows.")
    try:
        body = inputs.read_json(request, SIGN_MAX_BYTES)
    except inputs.BodyRefused as refused:
        if refused.status == 413:
            return too_large(refused.limit)
        return _error(400, "invalid", inputs.body_message(refused.reason, send_it))
    seen = body.get("log_hash") if isinstance(body, dict) else None
    if not isinstance(seen, str) or len(seen) != 64:
        return _error(400, "invalid", send_it)
    try:
        scoresheet_sign(match_id=match.pk, official=request.user, seen_hash=seen)
    except SignatureRefused as refused:
        if refused.code == "forbidden":
            return _error(403, refused.code, refused.message)
        match.refresh_from_db()
        return _error(STATUS[refused.code], refused.code, refused.message, scoresheet=scoresheet(match).as_json())
    match.refresh_from_db()
    return JsonResponse(scoresheet(match).as_json(), status=201)
