"""Dates as each language writes them (``matches/templatetags/dates.py``): Spanish says "5 de
diciembre de 2026", English "5 December 2026", each in the server's time zone."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest
from django.template import Context, Template
from django.utils import translation

from matches.demo import load_demo
from matches.templatetags.dates import FORMATS

# 20:30 UTC on Saturday 5 December 2026 is 15:30 in New York (the settings' TIME_ZONE, EST).
STARTS = datetime(2026, 12, 5, 20, 30, tzinfo=UTC)

CASES = [
    ("day_time", "en", "Saturday 5 December, 15:30"),
    ("day_time", "es", "sábado 5 de diciembre, 15:30"),
    ("full_day_time", "en", "Saturday 5 December 2026, 15:30"),
    ("full_day_time", "es", "sábado 5 de diciembre de 2026, 15:30"),
    ("full_day", "en", "Saturday 5 December 2026"),
    ("full_day", "es", "sábado 5 de diciembre de 2026"),
    ("day", "en", "5 December 2026"),
    ("day", "es", "5 de diciembre de 2026"),
]


def render(value, name: str, lang: str) -> str:
    with translation.override(lang):
        return Template("{% load dates %}{{ value|when:name }}").render(Context({"value": value, "name": name}))


@pytest.mark.parametrize(("name", "lang", "expected"), CASES)
def test_a_start_reads_as_its_language_writes_it_in_the_local_time(settings, name, lang, expected):
    settings.TIME_ZONE = "America/New_York"
    assert render(STARTS, name, lang) == expected


def test_a_day_without_a_time_reads_the_same_way():
    assert render(date(2026, 12, 5), "full_day", "es") == "sábado 5 de diciembre de 2026"


def test_every_named_format_is_used_by_the_cases():
    assert {name for name, _, _ in CASES} == set(FORMATS)


@pytest.mark.django_db
def test_the_spanish_scoreboard_says_de_between_the_day_and_the_month(client):
    _tournament, match = load_demo()
    page = client.get(f"/matches/{match.pk}/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    with translation.override("es"):
        month = Template("{{ d|date:'F' }}").render(Context({"d": match.starts_at}))
    assert f" de {month}," in page
