"""The API's paths come from its views' declarations (``matches.api.operations``, issue 37): a route
under /api/ whose view declares nothing, a declared method the view refuses, or a method it takes
undeclared, stops the document from being built; and the methods read from the views' decorators
are the ones they answer."""

from __future__ import annotations

import pytest
from django.http import HttpRequest, JsonResponse
from django.test import Client, override_settings
from django.urls import get_resolver, include, path, re_path
from django.urls.resolvers import RegexPattern, URLResolver
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from matches.api import openapi, types
from matches.api.openapi_components import NO_MATCH, error_response, json_content
from matches.api.operations import OperationError, allowed_methods, api_paths, api_routes, declarations, operation
from matches.api.responses import ServerTime
from polo import urls as project_urls

OK = {200: json_content(ServerTime, {"server_time": 1.0}, "The time.")}


def _resolver(*patterns) -> URLResolver:
    return URLResolver(RegexPattern(r"^/"), [path("api/", include(list(patterns)))])


@operation("get", "getClock", responses=OK)
@never_cache
@require_GET
def clock(request: HttpRequest) -> JsonResponse:
    """The clock."""
    return JsonResponse({"server_time": 1.0})


@require_GET
def undeclared(request: HttpRequest) -> JsonResponse:
    return JsonResponse({})


@operation("post", "postClock", summary="Set the clock", responses=OK)
@require_GET
def refuses_what_it_declares(request: HttpRequest) -> JsonResponse:
    return JsonResponse({})


@operation("get", "getBoth", summary="Read", responses=OK)
@require_http_methods(["GET", "POST"])
def takes_more_than_it_declares(request: HttpRequest) -> JsonResponse:
    return JsonResponse({})


@operation("get", "getAny", summary="Anything", responses=OK)
def says_no_methods(request: HttpRequest) -> JsonResponse:
    return JsonResponse({})


def test_a_declared_view_gives_its_path_operation_and_components():
    @operation("get", "getThing", query=types.EventsQuery, responses={**OK, 404: NO_MATCH})
    @require_GET
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


def test_a_declared_method_the_view_refuses_is_an_error():
    with pytest.raises(OperationError, match=r"/api/clock: .* declares POST, a method it refuses"):
        api_paths(_resolver(path("clock", refuses_what_it_declares)))


def test_a_method_the_view_takes_undeclared_is_an_error():
    with pytest.raises(OperationError, match=r"/api/both: .* takes POST, which it does not declare"):
        api_paths(_resolver(path("both", takes_more_than_it_declares)))


def test_a_view_that_does_not_say_its_methods_is_an_error():
    with pytest.raises(OperationError, match=r"/api/any: .* does not say which methods it takes"):
        api_paths(_resolver(path("any", says_no_methods)))


def test_every_problem_is_named_at_once_and_routes_elsewhere_are_not_read():
    resolver = URLResolver(
        RegexPattern(r"^/"),
        [
            path("elsewhere", undeclared),  # not under /api/: not the API's
            path("api/", include([path("nothing", undeclared), path("clock", refuses_what_it_declares)])),
        ],
    )
    with pytest.raises(OperationError) as raised:
        api_paths(resolver)
    assert "/api/nothing" in str(raised.value) and "/api/clock" in str(raised.value)
    assert "elsewhere" not in str(raised.value)


def test_an_operation_id_used_twice_is_an_error():
    @operation("get", "getClock", responses=OK)
    @require_GET
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
    @require_GET
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
    @require_POST
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


def test_every_route_of_the_api_is_declared_method_by_method():
    for route in _project_routes():
        view = route.pattern.callback
        declared = {d.method for d in declarations(view) if dict(d.route_kwargs) == route.pattern.default_args}
        assert declared and declared == allowed_methods(view), route.path


@pytest.mark.django_db
@pytest.mark.parametrize("route", _project_routes(), ids=lambda r: r.path)
def test_the_methods_read_from_a_view_are_the_ones_it_answers(route):
    """``allowed_methods`` reads the decorator's list: each method it names is answered (404 for no
    such match, 403 without a token, 406 for the stream's Accept...), each other one is 405."""
    url = route.path
    for parameter in route.parameters:
        url = url.replace("{" + parameter["name"] + "}", "99999")
    allowed = allowed_methods(route.pattern.callback)
    assert allowed
    for method in ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"):
        status = Client().generic(method, url).status_code
        assert (status == 405) == (method.lower() not in allowed), (method, url, status)
