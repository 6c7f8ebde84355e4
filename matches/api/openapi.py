"""The OpenAPI 3.1 document of ``/api/`` (served at ``/api/openapi.json``), written by hand.

The event and state schemas are not copied: they are the contract's JSON Schemas
(``officiating/schemas``), whose ``$defs`` become component schemas here (OpenAPI 3.1 speaks
JSON Schema 2020-12). A test checks that every route under ``/api/`` is documented and that
every example validates against its schema.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from matches.awards import openapi as awards
from matches.field import openapi as field
from matches.stats import openapi as stats

from .openapi_components import (
    CONFIRMATION,
    CONFIRMATIONS_PAGE,
    CONFIRMED_SCORE,
    DATE,
    ERROR,
    EXAMPLE_CONFIRMATIONS,
    EXAMPLE_EVENT,
    EXAMPLE_GOAL,
    EXAMPLE_META,
    EXAMPLE_STATE,
    EXAMPLE_STOPPED_STATE,
    EXAMPLE_STORED,
    GOAL,
    INTERVAL,
    LANGUAGE,
    MATCH_ID,
    MATCH_META,
    MATCHES_EXAMPLE,
    MATCHES_PAGE,
    OFFICIAL,
    REF,
    SECURITY_SCHEMES,
    SIDE,
    SINCE_MAX,
    STORED_EVENT,
    TOO_LARGE,
    confirmation_refusal,
    contract_components,
    error_response,
    json_content,
    ref,
    stale_response,
)

# The two reads a CDN may keep (ETag, Cache-Control: max-age=1, stale-while-revalidate).
NOT_MODIFIED = {
    "description": "Not modified: If-None-Match named the answer's ETag (no body). Answers carry an ETag and "
    "Cache-Control (public, max-age=1, stale-while-revalidate=10; an official's events: private, no-cache)."
}


@lru_cache(maxsize=1)
def document() -> dict[str, Any]:
    accepted = {
        "type": "object",
        "required": ["accepted", "seq", "last_seq", "event", "state"],
        "properties": {
            "accepted": {"const": True},
            "duplicate": {"type": "boolean"},
            "seq": {"type": "integer"},
            "last_seq": {"type": "integer"},
            "event": ref("Event"),
            "state": ref("State"),
        },
    }
    accepted_example = {
        "accepted": True,
        "seq": 30,
        "last_seq": 30,
        "event": EXAMPLE_STORED,
        "state": {
            **EXAMPLE_STATE,
            "status": "stopped",
            "score": {"home": 4, "away": 3},
            "clock": {"elapsed": 231.2, "running": False, "phase": "regular", "anchor": None},
            "last_seq": 30,
        },
    }
    return {
        "openapi": "3.1.0",
        "jsonSchemaDialect": "https://json-schema.org/draft/2020-12/schema",
        "info": {
            "title": "Polo officiating API",
            "version": "1",
            "description": "The live match API (docs/LIVE-PROTOCOL.md). Events and score confirmations are "
            "posted by the match's officials (session login, CSRF header X-CSRFToken); the "
            "confirmations are read by them too; everything else is public. "
            "Times are epoch seconds. The websocket /ws/matches/{id}/ pushes the same state. "
            'Every error under /api/ is JSON, {"error": {"code", "rule", "message"}}, in the '
            "caller's language: a CSRF refusal (403 csrf_failed), a path that is not there (404 not_found), "
            "a method the path does not take (405 method_not_allowed), a body over the size cap "
            "(413 too_large) and a server error (500 server_error) included.",
        },
        "paths": {
            "/api/matches/{match_id}/events": {
                "parameters": [MATCH_ID],
                "post": {
                    "operationId": "postEvent",
                    "summary": (
                        "Log one event (scorer, umpires and referee of the match; committee events by the committee)"
                    ),
                    "parameters": [LANGUAGE],
                    "security": OFFICIAL,
                    "requestBody": {
                        "required": True,
                        "content": {"application/json": {"schema": ref("Event"), "example": EXAMPLE_EVENT}},
                    },
                    "responses": {
                        "201": json_content(accepted, accepted_example, "Accepted and appended to the log."),
                        "200": json_content(
                            accepted,
                            {**accepted_example, "duplicate": True},
                            "A retry of an event already recorded (same id): the first answer again.",
                        ),
                        "400": error_response(
                            "The body is not one JSON object, or not JSON the log can keep: nested too deep, "
                            "NaN or Infinity, NUL or an unpaired surrogate in a string.",
                            "invalid_event",
                            "The body must be one event: a JSON object of at most 16384 bytes.",
                        ),
                        "403": error_response(
                            "Not logged in, not an official of this match for this event, or the CSRF token is "
                            "missing or wrong (csrf_failed).",
                            "forbidden",
                            "Only the officials of this match may do that.",
                        ),
                        "404": error_response("No such match.", "not_found", "No such match."),
                        "409": stale_response(),
                        "413": TOO_LARGE,
                        "422": error_response(
                            "Rejected by the rules, or not a valid event (invalid_event: a key its type does not "
                            "take, named; a field of the wrong shape; a ball out off its line): nothing changed.",
                            "not_in_play",
                            "The ball is not in play.",
                            True,
                        ),
                    },
                },
                "get": {
                    "operationId": "getEvents",
                    "summary": "The log after sequence number `since`, in order (private notes only for officials)",
                    "parameters": [
                        {
                            "name": "since",
                            "in": "query",
                            "required": False,
                            "schema": {"type": "integer", "minimum": 0, "maximum": SINCE_MAX, "default": 0},
                            "description": "A sequence number: ASCII digits, at most 18 of them.",
                        }
                    ],
                    "responses": {
                        "200": json_content(
                            {
                                "type": "object",
                                "required": ["events", "last_seq"],
                                "properties": {
                                    "events": {"type": "array", "items": ref("StoredEvent")},
                                    "last_seq": {"type": "integer"},
                                },
                            },
                            {
                                "events": [
                                    {
                                        "seq": 30,
                                        "id": EXAMPLE_STORED["id"],
                                        "type": "goal",
                                        "event": EXAMPLE_STORED,
                                        "received_at": 1793000026.2,
                                    }
                                ],
                                "last_seq": 30,
                            },
                            "The events with seq > since.",
                        ),
                        "304": NOT_MODIFIED,
                        "400": error_response(
                            "since is not a whole number.",
                            "invalid_since",
                            "since must be a whole number (a sequence number).",
                        ),
                        "404": error_response("No such match.", "not_found", "No such match."),
                    },
                },
            },
            "/api/matches/{match_id}/state": {
                "parameters": [MATCH_ID],
                "get": {
                    "operationId": "getState",
                    "summary": "The match, its state now, its last_seq and the server's time",
                    "parameters": [LANGUAGE],
                    "responses": {
                        "200": json_content(
                            {
                                "type": "object",
                                "required": ["match", "state", "last_seq", "server_time"],
                                "properties": {
                                    "match": ref("MatchMeta"),
                                    "state": ref("State"),
                                    "last_seq": {"type": "integer"},
                                    "server_time": {"type": "number"},
                                    "field": field.FIELD_PRESENCE,
                                },
                            },
                            {
                                "match": EXAMPLE_META,
                                "state": EXAMPLE_STOPPED_STATE,
                                "last_seq": 28,
                                "server_time": 1793000010.25,
                                "field": {"heard_at": 1793000008.5, "silent": False, "silent_for": None},
                            },
                            "The state (the engine's, projected to server_time).",
                        ),
                        "304": NOT_MODIFIED,
                        "404": error_response("No such match.", "not_found", "No such match."),
                    },
                },
            },
            "/api/matches/{match_id}/stream": {
                "parameters": [MATCH_ID],
                "get": {
                    "operationId": "streamMatch",
                    "summary": "The websocket's frames as Server-Sent Events (for networks that block websockets)",
                    "description": "For an EventSource (Accept: text/event-stream): a snapshot frame, then every "
                    "update and heartbeat of /ws/matches/{id}/, each as one `data:` line; an update's `id:` is "
                    "its last_seq, and a reconnect's Last-Event-ID gets the missed events with its snapshot. "
                    "The match's officials get the private notes. Any other Accept: 406.",
                    "responses": {
                        "200": {
                            "description": "An endless event stream.",
                            "content": {"text/event-stream": {"schema": {"type": "string"}}},
                        },
                        "404": error_response("No such match.", "not_found", "No such match."),
                        "406": error_response(
                            "Not asked for as text/event-stream.",
                            "not_acceptable",
                            "This address streams events: ask for text/event-stream.",
                        ),
                    },
                },
            },
            "/api/matches/{match_id}/goals": {
                "parameters": [MATCH_ID],
                "get": {
                    "operationId": "getGoals",
                    "summary": "The match's last goals, newest first (the scoreboard reads them again after a gap)",
                    "responses": {
                        "200": json_content(
                            {
                                "type": "object",
                                "required": ["goals", "last_seq"],
                                "properties": {
                                    "goals": {"type": "array", "items": ref("Goal")},
                                    "last_seq": {"type": "integer"},
                                },
                            },
                            {"goals": [EXAMPLE_GOAL], "last_seq": 30},
                            "At most the last 8 goals, as of the log position last_seq.",
                        ),
                        "404": error_response("No such match.", "not_found", "No such match."),
                    },
                },
            },
            "/api/matches/{match_id}/confirmations": {
                "parameters": [MATCH_ID],
                "get": {
                    "operationId": "getConfirmations",
                    "summary": "The umpires' score confirmations, oldest first (the match's officials)",
                    "responses": {
                        "200": json_content(
                            ref("ConfirmationsPage"), EXAMPLE_CONFIRMATIONS, "Every confirmation of the match."
                        ),
                        "403": error_response("Not an official of this match.", "forbidden", "Officials only."),
                        "404": error_response("No such match.", "not_found", "No such match."),
                    },
                },
                "post": {
                    "operationId": "postConfirmation",
                    "summary": "An umpire (or the referee) confirms the score at the end of a chukker",
                    "description": "Not a match-log event: the score is checked against the state the log gives "
                    "now. Confirming again adds a row; the newest per umpire and chukker counts.",
                    "parameters": [LANGUAGE],
                    "security": OFFICIAL,
                    "requestBody": {
                        "required": True,
                        "content": {
                            "application/json": {
                                "schema": {
                                    "type": "object",
                                    "required": ["period", "score"],
                                    "properties": {
                                        "period": {"type": "integer", "minimum": 1, "maximum": 99},
                                        "score": CONFIRMED_SCORE,
                                    },
                                },
                                "example": {"period": 1, "score": {"home": 1, "away": 0}},
                            }
                        },
                    },
                    "responses": {
                        "201": json_content(
                            ref("ConfirmationsPage"),
                            EXAMPLE_CONFIRMATIONS,
                            "Recorded: every confirmation of the match.",
                        ),
                        "400": error_response(
                            "The body does not say a chukker (1-99) and a score (0-999 a team), or is not JSON "
                            "the API takes.",
                            "invalid",
                            "Send the chukker and the score you confirm.",
                        ),
                        "413": TOO_LARGE,
                        "403": error_response(
                            "Not an umpire or the referee of this match.",
                            "forbidden",
                            "Only the match's umpires and referee confirm the score.",
                        ),
                        "404": error_response("No such match.", "not_found", "No such match."),
                        "409": confirmation_refusal(
                            "The score (or chukker) is not the one the log gives now: here is the state.",
                            "score_changed",
                            "The score has changed since your screen showed it: check it and confirm again.",
                        ),
                        "422": confirmation_refusal(
                            "The chukker is not over yet.",
                            "period_not_over",
                            "The chukker is not over yet: confirm the score when it ends.",
                        ),
                    },
                },
            },
            "/api/matches": {
                "get": {
                    "operationId": "getMatchesOfDay",
                    "summary": "The matches of a day, each with a summary of its state",
                    "parameters": [DATE],
                    "responses": {
                        "200": json_content(
                            ref("MatchesPage"), MATCHES_EXAMPLE, "The day's matches in starting order."
                        ),
                        "400": error_response(
                            "date is not YYYY-MM-DD.", "invalid_date", "date must be a day written YYYY-MM-DD."
                        ),
                    },
                }
            },
            "/api/tournaments/{tournament_id}/matches": {
                "parameters": [
                    {"name": "tournament_id", "in": "path", "required": True, "schema": {"type": "integer"}}
                ],
                "get": {
                    "operationId": "getTournamentMatches",
                    "summary": "A tournament's matches of a day",
                    "parameters": [DATE],
                    "responses": {
                        "200": json_content(
                            ref("MatchesPage"), MATCHES_EXAMPLE, "The day's matches of the tournament."
                        ),
                        "400": error_response(
                            "date is not YYYY-MM-DD.", "invalid_date", "date must be a day written YYYY-MM-DD."
                        ),
                        "404": error_response("No such tournament.", "not_found", "No such tournament."),
                    },
                },
            },
            **awards.paths(),
            **stats.paths(),
            **field.paths(),
            "/api/time": {
                "get": {
                    "operationId": "getTime",
                    "summary": "The server's clock (for a client's offset; the websocket's ping is finer)",
                    "responses": {
                        "200": json_content(
                            {
                                "type": "object",
                                "required": ["server_time"],
                                "properties": {"server_time": {"type": "number"}},
                            },
                            {"server_time": 1793000010.25},
                            "Epoch seconds.",
                        )
                    },
                }
            },
            "/api/openapi.json": {
                "get": {
                    "operationId": "getOpenApi",
                    "summary": "This document",
                    "responses": {
                        "200": {
                            "description": "OpenAPI 3.1",
                            "content": {"application/json": {"schema": {"type": "object"}}},
                        }
                    },
                }
            },
        },
        "components": {
            "securitySchemes": {**SECURITY_SCHEMES, **field.security_schemes()},
            "schemas": {
                **contract_components(),
                "Error": ERROR,
                "StoredEvent": STORED_EVENT,
                "Side": SIDE,
                "MatchMeta": MATCH_META,
                "MatchSummary": {
                    "allOf": [
                        ref("MatchMeta"),
                        {
                            "type": "object",
                            "required": ["state", "last_seq", "field_state"],
                            "properties": {
                                "last_seq": {"type": "integer"},
                                "field_state": field.FIELD_PRESENCE,
                                "state": {
                                    "type": "object",
                                    "required": [
                                        "status",
                                        "score",
                                        "period",
                                        "clock",
                                        "restart",
                                        "interval",
                                        "shootout",
                                        "winner",
                                        "result",
                                    ],
                                    "properties": {
                                        "status": {"$ref": REF + "State/properties/status"},
                                        "score": ref("State_score"),
                                        "period": {"$ref": REF + "State/properties/period"},
                                        "clock": {"$ref": REF + "State/properties/clock"},
                                        "restart": {
                                            "$ref": REF + "State/properties/restart",
                                            "description": (
                                                "The state's restart (null while the ball is in play): a card "
                                                "words it from kind, team, penalty and rule (or clause) in "
                                                "its own language; the list's message is in English."
                                            ),
                                        },
                                        "interval": INTERVAL,
                                        "shootout": {"$ref": REF + "State/properties/shootout"},
                                        "winner": {"$ref": REF + "State/properties/winner"},
                                        "result": {"$ref": REF + "State/properties/result"},
                                    },
                                },
                            },
                        },
                    ]
                },
                "MatchesPage": MATCHES_PAGE,
                "Goal": GOAL,
                "Confirmation": CONFIRMATION,
                "ConfirmationsPage": CONFIRMATIONS_PAGE,
                **awards.schemas(),
                **stats.schemas(),
                **field.schemas(),
            },
        },
    }
