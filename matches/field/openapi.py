"""The field server's part of the OpenAPI document (``matches.api.openapi`` merges ``paths()``,
``schemas()`` and ``security_schemes()`` into it): docs/LIVE-PROTOCOL.md, "A match kept at the field"."""

from __future__ import annotations

from typing import Any

from matches.api.openapi_components import LANGUAGE, MATCH_ID, TOO_LARGE, error_response, json_content, ref

HASH = {"type": "string", "pattern": "^[0-9a-f]{64}$", "description": "SHA-256, lowercase hex."}
FIELD_TOKEN = [{"fieldToken": []}]
EXAMPLE_HASH = "5f0c3a6f1b2e4d8a9c7b6e5d4c3b2a1908f7e6d5c4b3a29180f7e6d5c4b3a291"

# The state API's ``field`` object (``matches.field.selectors.field_presence``).
FIELD_PRESENCE = {
    "type": "object",
    "description": "The field. Its timekeeper (issue 34): heard_at, when the scorer's screen last said it had sent "
    "everything it kept (null: no timekeeper, the server keeps the time), silent (longer than FIELD_SILENT_SECONDS: "
    "the screens hold the clock and say they wait for the field) and silent_for. A match kept at the field (issue "
    "35): on the tournament's server kept_at 'field' and heard_at, when the field server last reached it; on a "
    "field server kept_at 'here' and uplink, how the upload of the log stands.",
    "required": ["heard_at", "silent", "silent_for"],
    "properties": {
        "heard_at": {"type": ["number", "null"]},
        "silent": {"type": "boolean"},
        "silent_for": {"type": ["number", "null"]},
        "kept_at": {"enum": ["field", "here"]},
        "uplink": {"type": "object"},
    },
}

LOG_ITEM = {
    "type": "object",
    "description": "One event of the log, as the tournament's export writes it (matches/transfer.py event_data).",
    "required": ["seq", "id", "type", "event", "received_at", "sent_by"],
    "properties": {
        "seq": {"type": "integer", "minimum": 1},
        "id": {"type": "string", "minLength": 1, "maxLength": 64},
        "type": {"type": "string"},
        "event": {"type": "object", "description": "The event as the field stored it (server_time, by included)."},
        "received_at": {"type": "string", "format": "date-time", "description": "When it was received (UTC)."},
        "sent_by": {"type": ["string", "null"], "description": "The login of who logged it at the field."},
    },
}
REPLICA = {
    "type": "object",
    "required": ["last_seq", "log_hash", "appended", "duplicates", "kept_at"],
    "properties": {
        "last_seq": {"type": "integer"},
        "log_hash": HASH,
        "appended": {"type": "integer"},
        "duplicates": {"type": "integer"},
        "kept_at": {"enum": ["server", "field"]},
    },
}
EXAMPLE_REPLICA = {"last_seq": 15, "log_hash": EXAMPLE_HASH, "appended": 3, "duplicates": 0, "kept_at": "field"}
REFUSED = {
    "type": "object",
    "required": ["error"],
    "properties": {
        "error": ref("Error"),
        "detail": {
            "type": "object",
            "description": "The message's text by name (matches/field/refusals.py) and what is in it: the field "
            "server says it again in its own reader's language.",
            "required": ["text", "params"],
            "properties": {"text": {"type": "string"}, "params": {"type": "object"}},
        },
        "last_seq": {"type": "integer"},
    },
}


def _refusals() -> dict[str, Any]:
    return {
        "403": error_response(
            "No field token, one not known here, expired, revoked, or for another match (field_token_missing, "
            "field_token_wrong, field_token_expired, field_token_revoked, field_token_other_match).",
            "field_token_revoked",
            "The committee revoked this field token: ask the committee for a new one.",
        ),
        "404": error_response("No such match.", "not_found", "No such match."),
    }


def paths() -> dict[str, Any]:
    return {
        "/api/field/matches": {
            "get": {
                "operationId": "getFieldTokenMatches",
                "summary": "The matches the field token authorises (a match's, or every match of a day's token)",
                "description": "A refusal's message is in the request's language (Accept-Language), as every other.",
                "security": FIELD_TOKEN,
                "responses": {
                    "200": json_content(
                        {
                            "type": "object",
                            "required": ["scope", "expires_at", "matches"],
                            "properties": {
                                "scope": {"type": "string"},
                                "expires_at": {"type": "number"},
                                "matches": {"type": "array", "items": {"type": "object"}},
                            },
                        },
                        {
                            "scope": "the matches on Field 1 on 2026-11-29",
                            "expires_at": 1793048400.0,
                            "matches": [
                                {"id": 3, "title": "Blue v Red", "starts_at": 1793000000.0, "field": "Field 1"}
                            ],
                        },
                        "The token's matches, in order of their start.",
                    ),
                    "403": _refusals()["403"],
                },
            }
        },
        "/api/field/matches/{match_id}/pairing": {
            "parameters": [MATCH_ID],
            "get": {
                "operationId": "getFieldPairing",
                "summary": "Everything a field server needs to keep the match (the field token's holder)",
                "security": FIELD_TOKEN,
                "parameters": [LANGUAGE],
                "responses": {
                    "200": json_content(
                        {"type": "object", "required": ["format", "version", "match_id", "log", "config_hash"]},
                        {
                            "format": "polo-field-pairing",
                            "version": 2,
                            "match_id": 3,
                            "log": [],
                            "config_hash": EXAMPLE_HASH,
                        },
                        "The pairing payload (matches/field/wire.py).",
                    ),
                    **_refusals(),
                },
            },
        },
        "/api/field/matches/{match_id}/log": {
            "parameters": [MATCH_ID],
            "get": {
                "operationId": "getFieldReplica",
                "summary": "Where the replica of the field's log stands",
                "security": FIELD_TOKEN,
                "parameters": [LANGUAGE],
                "responses": {
                    "200": json_content(ref("FieldReplica"), {**EXAMPLE_REPLICA, "appended": 0}, "The replica."),
                    **_refusals(),
                },
            },
            "post": {
                "operationId": "postFieldLog",
                "summary": "A batch of the field's log, appended verbatim (resumable, idempotent by event id)",
                "security": FIELD_TOKEN,
                "parameters": [LANGUAGE],
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {
                            "schema": {
                                "type": "object",
                                "required": ["after", "prefix_hash", "log_hash", "config_hash", "events"],
                                "properties": {
                                    "after": {"type": "integer", "minimum": 0},
                                    "prefix_hash": HASH,
                                    "log_hash": HASH,
                                    "config_hash": HASH,
                                    "events": {"type": "array", "maxItems": 500, "items": ref("FieldLogItem")},
                                },
                            },
                            "example": {
                                "after": 0,
                                "prefix_hash": EXAMPLE_HASH,
                                "log_hash": EXAMPLE_HASH,
                                "config_hash": EXAMPLE_HASH,
                                "events": [],
                            },
                        }
                    },
                },
                "responses": {
                    "200": json_content(ref("FieldReplica"), EXAMPLE_REPLICA, "Appended (or held already)."),
                    "400": error_response("Not a batch of the log.", "invalid_log", "The log is not valid: …"),
                    **_refusals(),
                    "409": json_content(
                        REFUSED,
                        {
                            "error": {"code": "log_gap", "rule": None, "message": "…"},
                            "detail": {"text": "log_gap", "params": {"last": 12, "after": 14}},
                            "last_seq": 12,
                        },
                        "The batch does not extend the replica (log_gap, log_changed, log_other_match, "
                        "log_not_accepted, not_kept_at_field): nothing stored.",
                    ),
                    "413": TOO_LARGE,
                },
            },
        },
    }


def schemas() -> dict[str, Any]:
    return {"FieldReplica": REPLICA, "FieldLogItem": LOG_ITEM}


def security_schemes() -> dict[str, Any]:
    return {"fieldToken": {"type": "http", "scheme": "bearer", "description": "A field token (the committee's)."}}
