"""The event's shape, read from its one source: the match-log contract's JSON Schema
(``officiating/schemas/match-log.schema.json``, docs/MATCH-LOG.md) — issue 37.

The schema says which types there are, which keys each may carry and the values of its choices;
the engine's strict check (``strict``) and its reading of an event (``events``) take them from here,
the API's check of an event's fields (``matches.api.views``) and the OpenAPI document from the file
itself, so a key or a value added to a type is added once. Pure standard library: the engine runs
this under Pyodide too (the schema travels in the engine's archive,
``matches.officials.field_engine``).

- ``EVENT_TYPES``: the types, in the contract's order;
- ``ALLOWED``: per type, every key an event of that type may carry (the common keys, then its own);
- ``NESTED``: per key whose value is an object of fixed keys (``at``, ``player``, ``by``...), those
  keys;
- ``ENUMS``: per (type, key), the values the contract lists for it (an ``enum`` property).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

SCHEMA = Path(__file__).resolve().parent.parent / "schemas" / "match-log.schema.json"


def _load() -> dict[str, Any]:
    with SCHEMA.open(encoding="utf-8") as fh:
        defs: dict[str, Any] = json.load(fh)["$defs"]
    return defs


DEFS = _load()


def _resolved(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` with its local ``$ref`` followed (``#/$defs/name``)."""
    while "$ref" in schema:
        schema = DEFS[schema["$ref"].removeprefix("#/$defs/")]
    return schema


def properties(etype: str) -> dict[str, dict[str, Any]]:
    """The keys an event of ``etype`` may carry, with their schemas (resolved)."""
    own = {**DEFS["event"]["properties"], **DEFS[etype].get("properties", {})}
    return {key: _resolved(schema) for key, schema in own.items()}


EVENT_TYPES: tuple[str, ...] = tuple(DEFS["event_types"]["enum"])
ALLOWED: dict[str, frozenset[str]] = {etype: frozenset(properties(etype)) for etype in EVENT_TYPES}
NESTED: dict[str, frozenset[str]] = {
    key: frozenset(schema["properties"])
    for etype in EVENT_TYPES
    for key, schema in properties(etype).items()
    if schema.get("additionalProperties") is False and "properties" in schema
}
ENUMS: dict[tuple[str, str], tuple[Any, ...]] = {
    (etype, key): tuple(schema["enum"])
    for etype in EVENT_TYPES
    for key, schema in properties(etype).items()
    if "enum" in schema and key != "type"
}
