"""The parts of the OpenAPI document (``openapi``): the contract's JSON Schemas as components, the
API's own schemas (errors, stored events, match meta, goals, confirmations), the parameters, the
examples (a test validates each against its schema) and the builders of its responses.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import officiating
from matches.models import Match
from matches.selectors import SUMMARY_KEYS

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


ERROR = {
    "type": "object",
    "required": ["code", "message"],
    "properties": {
        "code": {"type": "string", "description": "The contract's rejection code, e.g. goal_after_time."},
        "rule": {"type": ["string", "null"], "description": "The rule applied, e.g. 14.b(1)."},
        "message": {"type": "string", "description": "In the caller's language."},
    },
}
STORED_EVENT = {
    "type": "object",
    "required": ["seq", "id", "type", "event", "received_at"],
    "properties": {
        "seq": {"type": "integer", "minimum": 1},
        "id": {"type": "string"},
        "type": {"type": "string"},
        "event": ref("Event"),
        "received_at": {"type": "number", "description": "Epoch seconds."},
    },
}
SIDE = {
    "type": "object",
    "required": ["name", "color", "handicap_goals", "players"],
    "properties": {
        "name": {"type": "string"},
        "color": {"type": "string", "pattern": "^#[0-9a-fA-F]{6}$"},
        "handicap_goals": {"type": "number"},
        "players": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["number", "name"],
                "properties": {
                    "number": {"type": "integer"},
                    "name": {"type": "string"},
                    "handicap": {"type": "integer"},
                },
            },
        },
    },
}
MATCH_META = {
    "type": "object",
    "required": ["id", "tournament", "field", "starts_at", "home", "away"],
    "properties": {
        "id": {"type": "integer"},
        "tournament": {
            "type": "object",
            "required": ["id", "name"],
            "properties": {"id": {"type": "integer"}, "name": {"type": "string"}, "club": {"type": "string"}},
        },
        "field": {
            "type": "object",
            "required": ["name", "length", "width", "boarded"],
            "properties": {
                "name": {"type": "string"},
                "length": {"type": "number"},
                "width": {"type": "number"},
                "boarded": {"type": "boolean"},
            },
        },
        "starts_at": {"type": "number", "description": "Epoch seconds."},
        "stage": {
            "type": ["string", "null"],
            "enum": [*Match.Stage.values, None],
            "description": "Zone play, subsidiary, or the knockout round; null when the committee gave none.",
        },
        "periods": {"type": "integer"},
        "period_seconds": {"type": "integer"},
        "home": ref("Side"),
        "away": ref("Side"),
    },
}

INTERVAL = {
    "type": ["object", "null"],
    "description": (
        "The break between periods (null unless status is interval): half-time or an ordinary "
        "interval (Rule 14.a), its length and the server time its countdown started at."
    ),
    "required": ["kind", "seconds", "started_at", "next_period"],
    "properties": {
        "kind": {"enum": ["interval", "halftime"]},
        "seconds": {"type": "number"},
        "started_at": {"type": ["number", "null"]},
        "next_period": {
            "type": "object",
            "required": ["number", "kind"],
            "properties": {"number": {"type": "integer"}, "kind": {"enum": ["regulation", "overtime"]}},
        },
    },
}
GOAL = {
    "type": "object",
    "required": [
        "id",
        "seq",
        "team",
        "goals",
        "number",
        "name",
        "own_goal",
        "penalty",
        "how",
        "penalty_number",
        "period",
        "period_kind",
        "clock",
    ],
    "properties": {
        "id": {"type": ["string", "null"], "description": "The id of the event that scored."},
        "seq": {"type": "integer"},
        "team": {"enum": ["home", "away"]},
        "goals": {"type": "number", "description": "How many goals it gave (1, or more for a goal awarded)."},
        "number": {"type": ["integer", "null"], "description": "The hitter's number (null for a Penalty 1)."},
        "name": {"type": "string", "description": "The hitter's name (empty when unknown)."},
        "own_goal": {"type": "boolean"},
        "penalty": {"type": "boolean", "description": "Whether it came from a penalty (a Penalty 1 included)."},
        "how": {
            "enum": ["field", "penalty", "own_goal", "penalty_1", "unattributed"],
            "description": "What kind of goal, as the box score and the official report count it.",
        },
        "penalty_number": {
            "type": ["string", "null"],
            "description": "The penalty it came from (1, 2, 3, 4, 5a, 5b, 6, or unknown); null when from play.",
        },
        "period": {"type": ["integer", "null"]},
        "period_kind": {"type": "string"},
        "clock": {"type": ["number", "null"], "description": "Time played in the chukker (seconds)."},
    },
}
CONFIRMATION = {
    "type": "object",
    "required": ["period", "umpire", "username", "score", "last_seq", "at"],
    "properties": {
        "period": {"type": "integer", "description": "The chukker confirmed."},
        "umpire": {"type": "string"},
        "username": {"type": "string"},
        "score": {
            "type": "object",
            "required": ["home", "away"],
            "properties": {"home": {"type": "number"}, "away": {"type": "number"}},
        },
        "last_seq": {"type": "integer", "description": "How far the log had got when it was confirmed."},
        "at": {"type": "number", "description": "Epoch seconds."},
    },
}
CONFIRMED_SCORE = {
    "type": "object",
    "required": ["home", "away"],
    "properties": {
        "home": {"type": "number", "minimum": 0, "maximum": 999},
        "away": {"type": "number", "minimum": 0, "maximum": 999},
    },
}
CONFIRMATIONS_PAGE = {
    "type": "object",
    "required": ["confirmations"],
    "properties": {"confirmations": {"type": "array", "items": ref("Confirmation")}},
}

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


def json_content(schema: dict[str, Any], example: Any, description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema, "example": example}}}


def error_response(description: str, code: str, message: str, status_body: bool = False) -> dict[str, Any]:
    schema = {"type": "object", "required": ["error"], "properties": {"error": ref("Error")}}
    example: dict[str, Any] = {"error": {"code": code, "rule": None, "message": message}}
    if status_body:
        schema = {
            "type": "object",
            "required": ["error", "state", "last_seq"],
            "properties": {
                "accepted": {"const": False},
                "error": ref("Error"),
                "state": ref("State"),
                "last_seq": {"type": "integer"},
            },
        }
        example = {"accepted": False, **example, "state": EXAMPLE_STATE, "last_seq": 29}
    return json_content(schema, example, description)


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
    body["schema"]["properties"].update({"valid_now": {"type": "boolean"}, "would_be": ref("Error")})
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
    schema = {
        "type": "object",
        "required": ["error", "state"],
        "properties": {"error": ref("Error"), "state": ref("State")},
    }
    return json_content(
        schema,
        {
            "error": {"code": code, "rule": None, "message": message},
            "state": {**EXAMPLE_STATE, "status": "interval", "period": {**EXAMPLE_STATE["period"], "number": 1}},
        },
        description,
    )


MATCH_ID = {"name": "match_id", "in": "path", "required": True, "schema": {"type": "integer"}}
DATE = {
    "name": "date",
    "in": "query",
    "required": False,
    "schema": {"type": "string", "format": "date", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"},
    "description": "YYYY-MM-DD in the tournament's time zone (0001-01-02 to 9999-12-30); default today.",
}
SINCE_MAX = 10**18 - 1  # 18 digits (matches/api/inputs.py)
# Who may post: an official's session (its cookie) and the CSRF token in a header (Django's).
SECURITY_SCHEMES = {
    "session": {"type": "apiKey", "in": "cookie", "name": "sessionid", "description": "Django's session (log in)."},
    "csrf": {
        "type": "apiKey",
        "in": "header",
        "name": "X-CSRFToken",
        "description": "The value of the csrftoken cookie (every write).",
    },
}
OFFICIAL = [{"session": [], "csrf": []}]
LANGUAGE = {
    "name": "Accept-Language",
    "in": "header",
    "required": False,
    "schema": {"type": "string"},
    "description": "en or es: the language of messages and restart texts.",
}

MATCHES_PAGE = {
    "type": "object",
    "required": ["matches"],
    "properties": {
        "date": {"type": "string", "format": "date"},
        "matches": {"type": "array", "items": ref("MatchSummary")},
    },
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
