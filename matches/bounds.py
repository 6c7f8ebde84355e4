"""The bounds of the days and moments that enter the app (issue 36).

Wide enough for any real tournament (a federation's records since 1900, fixtures for centuries to
come), they keep every day the app stores or is asked about far from the ends of Python's dates and
PostgreSQL's: a match start of 9999-12-31 23:59:59 in New York is the year 10000 in UTC, which
PostgreSQL stores and Python cannot read back, so that every page showing it answered 500; a start
of 0001-01-01 overflowed the field's clash check (``OverflowError``). Beyond them a day or moment is
refused with a clear error in the user's language: the committee's forms, the admin (the models'
validators) and the pages' ``?date=`` all ask here.

The numbers have theirs beside what they count: a match's config in ``officiating.engine.config``
(which the models' validators and the committee's forms repeat), an event's fields in
``officiating.engine.strict``.
"""

from __future__ import annotations

import datetime as dt

from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.dateparse import parse_date
from django.utils.translation import gettext_lazy as _

FIRST_DAY = dt.date(1900, 1, 1)
LAST_DAY = dt.date(2999, 12, 31)


def _refuse() -> ValidationError:
    return ValidationError(
        _("Enter a day from %(first)s to %(last)s."),
        code="out_of_bounds",
        params={"first": FIRST_DAY.isoformat(), "last": LAST_DAY.isoformat()},
    )


def validate_day(value: dt.date) -> None:
    if value is not None and not FIRST_DAY <= value <= LAST_DAY:
        raise _refuse()


def validate_moment(value: dt.datetime) -> None:
    """A moment whose day, where the app keeps its time (``TIME_ZONE``), is within the bounds."""
    if value is None:
        return
    if timezone.is_aware(value):
        try:
            value = timezone.localtime(value)
        except OverflowError:
            raise _refuse() from None
    validate_day(value.date())


def day_or_none(text: str | None) -> dt.date | None:
    """``YYYY-MM-DD`` within the bounds, or None (nothing, or not such a day)."""
    try:
        day = parse_date(text or "")
    except ValueError:  # (well formed, but no such day: 2026-02-30)
        return None
    return day if day is not None and FIRST_DAY <= day <= LAST_DAY else None
