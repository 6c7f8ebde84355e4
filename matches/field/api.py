"""``/api/field/``: the field server's side of the tournament's server (docs/LIVE-PROTOCOL.md, "A
match kept at the field"). The field token is the credential (``Authorization: Bearer <token>``):
no session, no cookie, so no CSRF.

- ``GET /api/field/matches``: the matches the token authorises (a match's token: its match; a
  day's: every match of its day, tournament and ground);
- ``GET /api/field/matches/{id}/pairing``: everything the field needs to keep the match (``wire``);
- ``GET /api/field/matches/{id}/log``: where the replica stands (``last_seq``, ``log_hash``, ``kept_at``);
- ``POST /api/field/matches/{id}/log``: a batch of the field's log (``services.replica_append``).

Errors: ``{"error": {"code", "rule": null, "message"}, "detail": {"text", "params"}, "last_seq"?}``,
the message in the caller's language; ``detail`` names the message (``refusals``) for the field to
say it again in its own reader's language.
"""

from __future__ import annotations

import time

from django.http import HttpRequest, JsonResponse
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt

from matches.api.openapi_components import LANGUAGE, NO_MATCH, TOO_LARGE, error_response, json_content
from matches.api.operations import operation
from matches.api.views import request_language
from matches.live.broadcast import broadcast_match_field
from matches.live.snapshots import field_object
from matches.models import Match
from polo.api_body import BodyRefused, read_json
from polo.api_errors import api_error

from . import services, wire
from .openapi import (
    EXAMPLE_BATCH,
    EXAMPLE_PAIRING,
    EXAMPLE_REPLICA,
    EXAMPLE_TOKEN_MATCHES,
    FIELD_TOKEN,
    LOG_REFUSED,
    TOKEN_REFUSED,
    FieldBatch,
    FieldPairing,
    FieldReplica,
    FieldTokenMatches,
)
from .services import FieldRefusal, ReplicaAnswer

LOG_MAX_BYTES = 2 * 1024 * 1024  # a batch of 500 events with room to spare (Django reads 2.5 MB)


def _bearer(request: HttpRequest) -> str | None:
    kind, _sep, secret = request.headers.get("Authorization", "").partition(" ")
    return secret.strip() if kind.lower() == "bearer" and secret.strip() else None


def _refused(refusal: FieldRefusal) -> JsonResponse:
    extra: dict = {"detail": refusal.detail}
    if refusal.last_seq is not None:
        extra["last_seq"] = refusal.last_seq
    return api_error(refusal.status, refusal.code, refusal.message(request_language()), **extra)


def _not_found() -> JsonResponse:
    return api_error(404, "not_found", _("No such match."))


def _replica(answer: ReplicaAnswer, status: int = 200) -> JsonResponse:
    return JsonResponse(
        {
            "last_seq": answer.last_seq,
            "log_hash": answer.log_hash,
            "appended": answer.appended,
            "duplicates": answer.duplicates,
            "kept_at": answer.kept_at,
        },
        status=status,
    )


def _checked(request: HttpRequest, match_id: int):
    """The token of the request and the match, or the answer refusing it."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        return None, None, _not_found()
    try:
        return services.field_token_check(_bearer(request), match), match, None
    except FieldRefusal as refusal:
        return None, None, _refused(refusal)


@csrf_exempt
@operation(
    "get",
    "getFieldTokenMatches",
    summary="The matches the field token authorises (a match's, or every match of a day's token)",
    description="A refusal's message is in the request's language (Accept-Language), as every other.",
    security=FIELD_TOKEN,
    responses={
        200: json_content(FieldTokenMatches, EXAMPLE_TOKEN_MATCHES, "The token's matches, in order of their start."),
        403: TOKEN_REFUSED,
    },
)
def token_matches(request: HttpRequest) -> JsonResponse:
    """The matches the token authorises: what ``field_pair`` without ``--match`` pairs."""
    try:
        token = services.field_token_find(_bearer(request))
    except FieldRefusal as refusal:
        response = _refused(refusal)
    else:
        response = JsonResponse(
            {
                "scope": token.scope_text(),
                "expires_at": token.expires_at.timestamp(),
                "matches": [
                    {"id": m.pk, "title": m.title, "starts_at": m.starts_at.timestamp(), "field": m.field.name}
                    for m in token.matches().select_related("home__team", "away__team", "field")
                ],
            },
            json_dumps_params={"ensure_ascii": False},
        )
    add_never_cache_headers(response)
    return response


@csrf_exempt
@operation(
    "get",
    "getFieldPairing",
    summary="Everything a field server needs to keep the match (the field token's holder)",
    security=FIELD_TOKEN,
    parameters=[LANGUAGE],
    responses={
        200: json_content(FieldPairing, EXAMPLE_PAIRING, "The pairing payload (matches/field/wire.py)."),
        403: TOKEN_REFUSED,
        404: NO_MATCH,
    },
)
def match_pairing(request: HttpRequest, match_id: int) -> JsonResponse:
    token, match, refused = _checked(request, match_id)
    if refused is not None:
        add_never_cache_headers(refused)
        return refused
    response = JsonResponse(wire.pairing_payload(match_id), json_dumps_params={"ensure_ascii": False})
    _heard(token, match)
    add_never_cache_headers(response)
    return response


@csrf_exempt
@operation(
    "get",
    "getFieldReplica",
    summary="Where the replica of the field's log stands",
    security=FIELD_TOKEN,
    parameters=[LANGUAGE],
    responses={
        200: json_content(FieldReplica, {**EXAMPLE_REPLICA, "appended": 0}, "The replica."),
        403: TOKEN_REFUSED,
        404: NO_MATCH,
    },
)
@operation(
    "post",
    "postFieldLog",
    summary="A batch of the field's log, appended verbatim (resumable, idempotent by event id)",
    security=FIELD_TOKEN,
    parameters=[LANGUAGE],
    body=FieldBatch,
    body_example=EXAMPLE_BATCH,
    responses={
        200: json_content(FieldReplica, EXAMPLE_REPLICA, "Appended (or held already)."),
        400: error_response("Not a batch of the log.", "invalid_log", "The log is not valid: …"),
        403: TOKEN_REFUSED,
        404: NO_MATCH,
        409: LOG_REFUSED,
        413: TOO_LARGE,
    },
)
def match_log(request: HttpRequest, match_id: int) -> JsonResponse:
    token, match, refused = _checked(request, match_id)
    if refused is not None:
        add_never_cache_headers(refused)
        return refused
    if request.method == "GET":
        response = _replica(services.replica_state(match))
    else:
        response, answer = _push(request, match_id)
        if answer is not None:
            # A push that appended events to a match still kept at the field is told to every
            # screen by the update those events made (live.js: an update of a match kept at the
            # field is the field heard at its server_time): no second frame to every viewer.
            told = answer.appended > 0 and answer.kept_at == Match.KeptAt.FIELD
            _heard(token, match, tell=not told)
    add_never_cache_headers(response)
    return response


def _heard(token, match: Match, *, tell: bool = True) -> None:
    """The field was heard: noted, and (``tell``) every screen of the match told (its ``field``
    object)."""
    services.field_heard(token, match)
    if tell:
        match.refresh_from_db(fields=["kept_at", "field_heard_at"])
        broadcast_match_field(match.pk, field_object(match, time.time()))


def _push(request: HttpRequest, match_id: int) -> tuple[JsonResponse, ReplicaAnswer | None]:
    # The one body reader (size, strict JSON); the batch's own checks, each refusal with its detail
    # for the field to say again in its reader's language, are the replica's (services).
    try:
        body = read_json(request, LOG_MAX_BYTES)
    except BodyRefused as refused:
        return refused.answer("invalid_log", _("The body must be a batch of the field's log (JSON).")), None
    try:
        answer = services.replica_append(match_id=match_id, body=body)
    except FieldRefusal as refusal:
        return _refused(refusal), None
    return _replica(answer), answer
