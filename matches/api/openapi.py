"""The OpenAPI 3.1 document of ``/api/`` (served at ``/api/openapi.json``), built from the code.

Its ``paths`` come from Django's URL resolver: every route under ``/api/`` and the declarations of
its view (``operations``: the methods, their parameters, bodies and answers); a route without them,
or a method the view refuses, stops the document from being built. Its component schemas are the
request and response types those declarations name (``types``, ``responses`` and the statistics',
awards' and field's own), and the event and state schemas, which are not copied: they are the
contract's JSON Schemas (``officiating/schemas``), whose ``$defs`` become component schemas here
(OpenAPI 3.1 speaks JSON Schema 2020-12). Tests check that every example validates against its
schema and that real answers do too (``matches/tests/test_api_openapi.py``).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django.urls import get_resolver

from . import types
from .openapi_components import contract_components
from .operations import api_paths


@lru_cache(maxsize=1)
def document() -> dict[str, Any]:
    built = api_paths(get_resolver())
    return {
        "openapi": "3.1.0",
        "jsonSchemaDialect": "https://json-schema.org/draft/2020-12/schema",
        "info": {
            "title": "Polo officiating API",
            "version": "1",
            "description": "The live match API (docs/LIVE-PROTOCOL.md). Events and score confirmations are "
            "posted by the match's officials (session login, CSRF header X-CSRFToken); the "
            "confirmations are read by them too; everything else is public. "
            "Times are epoch seconds. The websocket /ws/matches/{id}/ pushes the same state. "
            'Every error under /api/ is JSON, {"error": {"code", "rule", "message"}}, in the '
            "caller's language: a CSRF refusal (403 csrf_failed), a path that is not there (404 not_found), "
            "a method the path does not take (405 method_not_allowed), a body over the size cap "
            "(413 too_large) and a server error (500 server_error) included.",
        },
        "paths": built.paths,
        "components": {
            "securitySchemes": built.security_schemes,
            "schemas": {**contract_components(), **types.schemas(*built.models.values())},
        },
    }
