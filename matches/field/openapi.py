"""The field server's part of the OpenAPI document (``matches.api.openapi`` merges ``paths()``,
``schemas()`` and ``security_schemes()`` into it): docs/LIVE-PROTOCOL.md, "A match kept at the field"."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from matches.api import types
from matches.api.openapi_components import LANGUAGE, MATCH_ID, TOO_LARGE, error_response, json_content, ref
from matches.api.responses import ErrorAnswer, ResponseType

FIELD_TOKEN = [{"fieldToken": []}]
EXAMPLE_HASH = "5f0c3a6f1b2e4d8a9c7b6e5d4c3b2a1908f7e6d5c4b3a29180f7e6d5c4b3a291"

Hash = Annotated[str, Field(pattern="^[0-9a-f]{64}$", description="SHA-256, lowercase hex.")]


class FieldLogItem(ResponseType):
    seq: int = Field(ge=1)
    id: str = Field(min_length=1, max_length=64)
    type: str
    payload: dict[str, Any] = Field(description="The event as the field stored it (server_time, by included).")
    received_at: float
    sent_by: str | None = Field(default=None, description="The login of who logged it at the field.")


class FieldBatch(ResponseType):
    """A batch of the field's log (``services.replica_append`` reads it: ``matches.field.api``)."""

    after: int = Field(ge=0)
    prefix_hash: Hash
    log_hash: Hash
    config_hash: Hash
    events: list[FieldLogItem] = Field(max_length=500)


class FieldReplica(ResponseType):
    last_seq: int
    log_hash: Hash
    appended: int
    duplicates: int
    kept_at: Literal["server", "field"]


class FieldRefusal(ErrorAnswer):
    last_seq: int | None = None


EXAMPLE_REPLICA = {"last_seq": 15, "log_hash": EXAMPLE_HASH, "appended": 3, "duplicates": 0, "kept_at": "field"}


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
                            "version": 1,
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
                "requestBody": types.body(
                    FieldBatch,
                    {
                        "after": 0,
                        "prefix_hash": EXAMPLE_HASH,
                        "log_hash": EXAMPLE_HASH,
                        "config_hash": EXAMPLE_HASH,
                        "events": [],
                    },
                ),
                "responses": {
                    "200": json_content(ref("FieldReplica"), EXAMPLE_REPLICA, "Appended (or held already)."),
                    "400": error_response("Not a batch of the log.", "invalid_log", "The log is not valid: …"),
                    **_refusals(),
                    "409": json_content(
                        ref("FieldRefusal"),
                        {"error": {"code": "log_gap", "rule": None, "message": "…"}, "last_seq": 12},
                        "The batch does not extend the replica (log_gap, log_changed, log_other_match, "
                        "log_not_accepted, not_kept_at_field): nothing stored.",
                    ),
                    "413": TOO_LARGE,
                },
            },
        },
    }


def schemas() -> dict[str, Any]:
    return types.schemas(FieldBatch, FieldReplica, FieldRefusal)


def security_schemes() -> dict[str, Any]:
    return {"fieldToken": {"type": "http", "scheme": "bearer", "description": "A field token (the committee's)."}}
