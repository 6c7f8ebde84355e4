"""Who may do what. Personas:

- **committee** (group ``committee``): runs tournaments; may send the committee's events
  (suspend, resume, abandon, overtime, shootout, forfeit) on any match, and run shootouts.
- **umpire / referee** (assigned per match): may log game events on their own match, and suspend.
- **scorer** (assigned per match): may log game events on their own match only.
- **the public** (anonymous or any other user): reads, never writes.
"""
from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

from .models import Match

COMMITTEE_GROUP = "committee"
UMPIRE_GROUP = "umpire"
SCORER_GROUP = "scorer"
ROLE_GROUPS = (COMMITTEE_GROUP, UMPIRE_GROUP, SCORER_GROUP)

# Events only the committee decides (Rules 14.c, 14.d, 21.f(5)); suspend/resume/abandon also umpires.
COMMITTEE_ONLY_EVENTS = frozenset({"overtime", "shootout_start", "forfeit"})
COMMITTEE_OR_UMPIRE_EVENTS = frozenset({"suspend", "resume", "abandon"})
COMMITTEE_MAY_ALSO = frozenset({"shootout_attempt", "void"})


def is_committee(user: AbstractBaseUser | AnonymousUser) -> bool:
    return bool(user.is_authenticated and (user.is_superuser or user.groups.filter(name=COMMITTEE_GROUP).exists()))


def match_role(user: AbstractBaseUser | AnonymousUser, match: Match) -> str | None:
    """The user's role on this match: "scorer", "umpire" (umpires and the referee), "committee" or None."""
    if not user.is_authenticated or not user.is_active:
        return None
    if match.scorer_id == user.pk:
        return "scorer"
    if match.referee_id == user.pk or match.umpires.filter(pk=user.pk).exists():
        return "umpire"
    if is_committee(user):
        return "committee"
    return None


def can_log_event(user: AbstractBaseUser | AnonymousUser, match: Match, event_type: str | None) -> bool:
    role = match_role(user, match)
    if role is None:
        return False
    if role == "committee":
        return event_type in COMMITTEE_ONLY_EVENTS | COMMITTEE_OR_UMPIRE_EVENTS | COMMITTEE_MAY_ALSO
    if event_type in COMMITTEE_ONLY_EVENTS:
        return False
    if event_type in COMMITTEE_OR_UMPIRE_EVENTS:
        return role == "umpire"
    return True


def can_void(role: str | None, target_type: str, target_role: str | None) -> bool:
    """Who may undo what (issue 9): a void only by a role that may log its target, and never the
    committee's own decisions (suspend, resume, abandon, overtime, shootout, forfeit) by the
    scorer or the umpires. ``target_role``: the role of whoever logged the target (None for the
    clock's own horns)."""
    if role is None:
        return False
    if role == "committee":
        return True  # the committee may correct anything on the matches it runs
    if target_role == "committee" or target_type in COMMITTEE_ONLY_EVENTS:
        return False
    if target_type in COMMITTEE_OR_UMPIRE_EVENTS:
        return role == "umpire"
    return True


def is_official(user: AbstractBaseUser | AnonymousUser, match: Match) -> bool:
    """Officials of the match (and the committee) may see private notes and the officials' screens."""
    return match_role(user, match) is not None
