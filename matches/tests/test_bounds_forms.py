"""Days, moments and numbers beyond the bounds are refused where they enter (issue 36), with a clear
error in the user's language and nothing saved: the committee's match form (0001-01-01 and
9999-12-31 answered 500, ``OverflowError``), its tournament form, the admin's forms (a start of
9999-12-31 23:59:59 was stored as the year 10000 on PostgreSQL), and the pages' ``?date=``."""

from __future__ import annotations

from functools import partial

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.test import RequestFactory
from django.urls import reverse

from matches.models import Field, Match, Tournament

from .committee_helpers import Committee
from .live_helpers import client_for
from .personas import PASSWORD

pytestmark = pytest.mark.django_db

BOUNDS_ERROR = "Enter a day from 1900-01-01 to 2999-12-31."


CAST = partial(Committee, periods=1)  # the cast fixture (conftest.py) makes one per test


def match_data(cast: Committee, starts_at: str) -> dict:
    m = cast.match
    return {
        "home": m.home_id,
        "away": m.away_id,
        "field": m.field_id,
        "starts_at": starts_at,
        "stage": "",
        "periods": 1,
        "home_defends": "north",
    }


@pytest.mark.parametrize("starts_at", ["0001-01-01T00:00", "9999-12-31T23:59", "1899-12-31T23:59", "3000-01-01T00:00"])
def test_the_committee_s_match_forms_refuse_a_start_beyond_the_bounds(cast, starts_at):
    before = list(Match.objects.values_list("pk", "starts_at"))
    client = cast.client()
    new = client.post(reverse("committee:match_new", args=[cast.match.tournament_id]), match_data(cast, starts_at))
    edit = client.post(reverse("committee:match_edit", args=[cast.match.pk]), match_data(cast, starts_at))
    for response in (new, edit):
        assert response.status_code == 200
        assert BOUNDS_ERROR in response.context["form"].errors["starts_at"]
    assert list(Match.objects.values_list("pk", "starts_at")) == before


def test_the_refusal_is_in_the_member_s_language(cast):
    response = cast.client().post(
        reverse("committee:match_edit", args=[cast.match.pk]),
        match_data(cast, "9999-12-31T23:59"),
        HTTP_ACCEPT_LANGUAGE="es",
    )
    assert "Indique un día del 1900-01-01 al 2999-12-31." in response.context["form"].errors["starts_at"]


def test_the_tournament_form_refuses_days_beyond_the_bounds(cast):
    data = {"name": "Old Cup", "club": "Palermo", "lower_handicap_limit": 0, "upper_handicap_limit": 6}
    client = cast.client()
    for starts_on, ends_on in (("0001-01-01", "0001-01-03"), ("2026-03-01", "9999-12-31")):
        response = client.post(
            reverse("committee:tournament_new"), {**data, "starts_on": starts_on, "ends_on": ends_on}
        )
        assert response.status_code == 200
        errors = response.context["form"].errors
        assert BOUNDS_ERROR in errors.get("starts_on", []) + errors.get("ends_on", [])
    assert not Tournament.objects.filter(name="Old Cup").exists()


@pytest.fixture
def root():
    return get_user_model().objects.create_superuser("root", password=PASSWORD)


def admin_form(root, model, obj, data: dict):
    """The admin's own form for ``model`` (as its change page builds it), bound to ``data``."""
    request = RequestFactory().post("/admin/")
    request.user = root
    model_admin = admin.site._registry[model]
    form_class = model_admin.get_form(request, obj, change=obj is not None)
    initial = model_admin.get_changeform_initial_data(request)
    fields = {f.name: f.value_from_object(obj) for f in model._meta.concrete_fields if obj is not None}
    fields = {name: getattr(value, "pk", value) for name, value in fields.items()}
    return form_class({**initial, **fields, **data}, instance=obj)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("starts_at_0", "9999-12-31"),
        ("starts_at_0", "0001-01-01"),
        ("period_seconds", 30000),
        ("period_seconds", 1),
        ("home_handicap_goals", "41"),
        ("home_handicap_goals", "0.3"),
    ],
)
def test_the_admin_refuses_a_match_beyond_the_bounds(cast, root, field, value):
    m = cast.match
    data = {"starts_at_0": "2026-12-07", "starts_at_1": "23:59:59", "umpires": [u.pk for u in m.umpires.all()]}
    within = admin_form(root, Match, m, data)
    assert within.is_valid(), within.errors
    form = admin_form(root, Match, m, {**data, field: value})
    assert not form.is_valid() and field.removesuffix("_0") in form.errors, form.errors


@pytest.mark.parametrize(
    ("model", "field", "value"),
    [
        (Tournament, "starts_on", "9999-12-31"),
        (Tournament, "ends_on", "0001-01-01"),
        (Tournament, "upper_handicap_limit", 30000),
        (Tournament, "lower_handicap_limit", -30000),
        (Field, "length", 30000),
        (Field, "width", 10),
    ],
)
def test_the_admin_refuses_a_tournament_or_a_field_beyond_the_bounds(cast, root, model, field, value):
    obj = cast.match.tournament if model is Tournament else cast.match.field
    assert admin_form(root, model, obj, {}).is_valid()
    form = admin_form(root, model, obj, {field: value})
    assert not form.is_valid() and field in form.errors, form.errors


@pytest.mark.parametrize("date", ["0001-01-01", "9999-12-31", "1899-12-31", "3000-01-01", "2026-02-30"])
def test_a_day_beyond_the_bounds_in_a_page_s_address_shows_today(cast, date):
    t = cast.match.tournament_id
    member = cast.client()
    for client, path in (
        (client_for(), f"/tournaments/{t}/live/?date={date}"),
        (client_for(), f"/tournaments/{t}/start/?date={date}"),
        (member, f"/committee/day/?date={date}"),
        (member, f"/committee/availability/?date={date}"),
        (member, f"/committee/tournaments/{t}/matches/new/?starts_at={date}T10:00"),
    ):
        response = client.get(path)
        assert response.status_code == 200, path
        if "day" in response.context:
            assert str(response.context["day"]) != date, path
