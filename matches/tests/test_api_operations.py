"""The API's paths come from its views' declarations (``matches.api.operations``, issue 37): a route
under /api/ whose view declares nothing, or faulty declarations, stop the document from being built;
and the declarations are what the views take: every route under /api/ answers 405 to exactly the
methods its view does not declare."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import iscoroutinefunction
from django.http import HttpRequest, JsonResponse
from django.test import Client, RequestFactory, override_settings
from django.urls import get_resolver, include, path, re_path
from django.urls.resolvers import RegexPattern, URLResolver
from django.views.decorators.cache import never_cache

from matches.api import openapi, types
from matches.api.openapi_components import NO_MATCH, error_response, json_content
from matches.api.operations import OperationError, api_paths, api_routes, declarations, operation
from matches.api.responses import ServerTime
from polo import urls as project_urls

OK = {200: json_content(ServerTime, {"server_time": 1.0}, "The time.")}


def _resolver(*patterns) -> URLResolver:
    return URLResolver(RegexPattern(r"^/"), [path("api/", include(list(patterns)))])


@operation("get", "getClock", responses=OK)
def clock(request: HttpRequest) -> JsonResponse:
    """The clock."""
    return JsonResponse({"server_time": 1.0})


def undeclared(request: HttpRequest) -> JsonResponse:
    return JsonResponse({})


@operation("get", "getTwice", summary="Read", responses=OK)
@operation("get", "getTwiceAgain", summary="Read again", responses=OK)
def declares_get_twice(request: HttpRequest) -> JsonResponse:
    return JsonResponse({})


def test_a_declared_view_gives_its_path_operation_and_components():
    @operation("get", "getThing", query=types.EventsQuery, responses={**OK, 404: NO_MATCH})
    def thing(request: HttpRequest, match_id: int, name: str) -> JsonResponse:
        """A thing of a match."""
        return JsonResponse({})

    built = api_paths(_resolver(path("time", clock), path("matches/<int:match_id>/<str:name>", thing)))
    assert list(built.paths) == ["/api/time", "/api/matches/{match_id}/{name}"]
    item = built.paths["/api/matches/{match_id}/{name}"]
    assert item["parameters"] == [
        {"name": "match_id", "in": "path", "required": True, "schema": {"type": "integer"}},
        {"name": "name", "in": "path", "required": True, "schema": {"type": "string"}},
    ]
    assert item["get"]["operationId"] == "getThing"
    assert item["get"]["summary"] == "A thing of a match"  # the docstring's first line
    assert item["get"]["parameters"] == types.parameters(types.EventsQuery)
    ok = item["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    assert ok == {"$ref": "#/components/schemas/ServerTime"}
    assert set(built.models) == {"ServerTime", "ErrorAnswer"}
    assert "parameters" not in built.paths["/api/time"]


def test_a_route_whose_view_declares_nothing_is_an_error():
    with pytest.raises(OperationError, match=r"/api/nothing: .*undeclared declares no operation"):
        api_paths(_resolver(path("time", clock), path("nothing", undeclared)))


def test_a_method_declared_twice_is_an_error():
    with pytest.raises(OperationError, match=r"/api/twice: .*declares_get_twice declares GET twice"):
        api_paths(_resolver(path("twice", declares_get_twice)))


def test_the_declared_methods_are_the_ones_the_view_takes_and_a_decorator_above_sees_the_405s():
    @never_cache
    @operation("get", "getPair", summary="Read", responses=OK)
    @operation("post", "postPair", summary="Write", responses=OK)
    def pair(request: HttpRequest) -> JsonResponse:
        return JsonResponse({"method": request.method})

    factory = RequestFactory()
    for method in ("GET", "POST"):
        answer = pair(factory.generic(method, "/"))
        assert answer.status_code == 200 and json.loads(answer.content) == {"method": method}
    for method in ("HEAD", "PUT", "PATCH", "DELETE", "OPTIONS"):  # HEAD too: it is not declared
        refused = pair(factory.generic(method, "/"))
        assert refused.status_code == 405, method
        assert refused["Allow"] == "GET, POST"
        assert "no-store" in refused["Cache-Control"]  # never_cache, above the stack, wraps the 405
    assert [d.operation_id for d in declarations(pair)] == ["postPair", "getPair"]
    assert clock(factory.post("/")).status_code == 405  # one declaration: GET only


def test_an_async_view_stays_async():
    @operation("get", "getLater", summary="Later", responses=OK)
    async def later(request: HttpRequest) -> JsonResponse:
        return JsonResponse({})

    assert iscoroutinefunction(later)


def test_a_decorator_between_two_declarations_is_an_error():
    """It would be wrapped again, or lost, by the declaration above it: it belongs above the stack."""
    with pytest.raises(OperationError, match="a decorator between two @operation"):

        @operation("post", "postClock", summary="Set", responses=OK)
        @never_cache
        @operation("get", "getClockAgain", summary="Read", responses=OK)
        def clocked(request: HttpRequest) -> JsonResponse:
            return JsonResponse({})


def test_every_problem_is_named_at_once_and_routes_elsewhere_are_not_read():
    resolver = URLResolver(
        RegexPattern(r"^/"),
        [
            path("elsewhere", undeclared),  # not under /api/: not the API's
            path("api/", include([path("nothing", undeclared), path("twice", declares_get_twice)])),
        ],
    )
    with pytest.raises(OperationError) as raised:
        api_paths(resolver)
    assert "/api/nothing" in str(raised.value) and "/api/twice" in str(raised.value)
    assert "elsewhere" not in str(raised.value)


def test_an_operation_id_used_twice_is_an_error():
    @operation("get", "getClock", responses=OK)
    def other_clock(request: HttpRequest) -> JsonResponse:
        """Another clock."""
        return JsonResponse({})

    with pytest.raises(OperationError, match="operationId getClock"):
        api_paths(_resolver(path("time", clock), path("other", other_clock)))


def test_a_regular_expression_route_under_api_is_an_error():
    with pytest.raises(OperationError, match="regular expression"):
        api_paths(_resolver(re_path(r"^time$", clock)))


def test_route_kwargs_tell_two_routes_of_one_view_apart():
    @operation("get", "getList", responses=OK)
    @operation("get", "getListCsv", summary="As CSV", route_kwargs={"csv": True}, responses={200: OK[200]})
    def listing(request: HttpRequest, csv: bool = False) -> JsonResponse:
        """A list."""
        return JsonResponse({})

    built = api_paths(_resolver(path("list", listing), path("list.csv", listing, {"csv": True})))
    assert built.paths["/api/list"]["get"]["operationId"] == "getList"
    assert built.paths["/api/list.csv"]["get"]["operationId"] == "getListCsv"
    with pytest.raises(OperationError, match=r"/api/list.txt: .* declares no operation"):
        api_paths(_resolver(path("list.txt", listing, {"csv": False})))


def test_a_declaration_needs_a_summary_or_a_docstring_and_a_body_example_the_type_takes():
    with pytest.raises(OperationError, match="no summary"):
        operation("get", "getNothing", responses=OK)(undeclared)
    with pytest.raises(ValueError):  # (pydantic's ValidationError)
        operation("post", "postConfirmation", body=types.ConfirmationRequest, body_example={"period": 0}, responses=OK)
    with pytest.raises(OperationError, match="not an HTTP method"):
        operation("fetch", "fetchIt", responses=OK)


def test_a_security_declaration_names_its_schemes_and_the_document_defines_them():
    scheme = {"key": {"type": "apiKey", "in": "header", "name": "X-Key"}}

    @operation("post", "postKeyed", security=scheme, responses={201: error_response("Made.", "made", "Made.")})
    def keyed(request: HttpRequest) -> JsonResponse:
        """Keyed."""
        return JsonResponse({})

    built = api_paths(_resolver(path("keyed", keyed)))
    assert built.paths["/api/keyed"]["post"]["security"] == [{"key": []}]
    assert built.security_schemes == scheme


# --- the project's own routes ------------------------------------------------------------------

urlpatterns = [path("api/undeclared", undeclared), *project_urls.urlpatterns]


def test_the_document_is_not_built_while_a_route_under_api_declares_nothing():
    """The real build (``document``) walks the whole URL conf: this module's adds an undeclared route."""
    with override_settings(ROOT_URLCONF=__name__):
        with pytest.raises(OperationError, match="/api/undeclared"):
            openapi.document.__wrapped__()
    assert "/api/undeclared" not in openapi.document.__wrapped__()["paths"]


def _project_routes():
    return list(api_routes(get_resolver()))


def _declared(route) -> set[str]:
    view = route.pattern.callback
    return {d.method for d in declarations(view) if dict(d.route_kwargs) == route.pattern.default_args}


def test_the_project_has_routes_under_api_and_each_declares_its_methods():
    routes = _project_routes()
    assert len(routes) > 10  # (the next test has one case a route: none would pass it vacuously)
    assert all(_declared(route) for route in routes)


@pytest.mark.django_db
@pytest.mark.parametrize("route", _project_routes(), ids=lambda r: r.path)
def test_a_route_answers_405_exactly_to_the_methods_its_view_does_not_declare(route):
    """Each declared method is answered (404 for no such match, 403 without a token, 406 for the
    stream's Accept...), each other one is 405: the declarations and the answers agree."""
    url = route.path
    for parameter in route.parameters:
        url = url.replace("{" + parameter["name"] + "}", "99999")
    declared = _declared(route)
    for method in ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"):
        status = Client().generic(method, url).status_code
        assert (status == 405) == (method.lower() not in declared), (method, url, status)
