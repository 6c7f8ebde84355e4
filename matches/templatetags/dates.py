"""Dates as each language writes them. A template names a format (``{{ match.starts_at|when:"day_time" }}``)
and each language has its own: Spanish puts "de" between the day, the month and the year
("sábado 5 de diciembre de 2026"), which one format string shared by both languages cannot say
(it gave "sábado 5 diciembre"). The formats are Django's ``date`` filter's, translated like any
other text (context "date format"); a Spanish format escapes its letters (``\\d\\e``)."""

from __future__ import annotations

from datetime import date, datetime

from django import template
from django.template.defaultfilters import date as date_filter
from django.utils.translation import pgettext_lazy

register = template.Library()

FORMATS = {
    # Saturday 5 December, 15:00 — the match's start on its public pages
    "day_time": pgettext_lazy("date format", "l j F, H:i"),
    # Saturday 5 December 2026, 15:00 — a start page, a report, a box score
    "full_day_time": pgettext_lazy("date format", "l j F Y, H:i"),
    # Saturday 5 December 2026 — a day of a tournament
    "full_day": pgettext_lazy("date format", "l j F Y"),
    # 5 December 2026 — a sheet's date
    "day": pgettext_lazy("date format", "j F Y"),
}


@register.filter(expects_localtime=True, is_safe=False)
def when(value: date | datetime | None, name: str) -> str:
    """``value`` in the format ``name`` (``FORMATS``) of the active language."""
    return date_filter(value, str(FORMATS[name]))
