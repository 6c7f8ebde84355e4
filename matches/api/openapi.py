"""The OpenAPI 3.1 document of ``/api/`` (served at ``/api/openapi.json``), written by hand.

The event and state schemas are not copied: they are the contract's JSON Schemas
(``officiating/schemas``), whose ``$defs`` become component schemas here (OpenAPI 3.1 speaks
JSON Schema 2020-12). A test checks that every route under ``/api/`` is documented and that
every example validates against its schema.
"""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

import officiating

from matches.models import Match

SCHEMA_DIR = Path(officiating.__file__).resolve().parent / "schemas"
REF = "#/components/schemas/"


def _contract_schema(name: str) -> dict[str, Any]:
    with (SCHEMA_DIR / f"{name}.schema.json").open(encoding="utf-8") as fh:
        return json.load(fh)


def _rewrite_refs(node: Any, prefix: str) -> Any:
    """``#/$defs/x`` → ``#/components/schemas/<prefix>x``."""
    if isinstance(node, dict):
        out = {}
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str) and value.startswith("#/$defs/"):
                out[key] = REF + prefix + value.removeprefix("#/$defs/")
            else:
                out[key] = _rewrite_refs(value, prefix)
        return out
    if isinstance(node, list):
        return [_rewrite_refs(item, prefix) for item in node]
    return node


def _contract_components() -> dict[str, Any]:
    components: dict[str, Any] = {}
    log = _contract_schema("match-log")
    for name, schema in log["$defs"].items():
        components[f"Log_{name}"] = _rewrite_refs(schema, "Log_")
    state = _contract_schema("state")
    for name, schema in state["$defs"].items():
        components[f"State_{name}"] = _rewrite_refs(schema, "State_")
    body = {k: v for k, v in state.items() if k not in ("$defs", "$schema", "$id")}
    components["State"] = _rewrite_refs(body, "State_")
    components["Event"] = {"$ref": REF + "Log_event"}
    return components


def _ref(name: str) -> dict[str, str]:
    return {"$ref": REF + name}


ERROR = {
    "type": "object", "required": ["code", "message"],
    "properties": {"code": {"type": "string", "description": "The contract's rejection code, e.g. goal_after_time."},
                   "rule": {"type": ["string", "null"], "description": "The rule applied, e.g. 14.b(1)."},
                   "message": {"type": "string", "description": "In the caller's language."}},
}
STORED_EVENT = {
    "type": "object", "required": ["seq", "id", "type", "event", "received_at"],
    "properties": {"seq": {"type": "integer", "minimum": 1}, "id": {"type": "string"}, "type": {"type": "string"},
                   "event": _ref("Event"), "received_at": {"type": "number", "description": "Epoch seconds."}},
}
SIDE = {
    "type": "object", "required": ["name", "color", "handicap_goals", "players"],
    "properties": {"name": {"type": "string"}, "color": {"type": "string", "pattern": "^#[0-9a-fA-F]{6}$"},
                   "handicap_goals": {"type": "number"},
                   "players": {"type": "array", "items": {"type": "object", "required": ["number", "name"],
                                                            "properties": {"number": {"type": "integer"},
                                                                           "name": {"type": "string"},
                                                                           "handicap": {"type": "integer"}}}}},
}
MATCH_META = {
    "type": "object", "required": ["id", "tournament", "field", "starts_at", "home", "away"],
    "properties": {
        "id": {"type": "integer"},
        "tournament": {"type": "object", "required": ["id", "name"],
                       "properties": {"id": {"type": "integer"}, "name": {"type": "string"}, "club": {"type": "string"}}},
        "field": {"type": "object", "required": ["name", "length", "width", "boarded"],
                  "properties": {"name": {"type": "string"}, "length": {"type": "number"}, "width": {"type": "number"},
                                 "boarded": {"type": "boolean"}}},
        "starts_at": {"type": "number", "description": "Epoch seconds."},
        "stage": {"type": ["string", "null"], "enum": [*Match.Stage.values, None],
                  "description": "Zone play, subsidiary, or the knockout round; null when the committee gave none."},
        "periods": {"type": "integer"}, "period_seconds": {"type": "integer"},
        "home": _ref("Side"), "away": _ref("Side"),
    },
}

GOAL = {
    "type": "object",
    "required": ["id", "seq", "team", "goals", "number", "name", "own_goal", "penalty", "period", "period_kind", "clock"],
    "properties": {
        "id": {"type": ["string", "null"], "description": "The id of the event that scored."},
        "seq": {"type": "integer"}, "team": {"enum": ["home", "away"]},
        "goals": {"type": "number", "description": "How many goals it gave (1, or more for a goal awarded)."},
        "number": {"type": ["integer", "null"], "description": "The hitter's number (null for a Penalty 1)."},
        "name": {"type": "string", "description": "The hitter's name (empty when unknown)."},
        "own_goal": {"type": "boolean"}, "penalty": {"type": "boolean"},
        "period": {"type": ["integer", "null"]}, "period_kind": {"type": "string"},
        "clock": {"type": ["number", "null"], "description": "Time played in the chukker (seconds)."},
    },
}
CONFIRMATION = {
    "type": "object", "required": ["period", "umpire", "username", "score", "last_seq", "at"],
    "properties": {
        "period": {"type": "integer", "description": "The chukker confirmed."},
        "umpire": {"type": "string"}, "username": {"type": "string"},
        "score": {"type": "object", "required": ["home", "away"],
                  "properties": {"home": {"type": "number"}, "away": {"type": "number"}}},
        "last_seq": {"type": "integer", "description": "How far the log had got when it was confirmed."},
        "at": {"type": "number", "description": "Epoch seconds."},
    },
}
CONFIRMATIONS_PAGE = {"type": "object", "required": ["confirmations"],
                      "properties": {"confirmations": {"type": "array", "items": _ref("Confirmation")}}}

EXAMPLE_STATE = {
    "status": "in_play",
    "period": {"number": 3, "kind": "regulation", "final_regulation": False},
    "clock": {"elapsed": 212.5, "running": True, "phase": "regular", "anchor": 1793000007.5},
    "score": {"home": 3, "away": 3},
    "defends": {"home": "south", "away": "north"},
    "restart": None,
    "timers": [],
    "excused_horses": [],
    "unavailable_players": [],
    "shootout": None,
    "winner": None,
    "result": None,
    "last_seq": 29,
}
EXAMPLE_STOPPED_STATE = {
    **EXAMPLE_STATE,
    "status": "stopped",
    "clock": {"elapsed": 205.0, "running": False, "phase": "regular", "anchor": None},
    "restart": {"kind": "free_hit", "team": "away", "penalty": None, "spot": {"x": 90.0, "y": 10.0},
                "toward": None, "count_seconds": None, "hit_within_seconds": None, "tap_allowed": False,
                "min_clock_remaining": None, "next_period": False, "rule": "22.f",
                "message": "Rule 22.f: free hit 10 yards in — no tapping"},
    "last_seq": 28,
}
EXAMPLE_EVENT = {"id": "5b0f2c1e-8d7a-4c61-9f0e-3a1d2b4c5e6f", "type": "goal", "team": "home", "number": 2,
                 "expected_seq": 29}
EXAMPLE_STORED = {"id": "5b0f2c1e-8d7a-4c61-9f0e-3a1d2b4c5e6f", "type": "goal", "team": "home", "number": 2,
                  "clock": 231.2}
EXAMPLE_SIDE = {"name": "La Dolfina Blue", "color": "#1d4ed8", "handicap_goals": 0.0,
                "players": [{"number": 1, "name": "Adolfo Cambiaso", "handicap": 2}]}
EXAMPLE_META = {"id": 1, "tournament": {"id": 1, "name": "Demo Cup", "club": "Demo Polo Club"},
                "field": {"name": "Field 1", "length": 300, "width": 160, "boarded": False},
                "starts_at": 1792997600.0, "stage": None, "periods": 6, "period_seconds": 420,
                "home": EXAMPLE_SIDE, "away": {**EXAMPLE_SIDE, "name": "Ellerstina Red", "color": "#dc2626"}}


def _json(schema: dict[str, Any], example: Any, description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema, "example": example}}}


def _error_response(description: str, code: str, message: str, status_body: bool = False) -> dict[str, Any]:
    schema = {"type": "object", "required": ["error"], "properties": {"error": _ref("Error")}}
    example: dict[str, Any] = {"error": {"code": code, "rule": None, "message": message}}
    if status_body:
        schema = {"type": "object", "required": ["error", "state", "last_seq"],
                  "properties": {"accepted": {"const": False}, "error": _ref("Error"), "state": _ref("State"),
                                 "last_seq": {"type": "integer"}}}
        example = {"accepted": False, **example, "state": EXAMPLE_STATE, "last_seq": 29}
    return _json(schema, example, description)


def _stale_response() -> dict[str, Any]:
    """409: the log moved on since the official began the entry; whether it still fits (issue 9)."""
    response = _error_response("expected_seq is behind the log: here is the current state, and whether the event "
                               "would be accepted on it (`valid_now`; if not, `would_be` says why).",
                               "stale_sequence", "The match has moved on since your last update.", True)
    body = response["content"]["application/json"]
    body["schema"]["properties"].update({"valid_now": {"type": "boolean"}, "would_be": _ref("Error")})
    body["example"] = {**body["example"], "valid_now": False,
                       "would_be": {"code": "not_in_play", "rule": None, "message": "The ball is not in play."}}
    return response


EXAMPLE_GOAL = {"id": EXAMPLE_STORED["id"], "seq": 30, "team": "home", "goals": 1, "number": 2,
                "name": "Adolfo Cambiaso", "own_goal": False, "penalty": False, "period": 3,
                "period_kind": "regulation", "clock": 231.2}
EXAMPLE_CONFIRMATIONS = {"confirmations": [{"period": 1, "umpire": "Ulises Umpire", "username": "umpire1",
                                            "score": {"home": 1, "away": 0}, "last_seq": 12, "at": 1793000480.5}]}


def _confirmation_refusal(description: str, code: str, message: str) -> dict[str, Any]:
    """A confirmation refused on the log's state (which comes with the refusal)."""
    schema = {"type": "object", "required": ["error", "state"],
              "properties": {"error": _ref("Error"), "state": _ref("State")}}
    return _json(schema, {"error": {"code": code, "rule": None, "message": message},
                          "state": {**EXAMPLE_STATE, "status": "interval", "period": {**EXAMPLE_STATE["period"], "number": 1}}},
                 description)


MATCH_ID = {"name": "match_id", "in": "path", "required": True, "schema": {"type": "integer"}}
DATE = {"name": "date", "in": "query", "required": False, "schema": {"type": "string", "format": "date"},
        "description": "YYYY-MM-DD in the tournament's time zone; default today."}
LANGUAGE = {"name": "Accept-Language", "in": "header", "required": False, "schema": {"type": "string"},
            "description": "en or es: the language of messages and restart texts."}

MATCHES_PAGE = {"type": "object", "required": ["matches"],
                "properties": {"date": {"type": "string", "format": "date"},
                               "matches": {"type": "array", "items": _ref("MatchSummary")}}}
MATCHES_EXAMPLE = {"date": "2026-11-29", "matches": [{
    **EXAMPLE_META, "last_seq": 29,
    "state": {k: EXAMPLE_STATE[k] for k in ("status", "score", "period", "clock")}}]}


@lru_cache(maxsize=1)
def document() -> dict[str, Any]:
    accepted = {"type": "object", "required": ["accepted", "seq", "last_seq", "event", "state"],
                "properties": {"accepted": {"const": True}, "duplicate": {"type": "boolean"},
                               "seq": {"type": "integer"}, "last_seq": {"type": "integer"},
                               "event": _ref("Event"), "state": _ref("State")}}
    accepted_example = {"accepted": True, "seq": 30, "last_seq": 30, "event": EXAMPLE_STORED,
                        "state": {**EXAMPLE_STATE, "status": "stopped", "score": {"home": 4, "away": 3},
                                  "clock": {"elapsed": 231.2, "running": False, "phase": "regular", "anchor": None},
                                  "last_seq": 30}}
    return {
        "openapi": "3.1.0",
        "jsonSchemaDialect": "https://json-schema.org/draft/2020-12/schema",
        "info": {
            "title": "Polo officiating API",
            "version": "1",
            "description": "The live match API (docs/LIVE-PROTOCOL.md). Events and score confirmations are "
                           "posted by the match's officials (session login, CSRF header X-CSRFToken); the "
                           "confirmations are read by them too; everything else is public. "
                           "Times are epoch seconds. The websocket /ws/matches/{id}/ pushes the same state.",
        },
        "paths": {
            "/api/matches/{match_id}/events": {
                "parameters": [MATCH_ID],
                "post": {
                    "operationId": "postEvent",
                    "summary": "Log one event (scorer, umpires and referee of the match; committee events by the committee)",
                    "parameters": [LANGUAGE,
                                   {"name": "X-CSRFToken", "in": "header", "required": True, "schema": {"type": "string"}}],
                    "requestBody": {"required": True, "content": {"application/json": {
                        "schema": _ref("Event"), "example": EXAMPLE_EVENT}}},
                    "responses": {
                        "201": _json(accepted, accepted_example, "Accepted and appended to the log."),
                        "200": _json(accepted, {**accepted_example, "duplicate": True},
                                     "A retry of an event already recorded (same id): the first answer again."),
                        "400": _error_response("The body is not one JSON object (or is too large).", "invalid_event",
                                               "The body must be one event: a JSON object of at most 16384 bytes."),
                        "403": _error_response("Not logged in, or not an official of this match for this event.",
                                               "forbidden", "Only the officials of this match may do that."),
                        "404": _error_response("No such match.", "not_found", "No such match."),
                        "409": _stale_response(),
                        "422": _error_response("Rejected by the rules (or not a valid event): nothing changed.",
                                               "not_in_play", "The ball is not in play.", True),
                    },
                },
                "get": {
                    "operationId": "getEvents",
                    "summary": "The log after sequence number `since`, in order (private notes only for officials)",
                    "parameters": [{"name": "since", "in": "query", "required": False,
                                    "schema": {"type": "integer", "minimum": 0, "default": 0}}],
                    "responses": {
                        "200": _json({"type": "object", "required": ["events", "last_seq"],
                                      "properties": {"events": {"type": "array", "items": _ref("StoredEvent")},
                                                     "last_seq": {"type": "integer"}}},
                                     {"events": [{"seq": 30, "id": EXAMPLE_STORED["id"], "type": "goal",
                                                  "event": EXAMPLE_STORED, "received_at": 1793000026.2}],
                                      "last_seq": 30},
                                     "The events with seq > since."),
                        "400": _error_response("since is not a whole number.", "invalid_since",
                                               "since must be a whole number (a sequence number)."),
                        "404": _error_response("No such match.", "not_found", "No such match."),
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
                        "200": _json({"type": "object", "required": ["match", "state", "last_seq", "server_time"],
                                      "properties": {"match": _ref("MatchMeta"), "state": _ref("State"),
                                                     "last_seq": {"type": "integer"},
                                                     "server_time": {"type": "number"}}},
                                     {"match": EXAMPLE_META, "state": EXAMPLE_STOPPED_STATE, "last_seq": 28,
                                      "server_time": 1793000010.25},
                                     "The state (the engine's, projected to server_time)."),
                        "404": _error_response("No such match.", "not_found", "No such match."),
                    },
                },
            },
            "/api/matches/{match_id}/goals": {
                "parameters": [MATCH_ID],
                "get": {
                    "operationId": "getGoals",
                    "summary": "The match's last goals, newest first (the scoreboard reads them again after a gap)",
                    "responses": {
                        "200": _json({"type": "object", "required": ["goals", "last_seq"],
                                      "properties": {"goals": {"type": "array", "items": _ref("Goal")},
                                                     "last_seq": {"type": "integer"}}},
                                     {"goals": [EXAMPLE_GOAL], "last_seq": 30},
                                     "At most the last 8 goals, as of the log position last_seq."),
                        "404": _error_response("No such match.", "not_found", "No such match."),
                    },
                },
            },
            "/api/matches/{match_id}/confirmations": {
                "parameters": [MATCH_ID],
                "get": {
                    "operationId": "getConfirmations",
                    "summary": "The umpires' score confirmations, oldest first (the match's officials)",
                    "responses": {
                        "200": _json(_ref("ConfirmationsPage"), EXAMPLE_CONFIRMATIONS, "Every confirmation of the match."),
                        "403": _error_response("Not an official of this match.", "forbidden", "Officials only."),
                        "404": _error_response("No such match.", "not_found", "No such match."),
                    },
                },
                "post": {
                    "operationId": "postConfirmation",
                    "summary": "An umpire (or the referee) confirms the score at the end of a chukker",
                    "description": "Not a match-log event: the score is checked against the state the log gives "
                                   "now. Confirming again adds a row; the newest per umpire and chukker counts.",
                    "parameters": [LANGUAGE,
                                   {"name": "X-CSRFToken", "in": "header", "required": True, "schema": {"type": "string"}}],
                    "requestBody": {"required": True, "content": {"application/json": {
                        "schema": {"type": "object", "required": ["period", "score"],
                                   "properties": {"period": {"type": "integer"},
                                                  "score": CONFIRMATION["properties"]["score"]}},
                        "example": {"period": 1, "score": {"home": 1, "away": 0}}}}},
                    "responses": {
                        "201": _json(_ref("ConfirmationsPage"), EXAMPLE_CONFIRMATIONS,
                                     "Recorded: every confirmation of the match."),
                        "400": _error_response("The body does not say a chukker and a score.", "invalid",
                                               "Send the chukker and the score you confirm."),
                        "403": _error_response("Not an umpire or the referee of this match.", "forbidden",
                                               "Only the match's umpires and referee confirm the score."),
                        "404": _error_response("No such match.", "not_found", "No such match."),
                        "409": _confirmation_refusal(
                            "The score (or chukker) is not the one the log gives now: here is the state.",
                            "score_changed",
                            "The score has changed since your screen showed it: check it and confirm again."),
                        "422": _confirmation_refusal("The chukker is not over yet.", "period_not_over",
                                                     "The chukker is not over yet: confirm the score when it ends."),
                    },
                },
            },
            "/api/matches": {
                "get": {
                    "operationId": "getMatchesOfDay",
                    "summary": "The matches of a day, each with a summary of its state",
                    "parameters": [DATE],
                    "responses": {
                        "200": _json(_ref("MatchesPage"), MATCHES_EXAMPLE, "The day's matches in starting order."),
                        "400": _error_response("date is not YYYY-MM-DD.", "invalid_date",
                                               "date must be a day written YYYY-MM-DD."),
                    },
                },
            },
            "/api/tournaments/{tournament_id}/matches": {
                "parameters": [{"name": "tournament_id", "in": "path", "required": True, "schema": {"type": "integer"}}],
                "get": {
                    "operationId": "getTournamentMatches",
                    "summary": "A tournament's matches of a day",
                    "parameters": [DATE],
                    "responses": {
                        "200": _json(_ref("MatchesPage"), MATCHES_EXAMPLE, "The day's matches of the tournament."),
                        "400": _error_response("date is not YYYY-MM-DD.", "invalid_date",
                                               "date must be a day written YYYY-MM-DD."),
                        "404": _error_response("No such tournament.", "not_found", "No such tournament."),
                    },
                },
            },
            "/api/time": {
                "get": {
                    "operationId": "getTime",
                    "summary": "The server's clock (for a client's offset; the websocket's ping is finer)",
                    "responses": {"200": _json({"type": "object", "required": ["server_time"],
                                                "properties": {"server_time": {"type": "number"}}},
                                               {"server_time": 1793000010.25}, "Epoch seconds.")},
                },
            },
            "/api/openapi.json": {
                "get": {
                    "operationId": "getOpenApi",
                    "summary": "This document",
                    "responses": {"200": {"description": "OpenAPI 3.1",
                                          "content": {"application/json": {"schema": {"type": "object"}}}}},
                },
            },
        },
        "components": {
            "schemas": {
                **_contract_components(),
                "Error": ERROR,
                "StoredEvent": STORED_EVENT,
                "Side": SIDE,
                "MatchMeta": MATCH_META,
                "MatchSummary": {"allOf": [_ref("MatchMeta"), {
                    "type": "object", "required": ["state", "last_seq"],
                    "properties": {"last_seq": {"type": "integer"},
                                   "state": {"type": "object", "required": ["status", "score", "period", "clock"],
                                             "properties": {"status": {"$ref": REF + "State/properties/status"},
                                                            "score": _ref("State_score"),
                                                            "period": {"$ref": REF + "State/properties/period"},
                                                            "clock": {"$ref": REF + "State/properties/clock"}}}}}]},
                "MatchesPage": MATCHES_PAGE,
                "Goal": GOAL,
                "Confirmation": CONFIRMATION,
                "ConfirmationsPage": CONFIRMATIONS_PAGE,
            },
        },
    }
