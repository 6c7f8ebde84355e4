"""The channel-layer groups and message types: the one place that names them.

- ``match.<id>``: "the log of match <id> now has events seq..last_seq" (``match.update``), or
  "the match's officials changed" (``match.roles``), or "the field's timekeeper fell silent, or was
  heard again" (``match.field``, issue 34);
- ``user.<id>``: an official logged out (``user.logout``) or may have lost a role
  (``user.roles``): their sockets are closed or re-checked.
"""

from __future__ import annotations

MATCH_UPDATE = "match.update"
MATCH_ROLES = "match.roles"
MATCH_FIELD = "match.field"
USER_LOGOUT = "user.logout"
USER_ROLES = "user.roles"


def match_group(match_id: int) -> str:
    return f"match.{match_id}"


def user_group(user_id: int) -> str:
    return f"user.{user_id}"
