"""JSON Schemas of the match-log contract (docs/MATCH-LOG.md) and small helpers.

Two schemas live beside this module (JSON Schema draft 2020-12):

- ``match-log`` — a match-log file: the ``match`` config and every event type with its fields.
  It checks shape only; geometry against the configured field, players' availability and every
  rule are the engine's job (``officiating.engine``).
- ``state`` — the state the engine folds a log into (every contract key; the engine may add keys).

Pure Python: no Django import here, so the API, the engine's tests and scripts can all use it.

    >>> validate_log({"match": {...}, "events": [...]})   # raises SchemaError on a bad file
    >>> errors = log_errors(data)                          # or: list the problems, each with its path
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match

__all__ = [
    "SCHEMA_DIR",
    "SchemaError",
    "load_schema",
    "log_errors",
    "state_errors",
    "validate_log",
    "validate_state",
    "validator",
]

SCHEMA_DIR = Path(__file__).resolve().parent


class SchemaError(ValueError):
    """A document does not match its schema. ``path`` is the JSON path of the worst error
    (e.g. ``$.events[3].at.x``); ``errors`` lists every problem as ``(path, message)``."""

    def __init__(self, path: str, message: str, errors: list[tuple[str, str]]):
        super().__init__(f"{path}: {message}")
        self.path = path
        self.errors = errors


@cache
def load_schema(name: str) -> dict[str, Any]:
    """The schema ``name`` (``"match-log"`` or ``"state"``; a ``.schema.json`` suffix is optional)."""
    stem = name.removesuffix(".json").removesuffix(".schema")
    path = SCHEMA_DIR / f"{stem}.schema.json"
    if not path.is_file():
        raise KeyError(f"no schema named {name!r}")
    with path.open(encoding="utf-8") as fh:
        schema = json.load(fh)
    Draft202012Validator.check_schema(schema)
    return schema


@cache
def validator(name: str) -> Draft202012Validator:
    return Draft202012Validator(load_schema(name))


def _path(error: ValidationError) -> str:
    return error.json_path


def _errors(name: str, data: Any) -> list[tuple[str, str]]:
    found = sorted(validator(name).iter_errors(data), key=lambda e: e.json_path)
    return [(_path(e), e.message) for e in found]


def log_errors(data: Any) -> list[tuple[str, str]]:
    """Every schema problem of a match-log document, as ``(json_path, message)``; empty when valid."""
    return _errors("match-log", data)


def state_errors(state: Any) -> list[tuple[str, str]]:
    """Every schema problem of a state, as ``(json_path, message)``; empty when valid."""
    return _errors("state", state)


def _validate(name: str, data: Any) -> None:
    v = validator(name)
    worst = best_match(v.iter_errors(data))
    if worst is not None:
        raise SchemaError(_path(worst), worst.message, _errors(name, data))


def validate_log(data: Any) -> None:
    """Raise :class:`SchemaError` unless ``data`` is a well-formed match log."""
    _validate("match-log", data)


def validate_state(state: Any) -> None:
    """Raise :class:`SchemaError` unless ``state`` has the contract's shape."""
    _validate("state", state)
