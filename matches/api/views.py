"""The JSON API of docs/LIVE-PROTOCOL.md: post an event, read a match's state and log, the
matches of a day, the server's time, a match's last goals (the scoreboard's list) and the
umpires' score confirmations. Thin views: parse and check the request, call one service or
selector, shape the answer. Errors carry a code (the contract's names) and a message in the
caller's language (``Accept-Language``, the language cookie or the session).

Events are posted here and nowhere else (never over the websocket): CSRF, permissions,
idempotency by the client's ``id`` and the ``expected_seq`` check live on this one path.

The two reads a crowd makes, a match's state and its events, are ready for a CDN (issue 14): each
answer has an ``ETag`` (a repeat of ``If-None-Match`` gets ``304``) and a short ``Cache-Control``
(``max-age=1, stale-while-revalidate``): public for the public, ``private, no-cache`` for an
official's events (they carry the private notes; ``Vary: Cookie`` says so to a shared cache).
"""

from __future__ import annotations

import hashlib
import json
import time
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.db import transaction
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified, JsonResponse
from django.utils.cache import add_never_cache_headers, patch_vary_headers
from django.utils.http import parse_etags
from django.utils.translation import get_language, gettext as _
from django.views.decorators.cache import never_cache

from matches import selectors, services
from matches.live import snapshots
from matches.models import Match, Tournament
from matches.officials import services as officials
from matches.permissions import can_log_event, is_official, match_role
from matches.public import selectors as public
from matches.services import LogResult
from officiating.engine.strict import key_refusal
from polo.api_body import BodyRefused, read_body, read_json
from polo.api_errors import api_error, error_body

from . import inputs, openapi, types
from .inputs import CONFIRMATION_MAX_BYTES, EVENT_MAX_BYTES
from .openapi_components import (
    EXAMPLE_ACCEPTED,
    EXAMPLE_CONFIRMATIONS,
    EXAMPLE_EVENT,
    EXAMPLE_EVENTS_PAGE,
    EXAMPLE_GOAL,
    EXAMPLE_MATCH_STATE,
    LANGUAGE,
    MATCHES_EXAMPLE,
    NO_MATCH,
    NO_TOURNAMENT,
    NOT_MODIFIED,
    OFFICIAL,
    OFFICIALS_ONLY,
    TOO_LARGE,
    confirmation_refusal,
    error_response,
    event_variant,
    json_content,
    ref,
    stale_response,
)
from .operations import operation
from .responses import Accepted, ConfirmationsPage, EventsPage, GoalsPage, MatchesPage, MatchState, ServerTime


def request_language() -> str:
    """The request's language as the engine names it ("en", "es")."""
    return (get_language() or settings.LANGUAGE_CODE).split("-")[0].lower()


# --- the read path's caching (ETag, 304, Cache-Control) ---------------------------------------

# A second of freshness, and a stale answer served while the cache asks again: a CDN in front of
# the app then asks it about once a second per match and language, whatever the crowd.
PUBLIC_CACHE = "public, max-age=1, stale-while-revalidate=10"
# An official's answer (private notes): the browser may keep it but asks again every time (304).
PRIVATE_CACHE = "private, no-cache"


def _tag(parts: Any) -> str:
    text = json.dumps(parts, sort_keys=True, separators=(",", ":"))
    return hashlib.blake2b(text.encode(), digest_size=12).hexdigest()


def _matches(request: HttpRequest, etag: str) -> bool:
    """``If-None-Match`` names ``etag`` (weak comparison, as RFC 9110 asks for GET) or is ``*``."""
    tags = parse_etags(request.headers.get("If-None-Match", ""))
    return tags == ["*"] or etag.removeprefix("W/") in {tag.removeprefix("W/") for tag in tags}


def _cached(request: HttpRequest, etag: str, cache_control: str, build) -> HttpResponse:
    """304 when the client has ``etag`` already, else ``build()``; either way with the ETag and
    the Cache-Control (a 304 repeats them, so a cache refreshes what it keeps)."""
    response = HttpResponseNotModified() if _matches(request, etag) else build()
    response["ETag"] = etag
    response["Cache-Control"] = cache_control
    return response


def _forbidden() -> JsonResponse:
    return api_error(403, "forbidden", _("Only the officials of this match may do that."))


def _not_found() -> JsonResponse:
    return api_error(404, "not_found", _("No such match."))


@lru_cache(maxsize=32)
def _event_validator(etype: str):
    """A validator of one event of type ``etype``: the match-log schema's events of that type
    (``event_variant``), so that a problem is reported at its field; None when the schema
    library is not installed (the engine still checks every event)."""
    try:
        from jsonschema import Draft202012Validator

        from officiating.schemas import load_schema
    except ImportError:  # pragma: no cover — jsonschema is a test requirement today
        return None
    defs = load_schema("match-log")["$defs"]
    return Draft202012Validator({**event_variant(defs, etype), "$defs": defs})


def warm_validators() -> None:
    """Build the validator of every event type now (the schema's first load takes some 300 ms:
    without this the first event a process takes pays it, with every screen waiting)."""
    try:
        from officiating.schemas import load_schema
    except ImportError:  # pragma: no cover
        return
    for etype in load_schema("match-log")["$defs"]["event_types"]["enum"]:
        _event_validator(etype)


def event_shape_problem(event: dict[str, Any]) -> str | None:
    """``$.path: message`` of the first schema problem of an event (its type known), or None."""
    validator = _event_validator(event["type"])
    if validator is None:
        return None
    from jsonschema.exceptions import best_match

    worst = best_match(validator.iter_errors(event))
    return None if worst is None else f"{worst.json_path}: {worst.message}"


# --- POST /api/matches/{id}/events ----------------------------------------------------------


def _not_an_event() -> str:
    return _("The body must be one event: a JSON object of at most %(size)d bytes.") % {"size": EVENT_MAX_BYTES}


def _read_event(request: HttpRequest) -> dict[str, Any] | JsonResponse:
    """The posted event (a JSON object), or the answer refusing the body (400, 413)."""
    try:
        event = read_json(request, EVENT_MAX_BYTES)
    except BodyRefused as refused:
        return refused.answer("invalid_event", _not_an_event())
    if not isinstance(event, dict):
        return api_error(400, "invalid_event", _not_an_event())
    return event


def _invalid_event(match_id: int, lang: str, message: str) -> JsonResponse:
    """422 ``invalid_event`` with the state, as the rules' refusals come (nothing changed)."""
    snapshot = snapshots.match_snapshot(match_id, lang=lang)
    return api_error(
        422, "invalid_event", message, accepted=False, state=snapshot["state"], last_seq=snapshot["last_seq"]
    )


def _answer(result: LogResult, lang: str) -> JsonResponse:
    if result.accepted:
        body = {
            "accepted": True,
            "seq": result.seq,
            "last_seq": result.last_seq,
            "event": result.event,
            "state": result.state,
        }
        if result.duplicate:
            return JsonResponse({**body, "duplicate": True}, status=200)
        return JsonResponse(body, status=201)
    error = result.error
    body = {
        "accepted": False,
        "error": error_body(error.code, error.message(lang), error.rule),
        "state": result.state,
        "last_seq": result.last_seq,
    }
    if result.valid_now is not None:
        body["valid_now"] = result.valid_now
        if result.would_be is not None:
            would = result.would_be
            body["would_be"] = error_body(would.code, would.message(lang), would.rule)
    # 423 Locked: the match's log is written on the field's own server (matches/field/).
    status = {"stale_sequence": 409, "kept_at_field": 423}.get(error.code, 422)
    return JsonResponse(body, status=status)


def _post_event(request: HttpRequest, match_id: int) -> JsonResponse:
    if not request.user.is_authenticated:
        return _forbidden() if Match.objects.filter(pk=match_id).exists() else _not_found()
    # One transaction, one read of the match: locked, with the rows its config is built from, it
    # serves the checks below and the log's append (an official's event waits for no other read
    # of it).
    with transaction.atomic():
        match = services.locked_match(match_id)
        if match is None:
            return _not_found()
        event = _read_event(request)
        if isinstance(event, JsonResponse):
            return event
        lang = request_language()
        # The id and the type first: the permission is per type, and the id is a column of 64.
        head = inputs.event_head_problem(event)
        if head is not None:
            return _forbidden() if match_role(request.user, match) is None else _invalid_event(match_id, lang, head)
        if not can_log_event(request.user, match, event["type"]):
            return _forbidden()
        # Exactly the contract's keys (the engine's rule; refused in the caller's language).
        refusal = key_refusal(event)
        if refusal is not None:
            return _invalid_event(match_id, lang, refusal.message(lang))
        problem = event_shape_problem(event)
        if problem is not None:
            return _invalid_event(match_id, lang, _("The event is not valid: %(problem)s") % {"problem": problem})
        result = services.match_event_log(match_id=match_id, event=event, user=request.user, lang=lang, locked=match)
    return _answer(result, lang)


# --- GET /api/matches/{id}/events?since=n ----------------------------------------------------


def _get_events(request: HttpRequest, match_id: int) -> HttpResponse:
    match = Match.objects.defer("state_cache").filter(pk=match_id).first()
    if match is None:
        return _not_found()
    query = types.read_query(request, types.EventsQuery)
    if query is None:
        return api_error(400, "invalid_since", _("since must be a whole number (a sequence number)."))
    official = is_official(request.user, match)  # (reads the session: the answer varies by Cookie)
    body = selectors.match_events_since(match_id, query.since, official=official)
    response = JsonResponse(body)
    # The log only grows, so the body is the whole story: a strong tag of its bytes.
    etag = '"' + hashlib.blake2b(response.content, digest_size=12).hexdigest() + '"'
    response = _cached(request, etag, PRIVATE_CACHE if official else PUBLIC_CACHE, lambda: response)
    patch_vary_headers(response, ("Cookie",))
    return response


@operation(
    "post",
    "postEvent",
    summary="Log one event (scorer, umpires and referee of the match; committee events by the committee)",
    parameters=[LANGUAGE],
    security=OFFICIAL,
    body=ref("Event"),
    body_example=EXAMPLE_EVENT,
    responses={
        201: json_content(Accepted, EXAMPLE_ACCEPTED, "Accepted and appended to the log."),
        200: json_content(
            Accepted,
            {**EXAMPLE_ACCEPTED, "duplicate": True},
            "A retry of an event already recorded (same id): the first answer again.",
        ),
        400: error_response(
            "The body is not one JSON object, or not JSON the log can keep: nested too deep, "
            "NaN or Infinity, NUL or an unpaired surrogate in a string.",
            "invalid_event",
            "The body must be one event: a JSON object of at most 16384 bytes.",
        ),
        403: error_response(
            "Not logged in, not an official of this match for this event, or the CSRF token is "
            "missing or wrong (csrf_failed).",
            "forbidden",
            "Only the officials of this match may do that.",
        ),
        404: NO_MATCH,
        409: stale_response(),
        413: TOO_LARGE,
        422: error_response(
            "Rejected by the rules, or not a valid event (invalid_event: a key its type does not "
            "take, named; a field of the wrong shape; a ball out off its line): nothing changed.",
            "not_in_play",
            "The ball is not in play.",
            True,
        ),
    },
)
@operation(
    "get",
    "getEvents",
    summary="The log after sequence number `since`, in order (private notes only for officials)",
    query=types.EventsQuery,
    responses={
        200: json_content(EventsPage, EXAMPLE_EVENTS_PAGE, "The events with seq > since."),
        304: NOT_MODIFIED,
        400: error_response(
            "since is not a whole number.", "invalid_since", "since must be a whole number (a sequence number)."
        ),
        404: NO_MATCH,
    },
)
def match_events(request: HttpRequest, match_id: int) -> HttpResponse:
    if request.method == "POST":
        response = _post_event(request, match_id)
        add_never_cache_headers(response)
        return response
    response = _get_events(request, match_id)
    if "ETag" not in response:  # a refusal (404, 400) is not kept
        add_never_cache_headers(response)
    return response


# --- reads -----------------------------------------------------------------------------------


def state_language(request: HttpRequest) -> str:
    """``?lang=`` when it names a language of the site (the scoreboard sends it, so that a cache
    keys the answer by its address), else the request's language."""
    asked = request.GET.get("lang", "").lower()
    return asked if asked in {code for code, _name in settings.LANGUAGES} else request_language()


def state_etag(snapshot: dict[str, Any], lang: str) -> str:
    """A weak tag: two reads of a match at the same point of its log differ only in the time
    they were read at (``server_time``, and a running clock's ``elapsed`` read at ``anchor``),
    which a screen reading the older one works out the same."""
    clock = {k: v for k, v in snapshot["state"].get("clock", {}).items() if k not in ("elapsed", "anchor", "phase")}
    state = {**snapshot["state"], "clock": clock}
    # Whether the field is silent, not for how long (issue 34); a match kept at the field: when it was
    # last heard from, and how its upload stands (issue 35).
    field = snapshot["field"]
    said = {k: v for k, v in field.items() if k not in ("heard_at", "silent_for")}
    if field.get("silent") or field.get("kept_at"):
        said["heard_at"] = field.get("heard_at")
    return f'W/"{_tag([lang, snapshot["last_seq"], snapshot["match"], state, said])}"'


@operation(
    "get",
    "getState",
    parameters=[LANGUAGE],
    responses={
        200: json_content(MatchState, EXAMPLE_MATCH_STATE, "The state (the engine's, projected to server_time)."),
        304: NOT_MODIFIED,
        404: NO_MATCH,
    },
)
def match_state(request: HttpRequest, match_id: int) -> HttpResponse:
    """The match, its state now, its last_seq and the server's time."""
    if not Match.objects.filter(pk=match_id).exists():
        response = _not_found()
        add_never_cache_headers(response)
        return response
    lang = state_language(request)
    snapshot = snapshots.match_snapshot(match_id, lang=lang)
    return _cached(request, state_etag(snapshot, lang), PUBLIC_CACHE, lambda: JsonResponse(snapshot))


BAD_DATE = error_response("date is not YYYY-MM-DD.", "invalid_date", "date must be a day written YYYY-MM-DD.")


def _day_or_error(request: HttpRequest):
    query = types.read_query(request, types.DayQuery)
    if query is None:
        return None, api_error(400, "invalid_date", _("date must be a day written YYYY-MM-DD."))
    day = query.date or selectors.parse_day(None)
    return day, None


@never_cache
@operation(
    "get",
    "getMatchesOfDay",
    query=types.DayQuery,
    responses={200: json_content(MatchesPage, MATCHES_EXAMPLE, "The day's matches in starting order."), 400: BAD_DATE},
)
def matches_of_day(request: HttpRequest) -> JsonResponse:
    """The matches of a day, each with a summary of its state."""
    day, error = _day_or_error(request)
    if error:
        return error
    return JsonResponse({"date": day.isoformat(), "matches": snapshots.matches_of_day(day)})


@never_cache
@operation(
    "get",
    "getTournamentMatches",
    query=types.DayQuery,
    responses={
        200: json_content(MatchesPage, MATCHES_EXAMPLE, "The day's matches of the tournament."),
        400: BAD_DATE,
        404: NO_TOURNAMENT,
    },
)
def tournament_matches(request: HttpRequest, tournament_id: int) -> JsonResponse:
    """A tournament's matches of a day."""
    if not Tournament.objects.filter(pk=tournament_id).exists():
        return api_error(404, "not_found", _("No such tournament."))
    day, error = _day_or_error(request)
    if error:
        return error
    return JsonResponse(
        {"date": day.isoformat(), "matches": snapshots.matches_of_day(day, tournament_id=tournament_id)}
    )


@never_cache
@operation(
    "get", "getTime", responses={200: json_content(ServerTime, {"server_time": 1793000010.25}, "Epoch seconds.")}
)
def server_time(request: HttpRequest) -> JsonResponse:
    """The server's clock (for a client's offset; the websocket's ping is finer)."""
    return JsonResponse({"server_time": time.time()})


@never_cache
@operation(
    "get",
    "getGoals",
    responses={
        200: json_content(
            GoalsPage,
            {"goals": [EXAMPLE_GOAL], "last_seq": 30},
            "At most the last 8 goals, as of the log position last_seq.",
        ),
        404: NO_MATCH,
    },
)
def match_goals(request: HttpRequest, match_id: int) -> JsonResponse:
    """The match's last goals, newest first (the scoreboard reads them again after a gap).

    For a scoreboard that has missed some events (a reconnect, a gap)."""
    match = Match.objects.select_related("tournament", "field", "home__team", "away__team").filter(pk=match_id).first()
    if match is None:
        return _not_found()
    return JsonResponse(public.match_goals(match))


# --- GET/POST /api/matches/{id}/confirmations ------------------------------------------------


@never_cache
@operation(
    "get",
    "getConfirmations",
    summary="The umpires' score confirmations, oldest first (the match's officials)",
    responses={
        200: json_content(ConfirmationsPage, EXAMPLE_CONFIRMATIONS, "Every confirmation of the match."),
        403: OFFICIALS_ONLY,
        404: NO_MATCH,
    },
)
@operation(
    "post",
    "postConfirmation",
    summary="An umpire (or the referee) confirms the score at the end of a chukker",
    description="Not a match-log event: the score is checked against the state the log gives now. Confirming "
    "again adds a row; the newest per umpire and chukker counts.",
    parameters=[LANGUAGE],
    security=OFFICIAL,
    body=types.ConfirmationRequest,
    body_example={"period": 1, "score": {"home": 1, "away": 0}},
    responses={
        201: json_content(ConfirmationsPage, EXAMPLE_CONFIRMATIONS, "Recorded: every confirmation of the match."),
        400: error_response(
            "The body does not say a chukker (1-99) and a score (0-999 a team), or is not JSON the API takes.",
            "invalid",
            "Send the chukker and the score you confirm.",
        ),
        403: error_response(
            "Not an umpire or the referee of this match.",
            "forbidden",
            "Only the match's umpires and referee confirm the score.",
        ),
        404: NO_MATCH,
        409: confirmation_refusal(
            "The score (or chukker) is not the one the log gives now: here is the state.",
            "score_changed",
            "The score has changed since your screen showed it: check it and confirm again.",
        ),
        413: TOO_LARGE,
        422: confirmation_refusal(
            "The chukker is not over yet.",
            "period_not_over",
            "The chukker is not over yet: confirm the score when it ends.",
        ),
    },
)
def match_confirmations(request: HttpRequest, match_id: int) -> JsonResponse:
    """GET: the match's score confirmations (its officials). POST {period, score: {home, away}}: an
    umpire confirms the score at the end of a chukker (201), refused with 409 when the log says
    otherwise (422 while the chukker is not over)."""
    match = Match.objects.select_related("tournament", "field").filter(pk=match_id).first()
    if match is None:
        return _not_found()
    role = match_role(request.user, match)
    if role is None:
        return api_error(403, "forbidden", _("Officials only."))
    if request.method == "GET":
        return JsonResponse({"confirmations": officials.score_confirmations(match)})
    if role != "umpire":
        return api_error(403, "forbidden", _("Only the match's umpires and referee confirm the score."))
    try:
        confirmed = read_body(request, types.ConfirmationRequest, CONFIRMATION_MAX_BYTES)
    except BodyRefused as refused:
        return refused.answer("invalid", _("Send the chukker and the score you confirm."))
    score = confirmed.score
    try:
        officials.score_confirmation_record(
            match_id=match.pk, umpire=request.user, period=confirmed.period, home=score.home, away=score.away
        )
    except officials.ScoreConfirmationError as refused:
        return api_error(
            409 if refused.code == "score_changed" else 422, refused.code, refused.message, state=refused.state
        )
    return JsonResponse({"confirmations": officials.score_confirmations(match)}, status=201)


@operation(
    "get",
    "getOpenApi",
    responses={200: {"description": "OpenAPI 3.1", "content": {"application/json": {"schema": {"type": "object"}}}}},
)
def openapi_document(request: HttpRequest) -> JsonResponse:
    """This document."""
    return JsonResponse(openapi.document(), json_dumps_params={"ensure_ascii": False})
