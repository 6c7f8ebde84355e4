"""GET /api/openapi.json: the OpenAPI 3.1 document covers every route under /api/, its examples
validate against its own schemas, and real answers of the API validate too."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from jsonschema import Draft202012Validator

from matches.api.openapi import document

from .live_helpers import client_for, ev, log, post_event

HTTP_METHODS = {"get", "post", "put", "patch", "delete"}


def _api_routes() -> list[str]:
    """Every URL pattern under /api/, written as OpenAPI paths (``<int:x>`` → ``{x}``)."""
    routes = []

    def walk(patterns, prefix: str) -> None:
        for p in patterns:
            if isinstance(p, URLResolver):
                walk(p.url_patterns, prefix + str(p.pattern))
            elif isinstance(p, URLPattern):
                routes.append(prefix + str(p.pattern))

    walk(get_resolver().url_patterns, "/")
    return [re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", r) for r in routes if r.startswith("/api/")]


def _validator(schema: dict[str, Any]) -> Draft202012Validator:
    return Draft202012Validator({"components": document()["components"], **schema})


def _examples():
    for path, item in document()["paths"].items():
        for method, op in item.items():
            if method not in HTTP_METHODS:
                continue
            body = op.get("requestBody", {}).get("content", {}).get("application/json")
            if body and "example" in body:
                yield f"{method} {path} request", body["schema"], body["example"]
            for status, response in op["responses"].items():
                content = response.get("content", {}).get("application/json", {})
                if "example" in content:
                    yield f"{method} {path} {status}", content["schema"], content["example"]


def test_it_is_served_to_anyone():
    response = Client().get("/api/openapi.json")
    assert response.status_code == 200
    assert response.json()["openapi"].startswith("3.1")
    assert response.json()["paths"].keys() == document()["paths"].keys()


def test_it_documents_every_route_under_api():
    routes = _api_routes()
    assert len(routes) >= 6
    missing = [r for r in routes if r not in document()["paths"]]
    assert missing == []
    assert [p for p in document()["paths"] if p not in routes] == []


def test_the_documented_schemas_are_valid_json_schema():
    for schema in document()["components"]["schemas"].values():
        Draft202012Validator.check_schema(schema)


@pytest.mark.parametrize("where,schema,example", list(_examples()), ids=lambda v: v if isinstance(v, str) else "")
def test_every_example_validates(where, schema, example):
    errors = [f"{e.json_path}: {e.message}" for e in _validator(schema).iter_errors(example)]
    assert errors == []


def test_a_broken_example_would_not_validate():
    """The check above can fail: the state schema refuses a state without its score."""
    state_schema = {"$ref": "#/components/schemas/State"}
    example = dict(
        document()["paths"]["/api/matches/{match_id}/state"]["get"]["responses"]["200"]["content"]["application/json"][
            "example"
        ]["state"]
    )
    del example["score"]
    assert list(_validator(state_schema).iter_errors(example))


def _response_schema(path: str, method: str, status: int) -> dict[str, Any]:
    return document()["paths"][path][method]["responses"][str(status)]["content"]["application/json"]["schema"]


def _documented_statuses(checks) -> list[int]:
    """Each real answer validates against the document's schema for its path, method and status;
    the statuses, in order."""
    for path, method, response in checks:
        errors = [
            f"{e.json_path}: {e.message}"
            for e in _validator(_response_schema(path, method, response.status_code)).iter_errors(response.json())
        ]
        assert errors == [], (path, method, response.status_code)
    return [response.status_code for _path, _method, response in checks]


@pytest.mark.django_db
def test_real_answers_match_the_document(cast):
    client = client_for(cast.scorer_a)
    match = cast.match_a
    checks = [
        ("/api/matches/{match_id}/events", "post", post_event(client, match, ev("play"))),
        ("/api/matches/{match_id}/events", "post", post_event(client, match, ev("play"))),  # 422
        ("/api/matches/{match_id}/events", "post", post_event(client, match, ev("goal", team="home", expected_seq=0))),
        ("/api/matches/{match_id}/events", "post", post_event(client, match, "[]")),
        ("/api/matches/{match_id}/events", "post", post_event(Client(), match, ev("play"))),
        ("/api/matches/{match_id}/events", "get", Client().get(f"/api/matches/{match.pk}/events?since=0")),
        ("/api/matches/{match_id}/state", "get", Client().get(f"/api/matches/{match.pk}/state")),
        ("/api/matches", "get", Client().get("/api/matches")),
        (
            "/api/tournaments/{tournament_id}/matches",
            "get",
            Client().get(f"/api/tournaments/{match.tournament_id}/matches"),
        ),
        ("/api/time", "get", Client().get("/api/time")),
    ]
    assert _documented_statuses(checks) == [201, 422, 409, 400, 403, 200, 200, 200, 200, 200]


@pytest.mark.django_db
def test_real_answers_of_the_goals_and_the_confirmations_match_the_document(cast):
    match = cast.match_a
    t0 = time.time() - 600  # a first chukker played over the last minutes: a goal, then a ball out after 7:00
    log(match, ev("play"), now=t0)
    log(match, ev("goal", team="home", number=2, clock=100), now=t0 + 100)
    log(match, ev("play"), now=t0 + 130)
    log(
        match,
        ev("ball_out", line="side", at={"x": 150, "y": 0}, last_hit_by="away", deflected_off="none", clock=425),
        now=t0 + 455,
    )
    umpire = client_for(cast.umpire_a)
    confirmations = f"/api/matches/{match.pk}/confirmations"

    def confirm(client, period, home, away, url=confirmations):
        return client.post(
            url, json.dumps({"period": period, "score": {"home": home, "away": away}}), content_type="application/json"
        )

    checks = [
        ("/api/matches/{match_id}/goals", "get", Client().get(f"/api/matches/{match.pk}/goals")),
        ("/api/matches/{match_id}/goals", "get", Client().get("/api/matches/99999/goals")),
        ("/api/matches/{match_id}/confirmations", "post", confirm(umpire, 1, 1, 0)),
        ("/api/matches/{match_id}/confirmations", "post", confirm(umpire, 1, 0, 0)),
        (
            "/api/matches/{match_id}/confirmations",
            "post",
            umpire.post(confirmations, "{}", content_type="application/json"),
        ),
        ("/api/matches/{match_id}/confirmations", "post", confirm(client_for(cast.scorer_a), 1, 1, 0)),
        ("/api/matches/{match_id}/confirmations", "get", client_for(cast.scorer_a).get(confirmations)),
        ("/api/matches/{match_id}/confirmations", "get", Client().get(confirmations)),
        ("/api/matches/{match_id}/confirmations", "get", umpire.get("/api/matches/99999/confirmations")),
    ]
    log(cast.match_b, ev("play"))
    checks.append(
        (
            "/api/matches/{match_id}/confirmations",
            "post",
            confirm(client_for(cast.umpire_b), 1, 0, 0, f"/api/matches/{cast.match_b.pk}/confirmations"),
        )
    )
    assert _documented_statuses(checks) == [200, 404, 201, 409, 400, 403, 200, 403, 404, 422]
