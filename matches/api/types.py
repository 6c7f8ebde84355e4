"""The API's request types, defined once (issue 37): each pydantic model both validates the body a
view reads (``polo.api_body.read_body``) and gives the OpenAPI document its schema
(``schemas()``), so the document cannot promise what the view refuses, or the reverse.

Why pydantic (README, "Dependencies"): it validates plain Django views' input without replacing
them (the views keep their caching, CSRF and streaming), and writes JSON Schema 2020-12, the
dialect of OpenAPI 3.1 and of the match log's own schema.

The bodies are read strictly, as JSON Schema reads them: a number is no text, a boolean no number,
a key the type does not list is refused (``extra="forbid"``: a body the document calls valid is
then also within the view's size cap). An integer may be written ``2.0`` (JSON Schema's integer).
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field
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


def body(model: type[BaseModel], example: dict[str, Any]) -> dict[str, Any]:
    """An OpenAPI ``requestBody`` of ``model`` (its example is validated by the model, here)."""
    model.model_validate(example)
    return {
        "required": True,
        "content": {"application/json": {"schema": {"$ref": REF + model.__name__}, "example": example}},
    }
