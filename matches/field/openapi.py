"""The field server's part of the OpenAPI document (docs/LIVE-PROTOCOL.md, "A match kept at the
field"): its security scheme, request and response types and examples, which the views declare
(``matches.field.api``)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from matches.api.openapi_components import error_response, json_content
from matches.api.responses import ErrorAnswer, ResponseType

FIELD_TOKEN = {"fieldToken": {"type": "http", "scheme": "bearer", "description": "A field token (the committee's)."}}
EXAMPLE_HASH = "5f0c3a6f1b2e4d8a9c7b6e5d4c3b2a1908f7e6d5c4b3a29180f7e6d5c4b3a291"

Hash = Annotated[str, Field(pattern="^[0-9a-f]{64}$", description="SHA-256, lowercase hex.")]


class FieldLogItem(ResponseType):
    """One event of the log, as the tournament's export writes it (matches/transfer.py event_data)."""

    seq: int = Field(ge=1)
    id: str = Field(min_length=1, max_length=64)
    type: str
    event: dict[str, Any] = Field(description="The event as the field stored it (server_time, by included).")
    received_at: str = Field(json_schema_extra={"format": "date-time"}, description="When it was received (UTC).")
    sent_by: str | None = Field(description="The login of who logged it at the field.")


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


class RefusalDetail(ResponseType):
    """The message's text by name (matches/field/refusals.py) and what is in it: the field server says
    it again in its own reader's language."""

    text: str
    params: dict[str, Any]


class FieldRefusal(ErrorAnswer):
    detail: RefusalDetail | None = None
    last_seq: int | None = None


class FieldPairing(ResponseType):
    """The pairing payload (matches/field/wire.py): what the field server keeps the match with."""

    format: str
    version: int
    match_id: int
    log: list[Any]
    config_hash: Hash


class FieldTokenMatches(ResponseType):
    scope: str
    expires_at: float
    matches: list[dict[str, Any]]


EXAMPLE_REPLICA = {"last_seq": 15, "log_hash": EXAMPLE_HASH, "appended": 3, "duplicates": 0, "kept_at": "field"}


EXAMPLE_TOKEN_MATCHES = {
    "scope": "the matches on Field 1 on 2026-11-29",
    "expires_at": 1793048400.0,
    "matches": [{"id": 3, "title": "Blue v Red", "starts_at": 1793000000.0, "field": "Field 1"}],
}
EXAMPLE_PAIRING = {"format": "polo-field-pairing", "version": 2, "match_id": 3, "log": [], "config_hash": EXAMPLE_HASH}
EXAMPLE_BATCH = {
    "after": 0,
    "prefix_hash": EXAMPLE_HASH,
    "log_hash": EXAMPLE_HASH,
    "config_hash": EXAMPLE_HASH,
    "events": [],
}
TOKEN_REFUSED = error_response(
    "No field token, one not known here, expired, revoked, or for another match (field_token_missing, "
    "field_token_wrong, field_token_expired, field_token_revoked, field_token_other_match).",
    "field_token_revoked",
    "The committee revoked this field token: ask the committee for a new one.",
)
LOG_REFUSED = json_content(
    FieldRefusal,
    {
        "error": {"code": "log_gap", "rule": None, "message": "…"},
        "detail": {"text": "log_gap", "params": {"last": 12, "after": 14}},
        "last_seq": 12,
    },
    "The batch does not extend the replica (log_gap, log_changed, log_other_match, "
    "log_not_accepted, not_kept_at_field): nothing stored.",
)
