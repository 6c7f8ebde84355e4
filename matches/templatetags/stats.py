"""``{% load stats %}``: the box score's tables for a page that holds a box score's data (the
official report keeps it in its stored data): ``{% box_tables data.box_score as tables %}``."""

from __future__ import annotations

from typing import Any

from django import template

from matches.stats.labels import box_tables as tables_of

register = template.Library()


@register.simple_tag
def box_tables(box: dict[str, Any] | None, public: bool = False) -> dict[str, Any] | None:
    """The line score, team and player tables of ``box`` in the active language (None without one:
    a report stored before box scores were counted)."""
    return tables_of(box, public=public) if box else None
