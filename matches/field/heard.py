""" "Last heard from the field" in words, for the pages that are not live (the statistics, the
committee's report and its PDF) of a match kept at the field. From the server's field object
(``snapshots.field_object``), as the live screens read it (static/js/field-status.js: keptNote)."""

from __future__ import annotations

import time
from datetime import UTC, datetime

from django.utils import timezone
from django.utils.timesince import timesince
from django.utils.translation import gettext as _

from matches.live.snapshots import field_object
from matches.models import Match


def heard_sentence(match: Match, now: float | None = None) -> str | None:
    """In the active language; None unless ``match`` is kept at the field."""
    if match.kept_at != Match.KeptAt.FIELD:
        return None
    now = time.time() if now is None else now
    field = field_object(match, now)
    if field.get("kept_at") != "field":
        return None
    heard = field.get("heard_at")
    if heard is None:
        return _("Kept at the field: not heard from the field yet")
    at = datetime.fromtimestamp(heard, tz=UTC)
    return _(
        "Kept at the field: last heard from the field at %(at)s (%(ago)s ago). What is shown is the field's "
        "record as of then."
    ) % {
        "at": timezone.localtime(at).strftime("%Y-%m-%d %H:%M:%S"),
        "ago": timesince(at, datetime.fromtimestamp(now, tz=UTC)),
    }
