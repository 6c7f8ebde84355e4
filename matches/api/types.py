"""The API's request types, defined once (issue 37): each pydantic model both validates what a view
reads — a body (``polo.api_body.read_body``), a query string (``read_query``) — and, named by the
view's declaration (``operations.operation``: ``body=``, ``query=``), gives the OpenAPI document its
schema (``schemas()``, ``parameters()``), so the document cannot promise what the view refuses, or
the reverse.

Why pydantic (README, "Dependencies"): it validates plain Django views' input without replacing
them (the views keep their caching, CSRF and streaming), and writes JSON Schema 2020-12, the
dialect of OpenAPI 3.1 and of the match log's own schema.

The bodies are read strictly, as JSON Schema reads them: a number is no text, a boolean no number,
a key the type does not list is refused (``extra="forbid"``: a body the document calls valid is
then also within the view's size cap). An integer may be written ``2.0`` (JSON Schema's integer).
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Annotated, Any, Literal, TypeVar

from django.http import HttpRequest
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError, WithJsonSchema
from pydantic.json_schema import GenerateJsonSchema, JsonRef, models_json_schema

REF = "#/components/schemas/"


def _whole(value: Any) -> Any:
    """``2.0`` as ``2`` (an integer to JSON Schema); anything else as it came."""
    return int(value) if type(value) is float and value.is_integer() else value


class RequestType(BaseModel):
    """A request body: strict, and nothing but its fields."""

    model_config = ConfigDict(strict=True, extra="forbid")


class ConfirmedScore(RequestType):
    """The score an umpire confirms: goals of each team (a handicap's half goals included)."""

    home: float = Field(ge=0, le=999)
    away: float = Field(ge=0, le=999)


class ConfirmationRequest(RequestType):
    """An umpire (or the referee) confirms the score at the end of a chukker."""

    period: Annotated[int, Field(ge=1, le=99), BeforeValidator(_whole)] = Field(description="The chukker confirmed.")
    score: ConfirmedScore


class SignatureRequest(RequestType):
    """An umpire or the referee signs the scoresheet as their screen shows its log."""

    log_hash: str = Field(
        pattern="^[0-9a-f]{64}$",
        description="The log hash the screen shows: SHA-256, lowercase hex (docs/SCORESHEET.md).",
    )


REQUEST_TYPES: tuple[type[BaseModel], ...] = (ConfirmationRequest, SignatureRequest)


# --- query strings ---------------------------------------------------------------------------

SINCE_MAX = 10**18 - 1  # 18 digits
_DIGITS = re.compile(r"[0-9]{1,18}")
_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
FIRST_DAY, LAST_DAY = dt.date(1, 1, 2), dt.date(9999, 12, 30)  # a day with a day on either side


def _sequence_number(value: Any) -> int:
    """ASCII digits only, at most 18 of them (``'²'.isdigit()`` is true, ``int('²')`` fails)."""
    if type(value) is str and _DIGITS.fullmatch(value):
        return int(value)
    raise ValueError("not a sequence number")


def _day(value: Any) -> dt.date:
    """``YYYY-MM-DD`` exactly (``date.fromisoformat`` also takes ``20261129`` and week dates), a day
    whose next day exists (9999-12-31 has none)."""
    if type(value) is str and _DAY.fullmatch(value):
        parsed = dt.date.fromisoformat(value)  # (ValueError for a day there is not: refused)
        if FIRST_DAY <= parsed <= LAST_DAY:
            return parsed
    raise ValueError("not a day")


class QueryType(BaseModel):
    """A query string's parameters (text, read by each field's own rule); other keys are ignored."""

    model_config = ConfigDict(strict=True)


class EventsQuery(QueryType):
    since: Annotated[int, BeforeValidator(_sequence_number)] = Field(
        default=0, ge=0, le=SINCE_MAX, description="A sequence number: ASCII digits, at most 18 of them."
    )


DATE_SCHEMA = {"type": "string", "format": "date", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"}


class DayQuery(QueryType):
    date: Annotated[dt.date | None, BeforeValidator(_day), WithJsonSchema(DATE_SCHEMA)] = Field(
        default=None, description="YYYY-MM-DD in the tournament's time zone (0001-01-02 to 9999-12-30); default today."
    )


class FormatQuery(QueryType):
    format: Annotated[Literal["json", "csv"] | None, WithJsonSchema({"enum": ["json", "csv"]})] = Field(
        default=None, description="csv: the same figures as CSV (as the path ending .csv gives them)."
    )


Query = TypeVar("Query", bound=QueryType)


def read_query(request: HttpRequest, model: type[Query]) -> Query | None:
    """The request's query string as a ``model``, or None when a parameter is not what it takes."""
    given = {name: request.GET[name] for name in model.model_fields if name in request.GET}
    try:
        return model.model_validate(given)
    except ValidationError:
        return None


def parameters(model: type[QueryType]) -> list[dict[str, Any]]:
    """The OpenAPI parameters of a query type: its fields, as it reads them."""
    schema = model.model_json_schema(ref_template=REF + "{model}", schema_generator=_Schemas)
    required = set(schema.get("required", ()))
    out = []
    for name, prop in schema["properties"].items():
        description = prop.pop("description", None)
        if "default" in prop and prop["default"] is None:  # (absent: not a value of its type)
            del prop["default"]
        parameter = {"name": name, "in": "query", "required": name in required, "schema": prop}
        out.append(parameter | ({"description": description} if description else {}))
    return out


class _Schemas(GenerateJsonSchema):
    """JSON Schema without the titles pydantic derives from field names (noise in a document)."""

    def field_title_should_be_set(self, schema: Any) -> bool:
        return False

    def handle_ref_overrides(self, json_schema: Any) -> Any:
        """(A reference to a component pydantic did not write, the contract's ``State``, is kept.)"""
        if JsonRef(json_schema.get("$ref", "")) not in self.json_to_defs_refs:
            return json_schema
        return super().handle_ref_overrides(json_schema)


def schemas(*models: type[BaseModel]) -> dict[str, Any]:
    """The component schemas of ``models`` (default: the request types) and of every type they use,
    by model name."""
    _refs, top = models_json_schema(
        [(model, "validation") for model in models or REQUEST_TYPES],
        ref_template=REF + "{model}",
        schema_generator=_Schemas,
    )
    return top.get("$defs", {})
