"""The parts of the OpenAPI document (``openapi``): the contract's JSON Schemas as components, and
what the views' declarations (``operations``) are written with: the header parameters, the security
schemes, the examples (a test validates each against its schema) and the builders of the answers.
The API's own schemas are its request and response types (``types``, ``responses``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import officiating
from matches.selectors import SUMMARY_KEYS

from .responses import ErrorAnswer, Refusal, StaleRefusal, StateRefusal
from .types import REF

SCHEMA_DIR = Path(officiating.__file__).resolve().parent / "schemas"


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


def contract_components() -> dict[str, Any]:
    components: dict[str, Any] = {}
    log = _contract_schema("match-log")
    for name, schema in log["$defs"].items():
        components[f"Log_{name}"] = _rewrite_refs(schema, "Log_")
    state = _contract_schema("state")
    for name, schema in state["$defs"].items():
        components[f"State_{name}"] = _rewrite_refs(schema, "State_")
    body = {k: v for k, v in state.items() if k not in ("$defs", "$schema", "$id")}
    components["State"] = _rewrite_refs(body, "State_")
    components["Event"] = event_variants(log["$defs"])
    return components


def event_variants(defs: dict[str, Any]) -> dict[str, Any]:
    """The contract's event as one object schema per type (``oneOf``, ``type`` a constant): the
    same events as ``Log_event`` (its common keys, the type's own, nothing else: issue 11), in a
    shape property-based generators (Schemathesis) can draw from, where ``Log_event``'s
    if/then per type under ``unevaluatedProperties`` is not."""
    return {"oneOf": [_rewrite_refs(event_variant(defs, etype), "Log_") for etype in defs["event_types"]["enum"]]}


def event_variant(defs: dict[str, Any], etype: str) -> dict[str, Any]:
    """The events of one type: the common keys and the type's own, nothing else (``defs``: the
    match-log schema's; its ``#/$defs/`` references are kept)."""
    own = defs[etype]
    variant: dict[str, Any] = {
        "title": etype,
        "type": "object",
        "required": ["type", "id", *own.get("required", [])],
        "properties": {**defs["event"]["properties"], **own.get("properties", {}), "type": {"const": etype}},
        "additionalProperties": False,
    }
    if "allOf" in own:  # a field required by another's value (a Penalty 5.a's spot...)
        variant["allOf"] = own["allOf"]
    return variant


def ref(name: str) -> dict[str, str]:
    return {"$ref": REF + name}


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
    "restart": {
        "kind": "free_hit",
        "team": "away",
        "penalty": None,
        "spot": {"x": 90.0, "y": 10.0},
        "toward": None,
        "count_seconds": None,
        "hit_within_seconds": None,
        "tap_allowed": False,
        "min_clock_remaining": None,
        "next_period": False,
        "rule": "22.f",
        "message": "Rule 22.f: free hit 10 yards in — no tapping",
    },
    "last_seq": 28,
}
EXAMPLE_EVENT = {
    "id": "5b0f2c1e-8d7a-4c61-9f0e-3a1d2b4c5e6f",
    "type": "goal",
    "team": "home",
    "number": 2,
    "expected_seq": 29,
}
EXAMPLE_STORED = {
    "id": "5b0f2c1e-8d7a-4c61-9f0e-3a1d2b4c5e6f",
    "type": "goal",
    "team": "home",
    "number": 2,
    "clock": 231.2,
}
EXAMPLE_SIDE = {
    "name": "La Dolfina Blue",
    "color": "#1d4ed8",
    "handicap_goals": 0.0,
    "players": [{"number": 1, "name": "Adolfo Cambiaso", "handicap": 2}],
}
EXAMPLE_META = {
    "id": 1,
    "tournament": {"id": 1, "name": "Demo Cup", "club": "Demo Polo Club"},
    "field": {"name": "Field 1", "length": 300, "width": 160, "boarded": False},
    "starts_at": 1792997600.0,
    "stage": None,
    "periods": 6,
    "period_seconds": 420,
    "home": EXAMPLE_SIDE,
    "away": {**EXAMPLE_SIDE, "name": "Ellerstina Red", "color": "#dc2626"},
}


def json_content(schema: Any, example: Any, description: str) -> dict[str, Any]:
    """A JSON answer: ``schema`` a response type (a pydantic model: ``operations`` writes it as the
    reference to its component) or a JSON Schema (``ref("State")``)."""
    return {"description": description, "content": {"application/json": {"schema": schema, "example": example}}}


def error_response(description: str, code: str, message: str, status_body: bool = False) -> dict[str, Any]:
    """An error answer (``ErrorAnswer``), or with ``status_body`` an event refused with the state
    (``Refusal``)."""
    example: dict[str, Any] = {"error": {"code": code, "rule": None, "message": message}}
    if status_body:
        example = {"accepted": False, **example, "state": EXAMPLE_STATE, "last_seq": 29}
    return json_content(Refusal if status_body else ErrorAnswer, example, description)


NO_MATCH = error_response("No such match.", "not_found", "No such match.")
NO_TOURNAMENT = error_response("No such tournament.", "not_found", "No such tournament.")
OFFICIALS_ONLY = error_response("Not an official of this match.", "forbidden", "Officials only.")
# The two reads a CDN may keep (ETag, Cache-Control: max-age=1, stale-while-revalidate).
NOT_MODIFIED = {
    "description": "Not modified: If-None-Match named the answer's ETag (no body). Answers carry an ETag and "
    "Cache-Control (public, max-age=1, stale-while-revalidate=10; an official's events: private, no-cache)."
}
TOO_LARGE = error_response(
    "The body is over the size cap (16384 bytes for an event, 1024 for a confirmation; Django's "
    "DATA_UPLOAD_MAX_MEMORY_SIZE for any request).",
    "too_large",
    "The body is too large: at most 16384 bytes.",
)


def stale_response() -> dict[str, Any]:
    """409: the log moved on since the official began the entry; whether it still fits (issue 9)."""
    response = error_response(
        "expected_seq is not the log's last_seq (behind it, or ahead of it): here is the current state, "
        "and whether the event would be accepted on it (`valid_now`; if not, `would_be` says why).",
        "stale_sequence",
        "The match has moved on since your last update.",
        True,
    )
    body = response["content"]["application/json"]
    body["schema"] = StaleRefusal
    body["example"] = {
        **body["example"],
        "valid_now": False,
        "would_be": {"code": "not_in_play", "rule": None, "message": "The ball is not in play."},
    }
    return response


EXAMPLE_GOAL = {
    "id": EXAMPLE_STORED["id"],
    "seq": 30,
    "team": "home",
    "goals": 1,
    "number": 2,
    "name": "Adolfo Cambiaso",
    "own_goal": False,
    "penalty": False,
    "how": "field",
    "penalty_number": None,
    "period": 3,
    "period_kind": "regulation",
    "clock": 231.2,
}
EXAMPLE_CONFIRMATIONS = {
    "confirmations": [
        {
            "period": 1,
            "umpire": "Ulises Umpire",
            "username": "umpire1",
            "score": {"home": 1, "away": 0},
            "last_seq": 12,
            "at": 1793000480.5,
        }
    ]
}


def confirmation_refusal(description: str, code: str, message: str) -> dict[str, Any]:
    """A confirmation refused on the log's state (which comes with the refusal)."""
    return json_content(
        StateRefusal,
        {
            "error": {"code": code, "rule": None, "message": message},
            "state": {**EXAMPLE_STATE, "status": "interval", "period": {**EXAMPLE_STATE["period"], "number": 1}},
        },
        description,
    )


# Who may post: an official's session (its cookie) and the CSRF token in a header (Django's).
OFFICIAL = {
    "session": {"type": "apiKey", "in": "cookie", "name": "sessionid", "description": "Django's session (log in)."},
    "csrf": {
        "type": "apiKey",
        "in": "header",
        "name": "X-CSRFToken",
        "description": "The value of the csrftoken cookie (every write).",
    },
}
LANGUAGE = {
    "name": "Accept-Language",
    "in": "header",
    "required": False,
    "schema": {"type": "string"},
    "description": "en or es: the language of messages and restart texts.",
}

MATCHES_EXAMPLE = {
    "date": "2026-11-29",
    "matches": [
        {
            **EXAMPLE_META,
            "last_seq": 29,
            "state": {k: EXAMPLE_STATE.get(k) for k in SUMMARY_KEYS},
            "field_state": {"heard_at": None, "silent": False, "silent_for": None},
        },
        {
            **EXAMPLE_META,
            "id": 2,
            "starts_at": 1793004800.0,
            "field": {**EXAMPLE_META["field"], "name": "Field 2"},
            "last_seq": 28,
            "state": {k: EXAMPLE_STOPPED_STATE.get(k) for k in SUMMARY_KEYS},
            "field_state": {"heard_at": 1793004790.0, "silent": False, "silent_for": None, "kept_at": "field"},
        },
    ],
}
EXAMPLE_ACCEPTED = {
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
EXAMPLE_EVENTS_PAGE = {
    "events": [
        {"seq": 30, "id": EXAMPLE_STORED["id"], "type": "goal", "event": EXAMPLE_STORED, "received_at": 1793000026.2}
    ],
    "last_seq": 30,
}
EXAMPLE_MATCH_STATE = {
    "match": EXAMPLE_META,
    "state": EXAMPLE_STOPPED_STATE,
    "last_seq": 28,
    "server_time": 1793000010.25,
    "field": {"heard_at": 1793000008.5, "silent": False, "silent_for": None},
}
