"""The API's operations, declared once next to their views (issue 37), and the OpenAPI ``paths``
built from them.

A view under ``/api/`` carries one ``@operation(...)`` per HTTP method it takes: the method, the
``operationId``, the summary (by default the first line of the view's docstring), its query type
(``types.QueryType``: the model the view reads the query string with), its header parameters, who
may call it (``security``: the schemes, all required together), its body type (a request type, the
model the view reads the body with, or the contract's ``Event``) with an example, and per status the
answer: a response type (a pydantic model) or an error code, its description and example
(``openapi_components.json_content``, ``error_response``...). A pydantic model anywhere in a
declaration is written as a reference to the component of its name, and becomes one.

The declarations are also what the view takes: the ``@operation`` stack wraps the view in Django's
``require_http_methods`` with the methods it declares (every other one is answered 405 with an
``Allow`` header), so the methods have one source. HEAD is not taken along with GET: a view takes
HEAD only if it declares it. A decorator whose answers must include the 405s (``never_cache``,
``csrf_exempt``) goes above the stack, one between two ``@operation`` is an ``OperationError``.
``matches/tests/test_api_operations.py`` sends every method to every route under ``/api/``.

``api_paths`` walks Django's URL resolver: every route under ``/api/`` (its converters give the path
parameters) with the declarations of its view. A route whose view declares nothing is an
``OperationError``, as are a method declared twice, an ``operationId`` used twice and a route written
as a regular expression: the document is never built without them.

A view serving two routes (``stats`` and ``stats.csv``, told apart by the route's keyword arguments)
declares each with ``route_kwargs`` (it takes, on both, the methods of all its declarations).
"""

from __future__ import annotations

import copy
import inspect
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

from django.core.exceptions import ImproperlyConfigured
from django.urls import URLPattern, URLResolver
from django.urls.converters import IntConverter, PathConverter, SlugConverter, StringConverter, UUIDConverter
from django.urls.resolvers import RoutePattern
from django.views.decorators.http import require_http_methods
from pydantic import BaseModel

from . import types

ATTRIBUTE = "api_operations"  # the view's list of its declarations
ENFORCER = "api_operations_view"  # the stack's wrapper, itself (a copy of it: a wrapper above)
METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")  # OpenAPI's
# A route parameter's schema, by its converter (Django's own; any other is an OperationError).
CONVERTERS: dict[type, dict[str, Any]] = {
    IntConverter: {"type": "integer"},
    StringConverter: {"type": "string"},
    PathConverter: {"type": "string"},
    SlugConverter: {"type": "string", "pattern": "^[-a-zA-Z0-9_]+$"},
    UUIDConverter: {"type": "string", "format": "uuid"},
}
Schema = type[BaseModel] | dict[str, Any]  # a pydantic model, or a JSON Schema (``ref("Event")``)
View = TypeVar("View", bound=Callable[..., Any])


class OperationError(ImproperlyConfigured):
    """The routes under ``/api/`` and their views' declarations do not agree."""


@dataclass(frozen=True)
class Operation:
    """One HTTP method of one route: everything the document says about it."""

    method: str
    operation_id: str
    summary: str
    responses: Mapping[int, dict[str, Any]]
    description: str | None = None
    query: type[types.QueryType] | None = None
    parameters: Sequence[dict[str, Any]] = ()
    security: Mapping[str, dict[str, Any]] | None = None
    body: Schema | None = None
    body_example: Any = None
    route_kwargs: Mapping[str, Any] = field(default_factory=dict)

    def openapi(self) -> dict[str, Any]:
        """The OpenAPI operation object (its models not yet written as references: ``_resolved``)."""
        op: dict[str, Any] = {"operationId": self.operation_id, "summary": self.summary}
        if self.description:
            op["description"] = self.description
        parameters = [*(types.parameters(self.query) if self.query else ()), *self.parameters]
        if parameters:
            op["parameters"] = parameters
        if self.security:
            op["security"] = [{name: [] for name in self.security}]
        if self.body is not None:
            content = {"schema": self.body, "example": self.body_example}
            op["requestBody"] = {"required": True, "content": {"application/json": content}}
        op["responses"] = {str(status): response for status, response in self.responses.items()}
        return op


def operation(
    method: str,
    operation_id: str,
    *,
    responses: Mapping[int, dict[str, Any]],
    summary: str | None = None,
    description: str | None = None,
    query: type[types.QueryType] | None = None,
    parameters: Sequence[dict[str, Any]] = (),
    security: Mapping[str, dict[str, Any]] | None = None,
    body: Schema | None = None,
    body_example: Any = None,
    route_kwargs: Mapping[str, Any] | None = None,
) -> Callable[[View], View]:
    """Declare what the decorated view does for ``method`` (see the module's docstring); stack one per
    method. The view is returned wrapped in ``require_http_methods`` with every method declared on it
    so far (each ``@operation`` of the stack wraps the undecorated view again, so the topmost one's
    wrapper takes exactly the stack's methods)."""
    method = method.lower()
    if method not in METHODS:
        raise OperationError(f"{operation_id}: {method!r} is not an HTTP method")
    if isinstance(body, type) and issubclass(body, BaseModel):
        body.model_validate(body_example)  # (an example the view would refuse fails here)

    def declare(view: View) -> View:
        text = summary or _first_line(view)
        if not text:
            raise OperationError(f"{operation_id}: no summary, and {view.__qualname__} has no docstring")
        declared = Operation(
            method=method,
            operation_id=operation_id,
            summary=text,
            responses=responses,
            description=description,
            query=query,
            parameters=tuple(parameters),
            security=security,
            body=body,
            body_example=body_example,
            route_kwargs=dict(route_kwargs or {}),
        )
        stack = [*declarations(view), declared]
        taken = sorted({op.method.upper() for op in stack})
        enforced = require_http_methods(taken)(_undecorated(view))
        enforced.__dict__[ATTRIBUTE] = stack
        enforced.__dict__[ENFORCER] = enforced
        return cast(View, enforced)

    return declare


def _undecorated(view: Callable[..., Any]) -> Callable[..., Any]:
    """``view``, or the view an ``@operation`` below wrapped (its wrapper's ``__wrapped__``)."""
    enforcer = view.__dict__.get(ENFORCER)
    if enforcer is None:
        return view
    if enforcer is not view:  # another decorator's wrapper, which copied the attribute
        raise OperationError(f"{view.__qualname__}: a decorator between two @operation (put it above them)")
    return view.__wrapped__  # type: ignore[attr-defined,no-any-return]


def _first_line(view: Callable[..., Any]) -> str:
    """The docstring's first line, without its full stop."""
    doc = inspect.getdoc(view) or ""
    return doc.split("\n", 1)[0].strip().removesuffix(".")


def declarations(view: Callable[..., Any]) -> list[Operation]:
    return list(getattr(view, ATTRIBUTE, ()))


# --- the routes --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Route:
    """A URL pattern under the prefix: its OpenAPI path, its path parameters and its pattern."""

    path: str
    parameters: list[dict[str, Any]]
    pattern: URLPattern


def api_routes(resolver: URLResolver, prefix: str = "api/") -> Iterator[Route]:
    """Every URL pattern whose route starts with ``prefix``, as an OpenAPI path (``<int:x>`` →
    ``{x}``, the parameter's schema from its converter)."""

    def walk(patterns: Sequence[Any], before: str, converters: dict[str, Any]) -> Iterator[Route]:
        for entry in patterns:
            route = before + str(entry.pattern)
            if not route.startswith(prefix) and not prefix.startswith(route):
                continue
            known = {**converters, **getattr(entry.pattern, "converters", {})}
            if isinstance(entry, URLResolver):
                yield from walk(entry.url_patterns, route, known)
            elif route.startswith(prefix):
                if not isinstance(entry.pattern, RoutePattern):
                    raise OperationError(f"/{route}: a regular expression, not a route (django.urls.path)")
                names = re.findall(r"<(?:\w+:)?(\w+)>", route)
                path = "/" + re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", route)
                yield Route(path, [_path_parameter(path, name, known[name]) for name in names], entry)

    yield from walk(resolver.url_patterns, "", {})


def _path_parameter(path: str, name: str, converter: Any) -> dict[str, Any]:
    schema = CONVERTERS.get(type(converter))
    if schema is None:
        raise OperationError(f"{path}: no schema for the converter {type(converter).__name__} of {name}")
    return {"name": name, "in": "path", "required": True, "schema": dict(schema)}


# --- the paths ----------------------------------------------------------------------------------


@dataclass
class Paths:
    """The document's ``paths``, the models they refer to and the security schemes they name."""

    paths: dict[str, Any] = field(default_factory=dict)
    models: dict[str, type[BaseModel]] = field(default_factory=dict)
    security_schemes: dict[str, Any] = field(default_factory=dict)


def api_paths(resolver: URLResolver, prefix: str = "api/") -> Paths:
    """The ``paths`` of every route under ``prefix``, from its view's declarations; an
    ``OperationError`` naming every route without declarations or with faulty ones."""
    built, problems, ids = Paths(), [], {}
    for route in api_routes(resolver, prefix):
        view = route.pattern.callback
        name = f"{view.__module__}.{view.__qualname__}"
        kwargs = route.pattern.default_args
        declared = [d for d in declarations(view) if dict(d.route_kwargs) == kwargs]
        if not declared:
            problems.append(f"{route.path}: {name} declares no operation (matches.api.operations.operation)")
            continue
        methods = [d.method for d in declared]
        for method in sorted({m for m in methods if methods.count(m) > 1}):
            problems.append(f"{route.path}: {name} declares {method.upper()} twice")
        if route.path in built.paths:
            problems.append(f"{route.path}: two routes")
        item: dict[str, Any] = {"parameters": route.parameters} if route.parameters else {}
        for op in declared:
            if op.operation_id in ids:
                problems.append(f"{route.path}: operationId {op.operation_id} is {ids[op.operation_id]}'s too")
            ids.setdefault(op.operation_id, route.path)
            item[op.method] = _resolved(op.openapi(), built.models)
            built.security_schemes.update(copy.deepcopy(dict(op.security or {})))
        built.paths[route.path] = item
    if problems:
        raise OperationError("The API's routes and their declarations disagree:\n" + "\n".join(problems))
    return built


def _resolved(node: Any, models: dict[str, type[BaseModel]]) -> Any:
    """``node`` copied, each pydantic model in it written as a reference to its component (and kept
    in ``models``, by name: two models of one name are an error)."""
    if isinstance(node, type) and issubclass(node, BaseModel):
        if models.setdefault(node.__name__, node) is not node:
            raise OperationError(f"two response or request types are named {node.__name__}")
        return {"$ref": types.REF + node.__name__}
    if isinstance(node, dict):
        return {key: _resolved(value, models) for key, value in node.items()}
    if isinstance(node, (list, tuple)):
        return [_resolved(item, models) for item in node]
    return copy.deepcopy(node)
