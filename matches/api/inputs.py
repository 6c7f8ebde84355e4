"""What the API reads from a request, read strictly (issue 11): no input reaches a view's logic
that could make it answer 5xx.

- a JSON body: ``polo.api_body`` (its size cap, strict JSON, its request type: ``types``);
- a query string: its type (``types``: ``since``, ``date``, ``format``);
- an event's ``id``: text of 1 to 64 characters (the column's size) and a ``type`` the log knows.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from matches.models import MatchEvent
from officiating.engine.events import EVENT_TYPES

# A single event is a few hundred bytes; anything much larger is not an event.
EVENT_MAX_BYTES = 16 * 1024
CONFIRMATION_MAX_BYTES = 1024
ID_MAX_LENGTH = MatchEvent._meta.get_field("client_id").max_length


def event_head_problem(event: dict[str, Any]) -> str | None:
    """What is wrong with an event's ``id`` and ``type`` (read before anything else is), or None."""
    eid, etype = event.get("id"), event.get("type")
    if not isinstance(eid, str) or not 1 <= len(eid) <= ID_MAX_LENGTH:
        return _("The field 'id' must be text of 1 to %(max)d characters.") % {"max": ID_MAX_LENGTH}
    if not isinstance(etype, str) or etype not in EVENT_TYPES:
        return _("The field 'type' must be one of the match log's event types.")
    return None
